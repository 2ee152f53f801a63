"""Live updates in the browser: a lost connection is shown, the page reconnects by itself
and catches up from the last entry it had; draws, leaving and closing end games visibly."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect
from tests.web.conftest import People, Server
from tests.web.pages import create_game, join_by_id, sign_in, unique

pytestmark = pytest.mark.browser


def two_player_game(
    alice: Page, bob: Page, game: str = "diplomacy", seats: int | None = None
) -> str:
    sign_in(alice, unique("alice"))
    sign_in(bob, unique("bob"))
    game_id = create_game(alice, game, unique("Live "), seats=seats)
    join_by_id(bob, game_id)
    expect(alice.locator("#lobby-players")).to_contain_text("bob")
    if seats != 2:
        alice.select_option("#start-fill", "random")
    alice.click("#start-game")
    if seats != 2:
        alice.click("#confirm-yes")  # it asks before filling empty seats with bots
    for page in (alice, bob):
        expect(page.locator("#conn")).to_contain_text("live")
        expect(page.locator("#tab-chat")).to_be_visible()
    return game_id


def say(page: Page, text: str) -> None:
    page.click("#tab-chat")
    page.fill("#chat-input", text)
    page.click("#chat-send")
    expect(page.locator("#messages")).to_contain_text(text)


def test_offline_is_shown_and_the_page_catches_up_by_itself(people: People) -> None:
    alice, bob = people.page(), people.page()
    two_player_game(alice, bob)
    alice.click("#tab-chat")
    alice.context.set_offline(True)
    expect(alice.locator("#conn")).to_contain_text("connection lost")
    expect(alice.locator(".offline-banner")).to_be_visible()
    say(bob, "Did you see my offer?")
    alice.context.set_offline(False)
    expect(alice.locator("#conn")).to_contain_text("live")
    expect(alice.locator(".offline-banner")).to_be_hidden()
    expect(alice.locator("#messages")).to_contain_text("Did you see my offer?")


def test_a_server_restart_is_survived_without_reloading(
    own_server: Server, people_on: Callable[[Server], People]
) -> None:
    crowd = people_on(own_server)
    alice, bob = crowd.page(), crowd.page()
    two_player_game(alice, bob, "sucker")
    alice.click("#tab-chat")
    navigations: list[str] = []
    alice.on("framenavigated", lambda frame: navigations.append(frame.url))
    own_server.stop()
    expect(alice.locator("#conn")).to_contain_text("connection lost")
    expect(alice.locator(".offline-banner")).to_be_visible()
    own_server.start()
    expect(alice.locator("#conn")).to_contain_text("live", timeout=40_000)
    expect(alice.locator(".offline-banner")).to_be_hidden()
    expect(bob.locator("#conn")).to_contain_text("live", timeout=40_000)
    say(bob, "Back online.")
    expect(alice.locator("#messages")).to_contain_text("Back online.")
    assert navigations == [], "the page reloaded"


def menu(page: Page, item: str) -> None:
    page.click("#menu-button")
    page.click(item)


def test_a_draw_is_proposed_and_accepted(people: People) -> None:
    # Two people and no bots: a bot judges a draw by the position and refuses one this early.
    alice, bob = people.page(), people.page()
    two_player_game(alice, bob, seats=2)
    menu(alice, "#menu-draw")
    alice.click("#confirm-yes")
    expect(alice.locator("#draw-banner")).to_contain_text("You voted")
    expect(bob.locator("#draw-banner")).to_contain_text("A draw has been proposed")
    bob.click("#draw-accept")
    for page in (alice, bob):
        over = page.locator("#game-over")
        expect(over).to_be_visible()
        expect(over).to_contain_text("draw")
        expect(over.locator(".ranks li")).to_have_count(2)


def test_a_rejected_draw_lets_the_game_go_on(people: People) -> None:
    alice, bob = people.page(), people.page()
    two_player_game(alice, bob, seats=2)
    menu(alice, "#menu-draw")
    alice.click("#confirm-yes")
    expect(alice.locator("#draw-banner")).to_be_visible()
    bob.click("#draw-reject")
    for page in (alice, bob):
        expect(page.locator("#draw-banner")).to_have_count(0)
        page.click("#tab-log")
        expect(page.locator(".log")).to_contain_text("Draw rejected")
        expect(page.locator("#game-over")).to_be_hidden()
    expect(alice.locator("#phase")).to_contain_text("Spring 1901")


def test_leaving_and_the_host_closing(people: People) -> None:
    alice, bob, carol = people.page(), people.page(), people.page()
    game_id = two_player_game(alice, bob)
    sign_in(carol, unique("carol"))
    join_by_id(carol, game_id, "spectator")
    expect(carol.locator("#map")).to_be_visible()

    menu(bob, "#menu-leave")
    bob.click("#confirm-yes")
    bob.wait_for_url(lambda url: "#/game/" not in url)
    alice.click("#tab-players")
    expect(alice.locator(".players-tab")).to_contain_text("civil disorder")

    menu(alice, "#menu-close")
    alice.click("#confirm-yes")
    for page in (alice, carol):
        expect(page.locator("#game-over")).to_contain_text("closed")
    token = alice.evaluate("localStorage.getItem('parley.token')")
    status = people.server.api("GET", f"/api/games/{game_id}", token)
    assert status["status"] == "closed"
