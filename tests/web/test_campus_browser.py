"""Campus Conquest in the browser: two players and a spectator. The players capture the
hidden Pro-Vice-Chancellor (a capture and the minigame: each saves a pick in a dialog, seen by
nobody else, and the minigame is played once both say they are ready),
take unowned ground, and fight; the spectator sees the public board and never the hidden PVC.

The game is created with a fixed seed, and the test keeps its own copy of the match (the
same rules, seed and actions), so it knows where the PVC hides and how the dice fall.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.web.conftest import People
from tests.web.pages import same_player_elsewhere, settle, sign_in, unique

from parley.games.campus import RULES, Phase
from parley.kernel import Match, Viewer

pytestmark = pytest.mark.browser

# The page's own observation, as the server gives it to this browser's user.
OWN_VIEW = """async (id) => {
  const headers = {Authorization: `Bearer ${localStorage.getItem('parley.token')}`};
  const res = await fetch(`/api/games/${id}/state`, {headers});
  return (await res.json()).observation.view;
}"""
SEED = 65  # Ash starts on Great Hall (D2), Beech on Clock Tower (B1); the PVC hides on D1


def token_of(page: Page) -> str:
    token: str = page.evaluate("localStorage.getItem('parley.token')")
    return token


def seat_of(page: Page) -> int:
    seat = page.locator(".cc-player.me").get_attribute("data-seat")
    assert seat is not None
    return int(seat)


def sector(page: Page, code: str) -> Any:
    return page.locator(f'#campus-map .cc-sector[data-code="{code}"]')


def step(page: Page, src: str, dst: str) -> None:
    """Click the unit, then the highlighted destination."""
    sector(page, src).click()
    expect(sector(page, src)).to_have_class(re.compile(r"\bselected\b"))
    target = sector(page, dst)
    expect(target).to_have_attribute("data-target", f"move {src} to {dst}")
    target.click()


def spectator_blind(spectator: Page, game_id: str, mirror: Match[Any, Any]) -> None:
    """The spectator's page and its observation show no hidden PVC."""
    state = mirror.state
    hidden = state.pvc >= 0 and not state.pvc_revealed
    assert hidden
    expect(spectator.locator("#cc-pvc")).to_have_count(0)
    view = spectator.evaluate(OWN_VIEW, game_id)
    assert view["pvc"]["status"] == "hidden" and view["pvc"]["sector"] is None
    where = state.board.codes[state.pvc]
    assert where not in json.dumps(view["pvc"])
    assert spectator.locator(f'#campus-map [data-code="{where}"].pvc').count() == 0


def test_campus_capture_combat_and_minigame(people: People, screenshots: Path) -> None:
    server = people.server
    pages = [people.page() for _ in range(3)]
    for i, page in enumerate(pages):
        sign_in(page, unique(f"cc{i}-"))
    host, guest, spectator = pages
    body = {"game": "campus", "name": "Campus test", "seats": 2, "seed": SEED}
    game_id = server.api("POST", "/api/games", token_of(host), json=body)["id"]
    server.api("POST", f"/api/games/{game_id}/join", token_of(guest), json={"role": "player"})
    server.api(
        "POST", f"/api/games/{game_id}/join", token_of(spectator), json={"role": "spectator"}
    )
    server.api("POST", f"/api/games/{game_id}/start", token_of(host))
    for page in pages:
        page.goto(f"/#/game/{game_id}")
        expect(page.locator("#campus-map .cc-sector")).to_have_count(30)
    mirror: Match[Any, Any] = Match(RULES, 2, seed=SEED)
    by_seat = {seat_of(page): page for page in (host, guest)}
    ash, beech = by_seat[0], by_seat[1]
    expect(spectator.locator(".cc-player.me")).to_have_count(0)
    for page in pages:
        expect(sector(page, "D2").locator(".cc-unit")).to_have_attribute("data-unit-owner", "0")
        expect(sector(page, "B1").locator(".cc-unit")).to_have_attribute("data-unit-owner", "1")
    spectator_blind(spectator, game_id, mirror)
    expect(ash.locator(".cc-main-line.my-turn")).to_contain_text("have the move: 2 steps left")

    # 1. Ash walks into Bike Sheds (D1): a capture, and the hidden PVC is found there.
    assert mirror.state.board.codes[mirror.state.pvc] == "D1"
    step(ash, "D2", "D1")
    mirror.act(0, "move D2 to D1")
    assert mirror.state.phase is Phase.MINIGAME
    for page in (ash, beech):
        expect(page.locator("#cc-pick-dialog")).to_be_visible()
    expect(spectator.locator("#cc-pick-dialog")).to_have_count(0)
    expect(spectator.locator("#cc-minigame")).to_contain_text("still deciding: Ash, Beech")
    for page in pages:
        expect(sector(page, "D1")).to_have_attribute("data-owner", "0")
        expect(page.locator("#cc-event-list")).to_contain_text(
            "Ash finds the Pro-Vice-Chancellor on Bike Sheds (D1)"
        )
    # Both dialogs are open at once. Beech saves a pick first: a draft only Beech sees.
    beech.fill("#cc-pick-value", "50")
    beech.click("#cc-pick-send")
    expect(beech.locator("#cc-pick-status")).to_contain_text("Your saved pick: 50")
    beech.reload()  # saved on the server, not in the page
    expect(beech.locator("#cc-pick-value")).to_have_value("50")
    expect(beech.locator("#cc-pick-status")).to_contain_text("Your saved pick: 50")
    expect(beech.locator("#cc-pick-status")).to_contain_text("counts at the deadline")
    for page in (ash, spectator):
        expect(page.locator("#cc-minigame")).to_contain_text("still deciding: Ash, Beech")
        expect(page.locator("#cc-minigame")).not_to_contain_text("50")
        assert "pick 50" not in json.dumps(page.evaluate(OWN_VIEW, game_id))
    expect(spectator.locator("#cc-pick-dialog")).to_have_count(0)
    # Beech is ready; the minigame waits for Ash, who changes a first pick before saying so.
    beech.click("#cc-ready")
    expect(beech.locator("#cc-pick-status")).to_contain_text("Ready with your pick: 50")
    # Everyone sees that Beech is done (never the pick); Ash is told the table waits for him.
    who = spectator.locator("#cc-minigame-who")
    expect(who).to_contain_text("Done: Beech; still deciding: Ash")
    expect(spectator.locator("#waiting-for")).to_contain_text("Waiting for Ash (1 of 2 done)")
    expect(ash.locator("#waiting-for")).to_contain_text("Your move")
    expect(ash).to_have_title(re.compile(r"^\(Your move\) "))
    expect(beech).not_to_have_title(re.compile(r"Your move"))
    ash.fill("#cc-pick-value", "40")
    ash.click("#cc-pick-send")
    expect(ash.locator("#cc-pick-status")).to_contain_text("Your saved pick: 40")
    ash.fill("#cc-pick-value", "20")
    ash.click("#cc-pick-send")
    expect(ash.locator("#cc-pick-status")).to_contain_text("Your saved pick: 20")
    settle(ash)
    ash.screenshot(path=str(screenshots / "campus-minigame-1366x900.png"))
    # Put away, the dialog leaves the board usable; the side panel brings it back.
    ash.click("#cc-pick-hide")
    expect(ash.locator("#cc-pick-dialog")).to_have_count(0)
    expect(ash.locator("#cc-my-draft")).to_contain_text("Your saved pick: 20")
    ash.click("#cc-pick-open")
    expect(ash.locator("#cc-pick-value")).to_have_value("20")
    for page in (beech, spectator):
        expect(page.locator("#cc-minigame")).not_to_contain_text("20")
        assert "pick 20" not in json.dumps(page.evaluate(OWN_VIEW, game_id))
    expect(spectator.locator("#cc-last-minigame")).to_have_count(0)
    ash.click("#cc-ready")  # everyone is ready: the minigame is played at once
    mirror.act(0, "pick 20")
    mirror.act(1, "pick 50")
    last = mirror.state.last_minigame
    assert last is not None and last["winner"] == 0  # 20 is nearer two thirds of 35
    for page in pages:
        expect(page.locator("#cc-last-minigame")).to_contain_text("Ash wins (target 23.33)")
        expect(page.locator("#cc-last-minigame")).to_contain_text("Beech 50")
        expect(page.locator("#cc-pick-dialog")).to_have_count(0)
    expect(ash.locator(".cc-main-line")).to_contain_text("1 step left")
    ash.click("#cc-pass")
    mirror.act(0, "pass")
    # Between turns the PVC hides somewhere new: nobody but the archive knows where.
    expect(beech.locator(".cc-main-line.my-turn")).to_be_visible()
    spectator_blind(spectator, game_id, mirror)
    expect(spectator.locator("#cc-pvc-line")).to_contain_text("hidden")

    # 2. Beech captures Lecture Theatres (C2), next to Ash's Great Hall.
    step(beech, "B1", "C2")
    mirror.act(1, "move B1 to C2")
    if mirror.state.phase is Phase.MINIGAME:  # the PVC may have hidden there
        for page in (ash, beech):
            page.click("#cc-no-pick")
            expect(page.locator("#cc-pick-status")).to_contain_text("Your saved pick: no pick")
            page.click("#cc-ready")
        for seat in (0, 1):
            mirror.act(seat, "pick none")
    for page in pages:
        expect(sector(page, "C2")).to_have_attribute("data-owner", "1")
    if mirror.state.current == 1:
        beech.click("#cc-pass")
        mirror.act(1, "pass")
    spectator_blind(spectator, game_id, mirror)

    # 3. A new unit has appeared on Ash's Great Hall; it attacks Beech's unit in C2.
    expect(sector(ash, "D2").locator(".cc-unit")).to_have_attribute("data-level", "1")
    step(ash, "D2", "C2")
    mirror.act(0, "move D2 to C2")
    fight = [e for e in mirror.state.events if e[0] == "combat"][-1]
    won = bool(fight[-1])
    words = "and wins" if won else "and loses"
    for page in pages:
        expect(page.locator("#cc-event-list")).to_contain_text(
            f"Ash attacks Lecture Theatres (C2) from Great Hall (D2) {words}"
        )
        expect(sector(page, "C2")).to_have_attribute("data-owner", "0" if won else "1")
    assert (
        mirror.observe(Viewer.of(1))["view"]["owners"]
        == beech.evaluate(OWN_VIEW, game_id)["owners"]
    )
    if mirror.state.pvc >= 0 and not mirror.state.pvc_revealed:
        spectator_blind(spectator, game_id, mirror)

    # The board after the fight, on a laptop and on a phone.
    settle(beech)
    beech.screenshot(path=str(screenshots / "campus-1366x900.png"))
    phone = same_player_elsewhere(people, beech, 390, 844)
    expect(phone.locator("#campus-map .cc-sector")).to_have_count(30)
    settle(phone)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the phone page is {width} px wide"
    phone.screenshot(path=str(screenshots / "campus-390x844.png"), full_page=True)
