"""Planet Control's undo in the browser: a fleet moved into the activated system is taken
back from the page ("Undo it"), the ships are home again and the player moves again; once
the step has ended nothing is offered. The compact rules keep the steps fixed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.conftest import People, Server
from tests.web.illuminati_helpers import act, by_seat, sign_up, state
from tests.web.test_confirm_undo_browser import _leaves, asking_page
from tests.web.test_planets_browser import click

pytestmark = pytest.mark.browser


def test_a_move_is_taken_back_from_the_page(
    server: Server, people: People, screenshots: Path
) -> None:
    players = [sign_up(server, f"pcu{i}") for i in range(3)]
    body = {
        "game": "planets",
        "name": "Undo a move",
        "seats": 3,
        "seed": 2,
        "period_seconds": 3600,
        "options": {"rules": "compact"},
    }
    gid = server.api("POST", "/api/games", players[0].token, json=body)["id"]
    for p in players[1:]:
        server.api("POST", f"/api/games/{gid}/join", p.token, json={"role": "player"})
    server.api("POST", f"/api/games/{gid}/start", players[0].token, json={})
    for p in players:
        p.seat = server.api("GET", f"/api/games/{gid}", p.token)["you"]["seat"]
    seats = by_seat(players)
    mover = next(p for p in players if state(server, gid, p)["owes"])
    # An activation some fleet can reach; one that none can is taken back over the API.
    moves: list[str] = []
    for leaf in _leaves(state(server, gid, mover)["options"]):
        if not leaf["action"].startswith("activate "):
            continue
        act(server, gid, mover, leaf["action"])
        st = state(server, gid, mover)
        assert st["can_undo"]
        moves = [x["action"] for x in _leaves(st["options"]) if x["action"].startswith("move ")]
        if moves:
            break
        server.api("POST", f"/api/games/{gid}/undo", mover.token)
    assert moves, "no activation let a fleet move"
    before: dict[str, Any] = state(server, gid, mover)
    page = asking_page(people, mover, gid)
    expect(page.locator("#board")).to_have_attribute("data-state-id", str(before["state_id"]))
    expect(page.locator("#undo-button")).to_be_visible()  # the activation may be taken back
    click(page, moves[0])
    expect(page.locator("#pc-log")).to_contain_text(moves[0].split(" ", 1)[1])
    moved = state(server, gid, mover)
    assert moved["can_undo"]
    assert moved["observation"]["view"] != before["observation"]["view"]
    expect(page.locator("#undo-button")).to_be_visible()
    page.screenshot(path=str(screenshots / "planets-undo-move-1366.png"))
    page.click("#undo-button")
    expect(page.locator(".toast").last).to_contain_text("taken back")
    back = state(server, gid, mover)
    assert back["observation"]["view"] == before["observation"]["view"]  # the ships are home
    assert back["owes"] and not back["can_undo"]  # once: the activation stays
    expect(page.locator("#undo-button")).to_be_hidden()
    expect(page.locator(f'#pc-controls [data-action="{moves[0]}"]')).to_have_count(1)
    # Others see nothing to take back, and the record keeps the move and its takeback.
    other = next(seats[s] for s in seats if s != mover.seat)
    assert not state(server, gid, other)["can_undo"]
    entries = server.api("GET", f"/api/games/{gid}/history", other.token)["entries"]
    assert entries[-1]["type"] == "takeback" and entries[-2]["notation"] == moves[0]
