"""Illuminati's reaction windows in the browser: every player and the spectator see which
seats of an attack's answer window have answered and which are still to be asked (never
what they answered), as the other games' done / waiting lines do.

The game is the seeded three-player opening (illuminati_opening.json): Player 1 attacks and
says "roll", so Player 2 and then Player 3 are asked to answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect
from tests.web.conftest import People, Server
from tests.web.illuminati_helpers import act, by_seat, drive, open_game, seeded_game, sign_up

pytestmark = pytest.mark.browser

OPENING = json.loads((Path(__file__).parent / "illuminati_opening.json").read_text())


def test_everyone_sees_who_answered_the_attack_and_who_is_asked_next(
    server: Server, people: People, screenshots: Path
) -> None:
    players = [sign_up(server, f"win{i}") for i in range(3)]
    watcher = sign_up(server, "winwatch")
    gid = seeded_game(server, players, watcher, OPENING["seed"], OPENING["options"])
    seats = by_seat(players)
    for pick in OPENING["picks"]:
        owed = server.api("GET", f"/api/games/{gid}/state", players[0].token)["table"]["waiting"]
        act(server, gid, seats[owed[0]], f"take {pick}")
    drive(server, gid, players, [tuple(s) for s in OPENING["steps"][:3]])
    table = server.api("GET", f"/api/games/{gid}/state", watcher.token)["table"]
    assert table == {"waiting": [1], "done": [], "later": [2], "simultaneous": False}

    attacker = open_game(people, seats[0], gid)
    asked = open_game(people, seats[1], gid, 390, 844)
    last = open_game(people, seats[2], gid)
    spectator = open_game(people, watcher, gid)
    expect(spectator.locator("#waiting-for")).to_contain_text("Waiting for Player 2 (0 of 2 done)")
    expect(spectator.locator("#waiting-later")).to_have_text(" Still to be asked: Player 3.")
    expect(attacker.locator("#waiting-later")).to_have_text(" Still to be asked: Player 3.")
    expect(last.locator("#waiting-later")).to_have_text(" Still to be asked: you.")
    expect(asked.locator("#waiting-for")).to_contain_text("Your move")
    spectator.click("#tab-players")
    expect(spectator.locator('.turn-cell[data-seat="1"]')).to_have_text("to act")
    expect(spectator.locator('.turn-cell[data-seat="2"]')).to_have_text("to be asked")
    expect(spectator.locator('.turn-cell[data-seat="0"]')).to_have_text("")
    spectator.screenshot(path=str(screenshots / "illuminati-window-before-1366.png"))

    # Player 2 passes: everyone sees it done, Player 3 is asked now; nothing says "pass".
    act(server, gid, seats[1], "pass")
    for page in (attacker, last, spectator):
        expect(page.locator("#waiting-for")).to_contain_text("(1 of 2 done)")
        expect(page.locator("#waiting-for")).to_contain_text("Done: Player 2.")
        expect(page.locator("#waiting-later")).to_have_count(0)
    expect(spectator.locator("#waiting-for")).to_contain_text("Waiting for Player 3")
    expect(last.locator("#waiting-for")).to_contain_text("the table is waiting for you (1 of 2")
    expect(asked.locator("#waiting-for")).to_contain_text("Waiting for Player 3")
    expect(spectator.locator('.turn-cell[data-seat="1"]')).to_have_text("✓ done")
    expect(spectator.locator('.turn-cell[data-seat="2"]')).to_have_text("to act")
    assert "pass" not in (spectator.locator("#waiting-for").inner_text().lower())
    asked.screenshot(path=str(screenshots / "illuminati-window-after-390.png"))
