"""The Illuminati table in the browser: three players and a spectator on a seeded game.

The game is created over the HTTP API with a fixed seed (illuminati_opening.json); the
browsers choose the Illuminati by tapping, the first two rounds are played through the API,
then the browsers take over: an attack to control with aid and money, an interference by
the third player, a special card played in the reaction window, the placement of the
captured group, and the win when the round limit ends the game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.web.conftest import People, Server
from tests.web.illuminati_helpers import (
    FRAMES,
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
from tests.web.pages import settle

pytestmark = pytest.mark.browser

OPENING = json.loads((Path(__file__).parent / "illuminati_opening.json").read_text())
TARGET = "Triliberal Commission"


def need_on(page: Page, value: int) -> None:
    expect(page.locator("#il-need")).to_have_attribute("data-need", str(value))


def choose_by_tapping(
    server: Server,
    game_id: str,
    players: list[Person],
    pages: dict[int, Page],
    spectator: Page,
    screenshots: Path,
) -> None:
    for pick in OPENING["picks"]:
        chooser = owed_seat(server, game_id, players[0])
        assert chooser is not None
        page = pages[chooser]
        card = page.locator(f'#il-choose [data-card="{pick}"]')
        expect(card).to_be_visible()
        for seat, other in pages.items():
            if seat != chooser:
                expect(other.locator("#il-choose")).to_have_count(0)
                expect(other.locator("#il-status")).to_contain_text("is choosing")
        expect(spectator.locator("#il-status")).to_contain_text("is choosing")
        if pick == OPENING["picks"][0]:
            settle(page)
            page.screenshot(path=str(screenshots / "illuminati-choose-1366x900.png"))
        card.click()
        for other in [*pages.values(), spectator]:
            expect(
                other.locator(f'.il-player[data-seat="{chooser}"] .il-grid [data-card="{pick}"]')
            ).to_have_count(1)


def finish_by_api(server: Server, game_id: str, players: list[Person]) -> None:
    """The rest of the last round: everyone ends the turn as soon as they may."""
    seats = by_seat(players)
    for _ in range(50):
        seat = owed_seat(server, game_id, players[0])
        if seat is None:
            return
        person = seats[seat]
        leaves = _leaves(state(server, game_id, person)["options"])
        for choice in ("done", "pass", "keep face down"):
            if choice in leaves:
                act(server, game_id, person, choice)
                break
        else:
            act(server, game_id, person, leaves[0])
    raise AssertionError("the game did not end")


def _leaves(node: dict[str, Any] | None) -> list[str]:
    if not node:
        return []
    if isinstance(node.get("action"), str):
        return [node["action"]]
    return [leaf for child in node.get("children") or [] for leaf in _leaves(child)]


def test_a_game_of_illuminati_at_the_table(people: People, screenshots: Path) -> None:
    server = people.server
    players = [sign_up(server, f"il{i}-") for i in range(3)]
    watcher = sign_up(server, "ilw-")
    game_id = seeded_game(server, players, watcher, OPENING["seed"], OPENING["options"])
    pages = {p.seat: open_game(people, p, game_id) for p in players if p.seat is not None}
    spectator = open_game(people, watcher, game_id)
    everyone = [*pages.values(), spectator]
    seats = by_seat(players)

    # Choosing the Illuminati, by tapping; then two rounds through the API.
    choose_by_tapping(server, game_id, players, pages, spectator, screenshots)
    drive(server, game_id, players, [(s, a) for s, a in OPENING["steps"]])
    p1, p2, p3 = pages[0], pages[1], pages[2]
    expect(p1.locator("#il-turn")).to_be_visible()
    for page in everyone:
        expect(page.locator("#il-status")).to_contain_text("regular actions 0/2")
        expect(page.locator("#il-status")).to_contain_text("Round 3 of 3")

    # Hidden information: Player 2's face-down Assassination reaches only Player 2.
    for person in [seats[0], seats[2], watcher]:
        assert "Assassination" not in json.dumps(state(server, game_id, person))
    assert "Assassination" in json.dumps(state(server, game_id, seats[1]))
    for person in [seats[0], seats[2], watcher]:
        assert FRAMES[person.name], "no live message was recorded"
        assert not any("Assassination" in frame for frame in FRAMES[person.name])
    expect(
        p2.locator('.il-player[data-seat="1"] .il-special[data-special="Assassination"]')
    ).to_contain_text("face down")
    for page in (p1, p3, spectator):
        expect(page.locator('.il-player[data-seat="1"] .il-hand .il-back')).to_have_count(1)
        expect(page.locator("body")).not_to_contain_text("Assassination")

    # The attack to control: type, target, attacker; then aid and money, then announce.
    p1.click("#il-mode-control")
    expect(p1.locator("#il-hint")).to_contain_text("Tap the group")
    target = p1.locator(f'#il-uncontrolled [data-card="{TARGET}"]')
    expect(target).to_have_class(lambda_has("il-target"))
    target.click()
    expect(p1.locator("#il-hint")).to_contain_text(f"attacks {TARGET}")
    p1.locator('.il-player[data-seat="0"] .il-grid [data-card="Gnomes of Zurich"]').click()
    for page in everyone:
        expect(page.locator("#il-attack-box")).to_contain_text(
            f"Gnomes of Zurich attacks {TARGET} (uncontrolled) to control"
        )
    aid = p1.locator('.il-player[data-seat="0"] .il-grid [data-card="Madison Avenue"]')
    expect(aid).to_have_class(lambda_has("il-target"))
    before = int(p1.locator("#il-need").get_attribute("data-need") or "0")
    aid.click()
    for page in everyone:
        need_on(page, 4)
        expect(page.locator('.il-grid [data-card="Madison Avenue"]')).to_have_class(
            lambda_has("il-aiding")
        )
    assert before < 4
    p1.fill("#il-spend-amount", "5")
    p1.click("#il-spend")
    for page in everyone:
        need_on(page, 9)
        expect(page.locator('#il-attack-box [data-term="money"]')).to_contain_text("+5")
    p1.click("#il-roll-button")

    # The window: Player 2 passes, Player 3 interferes against the attack, then passes.
    expect(p2.locator("#il-react #il-pass")).to_be_visible()
    for page in (p1, p3, spectator):
        expect(page.locator('#il-answers [data-seat="1"]')).to_contain_text("to answer now")
        expect(page.locator("#il-react")).to_have_count(0)
    expect(spectator.locator("#il-countdown")).to_contain_text("left to answer")
    p2.click("#il-pass")
    expect(p3.locator("#il-react")).to_be_visible()
    for page in everyone:
        expect(page.locator('#il-answers [data-seat="1"]')).to_contain_text("passed")
    phone3 = open_game(people, seats[2], game_id, 390, 844)
    expect(phone3.locator("#il-react #il-interfere")).to_be_visible()
    settle(phone3)
    phone3.screenshot(path=str(screenshots / "illuminati-react-390x844.png"), full_page=True)
    assert phone3.evaluate("document.documentElement.scrollWidth") <= 390
    phone3.close()
    p3.fill("#il-interfere-amount", "2")
    p3.select_option("#il-interfere-side", "against")
    p3.click("#il-interfere")
    for page in everyone:
        need_on(page, 7)
        expect(page.locator('#il-answers [data-seat="2"]')).to_contain_text(
            "interfered against the attack with 2 MB"
        )
    settle(spectator)
    spectator.evaluate("window.scrollTo(0, 0)")
    spectator.screenshot(path=str(screenshots / "illuminati-attack-1366x900.png"))
    p3.click("#il-pass")

    # Announced again; the dice fail it, and Player 2's Assassination turns the roll to 2.
    expect(p1.locator("#il-roll-button")).to_be_visible()
    p1.click("#il-roll-button")
    for page in everyone:
        expect(page.locator("#il-roll")).to_contain_text("The dice show 3 + 6 = 9")
    play = p2.locator('#il-plays button:has-text("Play Assassination")')
    expect(play).to_be_visible()
    play.click()
    for page in everyone:
        expect(page.locator("#il-roll")).to_contain_text("Assassination turned the roll to 2")
    expect(p2.locator("#il-pass")).to_be_visible()
    p2.click("#il-pass")

    # The capture: the attacker chooses a free arrow for the group; the others wait.
    dialog = p1.locator("#il-place-dialog")
    expect(dialog).to_contain_text(f"{TARGET} needs a place")
    expect(p1.locator("button.il-arrow.target")).to_have_count(3)
    expect(dialog.locator(".il-place-option")).to_have_count(3)
    expect(dialog.locator("#il-release")).to_be_visible()
    for page in (p2, p3, spectator):
        expect(page.locator("#il-place-dialog")).to_have_count(0)
        expect(page.locator("#il-status")).to_contain_text("place the group")
    for page in everyone:
        expect(page.locator("#il-result")).to_contain_text(
            f"Assassination turned the roll to 2: Player 1 takes control of {TARGET}"
        )
    settle(p1)
    p1.evaluate("window.scrollTo(0, 0)")
    p1.screenshot(path=str(screenshots / "illuminati-1366x900.png"))
    phone = open_game(people, seats[0], game_id, 390, 844)
    expect(phone.locator("#il-place-dialog")).to_be_visible()
    expect(phone.locator("#il-result")).to_contain_text("then Player 2 plays Assassination")
    settle(phone)
    phone.screenshot(path=str(screenshots / "illuminati-390x844.png"), full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    p1.click('button.il-arrow.target[data-host="Gnomes of Zurich"][data-direction="east"]')
    for page in everyone:
        grid = page.locator('.il-player[data-seat="0"] .il-grid')
        expect(grid.locator(f'[data-card="{TARGET}"]')).to_have_attribute(
            "data-master", "Gnomes of Zurich"
        )
        expect(page.locator('.il-player[data-seat="0"] .il-count')).to_have_attribute(
            "data-groups", "2"
        )

    # The rest of the round through the API; the round limit ends the game.
    finish_by_api(server, game_id, players)
    expect(p1.locator("#il-winner")).to_contain_text("You win")
    for page in (p2, p3, spectator):
        expect(page.locator("#il-winner")).to_contain_text("Player 1")
        expect(page.locator("#il-winner")).to_contain_text("wins")
    for page in everyone:
        expect(page.locator("#game-over")).to_be_visible()


def lambda_has(cls: str) -> Any:
    import re

    return re.compile(rf"(^|\s){re.escape(cls)}(\s|$)")
