"""Diplomacy in the browser: two players and a spectator, orders by clicking on the map,
the adjudicated results with a failed order's reason, earlier phases, private press."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from tests.web.conftest import People
from tests.web.pages import (
    MOVE,
    SUPPORT_MOVE,
    click_province,
    create_game,
    drafted,
    join_by_id,
    offered_orders,
    order_groups,
    province,
    same_player_elsewhere,
    settle,
    sign_in,
    unique,
)

pytestmark = pytest.mark.browser


def own_support(page: Page) -> tuple[str, str, str, str]:
    """A support of one of my units' moves by another of mine: (group, order, target, dst)."""
    groups = order_groups(page)
    for group in groups:
        for order in offered_orders(page, group):
            m = SUPPORT_MOVE.match(order)
            if m and m.group(4) in groups and m.group(4) != group:
                return group, order, m.group(4), m.group(5)
    raise AssertionError(f"no support of an own unit among the orders of {groups}")


def a_move(page: Page, group: str) -> tuple[str, str]:
    for order in offered_orders(page, group):
        m = MOVE.match(order)
        if m:
            return order, m.group(3)
    raise AssertionError(f"{group} has no move")


def test_diplomacy_game_in_the_browser(people: People, screenshots: Path) -> None:
    alice, bob, carol = people.page(), people.page(), people.page()
    names = {p: unique(n) for p, n in ((alice, "alice"), (bob, "bob"), (carol, "carol"))}
    for page, name in names.items():
        sign_in(page, name)

    # Alice creates a seven-player game; Bob joins it by id, Carol watches.
    game_id = create_game(alice, "diplomacy", "Browser test", description="two humans, five bots")
    expect(alice.locator("#game-lobby")).to_be_visible()
    expect(alice.locator("#game-id")).to_have_text(game_id)
    join_by_id(bob, game_id, "player")
    join_by_id(carol, game_id, "spectator")
    expect(alice.locator("#lobby-players")).to_contain_text(names[bob])  # live update
    alice.select_option("#start-fill", "random")
    alice.click("#start-game")
    alice.click("#confirm-yes")  # it asks before filling empty seats with bots
    for page in (alice, bob, carol):
        expect(page.locator("#map .unit").first).to_be_visible()
        expect(page.locator("#phase")).to_contain_text("Spring 1901")
    expect(carol.locator(".banner-info")).to_contain_text("spectator")

    # Alice: a support for her own unit that will hold (it must fail: nothing to support),
    # given by clicks: the supporter, "Support", the supported unit, the destination.
    supporter, support_order, target, dst = own_support(alice)
    click_province(alice, province(supporter))
    expect(alice.locator("#mode-bar")).to_contain_text(supporter)
    alice.click("#mode-support")
    click_province(alice, province(target))
    expect(alice.locator(f'#map .prov.target[data-prov="{province(dst)}"]')).to_have_count(1)
    click_province(alice, province(dst))
    expect(alice.locator(f'#order-list select[data-group="{supporter}"]')).to_have_value(
        support_order
    )

    # A move by clicking the unit and its destination.
    mover = next(g for g in order_groups(alice) if g not in (supporter, target))
    move_order, move_dst = a_move(alice, mover)
    click_province(alice, province(mover))
    expect(alice.locator(f'#map .prov.selected[data-prov="{province(mover)}"]')).to_have_count(1)
    click_province(alice, province(move_dst))
    expect(alice.locator(f'#order-list select[data-group="{mover}"]')).to_have_value(move_order)
    assert drafted(alice, target) == ""  # the supported unit holds
    expect(alice.locator("#map .orders .order")).to_have_count(2)  # drawn as arrows

    # UC 26: clicking a selected unit again deselects it.
    click_province(alice, province(target))
    expect(alice.locator("#map .prov.selected")).to_have_count(1)
    click_province(alice, province(target))
    expect(alice.locator("#map .prov.selected")).to_have_count(0)

    alice.click("#submit-orders")
    expect(alice.locator("#order-status")).to_contain_text("Submitted")

    # Bob types one order in notation and clicks another; his submission ends the phase.
    bob_groups = order_groups(bob)
    typed_order, _ = a_move(bob, bob_groups[0])
    bob.fill("#order-text", typed_order.lower().replace(" - ", "-"))  # e.g. "a ber-kie"
    bob.press("#order-text", "Enter")
    expect(bob.locator(f'#order-list select[data-group="{bob_groups[0]}"]')).to_have_value(
        typed_order
    )
    clicked_order, clicked_dst = a_move(bob, bob_groups[1])
    click_province(bob, province(bob_groups[1]))
    click_province(bob, province(clicked_dst))
    expect(bob.locator(f'#order-list select[data-group="{bob_groups[1]}"]')).to_have_value(
        clicked_order
    )
    bob.click("#submit-orders")

    # UC 41: every order with its result; Alice's support failed, and says why.
    for page in (alice, bob, carol):
        expect(page.locator("#phase")).to_contain_text("Fall 1901", timeout=30_000)
    alice.click("#tab-results")
    result = alice.locator(f'#results-panel .result[data-order="{support_order}"]')
    expect(result).to_have_attribute("data-outcome", "fails")
    reason = result.get_attribute("data-reason")
    assert reason in {"unmatched", "cut", "dislodged"}, reason
    message = result.locator(".result-message").inner_text()
    assert message.strip() and message != "fails", message
    if reason == "unmatched":
        assert "no matching order" in message
    expect(
        alice.locator(f'#map .order.outcome-fails[data-order="{support_order}"] .fail-mark')
    ).to_have_count(1)
    expect(carol.locator("#tab-results")).to_be_visible()
    carol.click("#tab-results")
    expect(carol.locator(f'#results-panel .result[data-order="{support_order}"]')).to_be_visible()
    assert alice.locator("#results-panel .result").count() >= 22  # every unit had a result

    # Step back to the phase before and forward again.
    alice.click("#phase-prev")
    expect(alice.locator("#phase-select")).to_have_value("S1901M")
    expect(alice.locator("#map")).to_have_attribute("data-phase", "S1901M")
    expect(alice.locator(f'#map .order[data-order="{support_order}"]')).to_have_count(1)
    alice.click("#phase-next")
    expect(alice.locator("#map")).to_have_attribute("data-phase", "F1901M")

    # Private press: Alice writes to Bob alone; Carol (a spectator) never sees it.
    alice_power = alice.locator(".legend .power.me").get_attribute("data-power")
    bob_power = bob.locator(".legend .power.me").get_attribute("data-power")
    assert alice_power and bob_power and alice_power != bob_power
    alice.click("#tab-chat")
    alice.fill("#chat-input", "Hello everyone, peace in our time.")
    alice.click("#chat-send")
    alice.click("#new-channel")
    alice.locator(".new-channel-form label", has_text=re.compile(bob_power, re.I)).locator(
        "input"
    ).check()
    alice.click("#channel-create")
    secret = "Between us: I will support you into Burgundy."
    alice.fill("#chat-input", secret)
    alice.press("#chat-input", "Enter")
    expect(alice.locator("#messages")).to_contain_text(secret)

    expect(bob.locator("#chat-unread")).to_have_text("2")
    bob.click("#tab-chat")
    private = bob.locator("#channels .channel", has_text=re.compile(alice_power, re.I))
    expect(private.locator(".unread")).to_have_text("1")
    private.click()
    expect(bob.locator("#messages")).to_contain_text(secret)
    expect(bob.locator("#chat-unread")).to_be_hidden()

    carol.click("#tab-chat")
    expect(carol.locator("#messages")).to_contain_text("peace in our time")
    expect(carol.locator("#channels .channel")).to_have_count(1)  # the public channel only
    expect(carol.locator("#chat-input")).to_be_hidden()
    assert secret not in carol.content()

    # The board as people see it, on a laptop and on a phone.
    alice.click("#tab-results")
    settle(alice)
    alice.screenshot(path=str(screenshots / "diplomacy-1366x900.png"))
    phone = same_player_elsewhere(people, alice, 390, 844)
    expect(phone.locator("#map .unit").first).to_be_visible()
    expect(phone.locator("#map .orders .order").first).to_be_attached()
    box = phone.locator("#map").bounding_box()
    assert box is not None and box["width"] <= 390
    # Zoomed in on the player's own units, so provinces are big enough to tap.
    view_box = phone.locator("#map").get_attribute("viewBox") or ""
    assert float(view_box.split()[2]) < 1200 * 0.8, view_box
    settle(phone)
    phone.screenshot(path=str(screenshots / "diplomacy-390x844.png"))
    phone.screenshot(path=str(screenshots / "diplomacy-390x844-full.png"), full_page=True)
