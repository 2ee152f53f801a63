"""Saved orders in the browser: parts go to the server as they are chosen, come back on a
reload and in another browser, and count at a real deadline without a ready click; the
generic board saves its choices and offers the ready toggle."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect
from tests.kernel.toygames import SealedBids
from tests.web.conftest import People
from tests.web.pages import (
    harness_acts,
    mount_harness,
    offered_orders,
    order_groups,
    same_player_elsewhere,
    sign_in,
    unique,
)

from parley.kernel import Match, Viewer

pytestmark = pytest.mark.browser

PERIOD = 20  # seconds: long enough to enter an order on a loaded machine, short to wait for


def test_orders_saved_as_chosen_survive_a_reload_and_count_at_the_deadline(
    people: People,
) -> None:
    page = people.page()
    sign_in(page, unique("saver"))
    token = page.evaluate("localStorage.getItem('parley.token')")
    server = people.server
    body = {"game": "diplomacy", "name": "Saved", "period_seconds": PERIOD, "seed": 5}
    game = server.api("POST", "/api/games", token, json=body)
    gid = game["id"]
    page.goto(f"/#/game/{gid}")
    expect(page.locator("#game-lobby")).to_be_visible()
    server.api("POST", f"/api/games/{gid}/start", token, json={"fill_with": "default"})
    expect(page.locator("#map")).to_have_attribute("data-phase", "S1901M")
    group = order_groups(page)[0]
    move = next(o for o in offered_orders(page, group) if " - " in o)
    page.select_option(f'#order-list select[data-group="{group}"]', move)
    expect(page.locator("#order-status")).to_contain_text("1 order saved")
    expect(page.locator("#submit-orders")).to_have_text("Ready")

    # Another browser of the same player (nothing in its storage) reads it from the server.
    other = same_player_elsewhere(people, page, 1366, 900)
    expect(other.locator(f'#order-list select[data-group="{group}"]')).to_have_value(move)
    other.close()
    page.reload()
    expect(page.locator(f'#order-list select[data-group="{group}"]')).to_have_value(move)

    # Nobody says ready: the deadline passes and the saved order is the one adjudicated.
    expect(page.locator("#map")).not_to_have_attribute(
        "data-phase", "S1901M", timeout=(PERIOD + 30) * 1000
    )
    seat = server.api("GET", f"/api/games/{gid}/state", token)["viewer"]["seat"]
    entries = server.api("GET", f"/api/games/{gid}/history", token)["entries"]
    mine = [e for e in entries if e["type"] == "action" and e["seat"] == seat]
    assert len(mine) == 1 and move in mine[0]["notation"] and not mine[0].get("auto"), mine


HARNESS = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="stylesheet" href="/static/css/parley.css"></head>
<body><section class="board-area" id="board"></section><div class="toasts" id="toasts"></div>
<script type="module">
import { GenericBoard } from "/static/js/generic.js";
window.harness = {
  acts: [],
  mount(data) {
    const parts = new Map(), flags = { ready: false }, key = data.state.options.key;
    const answer = () => ({
      state_id: data.state.state_id, ready: flags.ready,
      parts: [{ slot: key, label: "", action: parts.get(key) || null }],
    });
    const ctx = {
      summary: data.summary, state: data.state,
      act: async (body) => { window.harness.acts.push({ act: body }); return {}; },
      loadDraft: async () => answer(),
      saveDraft: async (body) => {
        window.harness.acts.push(body);
        for (const [k, v] of Object.entries(body.parts || {})) {
          if (v === null) parts.delete(k); else parts.set(k, v);
        }
        if (body.ready !== undefined) flags.ready = body.ready;
        return answer();
      },
    };
    const board = new GenericBoard(ctx);
    board.mountBoard(document.getElementById("board"));
    board.update("all");
  },
};
window.harnessReady = true;
</script></body></html>"""


def test_the_generic_board_saves_a_simultaneous_choice_and_toggles_ready(
    people: People,
) -> None:
    rules = SealedBids()
    match: Match[Any, Any] = Match(rules, 2, rules.spec.resolve_options({}), seed=1)
    tree = rules.options_tree(match.state, 0).to_json()
    data = {
        "summary": {"title": rules.spec.title, "seats": []},
        "state": {
            "state_id": match.state_id,
            "viewer": {"role": "player", "seat": 0},
            "observation": match.observe(Viewer.of(0)),
            "can_act": True,
            "options": tree,
        },
    }
    page = people.page()
    mount_harness(page, HARNESS, data)
    buttons = page.locator("#generic-options button.option")
    buttons.nth(1).click()
    expect(page.locator("#order-status")).to_contain_text("Saved")
    expect(buttons.nth(1)).to_have_attribute("aria-pressed", "true")
    page.click("#ready-toggle")
    expect(page.locator("#ready-toggle")).to_have_attribute("aria-pressed", "true")
    page.click("#ready-toggle")
    expect(page.locator("#ready-toggle")).to_have_attribute("aria-pressed", "false")
    second = buttons.nth(1).inner_text()
    assert harness_acts(page) == [
        {"parts": {tree["key"]: second}, "state_id": match.state_id},
        {"parts": {}, "state_id": match.state_id, "ready": True},
        {"parts": {}, "state_id": match.state_id, "ready": False},
    ]
