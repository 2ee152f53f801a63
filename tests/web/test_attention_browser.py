"""What waits, told outside the board: the tab title counts it and says when orders are
due, a warning shows on the page as the deadline nears with orders missing, and the
browser's notifications (once allowed) announce press to you, the deadline drawing near and
the new phase. Notifications are recorded by a stand-in for the browser's API."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect
from tests.web.conftest import People
from tests.web.pages import sign_in, unique

pytestmark = pytest.mark.browser

PERIOD = 24  # seconds: the warning comes a quarter period before the deadline

NOTIFICATIONS = """
window.__notes = [];
window.Notification = class {
  constructor(title, options) { window.__notes.push({ title, body: (options || {}).body }); }
  static requestPermission() {
    window.Notification.permission = "granted";
    return Promise.resolve("granted");
  }
};
window.Notification.permission = "default";
"""


def _notes(page: object) -> list[dict[str, str]]:
    return page.evaluate("window.__notes")  # type: ignore[attr-defined, no-any-return]


def test_title_warning_and_notifications(people: People) -> None:
    page = people.page()
    page.add_init_script(NOTIFICATIONS)
    sign_in(page, unique("alice"))
    token = page.evaluate("localStorage.getItem('parley.token')")
    server = people.server
    bob = httpx.post(f"{server.base}/api/users", json={"username": unique("bob")}).json()
    body = {"game": "diplomacy", "name": "Heads up", "period_seconds": PERIOD, "seed": 7}
    game = server.api("POST", "/api/games", token, json=body)
    gid = game["id"]
    server.api("POST", f"/api/games/{gid}/join", bob["token"], json={"role": "player"})
    page.goto(f"/#/game/{gid}")
    expect(page.locator("#game-lobby")).to_be_visible()
    page.click("#start-game")
    page.click("#confirm-yes")
    expect(page.locator("#map .unit").first).to_be_visible()
    page.click("#menu-button")
    page.click("#notify-allow")
    expect(page).to_have_title(re.compile(r"^\(Your move\) Parley — orders due in \d+ s$"))

    # Bob writes to Alice: counted in the title and announced.
    seat = server.api("GET", f"/api/games/{gid}/state", token)["viewer"]["seat"]
    press = {"text": "Shall we split Belgium?", "to": [seat]}
    server.api("POST", f"/api/games/{gid}/press", bob["token"], json=press)
    expect(page).to_have_title(re.compile(r"^\(Your move\) \(1\) Parley — orders due in \d+ s$"))
    page.wait_for_function("window.__notes.some(n => n.body.includes('split Belgium'))")

    # The last quarter of the period: a warning on the page and a notification.
    warning = page.locator("#deadline-warning")
    expect(warning).to_be_visible(timeout=PERIOD * 1000)
    expect(warning).to_contain_text("have no order yet")
    expect(warning).to_contain_text("not said you are ready")
    page.wait_for_function("window.__notes.some(n => n.title.includes('deadline in'))")

    # The deadline passes: a new phase owing Alice orders is announced.
    expect(page.locator("#map")).not_to_have_attribute("data-phase", "S1901M", timeout=30_000)
    page.wait_for_function("window.__notes.some(n => n.body.startsWith('Your orders are wanted'))")
    expect(warning).to_be_hidden()
    titles = [n["title"] for n in _notes(page)]
    assert sum("deadline in" in t for t in titles) == 1, titles  # once per phase


def test_notices_by_email_or_webhook_are_chosen_per_game(people: People) -> None:
    page = people.page()
    sign_in(page, unique("carol"))
    token = page.evaluate("localStorage.getItem('parley.token')")
    server = people.server
    game = server.api("POST", "/api/games", token, json={"game": "diplomacy", "name": "Mail"})
    server.api("POST", f"/api/games/{game['id']}/start", token, json={"fill_with": "random"})
    page.goto(f"/#/game/{game['id']}")
    expect(page.locator("#map .unit").first).to_be_visible()
    page.click("#menu-button")
    page.click("#menu-notices")
    expect(page.locator("#notify-note")).to_contain_text("Nothing set yet")
    page.fill("#notify-email", "carol@example.org")
    page.uncheck('input[data-event="press"]')
    page.click("#notify-save")
    # Nothing but a confirmation goes to an address until its owner confirms: the page says so.
    expect(page.locator("#notify-note")).to_contain_text(
        "Saved. A confirmation was sent to carol@example.org"
    )
    page.fill("#notify-webhook", "http://127.0.0.1:9/hook")  # the server calls no local address
    page.click("#notify-save")
    expect(page.locator("#notify-note")).to_contain_text("private or local address")
    saved = server.api("GET", f"/api/games/{game['id']}/notifications", token)
    assert saved["source"] == "game" and saved["email"] == "carol@example.org"
    assert saved["events"] == ["turn", "deadline"] and saved["webhook_url"] is None
    assert server.api("GET", "/api/me/notifications", token)["source"] == "none"
