"""The lobby in the browser: signing in, unknown game ids, the manual, creating with
options, the open-games list, the host's start, and a map without drawn geometry."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.conftest import People, Server
from tests.web.pages import create_game, join_by_id, sign_in, unique

pytestmark = pytest.mark.browser


def test_a_taken_username_is_refused_with_a_clear_message(people: People) -> None:
    first, second = people.page(), people.page()
    name = unique("taken")
    sign_in(first, name)
    second.goto("/")
    second.fill("#signin-name", name.upper())  # names are unique whatever their case
    second.click("#signin-submit")
    expect(second.locator("#signin-error")).to_contain_text("already taken")
    expect(second.locator("#signin-error")).to_contain_text("choose a different one")
    second.fill("#signin-name", name + "x")
    second.click("#signin-submit")
    expect(second.locator("#who")).to_contain_text(name + "x")


def test_a_password_lets_a_player_sign_in_again(people: People) -> None:
    name = unique("pw")
    first = people.page()
    sign_in(first, name, password="correct horse")
    again = people.page()
    again.goto("/")
    again.fill("#signin-name", name)
    again.click(".signin-more summary")
    again.fill("#signin-password", "wrong password")
    again.click("#signin-submit")
    expect(again.locator("#signin-error")).to_contain_text("password does not match")
    again.fill("#signin-password", "correct horse")
    again.click("#signin-submit")
    expect(again.locator("#who")).to_contain_text(name)


def test_joining_an_unknown_game_says_so_and_stays(people: People) -> None:
    page = people.page()
    sign_in(page, unique("lost"))
    page.fill("#join-id", "no-such-game-1")
    page.click("#join-submit")
    expect(page.locator("#join-error")).to_contain_text(
        "There is no game with the id “no-such-game-1”"
    )
    assert "#/game/" not in page.url
    page.goto("/#/game/no-such-game-2")
    expect(page.locator("#game-problem")).to_contain_text("There is no game with the id")


def test_the_manual_explains_both_games_and_the_interface(people: People) -> None:
    page = people.page()
    page.goto("/")
    page.click("text=Read the manual")
    manual = page.locator("#manual")
    expect(manual.locator("#manual-diplomacy")).to_contain_text("supply centres")
    expect(manual.locator("#manual-diplomacy")).to_contain_text("Submit orders")
    expect(manual.locator("#manual-sucker")).to_contain_text("captures the pile")
    expect(manual.locator("#manual-start")).to_contain_text("spectator")
    expect(manual.locator("#manual-play")).to_contain_text("reconnects by itself")


def test_create_list_join_and_start_on_a_map_without_geometry(people: People) -> None:
    host, guest = people.page(), people.page()
    host_name, guest_name = unique("host"), unique("guest")
    sign_in(host, host_name)
    sign_in(guest, guest_name)
    title = unique("Tiny ")
    game_id = create_game(
        host, "diplomacy", title, seats=3, options={"map": "tiny"}, description="a small test"
    )
    expect(host.locator("#lobby-players-head")).to_contain_text("Players (1/3)")

    # The guest finds it among the open games and joins from the list.
    guest.reload()
    row = guest.locator(f'#open-games .game-row[data-game-id="{game_id}"]')
    expect(row).to_contain_text(title)
    expect(row).to_contain_text("a small test")
    expect(row).to_contain_text("1/3 players")
    row.get_by_role("button", name="Join").click()
    guest.wait_for_url(re.compile(re.escape(game_id)))
    expect(guest.locator("#game-lobby")).to_contain_text(f"Waiting for {host_name}")
    expect(guest.locator("#start-game")).to_have_count(0)  # only the host starts

    expect(host.locator("#lobby-players")).to_contain_text(guest_name)
    host.select_option("#start-fill", "random")
    host.click("#start-game")
    host.click("#confirm-yes")  # it asks before filling empty seats with bots
    for page in (host, guest):
        # No drawn geometry for this map: a schematic of the provinces, still clickable.
        expect(page.locator("#map.schematic")).to_be_visible()
        expect(page.locator("#map .unit").first).to_be_visible()
        expect(page.locator("#phase")).to_contain_text("2000")
    host.click("#tab-players")
    expect(host.locator(".players-tab")).to_contain_text(guest_name)
    expect(host.locator(".players-tab")).to_contain_text("bot")

    # A running public game can be watched from the list (UC 11).
    watcher = people.page()
    sign_in(watcher, unique("watcher"))
    running = watcher.locator(f'#open-games .game-row[data-game-id="{game_id}"]')
    expect(running).to_contain_text("in progress")
    running.get_by_role("button", name="Watch").click()
    expect(watcher.locator(".banner-info")).to_contain_text("spectator")
    expect(watcher.locator("#map.schematic")).to_be_visible()


def test_a_private_game_is_joined_with_its_invite_code(people: People) -> None:
    host, guest = people.page(), people.page()
    sign_in(host, unique("host"))
    sign_in(guest, unique("guest"))
    host.check("#create-private")
    game_id = create_game(host, "sucker", unique("Secret "))
    code = host.locator("#invite").inner_text()
    assert code
    guest.reload()
    expect(guest.locator(f'#open-games [data-game-id="{game_id}"]')).to_have_count(0)
    guest.goto(f"/#/game/{game_id}")
    expect(guest.locator("#game-problem")).to_contain_text("private")
    guest.fill("#problem-invite", "wrong-code")
    guest.locator("#game-problem button[type=submit]").click()
    expect(guest.locator("#game-problem .form-error")).to_contain_text("invite code")
    guest.fill("#problem-invite", code)
    guest.locator("#game-problem button[type=submit]").click()
    expect(guest.locator("#game-lobby")).to_be_visible()
    expect(host.locator("#lobby-players li", has_text=re.compile("guest"))).to_have_count(1)


def test_the_request_recorder_refuses_and_reports_outside_urls(
    browser: Any, server: Server
) -> None:
    crowd = People(browser, server)
    try:
        page = crowd.page()
        page.goto("/")
        page.evaluate("fetch('https://example.com/font.woff2').catch(() => null)")
        assert crowd.outside == ["https://example.com/font.woff2"]
        assert any(url.startswith(server.base) for url in crowd.requested)
    finally:
        crowd.close()


def test_the_hosts_choice_of_bots_outlives_a_newcomer(people: People) -> None:
    """The waiting room is drawn again when someone joins; the host's choice stays."""
    host, guest = people.page(), people.page()
    sign_in(host, unique("fillhost"))
    guest_name = unique("fillguest")
    sign_in(guest, guest_name)
    game_id = create_game(host, "sucker", unique("Fill "))
    host.select_option("#start-fill", "default")
    join_by_id(guest, game_id)
    expect(host.locator("#lobby-players")).to_contain_text(guest_name)
    expect(host.locator("#start-fill")).to_have_value("default")
