"""The odds shown before an attack is announced, in the browser, against the server's numbers.

The seeded three-player opening (illuminati_opening.json) is played through the HTTP API to
Player 1's third turn. On Player 1's page, for an attack of each kind (to control an
uncontrolled group, to neutralize and to control another player's group, to destroy), the
hint shown once the target is tapped must list, attacker by attacker, exactly the numbers
of the server's `attack_odds` for that player; the other players' and the spectator's pages
show no odds. Announcing the attack then shows the same number as the attack's need.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from tests.web.conftest import People
from tests.web.illuminati_helpers import (
    Person,
    act,
    by_seat,
    drive,
    open_game,
    owed_seat,
    seeded_game,
    sign_up,
    state,
)

pytestmark = pytest.mark.browser

OPENING = json.loads((Path(__file__).parent / "illuminati_opening.json").read_text())
ODDS_TEXT = "Needed on two dice before aid and money: "


def server_rows(odds: dict[str, int], kind: str, target: str) -> set[str]:
    """The hint's rows the server's odds call for: `Attacker: N or less`."""
    out = set()
    pattern = re.compile(rf"attack {re.escape(target)} with (.+) to {kind}")
    for text, need in odds.items():
        m = pattern.fullmatch(text)
        if m:
            out.add(f"{m.group(1)}: {need} or less")
    return out


def shown_rows(page: Page) -> set[str]:
    hint = page.locator("#il-odds")
    expect(hint).to_contain_text(ODDS_TEXT)
    text = hint.inner_text().strip()
    return set(text[len(ODDS_TEXT) :].split(" · "))


def target_on(page: Page, target: str, seat: int | None) -> str:
    if seat is None:
        return f'#il-uncontrolled [data-card="{target}"]'
    return f'.il-player[data-seat="{seat}"] .il-grid [data-card="{target}"]'


def test_the_odds_shown_before_an_attack_are_the_servers(people: People) -> None:
    server = people.server
    players = [sign_up(server, f"ilo{i}-") for i in range(3)]
    watcher = sign_up(server, "ilow-")
    game_id = seeded_game(server, players, watcher, OPENING["seed"], OPENING["options"])
    for pick in OPENING["picks"]:
        chooser = owed_seat(server, game_id, players[0])
        assert chooser is not None
        act(server, game_id, by_seat(players)[chooser], f"take {pick}")
    drive(server, game_id, players, [(s, a) for s, a in OPENING["steps"]])
    seats: dict[int, Person] = by_seat(players)
    me = seats[0]
    view = state(server, game_id, me)["observation"]["view"]
    assert view["owed"]["seat"] == 0 and view["phase"] == "main"
    odds: dict[str, int] = view["attack_odds"]
    assert odds, "the server sends the odds to the player who may attack"
    for other in (seats[1], seats[2], watcher):
        assert state(server, game_id, other)["observation"]["view"]["attack_odds"] == {}

    page = open_game(people, me, game_id)
    others = [open_game(people, seats[1], game_id), open_game(people, watcher, game_id)]
    expect(page.locator("#il-turn")).to_be_visible()
    expect(page.locator("#il-status")).to_contain_text("regular actions 0/2")

    # (kind, target, the seat holding it or None when uncontrolled); chosen so that the
    # numbers differ by attacker and carry alignment, position and the +6 to neutralize.
    cases = [
        ("control", "Triliberal Commission", None),
        ("destroy", "Fiendish Fluoridators", None),
        ("neutralize", "Phone Phreaks", 1),
        ("control", "Phone Phreaks", 1),
        ("control", "Chinese Campaign Donors", None),
    ]
    for kind, target, seat in cases:
        want = server_rows(odds, kind, target)
        assert len(want) >= 2, (kind, target, want)  # both cards of Player 1 may attack
        page.click(f"#il-mode-{kind}")
        expect(page.locator("#il-hint")).to_contain_text("Tap the group")
        expect(page.locator("#il-odds")).to_have_count(0)  # no target yet, no odds
        page.click(target_on(page, target, seat))
        expect(page.locator("#il-hint")).to_contain_text(f"attacks {target}")
        assert shown_rows(page) == want, (kind, target)
        page.click("#il-cancel")
        expect(page.locator("#il-hint")).to_have_count(0)
    for other in others:
        expect(other.locator("#il-odds")).to_have_count(0)

    # Announced: the attack's need (shown to everyone) is the number the hint gave.
    kind, target = "control", "Triliberal Commission"
    attacker = "Gnomes of Zurich"
    page.click(f"#il-mode-{kind}")
    page.click(target_on(page, target, None))
    expect(page.locator("#il-odds")).to_contain_text(f"{attacker}: ")
    shown = next(r for r in shown_rows(page) if r.startswith(f"{attacker}: "))
    number = int(shown.split(": ")[1].split()[0])
    assert number == odds[f"attack {target} with {attacker} to {kind}"]
    page.click(f'.il-player[data-seat="0"] .il-grid [data-card="{attacker}"]')
    for p in (page, *others):
        expect(p.locator("#il-need")).to_have_attribute("data-need", str(number))
    announced = state(server, game_id, me)["observation"]["view"]["attack"]
    assert announced["need"] == number and announced["target"] == target
