"""The campus board given exactly what the server sends: what is drawn for a player and for
a spectator, the hidden and the revealed PVC, and the steps offered by clicking.

Positions come from real play through the rules; the board is mounted on a test page that
records what it would submit.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.web.conftest import People
from tests.web.pages import harness_acts, mount_harness

from parley.games.campus import RULES
from parley.kernel import SPECTATOR, Match, Rng, Viewer
from parley.kernel.conformance import play_random

pytestmark = pytest.mark.browser

HARNESS = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="stylesheet" href="/static/css/parley.css"></head>
<body data-view="game"><main id="app"><div class="game-layout">
<section class="board-area" id="board"></section>
</div></main><div class="toasts" id="toasts"></div>
<script type="module">
import { Renderer } from "/static/js/campus/index.js";
window.harness = {
  acts: [],
  board: null,
  async mount(data) {
    const ctx = {
      gameId: "harness", summary: data.summary, state: data.state, entries: [], you: {},
      mySeat: () => data.state.viewer.seat, seatLabel: (s) => data.summary.seats[s].name,
      act: async (body) => { window.harness.acts.push(body); return {}; },
      showTab() {}, storageKey: (what) => `harness.${what}`,
    };
    const board = new Renderer(ctx);
    window.harness.board = board;
    board.mountBoard(document.getElementById("board"));
    board.update("all");
  },
};
window.harnessReady = true;
</script></body></html>"""


def board_data(match: Match[Any, Any], seat: int | None) -> dict[str, Any]:
    viewer = SPECTATOR if seat is None else Viewer.of(seat)
    turn = match.turn()
    can_act = seat is not None and turn.can_act(seat)
    return {
        "summary": {
            "status": "active",
            "seats": [
                {"seat": i, "name": n, "player": f"player {i}"}
                for i, n in enumerate(match.seat_names())
            ],
        },
        "state": {
            "game_id": "harness",
            "status": "active",
            "viewer": {"role": "player" if seat is not None else "spectator", "seat": seat},
            "state_id": match.state_id,
            "seq": match.seq,
            "observation": match.observe(viewer),
            "can_act": can_act,
            "owes": can_act,
            "options": RULES.options_tree(match.state, seat).to_json() if can_act else None,
            "deadline": None,
        },
    }


def mounted(people: People, match: Match[Any, Any], seat: int | None) -> Page:
    page = people.page()
    mount_harness(page, HARNESS, board_data(match, seat))
    expect(page.locator("#campus-map .cc-sector")).to_have_count(30)
    return page


def test_what_a_player_and_a_spectator_see(people: People) -> None:
    match: Match[Any, Any] = Match(RULES, 4, seed=3)
    play_random(match, Rng(3), 60)
    state = match.state
    assert state.pvc >= 0 and not state.pvc_revealed
    mover = match.turn().owed[0].seat
    for seat in (mover, None):
        page = mounted(people, match, seat)
        owners = page.eval_on_selector_all(
            "#campus-map .cc-sector", "els => els.map(e => e.dataset.owner)"
        )
        assert owners == ["" if o < 0 else str(o) for o in state.owner]
        levels = page.eval_on_selector_all(
            "#campus-map .cc-unit", "els => els.map(e => [e.dataset.unitOwner, e.dataset.level])"
        )
        assert levels == [
            [str(state.unit[s]), str(state.level[s])]
            for s in range(state.board.size)
            if state.unit[s] >= 0
        ]
        expect(page.locator("#campus-map .cc-landmark")).to_have_count(8)
        expect(page.locator("#cc-pvc")).to_have_count(0)  # hidden: not drawn for anyone
        expect(page.locator("#cc-pvc-line")).to_contain_text("hidden")
        fills = page.eval_on_selector_all(
            "#campus-map .cc-ground", "els => [...new Set(els.map(e => e.getAttribute('fill')))]"
        )
        held = {o for o in state.owner if o >= 0}
        assert len(fills) == len(held) + (1 if -1 in state.owner else 0)  # one colour each
        page.close()
    # The PVC once revealed: drawn on its sector for players and spectators alike.
    state.pvc_revealed = True
    where = state.board.codes[state.pvc]
    for seat in (mover, None):
        page = mounted(people, match, seat)
        expect(page.locator("#cc-pvc")).to_have_attribute("data-code", where)
        expect(page.locator("#cc-pvc-line")).to_contain_text(f"({where})")
        page.close()


def test_click_a_unit_then_a_sector(people: People) -> None:
    match: Match[Any, Any] = Match(RULES, 2, seed=65)
    page = mounted(people, match, 0)
    tree = RULES.options_tree(match.state, 0)
    (unit,) = [c for c in tree.children if c.children]
    expect(page.locator(".cc-sector.selectable")).to_have_count(1)
    page.locator(f'.cc-sector[data-code="{unit.key}"]').click()
    targets = page.eval_on_selector_all(
        "#campus-map .cc-sector.target", "els => els.map(e => e.dataset.code)"
    )
    assert sorted(targets) == sorted(c.key for c in unit.children)
    page.locator(f'.cc-sector[data-code="{unit.children[0].key}"]').click()
    assert harness_acts(page) == [{"action": unit.children[0].action}]
    page.click("#cc-pass")
    assert harness_acts(page)[-1] == {"action": "pass"}
    steps = page.eval_on_selector_all("#cc-step-list option", "els => els.map(e => e.value)")
    assert steps == [leaf for leaf in tree.leaves() if leaf != "pass"]


def test_all_steps_stay_open_when_the_board_is_drawn_again(people: People) -> None:
    match: Match[Any, Any] = Match(RULES, 2, seed=65)
    page = mounted(people, match, 0)
    every = page.locator("#cc-all-steps")
    every.locator("summary").click()
    expect(page.locator("#cc-step-list")).to_be_visible()
    page.locator(".cc-sector.selectable").click()  # selecting a unit redraws the controls
    expect(page.locator(".cc-sector.target").first).to_be_visible()
    expect(page.locator("#cc-step-list")).to_be_visible()
