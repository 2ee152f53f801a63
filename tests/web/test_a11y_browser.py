"""Accessibility of every page, by axe-core (vendored, injected from disk): sign-in, the lobby
with the create form for each game, the manual, a waiting room, and each game as a player and
as a spectator. Each page has exactly one level-one heading and no serious or critical
violation; the counts per page are written to artifacts/a11y-counts.json."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from tests.web.axe import assert_accessible, record
from tests.web.conftest import People
from tests.web.pages import settle
from tests.web.tables import DRAWN, GAMES, account, open_as, started

pytestmark = pytest.mark.browser

WIDE = (1366, 900)
PHONE = (390, 844)


@pytest.mark.parametrize("size", [WIDE, PHONE], ids=["wide", "phone"])
def test_sign_in_lobby_create_and_manual_pages_are_accessible(
    people: People, screenshots: Path, size: tuple[int, int]
) -> None:
    server = people.server
    width = size[0]

    def check(page: Page, name: str) -> None:
        record(screenshots, f"{name} @{width}", assert_accessible(page, f"{name} at {width} px"))
        assert page.evaluate("document.documentElement.scrollWidth") <= width, name

    page = open_as(people, None, "/", *size)
    expect(page.locator("#signin-submit")).to_be_visible()
    check(page, "sign-in")

    me = account(server, "a11y_")
    lobby = open_as(people, me, "/", *size)
    expect(lobby.locator("#create-card form")).to_be_visible()
    check(lobby, "lobby")
    for game in GAMES:
        lobby.select_option("#create-type", game)
        check(lobby, f"create {game}")

    manual = open_as(people, me, "/#/manual", *size)
    expect(manual.locator("#manual section").first).to_be_visible()
    check(manual, "manual")

    body = {"game": "sucker", "name": "Waiting", "period_seconds": 3600}
    waiting_id = server.api("POST", "/api/games", me.token, json=body)["id"]
    room = open_as(people, me, f"/#/game/{waiting_id}", *size)
    expect(room.locator("#waiting-room")).to_be_visible()
    check(room, "waiting room")


@pytest.mark.parametrize("game", GAMES)
def test_a_game_page_is_accessible_to_its_player_and_its_spectator(
    people: People, screenshots: Path, game: str
) -> None:
    server = people.server
    host, watcher = account(server, "a11y_host_"), account(server, "a11y_watch_")
    game_id = started(server, game, host, watcher)
    for role, who in (("player", host), ("spectator", watcher)):
        page = open_as(people, who, f"/#/game/{game_id}", *WIDE)
        expect(page.locator(DRAWN[game]).first).to_be_visible()
        settle(page)
        counts = assert_accessible(page, f"{game} as {role}")
        record(screenshots, f"{game} {role} @1366", counts)
        page.screenshot(path=str(screenshots / f"{game}-wide-{role}.png"))


@pytest.mark.parametrize("game", GAMES)
def test_a_game_played_on_by_bots_is_accessible_to_its_spectator(
    people: People, screenshots: Path, game: str
) -> None:
    """Later in a game: long event lists, chat and the history of the game, as a spectator
    sees them once the bots have played a while."""
    server = people.server
    host = account(server, "a11y_bots_")
    body = {
        "game": game,
        "name": f"Bots {game}",
        "period_seconds": 86400,
        "seed": 5,
        "host_role": "spectator",
    }
    game_id = server.api("POST", "/api/games", host.token, json=body)["id"]
    server.api("POST", f"/api/games/{game_id}/start", host.token, json={"fill_with": "heuristic"})
    page = open_as(people, host, f"/#/game/{game_id}", *WIDE)
    expect(page.locator(DRAWN[game]).first).to_be_visible()
    # Bounded: the bots play on the server while the page follows.
    page.wait_for_function(
        "() => Number(document.querySelector('#board')?.dataset.stateId ?? 0) >= 12",
        timeout=60_000,
    )
    settle(page)
    counts = assert_accessible(page, f"{game} played on, as a spectator")
    record(screenshots, f"{game} spectator later @1366", counts)
    page.screenshot(path=str(screenshots / f"{game}-wide-later.png"))
