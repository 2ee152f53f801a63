"""Illuminati's standing pass in the browser: a player ticks "Always pass at the start of
others' turns", the server keeps it (a reload shows it ticked), and when the next turn's
start window asks that player the pass is given at once; a spectator is offered nothing.

The game is the seeded three-player opening (illuminati_opening.json): Player 2 holds
Assassination, so it is asked at the start of every other player's turn."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect
from tests.web.conftest import People, Server
from tests.web.illuminati_helpers import (
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


def test_the_standing_pass_checkbox_answers_the_start_window(
    server: Server, people: People
) -> None:
    players = [sign_up(server, f"stand{i}") for i in range(3)]
    watcher = sign_up(server, "standwatch")
    gid = seeded_game(server, players, watcher, OPENING["seed"], OPENING["options"])
    for pick in OPENING["picks"]:
        chooser = owed_seat(server, gid, players[0])
        assert chooser is not None
        act(server, gid, by_seat(players)[chooser], f"take {pick}")
    drive(server, gid, players, [tuple(s) for s in OPENING["steps"][:-2]])
    holder = by_seat(players)[1]
    page = open_game(people, holder, gid)
    box = page.locator("#il-standing-pass")
    expect(box).to_be_visible()
    expect(box).not_to_be_checked()
    expect(page.locator("#il-standing")).to_contain_text("Always pass at the start")
    box.check()
    expect(page.locator(".toast").last).to_contain_text("pass at once")
    assert server.api("GET", f"/api/games/{gid}/standing", holder.token)["settings"][0]["on"]
    page.reload()
    expect(page.locator("#il-standing-pass")).to_be_checked()
    # Player 3 ends its turn: Player 2 is asked at the start of Player 1's, and passes at once.
    act(server, gid, by_seat(players)[2], "done")
    view = state(server, gid, players[0])["observation"]["view"]
    assert (view["phase"], view["owed"]["seat"]) == ("main", 0)
    expect(page.locator('.il-player[data-seat="0"].owed')).to_have_count(1)
    # Unticked, the seat is asked again.
    page.locator("#il-standing-pass").uncheck()
    expect(page.locator(".toast").last).to_contain_text("asked")
    assert not server.api("GET", f"/api/games/{gid}/standing", holder.token)["settings"][0]["on"]
    spectator = open_game(people, watcher, gid)
    expect(spectator.locator("#il-toolbar")).to_be_visible()
    expect(spectator.locator("#il-standing-pass")).to_have_count(0)
