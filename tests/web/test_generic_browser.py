"""A game without a board of its own is still playable: its observation is shown as text
and its options tree as buttons (a test page fed what the server would send)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect
from tests.kernel.toygames import Countdown
from tests.web.conftest import People
from tests.web.pages import harness_acts, mount_harness

from parley.kernel import Match, Viewer

pytestmark = pytest.mark.browser

HARNESS = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="stylesheet" href="/static/css/parley.css"></head>
<body><section class="board-area" id="board"></section><div class="toasts" id="toasts"></div>
<script type="module">
import { GenericBoard } from "/static/js/generic.js";
window.harness = {
  acts: [],
  mount(data) {
    const ctx = {
      summary: data.summary, state: data.state,
      act: async (body) => { window.harness.acts.push(body); return {}; },
    };
    const board = new GenericBoard(ctx);
    board.mountBoard(document.getElementById("board"));
    board.update("all");
  },
};
window.harnessReady = true;
</script></body></html>"""


def test_an_unknown_game_gets_buttons_for_its_options(people: People) -> None:
    rules = Countdown()
    match: Match[Any, Any] = Match(rules, 2, rules.spec.resolve_options({}), seed=1)
    seat = match.turn().owed[0].seat
    data = {
        "summary": {"title": rules.spec.title, "seats": []},
        "state": {
            "viewer": {"role": "player", "seat": seat},
            "observation": match.observe(Viewer.of(seat)),
            "can_act": True,
            "options": rules.options_tree(match.state, seat).to_json(),
        },
    }
    page = people.page()
    mount_harness(page, HARNESS, data)
    buttons = page.locator("#generic-options button.option")
    expect(buttons).to_have_text(["take 1", "take 2", "take 3"])
    expect(page.locator(".generic-view")).to_contain_text("21")
    buttons.nth(1).click()
    assert harness_acts(page) == [{"action": "take 2"}]
