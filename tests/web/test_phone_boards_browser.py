"""Every game on a phone (390×844): the page never scrolls sideways, the clock and the ☰ menu
(draw, leave, notices, manual) stay on screen, the board fits the screen's width, and where a
map needs it, zoom enlarges it and the map's box pans while the page stays put. axe-core finds
nothing serious there either."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from tests.web.axe import assert_accessible, record
from tests.web.conftest import People
from tests.web.pages import settle
from tests.web.tables import BOARD, DRAWN, GAMES, account, open_as, started

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 390, 844
BOX = """(sel) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom];
}"""
# Maps with js/zoom.js: the box that pans (its buttons are named after it), and the map.
ZOOMED = {"campus": ("#cc-map-box", "#campus-map"), "planets": ("#pc-map", "#pc-galaxy")}


def on_screen(page: Page, selector: str) -> None:
    left, top, right, bottom = page.evaluate(BOX, selector)
    assert left >= 0 and top >= 0 and right <= WIDTH + 0.5 and bottom <= HEIGHT, (
        f"{selector} at {(left, top, right, bottom)} is off a {WIDTH}×{HEIGHT} screen"
    )


def page_width(page: Page) -> int:
    width: int = page.evaluate("document.documentElement.scrollWidth")
    return width


@pytest.mark.parametrize("game", GAMES)
def test_a_game_fits_a_phone_with_its_menu_clock_and_board(
    people: People, screenshots: Path, game: str
) -> None:
    server = people.server
    host, watcher = account(server, "phone_host_"), account(server, "phone_watch_")
    game_id = started(server, game, host, watcher)
    page = open_as(people, host, f"/#/game/{game_id}", WIDTH, HEIGHT)
    expect(page.locator(DRAWN[game]).first).to_be_visible()
    settle(page)

    assert page_width(page) <= WIDTH
    on_screen(page, "#clock")
    on_screen(page, "#menu-button")
    page.click("#menu-button")
    for item in ("#menu-draw", "#menu-leave", "#menu-notices", ".menu-items a[href='#/manual']"):
        expect(page.locator(item)).to_be_visible()
        on_screen(page, item)
    page.click("#menu-button")
    board = BOARD[game]
    left, _, right, _ = page.evaluate(BOX, board)
    assert left >= 0 and right <= WIDTH + 0.5, f"{board} spans {left}..{right}"

    if game in ZOOMED:
        box, svg = ZOOMED[game]
        fitted = page.evaluate(BOX, svg)
        page.click(f"{box}-zoom-in")
        page.click(f"{box}-zoom-in")
        zoomed = page.evaluate(BOX, svg)
        assert zoomed[2] - zoomed[0] >= 1.9 * (fitted[2] - fitted[0]), (fitted, zoomed)
        # The map's box pans; the page itself still does not scroll sideways.
        page.eval_on_selector(box, "b => { b.scrollLeft = b.scrollWidth; }")
        assert page.eval_on_selector(box, "b => b.scrollLeft") > 0
        assert page_width(page) <= WIDTH
        page.screenshot(path=str(screenshots / f"{game}-phone-zoomed.png"))
        page.click(f"{box}-zoom-fit")
        assert page.evaluate(BOX, svg) == pytest.approx(fitted, abs=1)

    counts = assert_accessible(page, f"{game} as a player at {WIDTH} px")
    record(screenshots, f"{game} player @{WIDTH}", counts)
    page.screenshot(path=str(screenshots / f"{game}-phone-player.png"), full_page=True)

    spectator = open_as(people, watcher, f"/#/game/{game_id}", WIDTH, HEIGHT)
    expect(spectator.locator(DRAWN[game]).first).to_be_visible()
    settle(spectator)
    assert page_width(spectator) <= WIDTH
    on_screen(spectator, "#clock")
    on_screen(spectator, "#menu-button")
    counts = assert_accessible(spectator, f"{game} as a spectator at {WIDTH} px")
    record(screenshots, f"{game} spectator @{WIDTH}", counts)
    spectator.screenshot(path=str(screenshots / f"{game}-phone-spectator.png"), full_page=True)
