"""The Diplomacy board in each kind of phase: convoys, retreats and builds by clicking.

Positions are reached by playing real orders through the rules; the board is then given
exactly what the server would send (observation and options tree) on a test page that
records what it would submit.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.web.conftest import People
from tests.web.pages import click_province, harness_acts, mount_harness, settle

from parley.games import find
from parley.kernel import Match, Viewer

pytestmark = pytest.mark.browser

HARNESS = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="stylesheet" href="/static/css/parley.css"></head>
<body data-view="game"><main id="app"><div class="game-layout">
<section class="board-area" id="board"></section>
<aside class="side"><div class="tab-body" id="tabs"></div></aside>
</div></main><div class="toasts" id="toasts"></div>
<script type="module">
import { DiplomacyBoard } from "/static/js/diplomacy/board.js";
window.harness = {
  acts: [],
  async mount(data) {
    const ctx = {
      gameId: "harness", summary: data.summary, state: data.state, entries: [], you: {},
      mySeat: () => data.state.viewer.seat, seatLabel: (s) => data.summary.seats[s].name,
      act: async (body) => { window.harness.acts.push(body); return {}; },
      showTab() {}, storageKey: (what) => `harness.${what}`,
    };
    const board = new DiplomacyBoard(ctx);
    board.mountBoard(document.getElementById("board"));
    for (const tab of board.tabs()) document.getElementById("tabs").append(tab.el);
    await board.update("all");
  },
};
window.harnessReady = true;
</script></body></html>"""


def play(match: Match[Any, Any], orders: dict[str, str]) -> None:
    names = match.seat_names()
    for seat, power in enumerate(names):
        if seat in match.turn().owing:
            match.act(seat, orders.get(power, "NO ORDERS"))


def board_data(match: Match[Any, Any], power: str) -> dict[str, Any]:
    seat = match.seat_names().index(power)
    rules = match.rules
    return {
        "summary": {
            "status": "active",
            "press": "full",
            "seats": [
                {"seat": i, "name": n, "player": f"player {i}"}
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
            "can_act": True,
            "owes": True,
            "options": rules.options_tree(match.state, seat).to_json(),
            "deadline": None,
        },
    }


def open_board(people: People, data: dict[str, Any]) -> Page:
    page = people.page()
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
            "FRANCE": "F BRE - MAO; A PAR - PIC",
            "GERMANY": "A MUN - BUR",
            "ENGLAND": "F LON - NTH; A LVP - YOR; F EDI - NWG",
        },
    )
    return match


def test_a_convoy_and_a_convoyed_move_by_clicking(people: People, spring: Match[Any, Any]) -> None:
    page = open_board(people, board_data(spring, "ENGLAND"))
    click_province(page, "NTH")
    page.click("#mode-convoy")
    click_province(page, "YOR")
    click_province(page, "NWY")
    expect(page.locator('#order-list select[data-group="NTH"]')).to_have_value(
        "F NTH C A YOR - NWY"
    )
    click_province(page, "YOR")
    click_province(page, "NWY")
    yor = page.locator('#order-list select[data-group="YOR"]')
    expect(yor).to_have_value("A YOR - NWY")
    expect(page.locator("#map .orders .order-convoy")).to_have_count(1)
    expect(page.locator("#map .orders .order-move")).to_have_count(1)
    page.click("#submit-orders")
    expect(page.locator(".toast")).to_contain_text("Orders submitted")
    assert harness_acts(page) == [{"parts": ["F NTH C A YOR - NWY", "A YOR - NWY"]}]


def test_an_unoffered_target_is_refused_and_typed_nonsense_is_kept_out(
    people: People, spring: Match[Any, Any]
) -> None:
    page = open_board(people, board_data(spring, "ENGLAND"))
    click_province(page, "YOR")
    click_province(page, "MOS")  # far away: not among the choices the server sent
    expect(page.locator(".toast")).to_contain_text("not one of the choices")
    expect(page.locator('#order-list select[data-group="YOR"]')).to_have_value("")
    page.fill("#order-text", "A YOR - MOS")
    page.press("#order-text", "Enter")
    # The reason is told beside the box it concerns, not in a notice in a far corner.
    error = page.locator("#order-text-error")
    expect(error).to_contain_text("Not among your legal orders now: A YOR - MOS")
    expect(page.locator(".toast", has_text="Not among")).to_have_count(0)
    expect(page.locator("#order-text")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#order-text")).to_have_attribute("aria-describedby", "order-text-error")
    box, said = page.locator("#order-text").bounding_box(), error.bounding_box()
    assert box is not None and said is not None
    assert 0 <= said["y"] - (box["y"] + box["height"]) < 60, (box, said)
    expect(page.locator("#order-text")).to_have_value("A YOR - MOS")
    expect(page.locator('#order-list select[data-group="YOR"]')).to_have_value("")


def test_a_retreat_and_a_build_by_clicking(
    people: People, spring: Match[Any, Any], screenshots: Any
) -> None:
    match = spring.copy()
    play(match, {"FRANCE": "F MAO - POR; A PIC - BUR; A MAR S A PIC - BUR", "GERMANY": "A BUR H"})
    page = open_board(people, board_data(match, "GERMANY"))
    expect(page.locator("#map .unit.dislodged")).to_have_count(1)
    expect(page.locator("#map")).to_have_attribute("data-phase", "F1901R")
    click_province(page, "BUR")
    expect(page.locator("#mode-move")).to_have_text("Retreat")
    click_province(page, "RUH")
    expect(page.locator('#order-list select[data-group="BUR"]')).to_have_value("A BUR R RUH")
    click_province(page, "BUR")
    page.click("#order-disband")
    expect(page.locator('#order-list select[data-group="BUR"]')).to_have_value("A BUR D")
    click_province(page, "BUR")
    click_province(page, "MUN")
    expect(page.locator('#order-list select[data-group="BUR"]')).to_have_value("A BUR R MUN")
    settle(page)
    page.screenshot(path=str(screenshots / "diplomacy-retreat-1366x900.png"))

    play(match, {"GERMANY": "A BUR R MUN"})
    page = open_board(people, board_data(match, "FRANCE"))
    expect(page.locator("#map")).to_have_attribute("data-phase", "W1901A")
    click_province(page, "BRE")
    popup = page.locator("#order-popup")
    expect(popup).to_be_visible()
    expect(popup.locator(".popup-choice")).to_have_text(["A BRE B", "F BRE B"])
    popup.locator('[data-order="F BRE B"]').click()
    expect(page.locator('#order-list select[data-group="build1"]')).to_have_value("F BRE B")
    expect(page.locator("#map .orders .order-build")).to_have_count(1)
    click_province(page, "BRE")  # again: the build is taken back
    expect(page.locator('#order-list select[data-group="build1"]')).to_have_value("")
    click_province(page, "PAR")
    expect(page.locator('#order-list select[data-group="build1"]')).to_have_value("A PAR B")
    page.click("#submit-orders")
    expect(page.locator(".toast").last).to_contain_text("Orders submitted")
    assert harness_acts(page) == [{"parts": ["A PAR B"]}]
