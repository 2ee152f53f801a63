"""Negotiation rounds on the game page: that a round is open, when it closes and how long is
left, the messages a player has left in it, and the orders once the rounds are over."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect
from tests.web.conftest import People
from tests.web.pages import settle, sign_in, unique

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", [(1366, 900), (390, 844)], ids=["desktop", "phone"])
def test_a_round_created_in_the_lobby_is_shown_with_its_end_and_quota(
    people: People, screenshots: Path, size: tuple[int, int]
) -> None:
    page = people.page(*size, timezone_id="America/New_York", locale="en-GB")
    sign_in(page, unique("talker"))
    page.select_option("#create-type", "diplomacy")
    page.fill("#create-name", "Talks first")
    page.select_option("#create-period", "3600")
    page.select_option("#create-negotiation", "1,3,300")
    page.select_option("#create-fill", "heuristic")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r"#/game/"))
    gid = page.url.split("#/game/")[1]
    token = page.evaluate("localStorage.getItem('parley.token')")
    game = people.server.api("GET", f"/api/games/{gid}", token)
    assert game["negotiation"]["round"] == 1

    banner = page.locator("#negotiation")
    expect(banner).to_be_visible()
    due = datetime.fromisoformat(game["deadline"]["at_iso"].replace("Z", "+00:00"))
    closes = due.astimezone(ZoneInfo("America/New_York"))
    expect(banner).to_contain_text(
        "Negotiation round 1 of 1 is open: messages only, orders open after round 1."
    )
    # The minute may turn between the server's answer and the page's drawing.
    minutes = {f"{closes:%H:%M}", f"{closes.replace(second=0):%H:%M}"}
    text = page.locator("#negotiation-text").inner_text()
    found = re.search(r"This round closes at (\d\d:\d\d) \(in (\d) min (\d\d) s\)", text)
    assert found is not None, text
    assert found.group(1) in minutes and found.group(2) in {"4", "5"}, text
    expect(banner).to_contain_text("You may send 3 more messages in it (of 3).")
    expect(page.locator("#clock")).to_have_attribute(
        "title", "time left in negotiation round 1 of 1"
    )
    expect(page).to_have_title(re.compile(r"Parley — negotiation round 1 of 1 ends in \d+ min"))
    expect(page.locator("#orders-panel")).to_contain_text(
        "Negotiation round 1 of 1 is on: orders open after round 1."
    )

    settle(page)
    page.screenshot(path=str(screenshots / f"negotiation-round-{size[0]}x{size[1]}.png"))

    page.click("#negotiation-chat")
    expect(page.locator(".chat-note")).to_contain_text("Round 1 of 1: 3 of your 3 messages left.")
    page.fill("#chat-input", "Shall we talk?")
    page.keyboard.press("Enter")
    # The server's count, sent back with the state after the message.
    expect(banner).to_contain_text("You may send 2 more messages in it (of 3).")
    expect(page.locator(".chat-note")).to_contain_text("Round 1 of 1: 2 of your 3 messages left.")
    page.click("#tab-players")
    expect(page.locator(".players-tab")).to_contain_text(
        "negotiation: 1 round of 5 min, 3 messages each"
    )
    turns = page.locator("table.players tbody td:nth-child(4)").all_inner_texts()
    assert turns == ["talking"] * 7, turns


def test_the_rounds_close_and_the_orders_open(people: People) -> None:
    page = people.page()
    sign_in(page, unique("closer"))
    token = page.evaluate("localStorage.getItem('parley.token')")
    server = people.server
    game = server.api(
        "POST",
        "/api/games",
        token,
        json={
            "game": "diplomacy",
            "name": "Short talks",
            "period_seconds": 3600,
            "seed": 5,
            "negotiation": {"rounds": 2, "messages": 1, "seconds": 2},
        },
    )
    page.goto(f"/#/game/{game['id']}")
    expect(page.locator("#game-lobby")).to_contain_text(
        "negotiation: 2 rounds of 2 s, 1 message each"
    )
    server.api("POST", f"/api/games/{game['id']}/start", token, json={"fill_with": "heuristic"})
    banner = page.locator("#negotiation")
    # Each state the server passes through is drawn: round 1, round 2, then the orders.
    expect(banner).to_contain_text("Negotiation round 2 of 2 is open", timeout=30_000)
    expect(banner).to_be_hidden(timeout=30_000)
    expect(page.locator("#order-list li").first).to_be_visible()
    expect(page.locator("#clock")).to_have_attribute(
        "title", re.compile("time left before the deadline")
    )
    history = server.api("GET", f"/api/games/{game['id']}/history", token)["entries"]
    notes = [e["text"] for e in history if e.get("channel") == "rounds"]
    assert notes[-1] == "Negotiation is over: actions are open."
