"""A message's time comes from the server: it is shown, in the reader's own time zone, also
for messages loaded with the history after the page is reloaded."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect
from tests.web.conftest import People
from tests.web.pages import sign_in, unique

pytestmark = pytest.mark.browser


def test_a_reloaded_message_shows_its_time_in_local_time(people: People) -> None:
    page = people.page(1366, 900, timezone_id="Asia/Tokyo", locale="en-GB")
    sign_in(page, unique("clock"))
    token = page.evaluate("localStorage.getItem('parley.token')")
    server = people.server
    game = server.api(
        "POST",
        "/api/games",
        token,
        json={"game": "diplomacy", "name": "Times", "period_seconds": 86400, "seed": 3},
    )
    server.api("POST", f"/api/games/{game['id']}/start", token, json={"fill_with": "default"})
    page.goto(f"/#/game/{game['id']}")
    page.click("#tab-chat")
    page.fill("#chat-input", "Hello from Tokyo")
    page.keyboard.press("Enter")
    expect(page.locator("#messages .message")).to_have_count(1)

    sent = [
        e
        for e in server.api("GET", f"/api/games/{game['id']}/history", token)["entries"]
        if e["type"] == "press"
    ]
    assert len(sent) == 1 and sent[0]["at"].endswith("Z")
    at = datetime.fromisoformat(sent[0]["at"].replace("Z", "+00:00"))
    local = at.astimezone(ZoneInfo("Asia/Tokyo"))
    shown = f"Spring 1901 · Movement · {local:%H:%M}"
    if local.date() != datetime.now(ZoneInfo("Asia/Tokyo")).date():  # the test ran at midnight
        shown = f"Spring 1901 · Movement · {local.day} {local:%b} {local:%H:%M}"

    page.reload()  # now the message comes from the history, not from this page's sending
    page.click("#tab-chat")
    meta = page.locator("#messages .message .message-meta")
    expect(meta).to_have_text(shown)
    stamp = meta.get_attribute("datetime") or ""
    assert datetime.fromisoformat(stamp.replace("Z", "+00:00")) == at.replace(
        microsecond=at.microsecond // 1000 * 1000
    )
