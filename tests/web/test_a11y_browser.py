"""Accessibility of every page, by axe-core (vendored, injected from disk): sign-in, the lobby
with the create form for each game, the manual, a waiting room, and each game as a player and
as a spectator. Each page has exactly one level-one heading and no serious or critical
violation; the counts per page are written to artifacts/a11y-counts.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect
from tests.web.axe import assert_accessible
from tests.web.conftest import People
from tests.web.pages import settle
from tests.web.tables import DRAWN, GAMES, account, open_as, started

pytestmark = pytest.mark.browser

WIDE = (1366, 900)


def record(screenshots: Path, page_name: str, counts: dict[str, int]) -> None:
    out = screenshots.parent / "a11y-counts.json"
    known = json.loads(out.read_text()) if out.exists() else {}
    known[page_name] = counts
    out.write_text(json.dumps(known, indent=1, sort_keys=True))


def test_sign_in_lobby_create_and_manual_pages_are_accessible(
    people: People, screenshots: Path
) -> None:
    server = people.server
    page = open_as(people, None, "/", *WIDE)
    expect(page.locator("#signin-submit")).to_be_visible()
    record(screenshots, "sign-in", assert_accessible(page, "sign-in"))

    me = account(server, "a11y_")
    lobby = open_as(people, me, "/", *WIDE)
    expect(lobby.locator("#create-card form")).to_be_visible()
    record(screenshots, "lobby", assert_accessible(lobby, "lobby"))
    for game in GAMES:
        lobby.select_option("#create-type", game)
        record(screenshots, f"create {game}", assert_accessible(lobby, f"create form ({game})"))

    manual = open_as(people, me, "/#/manual", *WIDE)
    expect(manual.locator("#manual section").first).to_be_visible()
    record(screenshots, "manual", assert_accessible(manual, "manual"))

    body = {"game": "sucker", "name": "Waiting", "period_seconds": 3600}
    waiting_id = server.api("POST", "/api/games", me.token, json=body)["id"]
    room = open_as(people, me, f"/#/game/{waiting_id}", *WIDE)
    expect(room.locator("#waiting-room")).to_be_visible()
    record(screenshots, "waiting room", assert_accessible(room, "waiting room"))


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
        record(screenshots, f"{game} {role}", counts)
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
    record(screenshots, f"{game} spectator later", counts)
    page.screenshot(path=str(screenshots / f"{game}-wide-later.png"))
