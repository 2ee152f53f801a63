"""On a phone (390 px), the game pages fit the screen's width: nothing to scroll sideways,
seat cards and names inside the screen, whatever the names are."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect
from tests.web.conftest import People
from tests.web.pages import settle, sign_in, unique

pytestmark = pytest.mark.browser

WIDTH = 390
# Elements reaching past the screen's right edge (the map's own drawing is clipped by its box).
OUTSIDE = """(width) => [...document.querySelectorAll('body *')]
  .filter((e) => !e.closest('svg'))
  .filter((e) => { const r = e.getBoundingClientRect(); return r.width && r.right > width + 0.5; })
  .map((e) => `${e.tagName.toLowerCase()}.${e.className.baseVal ?? e.className}`)
  .slice(0, 10)"""


@pytest.mark.parametrize("game", ["sucker", "diplomacy"])
def test_a_game_page_fits_a_phone(people: People, screenshots: Path, game: str) -> None:
    page = people.page(WIDTH, 844)
    name = unique("a_rather_long_name_")
    sign_in(page, name)
    token = page.evaluate("localStorage.getItem('parley.token')")
    server = people.server
    created = server.api(
        "POST",
        "/api/games",
        token,
        json={"game": game, "name": "Phone", "period_seconds": 86400, "seed": 4},
    )
    server.api("POST", f"/api/games/{created['id']}/start", token, json={"fill_with": "heuristic"})
    page.goto(f"/#/game/{created['id']}")
    ready = ".player-card" if game == "sucker" else "#map .unit"
    expect(page.locator(ready).first).to_be_visible()
    settle(page)
    assert page.evaluate(OUTSIDE, WIDTH) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    if game == "sucker":
        # A name too long for its card ends in an ellipsis and is whole in its tooltip.
        mine = page.locator(".player-card.me .player-head .muted")
        expect(mine).to_have_attribute("title", name)
    page.screenshot(path=str(screenshots / f"{game}-phone-fit.png"), full_page=True)
