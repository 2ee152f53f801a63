"""So Long Sucker's table tells captures and defeats, a defeated player, and the final ranks.

Positions come from seeded games played through the rules; the table gets what the
server would send, on a test page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.web.conftest import People
from tests.web.pages import mount_harness

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
      gameId: "harness", summary: data.summary, state: data.state, entries: data.entries,
      you: {}, mySeat: () => data.state.viewer.seat, seatLabel: (s) => data.summary.seats[s].name,
      act: async (body) => { window.harness.acts.push(body); return {}; },
      showTab() {}, storageKey: (what) => `harness.${what}`,
    };
    const table = new SuckerTable(ctx);
    window.table = table;
    table.mountBoard(document.getElementById("board"));
    table.update("all");
  },
};
window.harnessReady = true;
</script></body></html>"""


def played(seed: int, until: Any) -> Match[Any, Any]:
    """Four players, three chips each, random owed decisions until `until(match)`."""
    rules = find("sucker")
    match: Match[Any, Any] = Match(
        rules, ["ann", "bo", "cy", "di"], rules.spec.resolve_options({"chips": 3}), seed=seed
    )
    rng = Rng(seed)
    while not until(match):
        seat = match.turn().owed[0].seat
        owed = engine.owed_actions(match.state, seat)
        match.act(seat, owed[rng.below(len(owed))])
    return match


def open_table(people: People, match: Match[Any, Any], seat: int, size: tuple[int, int]) -> Page:
    rules = match.rules
    data = {
        "summary": {
            "status": "finished" if match.is_over else "active",
            "press": "full",
            "seats": [
                {"seat": i, "name": n, "player": match.players[i]}
                for i, n in enumerate(match.seat_names())
            ],
        },
        "state": {
            "game_id": "harness",
            "status": "active",
            "viewer": {"role": "player", "seat": seat},
            "state_id": match.state_id,
            "seq": match.seq,
            "observation": match.observe(Viewer.of(seat)),
            "can_act": not match.is_over,
            "owes": False,
            "options": rules.options_tree(match.state, seat).to_json(),
            "deadline": None,
        },
        "entries": match.history(Viewer.of(seat)),
    }
    page = people.page(*size)
    mount_harness(page, HARNESS, data)
    expect(page.locator(".player-card").first).to_be_visible()
    return page


def test_a_defeated_player_is_told_so_while_the_others_play_on(people: People) -> None:
    match = played(7, lambda m: bool(m.state.defeated))
    loser = match.state.defeated[0]
    assert not match.is_over
    colour = match.seat_names()[loser]
    page = open_table(people, match, loser, (1366, 900))
    expect(page.locator("#sls-defeated")).to_contain_text(
        f"You ({colour}) are defeated and out of the game"
    )
    expect(page.locator("#sls-events")).to_contain_text(f"{colour} is out of chips and defeated")
    expect(page.locator("#sls-ranks")).to_have_count(0)  # not over yet
    # The same events are placed under the action that caused them in the log.
    last = [e for e in match.history(Viewer.of(loser)) if e["type"] == "action"][-1]
    notes = page.evaluate("(entry) => window.table.logNotes(entry)", last)
    assert f"{colour} is out of chips and defeated" in " ".join(notes)


@pytest.mark.parametrize("size", [(1366, 900), (390, 844)])
def test_the_end_tells_every_defeat_and_the_final_ranks(
    people: People, screenshots: Path, size: tuple[int, int]
) -> None:
    # Seed 6: the last chip played defeats three players at once (found by search).
    match = played(6, lambda m: m.is_over)
    outcome = match.outcome()
    assert outcome is not None and len(match.state.defeated) == 3
    loser = match.state.defeated[-1]
    colour = match.seat_names()[loser]
    page = open_table(people, match, loser, size)
    events = page.locator("#sls-events")
    for seat in match.state.defeated:
        expect(events).to_contain_text(f"{match.seat_names()[seat]} is out of chips and defeated")
    expect(page.locator("#sls-defeated")).to_contain_text(f"You ({colour}) were defeated")
    ranks = page.locator("#sls-ranks li")
    expect(ranks).to_have_count(4)
    order = sorted(range(4), key=lambda s: (outcome.ranks[s], s))
    for i, seat in enumerate(order):
        expect(ranks.nth(i)).to_have_attribute("data-colour", match.seat_names()[seat].lower())
        expect(ranks.nth(i)).to_contain_text(f"{outcome.ranks[seat]}.")
    expect(ranks.nth(0)).to_contain_text("winner")
    width, height = size
    page.screenshot(path=str(screenshots / f"sucker-defeat-{width}x{height}.png"), full_page=True)
