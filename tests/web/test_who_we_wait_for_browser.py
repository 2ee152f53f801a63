"""Who the table waits for, in the browser: every player and spectator sees which powers are
done (never what they ordered), the one the table waits for is told in the page and the tab
title, "Your games" marks the games waiting for you; and the waiting room's table chat
before the start."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect
from tests.web.conftest import People
from tests.web.pages import sign_in, unique

pytestmark = pytest.mark.browser


def test_everyone_sees_who_is_done_and_the_last_one_is_told(
    people: People, screenshots: Path
) -> None:
    server = people.server
    alice, bob, eve = people.page(), people.page(390, 844), people.page()
    names = [unique("alice"), unique("bob"), unique("eve")]
    for page, name in zip((alice, bob, eve), names, strict=True):
        sign_in(page, name)
    tokens = [p.evaluate("localStorage.getItem('parley.token')") for p in (alice, bob, eve)]
    body = {"game": "diplomacy", "name": "Waits", "period_seconds": 3600, "seed": 3}
    gid = server.api("POST", "/api/games", tokens[0], json=body)["id"]
    server.api("POST", f"/api/games/{gid}/join", tokens[1], json={"role": "player"})
    server.api("POST", f"/api/games/{gid}/join", tokens[2], json={"role": "spectator"})
    # The waiting room: a message before the start reaches the other member as it is sent.
    alice.goto(f"/#/game/{gid}")
    bob.goto(f"/#/game/{gid}")
    expect(bob.locator("#waiting-chat")).to_contain_text("No message yet")
    alice.fill("#waiting-text", "Good luck, everyone")
    alice.click("#waiting-send")
    expect(bob.locator("#waiting-chat")).to_contain_text("Good luck, everyone", timeout=15_000)
    expect(alice.locator("#waiting-text")).to_have_value("")
    alice.screenshot(path=str(screenshots / "waiting-room-1366.png"))
    bob.screenshot(path=str(screenshots / "waiting-room-390.png"))

    server.api("POST", f"/api/games/{gid}/start", tokens[0], json={"fill_with": "default"})
    eve.goto(f"/#/game/{gid}")
    seats = {
        s["player"]: (s["seat"], s["name"].capitalize())
        for s in server.api("GET", f"/api/games/{gid}", tokens[0])["seats"]
    }
    a_seat, a_power = seats[names[0]]
    b_seat, b_power = seats[names[1]]
    for page in (alice, bob, eve):
        expect(page.locator("#waiting-for")).to_contain_text("(5 of 7 done)")
    expect(eve.locator("#waiting-for")).to_contain_text(f"Waiting for {a_power}, {b_power}")
    expect(alice.locator("#waiting-for")).to_contain_text("Your move")
    expect(alice).to_have_title(re.compile(r"^\(Your move\) Parley — "))
    # Alice says she is ready: everyone sees it; Bob is the last one and is told so.
    alice.click("#submit-orders")
    expect(eve.locator("#waiting-for")).to_contain_text(f"Waiting for {b_power} (6 of 7 done)")
    expect(eve.locator("#waiting-for")).to_contain_text(f"Done: {a_power}")
    expect(eve.locator(f'.legend [data-power="{a_power.upper()}"] .power-status')).to_have_text(
        "✓ ready"
    )
    expect(eve.locator(f'.legend [data-power="{b_power.upper()}"] .power-status')).to_have_text(
        "ordering…"
    )
    expect(bob.locator("#waiting-for")).to_contain_text("the table is waiting for you (6 of 7")
    expect(bob).to_have_title(re.compile(r"^\(Your move\) Parley — "))
    expect(alice).not_to_have_title(re.compile(r"Your move"))
    # The Players tab says done or not, nothing of what was ordered.
    eve.click("#tab-players")
    expect(eve.locator(f'.turn-cell[data-seat="{a_seat}"]')).to_have_text("✓ done")
    expect(eve.locator(f'.turn-cell[data-seat="{b_seat}"]')).to_have_text("to act")
    alice.screenshot(path=str(screenshots / "waiting-for-1366.png"))
    bob.screenshot(path=str(screenshots / "waiting-for-390.png"))

    # The lobby: Bob's game is marked with its deadline; Alice's, ready, is not.
    bob.goto("/")
    row = bob.locator(f'#my-games li[data-game-id="{gid}"]')
    expect(row.locator(".badge-move")).to_contain_text(re.compile(r"Your move: orders · due in"))
    bob.screenshot(path=str(screenshots / "your-games-390.png"))
    alice.goto("/")
    expect(alice.locator(f'#my-games li[data-game-id="{gid}"]')).to_be_visible()
    expect(alice.locator(f'#my-games li[data-game-id="{gid}"] .badge-move')).to_have_count(0)
