"""Lobby and seats: the start asks before filling empty seats with bots (the heuristic
offered first) and the seat list names each bot; a name used without a password is kept
with a recovery code or a password, and another browser is told how to reclaim it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from tests.web.conftest import People
from tests.web.pages import sign_in, unique

pytestmark = pytest.mark.browser


def test_the_start_asks_before_filling_seats_and_names_the_bots(people: People) -> None:
    host = people.page()
    sign_in(host, unique("host"))
    token = host.evaluate("localStorage.getItem('parley.token')")
    game = people.server.api(
        "POST", "/api/games", token, json={"game": "diplomacy", "name": "Bots?"}
    )
    host.goto(f"/#/game/{game['id']}")
    expect(host.locator("#start-fill")).to_have_value("heuristic")  # plays to win, not hold
    host.click("#start-game")
    dialog = host.locator("dialog")
    expect(dialog).to_contain_text("6 seats are still empty")
    expect(dialog).to_contain_text("“heuristic” bots")
    dialog.get_by_role("button", name="Cancel").click()
    expect(host.locator("#game-lobby")).to_be_visible()  # nothing started
    assert people.server.api("GET", f"/api/games/{game['id']}", token)["status"] == "lobby"
    host.select_option("#start-fill", "random")
    host.click("#start-game")
    host.click("#confirm-yes")
    expect(host.locator("#map .unit").first).to_be_visible()
    host.click("#tab-players")
    expect(host.locator(".players-tab .badge-bot")).to_have_count(6)
    expect(host.locator(".players-tab .badge-bot").first).to_have_text("bot: random")


def test_a_name_kept_with_a_recovery_code_or_a_password(people: People) -> None:
    first, second = people.page(), people.page()
    name = unique("keeper")
    sign_in(first, name)
    first.click("#keep-name")
    first.click("#keep-code")
    code_el = first.locator("#keep-code-text")
    expect(code_el).to_have_text(re.compile(r"^[A-Z2-9]{4}(-[A-Z2-9]{4}){4}$"))
    code = code_el.inner_text()
    first.click("#keep-close")

    # Another browser: the name is taken, and the page says how to reclaim it.
    second.goto("/")
    second.fill("#signin-name", name)
    second.click("#signin-submit")
    error = second.locator("#signin-error")
    expect(error).to_contain_text("already taken")
    expect(error).to_contain_text("recovery code")
    second.fill("#signin-code", code)
    second.click("#signin-submit")
    expect(second.locator("#who")).to_contain_text(name)

    # The code is spent; a password attached from a signed-in browser works anywhere.
    second.click("#keep-name")
    second.fill("#keep-password", "a long secret")
    second.click("#keep-password-save")
    expect(second.locator("#keep-note")).to_contain_text("Password saved")
    third = people.page()
    sign_in(third, name, "a long secret")
