"""Earlier Diplomacy phases come from the server: a player on a fresh browser (nothing
remembered locally) and a spectator who joins late both step back through every phase,
with its orders, results and failure reasons, and forward to the current one again."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from tests.web.conftest import People
from tests.web.pages import create_game, join_by_id, same_player_elsewhere, sign_in, unique
from tests.web.test_diplomacy_browser import own_support

pytestmark = pytest.mark.browser


def phase_of(page: Page) -> str:
    value = page.locator("#map").get_attribute("data-phase")
    assert value, "the map names no phase"
    return value


def listed_phases(page: Page) -> list[str]:
    # Every step is labelled with its phase once the server's observation of it is in.
    expect(page.locator('#phase-select option[value^="step-"]')).to_have_count(0)
    values: list[str] = page.eval_on_selector_all(
        "#phase-select option", "els => els.map(e => e.value)"
    )
    return values


def check_history(page: Page, now: str, support_order: str, reason: str) -> None:
    expect(page.locator("#map")).to_have_attribute("data-phase", now)
    expect(page.locator('#phase-select option[value="S1901M"]')).to_have_count(1)
    phases = listed_phases(page)
    assert phases[0] == "S1901M" and phases[-1] == now, phases
    assert len(phases) >= 3, phases  # two adjudications at least

    page.select_option("#phase-select", "S1901M")
    expect(page.locator("#map")).to_have_attribute("data-phase", "S1901M")
    expect(page.locator("#history-note")).to_have_text(
        "Earlier phase: orders and results as adjudicated"
    )
    drawn = page.locator(f'#map .order.outcome-fails[data-order="{support_order}"]')
    expect(drawn).to_have_count(1)
    expect(drawn.locator(".fail-mark")).to_have_count(1)
    page.click("#tab-results")
    result = page.locator(
        f'#results-panel .results[data-phase="S1901M"] .result[data-order="{support_order}"]'
    )
    expect(result).to_have_attribute("data-outcome", "fails")
    expect(result).to_have_attribute("data-reason", reason)
    assert page.locator('#results-panel .results[data-phase="S1901M"] .result').count() >= 22
    # The board is the one spring 1901 began with: all 22 starting units.
    expect(page.locator("#map .units .unit")).to_have_count(22)
    expect(page.locator("#phase-prev")).to_be_disabled()

    # Forward, one step at a time, to the current phase.
    for phase in phases[1:]:
        page.click("#phase-next")
        expect(page.locator("#map")).to_have_attribute("data-phase", phase)
        expect(page.locator("#phase-select")).to_have_value(phase)
        if phase != now:
            expect(page.locator("#results-panel .results .result").first).to_be_visible()
    expect(page.locator("#phase-next")).to_be_disabled()
    expect(page.locator("#history-note")).to_have_count(0)


def test_earlier_phases_after_a_reload_and_for_a_late_spectator(people: People) -> None:
    alice = people.page()
    sign_in(alice, unique("alice"))
    game_id = create_game(alice, "diplomacy", "History test", fill_with="random")
    expect(alice.locator("#map .unit").first).to_be_visible()
    expect(alice.locator("#map")).to_have_attribute("data-phase", "S1901M")

    # Spring 1901: a support of a move nobody makes (it must fail), the rest hold.
    supporter, support_order, _, _ = own_support(alice)
    alice.select_option(f'#order-list select[data-group="{supporter}"]', support_order)
    alice.click("#submit-orders")
    expect(alice.locator("#map")).not_to_have_attribute("data-phase", "S1901M", timeout=30_000)
    alice.click("#tab-results")
    result = alice.locator(f'#results-panel .result[data-order="{support_order}"]')
    expect(result).to_have_attribute("data-outcome", "fails")
    reason = result.get_attribute("data-reason")
    assert reason in {"unmatched", "cut", "dislodged"}, reason

    # The next phase Alice owes in: she submits nothing (units hold, or none to order).
    second = phase_of(alice)
    alice.click("#tab-orders")
    alice.click("#submit-orders")
    expect(alice.locator("#map")).not_to_have_attribute("data-phase", second, timeout=30_000)
    now = phase_of(alice)

    # Alice on another browser: nothing of this game is remembered there.
    fresh = same_player_elsewhere(people, alice, 1366, 900)
    expect(fresh.locator("#map .unit").first).to_be_visible()
    assert fresh.evaluate(
        "Object.keys(localStorage).filter(k => k.endsWith('.phases')).map(k => "
        "Object.keys(JSON.parse(localStorage.getItem(k)).positions)).flat()"
    ) in ([], [now])
    check_history(fresh, now, support_order, reason)

    # A spectator who joins only now sees the same history.
    carol = people.page()
    sign_in(carol, unique("carol"))
    join_by_id(carol, game_id, "spectator")
    expect(carol.locator("#map .unit").first).to_be_visible()
    check_history(carol, now, support_order, reason)

    # Alice reloads her own page: the history is still all there.
    alice.reload()
    expect(alice.locator("#map .unit").first).to_be_visible()
    check_history(alice, now, support_order, reason)

    # The earlier boards were asked of the server, at the points where steps begin.
    assert any("/state?at=" in url for url in people.requested)
    assert any(url.endswith(f"/api/games/{game_id}/steps") for url in people.requested)
