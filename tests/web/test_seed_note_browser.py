"""A game whose host fixed its seed says so: a badge in the lobby's list, a note on the game
page before and after the start. The test server uses hosts' seeds as given (see conftest);
a game whose seed the server drew shows neither."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from tests.web.conftest import People
from tests.web.pages import sign_in, unique

pytestmark = pytest.mark.browser


def test_a_fixed_seed_is_shown_in_the_lobby_and_on_the_game_page(people: People) -> None:
    page = people.page()
    sign_in(page, unique("seeder"))
    token = page.evaluate("localStorage.getItem('parley.token')")
    server = people.server
    body = {"game": "campus", "seats": 2, "period_seconds": 86400}
    fixed = server.api("POST", "/api/games", token, json={**body, "name": "Fixed", "seed": 9})
    drawn = server.api("POST", "/api/games", token, json={**body, "name": "Drawn"})
    assert (fixed["seed_source"], drawn["seed_source"]) == ("host-fixed", "server")
    page.goto("/")
    row = page.locator(f'.game-row[data-game-id="{fixed["id"]}"]')
    badge = row.locator(".badge-seed")
    expect(badge).to_have_text("fixed seed")
    expect(badge).to_have_attribute("title", "Fixed seed: " + _WARNING)
    other = page.locator(f'.game-row[data-game-id="{drawn["id"]}"]')
    expect(other).to_be_visible()
    expect(other.locator(".badge-seed")).to_have_count(0)
    page.goto(f"/#/game/{fixed['id']}")
    expect(page.locator("#seed-note")).to_contain_text(_WARNING)
    server.api("POST", f"/api/games/{fixed['id']}/start", token, json={"fill_with": "random"})
    page.reload()
    expect(page.locator("#seed-note")).to_contain_text(_WARNING)
    page.goto(f"/#/game/{drawn['id']}")
    expect(page.locator("#game-lobby")).to_be_visible()
    expect(page.locator("#seed-note")).to_have_count(0)


_WARNING = (
    "the host chose the seed and this server uses it as given, so the host can know every "
    "hidden draw (cards, hiding places, the seat draw)."
)
