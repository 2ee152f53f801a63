"""So Long Sucker in the browser: three players play to a capture, clicking chips and
piles; a bargain is proposed and accepted from the chat."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from tests.web.conftest import People
from tests.web.pages import create_game, join_by_id, same_player_elsewhere, settle, sign_in, unique

pytestmark = pytest.mark.browser


def colour_of(page: Page) -> str:
    colour = page.locator(".player-card.me").get_attribute("data-colour")
    assert colour
    return colour


def test_sucker_to_a_capture(people: People, screenshots: Path) -> None:
    pages = [people.page() for _ in range(3)]
    for i, page in enumerate(pages):
        sign_in(page, unique(f"sls{i}-"))
    host = pages[0]
    game_id = create_game(host, "sucker", "Sucker test", seats=3, options={"chips": "3"})
    for page in pages[1:]:
        join_by_id(page, game_id, "player")
    expect(host.locator("#lobby-players li")).to_have_count(3)
    expect(host.locator("#start-fill")).to_have_count(0)  # no empty seat to fill
    host.click("#start-game")
    for page in pages:
        expect(page.locator("#piles")).to_be_visible()
        expect(page.locator(".player-card")).to_have_count(3)
    by_colour = {colour_of(page): page for page in pages}
    first = host.locator(".player-card.to-act").get_attribute("data-colour")
    assert first in by_colour
    p = by_colour[first]
    expect(p.locator(".sls-main.my-turn")).to_contain_text("have the move")

    # A bargain from the chat: the first mover offers the next player a chip.
    others = [c for c in by_colour if c != first]
    p.click("#tab-chat")
    p.click("#propose-bargain")
    p.check(f"#to-{others[0]}")
    p.click("text=+ chips promise")
    row = p.locator(".term-row select")
    expect(row).to_have_count(3)
    for i in range(3):  # the promise starts blank: nothing is chosen for the player
        expect(row.nth(i)).to_have_value("")
    p.click("#bargain-send")
    expect(p.locator(".bargain-form .form-error")).to_contain_text("Complete each promise")
    row.nth(0).select_option(first)
    row.nth(1).select_option(others[1])
    row.nth(2).select_option(others[0])
    p.fill("#bargain-note", "Friends?")
    expect(p.locator("#bargain-preview")).to_contain_text(f"propose to {others[0]}:")
    p.click("#bargain-send")
    q = by_colour[others[0]]
    q.click("#tab-chat")
    accept = q.locator('#bargains [data-action="accept 1"]')
    expect(accept).to_be_visible()
    expect(q.locator('#bargains .bargain[data-bargain="1"]')).to_contain_text("Friends?")
    accept.click()
    expect(p.locator("#bargains")).to_contain_text("Agreed bargains")

    # 1. The first mover starts a pile with their own colour, then picks who moves next.
    p.click("#new-pile")
    expect(p.locator("#next-row")).to_be_visible()
    p.click(f'#next-row [data-next="{others[0]}"]')
    # 2. That player starts a second pile and gives the move back to the first.
    expect(q.locator(".sls-main.my-turn")).to_be_visible()
    q.click("#new-pile")
    expect(q.locator("#next-row")).to_be_visible()
    q.click(f'#next-row [data-next="{first}"]')
    # 3. Two chips of one colour in a row on pile 1: the first mover captures it.
    pile = p.locator('#piles .pile.target[data-pile="1"]')
    expect(pile).to_be_visible()
    expect(pile).to_have_attribute("data-chips", first)
    pile.click()
    capture = p.locator(f'#capture [data-kill="{first}"]').first
    expect(capture).to_be_enabled()
    for page in pages:
        expect(page.locator("#sls-status")).to_contain_text("captured")
        expect(page.locator("#sls-events")).to_contain_text(
            f"{first.capitalize()} captures pile 1 ({first} {first})"
        )
    # The log tells the capture under the move that made it.
    q.click("#tab-log")
    expect(q.locator(".log .log-notes").first).to_contain_text(
        f"{first.capitalize()} captures pile 1"
    )
    # The table before the kill, on a laptop and a phone.
    settle(p)
    p.screenshot(path=str(screenshots / "sucker-1366x900.png"))
    phone = same_player_elsewhere(people, p, 390, 844)
    expect(phone.locator("#capture")).to_be_visible()
    settle(phone)
    phone.screenshot(path=str(screenshots / "sucker-390x844.png"), full_page=True)
    capture.click()

    # The killed chip is in the dead box; the capturer moves again.
    for page in pages:
        expect(page.locator(f"#dead-box .chip-{first}")).to_have_count(1)
        expect(page.locator('#piles .pile[data-pile="1"]')).to_have_count(0)
    expect(p.locator(".sls-main.my-turn")).to_contain_text("have the move")
    mine = p.locator(f'.player-card.me .count-chip[data-chip="{first}"]')
    expect(mine).to_have_attribute("data-count", "2")  # 3 dealt, 2 played, 1 back
    expect(host.locator("#tab-log")).to_be_visible()
    host.click("#tab-log")
    expect(host.locator(".log")).to_contain_text(f"kill {first}")
