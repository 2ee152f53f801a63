"""Move a Group's question in the browser (the seed's steps 9-14), on a real server.

A game is started from a position: Player 1's Bavarian Illuminati hold Big Media (north)
with its puppet the Pentagon (on Big Media's east arrow), The Mafia (east) and the C.I.A.
(south). Moving Big Media onto The Mafia's south arrow leaves no room for the Pentagon, so
the server asks. Player 1's table shows which group goes where and the card that would be
lost, with two buttons sending the server's own `accept`/`decline`; Player 2 sees the
question without buttons. "No" leaves everything as it was; "yes" makes the move and the
Pentagon goes to the uncontrolled groups.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.games.illuminati.helpers import build
from tests.web.conftest import People, Server
from tests.web.illuminati_helpers import Person, act, open_game, sign_up, state

from parley.games.illuminati import RULES

pytestmark = pytest.mark.browser

MOVE = "move Big Media to The Mafia south"


def position() -> dict[str, Any]:
    table = build(
        {
            "illuminati": ["Bavarian Illuminati", "Gnomes of Zurich"],
            "structure": [
                "P1: Big Media on Bavarian Illuminati north",
                "P1: Pentagon on Big Media east",
                "P1: The Mafia on Bavarian Illuminati east",
                "P1: C.I.A. on Bavarian Illuminati south",
            ],
            "money": {"Pentagon": 4, "Big Media": 3},
        }
    )
    out: dict[str, Any] = RULES.write_position(table)
    return out


def started(server: Server, players: list[Person]) -> str:
    """A game from the position, Player 1 first to join (seat 0), started."""
    host = players[0]
    game = server.api(
        "POST",
        "/api/games",
        host.token,
        json={
            "game": "illuminati",
            "name": "Move question",
            "position": position(),
            "period_seconds": 3600,
        },
    )
    game_id: str = game["id"]
    server.api("POST", f"/api/games/{game_id}/join", players[1].token, json={"role": "player"})
    server.api("POST", f"/api/games/{game_id}/start", host.token, json={})
    for p in players:
        p.seat = server.api("GET", f"/api/games/{game_id}", p.token)["you"]["seat"]
    return game_id


def structure_of(server: Server, game_id: str, person: Person) -> dict[str, Any]:
    view = state(server, game_id, person)["observation"]["view"]
    return {
        "cards": [[c["name"] for c in s["cards"]] for s in view["structures"]],
        "uncontrolled": [c["name"] for c in view["uncontrolled"]],
        "phase": view["phase"],
        "actions_used": view["actions_used"],
    }


SCROLL = "(s) => document.querySelector(s).scrollIntoView({block: 'center'})"


def shot(page: Page, selector: str, path: Path) -> None:
    """A picture of one element; the table redraws as news arrives, so the element is
    found afresh by its id and the picture is of its place on the screen."""
    box = None
    for _ in range(5):  # bounded: a redraw may fall between finding it and measuring it
        expect(page.locator(selector)).to_be_visible()
        page.evaluate(SCROLL, selector)
        box = page.locator(selector).bounding_box()
        if box is not None:
            break
    assert box is not None
    page.screenshot(path=str(path), clip=box)


def card(page: Page, seat: int, name: str) -> Any:
    return page.locator(f'.il-player[data-seat="{seat}"] .il-grid [data-card="{name}"]')


def test_the_move_question_shows_the_lost_cards_and_no_changes_nothing(
    people: People, screenshots: Path
) -> None:
    server = people.server
    players = [sign_up(server, "ilmq-a"), sign_up(server, "ilmq-b")]
    game_id = started(server, players)
    mover, other = sorted(players, key=lambda p: p.seat if p.seat is not None else 9)
    assert mover.seat == 0
    before = structure_of(server, game_id, mover)
    act(server, game_id, mover, MOVE)
    view = state(server, game_id, mover)["observation"]["view"]
    assert view["phase"] == "confirm"
    question = view["move_question"]
    assert question["lost"] == ["Pentagon"]

    page = open_game(people, mover, game_id)
    panel = page.locator("#il-move-question")
    expect(panel).to_contain_text("You: move Big Media to The Mafia south?")
    expect(panel.locator("#il-lost li")).to_have_text(question["lost"])
    expect(panel.locator("#il-move-accept")).to_have_attribute("data-action", "accept")
    expect(panel.locator("#il-move-decline")).to_have_attribute("data-action", "decline")
    expect(card(page, 0, "Pentagon")).to_have_class(re.compile(r"il-would-lose"))
    shot(page, "#il-move-question", screenshots / "illuminati-move-question-1366.png")
    page.screenshot(path=str(screenshots / "illuminati-move-question-page-1366.png"))

    watcher = open_game(people, other, game_id, 390, 844)
    seen = watcher.locator("#il-move-question")
    expect(seen).to_contain_text("Player 1")
    expect(seen).to_contain_text("move Big Media to The Mafia south?")
    expect(seen.locator("#il-lost li")).to_have_text(["Pentagon"])
    expect(seen.locator("button")).to_have_count(0)

    phone = open_game(people, mover, game_id, 390, 844)
    on_phone = phone.locator("#il-move-question")
    expect(on_phone.locator("#il-move-decline")).to_be_visible()
    shot(phone, "#il-move-question", screenshots / "illuminati-move-question-390.png")
    box = on_phone.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390

    page.click("#il-move-decline")
    expect(page.locator("#il-move-question")).to_have_count(0)
    expect(watcher.locator("#il-move-question")).to_have_count(0)
    assert structure_of(server, game_id, mover) == before  # no leaves everything as it was
    expect(card(page, 0, "Pentagon")).to_have_count(1)

    act(server, game_id, mover, MOVE)  # asked again; this time yes
    expect(page.locator("#il-move-accept")).to_be_visible()
    page.click("#il-move-accept")
    expect(page.locator("#il-move-question")).to_have_count(0)
    expect(page.locator('#il-uncontrolled [data-card="Pentagon"]')).to_have_count(1)
    after = structure_of(server, game_id, mover)
    assert "Pentagon" in after["uncontrolled"] and "Pentagon" not in after["cards"][0]
    assert after["actions_used"] == before["actions_used"] + 1
