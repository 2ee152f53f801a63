"""The Diplomacy board's everyday comfort: colours told apart, arrows that arrive, a legend
and notices that leave names and the map alone, the typed-order box, and what VIA means.

Positions are played through the rules; the board gets what the server would send, on a
test page laid out like the game page, which can hand the board the next phase.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.web.conftest import People
from tests.web.pages import click_province, mount_harness, settle

from parley.games import find
from parley.kernel import Match, Viewer
from parley.web.maps.palette import MIN_FILLS, ciede2000, lab

pytestmark = pytest.mark.browser

HARNESS = """<!doctype html>
<html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/css/parley.css"></head>
<body data-view="game"><main id="app"><div class="game-layout">
<section class="board-area" id="board"></section>
<aside class="side"><div class="tab-body" id="tabs"></div></aside>
</div></main><div class="toasts" id="toasts" role="status" aria-live="polite"></div>
<script type="module">
import { DiplomacyBoard } from "/static/js/diplomacy/board.js";
import { toast } from "/static/js/dom.js";
window.toast = toast;
window.harness = {
  acts: [],
  async mount(data) {
    const ctx = this.ctx = {
      gameId: "harness", summary: data.summary, state: data.state, entries: [], you: {},
      mySeat: () => ctx.state.viewer.seat, seatLabel: (s) => data.summary.seats[s].name,
      act: async (body) => { window.harness.acts.push(body); return {}; },
      showTab() {}, storageKey: (what) => `harness.${what}`,
    };
    const board = window.board = new DiplomacyBoard(ctx);
    board.mountBoard(document.getElementById("board"));
    for (const tab of board.tabs()) document.getElementById("tabs").append(tab.el);
    await board.update("all");
  },
  async next(data) {
    this.ctx.state = data.state;
    await window.board.update("state");
  },
};
window.harnessReady = true;
</script></body></html>"""

# Long names, as players choose them: the legend must show them whole at 1366 px.
PLAYERS = [
    "archduke_franz",
    "lady_victoria",
    "marianne-lafayette",
    "otto_von_bismarck",
    "giuseppe_garibaldi",
    "tsar_nicholas_ii",
    "sultan_abdulhamid",
]


def play(match: Match[Any, Any], orders: dict[str, str]) -> None:
    for seat, power in enumerate(match.seat_names()):
        if seat in match.turn().owing:
            match.act(seat, orders.get(power, "NO ORDERS"))


def board_data(match: Match[Any, Any], power: str) -> dict[str, Any]:
    seat = match.seat_names().index(power)
    return {
        "summary": {
            "status": "active",
            "press": "full",
            "seats": [
                {"seat": i, "name": n, "player": PLAYERS[i]}
                for i, n in enumerate(match.seat_names())
            ],
        },
        "state": {
            "game_id": "harness",
            "status": "active",
            "viewer": {"role": "player", "seat": seat},
            "state_id": match.state_id,
            "seq": match.seq,
            "observation": match.observe(Viewer.of(seat)),
            "can_act": seat in match.turn().owing,
            "owes": seat in match.turn().owing,
            "options": match.rules.options_tree(match.state, seat).to_json()
            if seat in match.turn().owing
            else None,
            "deadline": None,
        },
    }


def open_board(people: People, data: dict[str, Any], size: tuple[int, int] = (1366, 900)) -> Page:
    page = people.page(*size)
    mount_harness(page, HARNESS, data)
    expect(page.locator("#map .unit").first).to_be_visible()
    return page


@pytest.fixture(scope="module")
def spring() -> Match[Any, Any]:
    rules = find("diplomacy")
    match: Match[Any, Any] = Match(rules, 7, rules.spec.resolve_options({}), seed=1)
    play(
        match,
        {
            "FRANCE": "F BRE - MAO; A MAR - SPA; A PAR - BUR",
            "ENGLAND": "F LON - NTH; A LVP - YOR; F EDI - NWG",
        },
    )
    return match


@pytest.fixture(scope="module")
def winter(spring: Match[Any, Any]) -> Match[Any, Any]:
    """After Fall 1901: France holds Spain and Portugal (Iberia) and builds two units."""
    match = spring.copy()
    play(match, {"FRANCE": "F MAO - POR; A SPA H; A BUR H"})
    return match


def rgb(text: str) -> tuple[int, int, int]:
    found = re.findall(r"\d+", text)
    return (int(found[0]), int(found[1]), int(found[2]))


def fill_of(page: Page, code: str) -> tuple[int, int, int]:
    # The colour the board gives (its inline style, else the sheet's), not a mid-transition one.
    value: str = page.eval_on_selector(
        f'#map [data-prov="{code}"]',
        "el => el.style.fill || getComputedStyle(el).getPropertyValue('fill')",
    )
    return rgb(value)


@pytest.mark.parametrize("size", [(1366, 900), (390, 844)])
def test_after_the_fall_france_holds_iberia_in_a_colour_unlike_the_sea(
    people: People, winter: Match[Any, Any], screenshots: Path, size: tuple[int, int]
) -> None:
    page = open_board(people, board_data(winter, "FRANCE"), size)
    expect(page.locator("#map")).to_have_attribute("data-phase", "W1901A")
    spain, portugal, sea, land = (fill_of(page, c) for c in ("SPA", "POR", "MAO", "RUH"))
    assert spain == portugal  # both French
    for other in (sea, land):
        assert ciede2000(lab(spain), lab(other)) >= MIN_FILLS, (spain, other)
    # The Fall's results are on the map: France's move into Portugal reaches it.
    move = page.locator('#map .order[data-order="F MAO - POR"]')
    expect(move).to_have_count(1)
    # The legend names every player whole, next to the build counts.
    expect(page.locator('#legend .power[data-power="FRANCE"] .power-count')).to_contain_text("+2")
    if size[0] >= 1000:
        cut = page.eval_on_selector_all(
            "#legend .power-player",
            "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)",
        )
        assert cut == []
        expect(page.locator("#legend .power-player")).to_have_text(PLAYERS)
    settle(page)
    width, height = size
    page.screenshot(path=str(screenshots / f"diplomacy-fall-iberia-{width}x{height}.png"))


ARROW_CHECK = """(orders) => orders.map((text) => {
  const span = (l) => Math.hypot(l.x2.baseVal.value - l.x1.baseVal.value,
                                 l.y2.baseVal.value - l.y1.baseVal.value);
  const g = window.board.orderShape(text, 2, null);
  const m = /^[AF] (\\S+) (?:S [AF] (\\S+) - (\\S+)|- (\\S+))/.exec(text);
  const from = window.board.anchor(m[1]);
  const dst = window.board.anchor(m[3] || m[4]);
  const dist = Math.hypot(dst[0] - from[0], dst[1] - from[1]);
  let reach, shaft;
  const head = g.querySelector("polygon");
  if (head) {
    const [x, y] = head.dataset.tip.split(",").map(Number);
    reach = Math.hypot(dst[0] - x, dst[1] - y);
    const line = g.querySelector("line:not(.casing)");
    shaft = span(line);
  } else {
    const end = g.querySelector("circle.support-end");
    reach = Math.hypot(dst[0] - end.cx.baseVal.value, dst[1] - end.cy.baseVal.value);
    const line = g.querySelector("line.support-line");
    shaft = span(line);
  }
  return { text, dist, reach, shaft };
})"""


def test_every_move_and_support_arrow_reaches_its_destination(
    people: People, spring: Match[Any, Any]
) -> None:
    rules = spring.rules
    orders = sorted(
        {
            leaf
            for seat in range(7)
            for leaf in rules.options_tree(spring.state, seat).leaves()
            if re.match(r"^[AF] \S+ (- \S+|S [AF] \S+ - \S+)$", leaf)
        }
    )
    assert len(orders) > 100
    page = open_board(people, board_data(spring, "FRANCE"))
    found = page.evaluate(ARROW_CHECK, orders)
    stubs = [f for f in found if f["reach"] > 7 or f["shaft"] < 0.45 * f["dist"]]
    assert stubs == [], stubs[:5]


@pytest.mark.parametrize("size", [(1366, 900), (390, 844)])
def test_notices_leave_the_map_and_the_legend_uncovered(
    people: People, winter: Match[Any, Any], size: tuple[int, int]
) -> None:
    page = open_board(people, board_data(winter, "FRANCE"), size)
    for i in range(4):
        page.evaluate("(i) => window.toast(`Notice number ${i}: something happened`)", i)
    expect(page.locator(".toast")).to_have_count(4)
    boxes = page.evaluate(
        """() => ['#map-box', '#legend', ...[...document.querySelectorAll('.toast')]
          .map((_, i) => `.toast:nth-child(${i + 1})`)]
          .map((sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                          return [sel, r.left, r.top, r.right, r.bottom]; })"""
    )
    fixed = {b[0]: b[1:] for b in boxes[:2]}
    shown = [b for b in boxes[2:] if b[3] > b[1]]  # older notices may wait out of sight
    assert len(shown) >= 1
    for name, *rect in shown:
        for what, other in fixed.items():
            overlap = min(rect[2], other[2]) > max(rect[0], other[0]) and min(
                rect[3], other[3]
            ) > max(rect[1], other[1])
            assert not overlap, (name, what, rect, other)


def test_the_typed_order_box_starts_each_phase_empty(
    people: People, spring: Match[Any, Any], winter: Match[Any, Any]
) -> None:
    before = spring.copy()
    before_data = board_data(before, "FRANCE")
    page = open_board(people, before_data)
    page.fill("#order-text", "A XYZ - ABC")
    page.press("#order-text", "Enter")  # not legal: kept in the box for correcting
    expect(page.locator("#order-text")).to_have_value("A XYZ - ABC")
    page.evaluate("(data) => window.harness.next(data)", board_data(winter, "FRANCE"))
    expect(page.locator("#map")).to_have_attribute("data-phase", "W1901A")
    expect(page.locator("#order-text")).to_have_value("")
    expect(page.locator("#order-text-error")).to_have_count(0)  # nor its reason


def test_via_is_offered_only_with_a_convoy_route_and_explained(
    people: People, spring: Match[Any, Any]
) -> None:
    leaves = spring.rules.options_tree(spring.state, spring.seat_names().index("ENGLAND"))
    assert "A YOR - LON VIA" in leaves.leaves() and "A YOR - WAL VIA" not in leaves.leaves()
    page = open_board(people, board_data(spring, "ENGLAND"))
    # No convoy route to Wales: the move is taken at once, no question asked.
    click_province(page, "YOR")
    click_province(page, "WAL")
    expect(page.locator('#order-list select[data-group="YOR"]')).to_have_value("A YOR - WAL")
    expect(page.locator("#order-popup")).to_be_hidden()
    # The fleet in the North Sea could carry the army to London: both ways, explained.
    click_province(page, "YOR")
    click_province(page, "LON")
    popup = page.locator("#order-popup")
    expect(popup).to_be_visible()
    expect(popup.locator("#via-hint")).to_contain_text("carried by sea")
    expect(popup.locator('[data-order="A YOR - LON VIA"]')).to_contain_text("by convoy")
    expect(popup.locator('[data-order="A YOR - LON"]')).to_contain_text("over the border")
    popup.locator('[data-order="A YOR - LON VIA"]').click()
    expect(page.locator('#order-list select[data-group="YOR"]')).to_have_value("A YOR - LON VIA")
