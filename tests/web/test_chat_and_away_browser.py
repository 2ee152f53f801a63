"""Chat messages with their phase and time, a selected channel readable under the mouse, and
"while you were away" only for a player who was away."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.web.conftest import People
from tests.web.pages import mount_harness, same_player_elsewhere, sign_in, unique

from parley.games import find
from parley.kernel import Match, Viewer

pytestmark = pytest.mark.browser

HARNESS = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="stylesheet" href="/static/css/parley.css"></head>
<body data-view="game"><main id="app"><div class="game-layout">
<section class="board-area" id="board"></section>
<aside class="side"><div class="tab-body" id="tabs"></div></aside>
</div></main><div class="toasts" id="toasts"></div>
<script type="module">
import { DiplomacyBoard } from "/static/js/diplomacy/board.js";
import { ChatPanel } from "/static/js/chat.js";
window.harness = {
  acts: [],
  async mount(data) {
    const ctx = {
      gameId: "harness", summary: data.summary, state: data.state, entries: data.entries,
      you: {}, mySeat: () => data.state.viewer.seat, seatLabel: (s) => data.summary.seats[s].name,
      act: async (body) => { window.harness.acts.push(body); return {}; },
      showTab() {}, storageKey: (what) => `harness.${what}`,
      phaseAt: (seq) => board.phaseAt(seq),
    };
    const board = window.board = new DiplomacyBoard(ctx);
    board.mountBoard(document.getElementById("board"));
    await board.update("all");
    board.steps = data.steps;
    const chat = window.chat = new ChatPanel(ctx);
    document.getElementById("tabs").append(chat.element());
    chat.shown();
  },
};
window.harnessReady = true;
</script></body></html>"""


def test_messages_carry_their_phase_and_time(people: People, screenshots: Path) -> None:
    rules = find("diplomacy")
    match: Match[Any, Any] = Match(rules, 7, rules.spec.resolve_options({}), seed=1)
    match.say(2, "Spring greetings from Paris")  # seq 0, in Spring 1901
    for seat in range(7):
        match.act(seat, "NO ORDERS")
    fall_begins = match.seq
    match.say(2, "Autumn already")  # in Fall 1901
    entries = match.history(Viewer.of(2))
    entries[-1]["received"] = 1_700_000_000_000  # arrived while the page was open
    seat = 2
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
        "entries": entries,
        "steps": [{"state_id": 0, "seq": 0}, {"state_id": match.state_id, "seq": fall_begins}],
    }
    page = people.page()
    mount_harness(page, HARNESS, data)
    # The chat is drawn again with the steps known (as after the server answered).
    page.evaluate("() => window.chat.update()")
    messages = page.locator("#messages .message")
    expect(messages).to_have_count(2)
    expect(messages.nth(0).locator(".message-meta")).to_have_text("Spring 1901 · Movement")
    expect(messages.nth(1).locator(".message-meta")).to_contain_text("Fall 1901 · Movement · ")
    expect(messages.nth(1).locator(".message-meta")).to_have_text(
        re.compile(r"Fall 1901 · Movement · (\w+ \w+ )?\d{1,2}[:.]\d{2}")  # day: not today
    )

    # The selected channel under the mouse keeps its light text on its dark background.
    active = page.locator("#channels .channel.active")
    active.hover()
    colours = active.evaluate(
        "el => { const c = getComputedStyle(el); return [c.color, c.backgroundColor]; }"
    )
    text, background = (tuple(int(v) for v in re.findall(r"\d+", c)[:3]) for c in colours)
    assert contrast(text, background) >= 4.5, colours
    page.locator("aside.side").screenshot(path=str(screenshots / "chat-phase-time.png"))


def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    def lum(c: tuple[int, ...]) -> float:
        lin = [
            (v / 255) / 12.92 if v / 255 <= 0.04045 else ((v / 255 + 0.055) / 1.055) ** 2.4
            for v in c
        ]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_a_deadline_missed_on_the_page_is_not_called_being_away(people: People) -> None:
    page = people.page()
    sign_in(page, unique("present"))
    token = page.evaluate("localStorage.getItem('parley.token')")
    server = people.server
    game = server.api(
        "POST",
        "/api/games",
        token,
        json={
            "game": "diplomacy",
            "name": "Quick",
            "period_seconds": 2,
            "disorder_after": 1000,
            "seed": 3,
        },
    )
    # On the page before the game starts, so no deadline can pass before it is open.
    page.goto(f"/#/game/{game['id']}")
    expect(page.locator("#game-lobby")).to_be_visible()
    server.api("POST", f"/api/games/{game['id']}/start", token, json={"fill_with": "default"})
    expect(page.locator("#map .unit").first).to_be_visible()
    # The player stays on the page and lets a deadline pass (the server's clock, two seconds).
    banner = page.locator("#back-banner")
    expect(banner).to_be_visible(timeout=30_000)
    expect(banner).to_contain_text("The deadline passed before you acted")
    expect(banner).not_to_contain_text("While you were away")
    # Opened afterwards, elsewhere: those deadlines were missed while away from that page.
    other: Page = same_player_elsewhere(people, page, 1366, 900)
    expect(other.locator("#back-banner")).to_contain_text(
        re.compile(r"While you were away, you missed \d+ deadlines?")
    )
