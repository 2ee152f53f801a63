"""A real game page after Fall 1901 with France (the player) holding Iberia, at 1366×900 and
390×844: played through the server, the way a person gets there, with screenshots. The board's
details are checked on a test page in test_diplomacy_comfort_browser.py; here it is the whole
page: the top bar, the notice of the Fall's results, the legend and the orders panel."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from tests.web.conftest import People
from tests.web.pages import same_player_elsewhere, settle, sign_in, unique

from parley.server.record import seat_draw

pytestmark = pytest.mark.browser

FRANCE = 2  # the seat Diplomacy calls FRANCE
# The first seed whose seat draw gives the game's first player (its host) France.
SEED = next(s for s in range(1000) if seat_draw(s, 7)[0] == FRANCE)

RECT = """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                    return [r.left, r.top, r.right, r.bottom]; }"""


def overlaps(a: list[float], b: list[float]) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


# Each unit's icon and the name of the province it stands in, as drawn.
UNITS_AND_NAMES = """() => [...document.querySelectorAll('#map .unit:not(.dislodged)')].map(u => {
    const code = u.dataset.loc.split('/')[0];
    const label = document.querySelector(`#map .label[data-labels="${code}"]`);
    const box = (e) => {
        const r = e.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom];
    };
    return [code, box(u.querySelector('.unit-shape')), label ? box(label) : null];
})"""


def check_names_readable(page: Page) -> None:
    """No unit covers the name of the province it stands in."""
    drawn = page.evaluate(UNITS_AND_NAMES)
    assert len(drawn) >= 22  # every unit on the board after Winter 1901's builds are due
    covered = [code for code, icon, name in drawn if name and overlaps(icon, name)]
    assert covered == []


def check_nothing_covers(page: Page) -> None:
    fixed = {sel: page.evaluate(RECT, sel) for sel in ("#map-box", "#legend")}
    for i in range(page.locator(".toast").count()):
        toast = page.evaluate(RECT, f".toast:nth-child({i + 1})")
        if toast[2] <= toast[0]:
            continue  # waiting out of sight
        for what, rect in fixed.items():
            assert not overlaps(toast, rect), (i, what, toast, rect)


def test_after_the_fall_on_the_real_page(people: People, screenshots: Path) -> None:
    page = people.page(1366, 900)
    name = unique("marianne_lafayette_")
    sign_in(page, name)
    token = page.evaluate("localStorage.getItem('parley.token')")
    server = people.server
    game = server.api(
        "POST",
        "/api/games",
        token,
        json={"game": "diplomacy", "name": "Iberia", "period_seconds": 86400, "seed": SEED},
    )
    gid = game["id"]
    page.goto(f"/#/game/{gid}")
    expect(page.locator("#game-lobby")).to_be_visible()
    server.api("POST", f"/api/games/{gid}/start", token, json={"fill_with": "default"})
    expect(page.locator("#map .unit").first).to_be_visible()
    assert server.api("GET", f"/api/games/{gid}/state", token)["viewer"]["seat"] == FRANCE

    orders = "#orders-panel input[placeholder^='type an order']"
    page.fill(orders, "A PAR - PIC")  # typed, never added: a new phase clears it
    server.api(
        "POST",
        f"/api/games/{gid}/actions",
        token,
        json={"parts": ["F BRE - MAO", "A MAR - SPA", "A PAR - BUR"]},
    )
    expect(page.locator("#phase")).to_have_text("Fall 1901 · Movement")
    expect(page.locator(orders)).to_have_value("")
    server.api(
        "POST",
        f"/api/games/{gid}/actions",
        token,
        json={"parts": ["F MAO - POR", "A SPA H", "A BUR H"]},
    )
    expect(page.locator("#phase")).to_have_text("Winter 1901 · Adjustments")
    expect(page.locator('#map [data-prov="POR"]')).to_have_attribute("data-owner", "FRANCE")
    expect(page.locator('#legend .power[data-power="FRANCE"]')).to_contain_text(name)
    expect(page.locator('#legend .power[data-power="FRANCE"] .power-count')).to_contain_text("+2")
    expect(page).to_have_title(re.compile(r"^\(Your move\) Parley — orders due in 24 h$"))
    expect(page.locator("#back-banner")).to_have_count(0)  # no deadline was missed
    cut = page.eval_on_selector_all(
        "#legend .power-player",
        "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)",
    )
    assert cut == []
    check_nothing_covers(page)
    check_names_readable(page)
    page.screenshot(path=str(screenshots / "diplomacy-page-fall-iberia-1366x900.png"))
    settle(page)
    page.screenshot(
        path=str(screenshots / "diplomacy-page-fall-iberia-1366x900-full.png"), full_page=True
    )

    phone = same_player_elsewhere(people, page, 390, 844)
    expect(phone.locator("#phase")).to_have_text("Winter 1901 · Adjustments")
    expect(phone.locator('#map [data-prov="SPA"]')).to_have_attribute("data-owner", "FRANCE")
    check_nothing_covers(phone)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    settle(phone)
    phone.screenshot(path=str(screenshots / "diplomacy-page-fall-iberia-390x844.png"))
