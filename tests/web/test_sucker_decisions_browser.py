"""The So Long Sucker table's rarer decisions: a rescue request and prisoners given away.

The position comes from a seeded game played through the rules; the table is given what
the server would send, on a test page that records what it would submit.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.web.conftest import People
from tests.web.pages import harness_acts, mount_harness

from parley.games import find
from parley.games.sucker import engine
from parley.kernel import Match, Rng, Viewer

pytestmark = pytest.mark.browser

HARNESS = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="stylesheet" href="/static/css/parley.css"></head>
<body data-view="game"><main id="app"><section class="board-area" id="board"></section></main>
<div class="toasts" id="toasts"></div>
<script type="module">
import { SuckerTable } from "/static/js/sucker/table.js";
window.harness = {
  acts: [],
  async mount(data) {
    const ctx = {
      gameId: "harness", summary: data.summary, state: data.state, entries: [], you: {},
      mySeat: () => data.state.viewer.seat, seatLabel: (s) => data.summary.seats[s].name,
      act: async (body) => { window.harness.acts.push(body); return {}; },
      showTab() {}, storageKey: (what) => `harness.${what}`,
    };
    const table = new SuckerTable(ctx);
    table.mountBoard(document.getElementById("board"));
    table.update("all");
  },
};
window.harnessReady = true;
</script></body></html>"""


def rescue_position() -> Match[Any, Any]:
    """Seed 10: after 18 table decisions, blue is asked to rescue green (found by search)."""
    rules = find("sucker")
    match: Match[Any, Any] = Match(rules, 3, rules.spec.resolve_options({"chips": 3}), seed=10)
    rng = Rng(10)
    for _ in range(18):
        seat = match.turn().owed[0].seat
        owed = engine.owed_actions(match.state, seat)
        match.act(seat, owed[rng.below(len(owed))])
    assert match.state.phase.value == "rescue"
    return match


def open_table(people: People, match: Match[Any, Any], seat: int) -> Page:
    rules = match.rules
    data = {
        "summary": {
            "status": "active",
            "press": "full",
            "seats": [
                {"seat": i, "name": n, "player": f"p{i}"} for i, n in enumerate(match.seat_names())
            ],
        },
        "state": {
            "game_id": "harness",
            "status": "active",
            "viewer": {"role": "player", "seat": seat},
            "state_id": match.state_id,
            "seq": match.seq,
            "observation": match.observe(Viewer.of(seat)),
            "can_act": True,
            "owes": True,
            "options": rules.options_tree(match.state, seat).to_json(),
            "deadline": None,
        },
    }
    page = people.page()
    mount_harness(page, HARNESS, data)
    expect(page.locator(".player-card").first).to_be_visible()
    return page


def test_a_rescue_is_answered_from_the_table(people: People) -> None:
    match = rescue_position()
    asked = match.turn().owed[0].seat
    view = match.observe(Viewer.of(asked))["view"]
    page = open_table(people, match, asked)
    target = view["rescue"]["target"]
    expect(page.locator("#sls-status")).to_contain_text(f"{target.capitalize()}")
    expect(page.locator("#sls-status")).to_contain_text("asked to rescue")
    row = page.locator("#rescue-row")
    leaves = match.rules.options_tree(match.state, asked).leaves()
    rescues = [t for t in leaves if t.startswith("rescue ")]
    assert rescues and "decline" in leaves
    expect(row.locator("button")).to_have_count(len(rescues) + 1)
    row.get_by_role("button", name=rescues[0]).click()
    row.get_by_role("button", name="Decline").click()
    assert harness_acts(page) == [{"action": rescues[0]}, {"action": "decline"}]


def test_prisoners_are_killed_or_given_from_the_table(people: People) -> None:
    match = rescue_position()
    holder = next(s for s in range(3) if match.state.prisoners(s))
    page = open_table(people, match, holder)
    leaves = match.rules.options_tree(match.state, holder).leaves()
    gives = [t for t in leaves if t.startswith("give ")]
    kills = [t for t in leaves if t.startswith("kill prisoner ")]
    assert gives and kills
    page.click("#prisoner-row summary")
    page.locator(f'#prisoner-row [data-action="{gives[0]}"]').click()
    page.locator(f'#prisoner-row [data-action="{kills[0]}"]').click()
    assert harness_acts(page) == [{"action": gives[0]}, {"action": kills[0]}]
    card = page.locator(".player-card.me .count-chip.prisoner")
    expect(card.first).to_be_visible()
