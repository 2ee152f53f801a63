"""Results as data, drawn where the player looks after a move: Illuminati's last attack (its
terms, need, dice and result) and the bank, Campus Conquest's and Planet Control's last
combat, So Long Sucker's last capture.

Each game is played in-process until the result exists, written as a position and started
on a real server from it (`CreateGame.position`); a spectator's page, at 1366×900 and at
390×844, must show the server's numbers and names.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.games.campus.test_results import RULES as CAMPUS
from tests.games.campus.test_results import until_combat
from tests.games.illuminati.test_results import ATTACK, played
from tests.games.planets.test_results import RULES as PLANETS
from tests.games.planets.test_results import over
from tests.games.planets.test_results import until as planets_until
from tests.games.sucker.test_results import killed
from tests.games.sucker.test_results import until as sucker_until
from tests.web.conftest import People, Server
from tests.web.pages import unique

from parley.games.illuminati import RULES as ILLUMINATI
from parley.games.sucker.rules import RULES as SUCKER

pytestmark = pytest.mark.browser

SIZES = ((1366, 900), (390, 844))


def account(server: Server, prefix: str) -> dict[str, Any]:
    out: dict[str, Any] = server.api("POST", "/api/users", json={"username": unique(prefix)})
    return out


def from_position(
    server: Server, game: str, position: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """A started game from `position`, every seat a person who does not act, and a
    spectator; returns the game id and the spectator's account."""
    seats = int(position["seats"])
    people = [account(server, f"r{game[:2]}{i}-") for i in range(seats)]
    watcher = account(server, f"r{game[:2]}w-")
    body = {"game": game, "name": f"Results {game}", "position": position, "period_seconds": 3600}
    game_id: str = server.api("POST", "/api/games", people[0]["token"], json=body)["id"]
    for p in people[1:]:
        server.api("POST", f"/api/games/{game_id}/join", p["token"], json={"role": "player"})
    server.api("POST", f"/api/games/{game_id}/join", watcher["token"], json={"role": "spectator"})
    server.api("POST", f"/api/games/{game_id}/start", people[0]["token"], json={})
    return game_id, watcher


def view_of(server: Server, game_id: str, who: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = server.api("GET", f"/api/games/{game_id}/state", who["token"])
    return dict(out["observation"]["view"])


def watch(people: People, game_id: str, who: dict[str, Any], width: int, height: int) -> Page:
    page: Page = people.page(width, height)
    page.add_init_script(
        f"localStorage.setItem('parley.token', {json.dumps(who['token'])});"
        f"localStorage.setItem('parley.user', {json.dumps(json.dumps(who['user']))});"
    )
    page.goto(f"/#/game/{game_id}")
    return page


SCROLL = "(s) => document.querySelector(s).scrollIntoView({block: 'center'})"


def shot(page: Page, selector: str, path: Path) -> None:
    """A picture of one element; the table redraws as news arrives, so the element is
    found afresh and the picture is of its place on the screen."""
    box = None
    for _ in range(5):  # bounded: a redraw may fall between finding it and measuring it
        expect(page.locator(selector)).to_be_visible()
        page.evaluate(SCROLL, selector)
        box = page.locator(selector).bounding_box()
        if box is not None:
            break
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"] + 1
    page.screenshot(path=str(path), clip=box)


def dice_of(page: Page, selector: str) -> list[int]:
    return [int(t) for t in page.locator(selector).all_inner_texts()]


def test_illuminati_last_attack_and_bank(people: People, screenshots: Path) -> None:
    match = played(ATTACK)
    game_id, watcher = from_position(
        people.server, "illuminati", ILLUMINATI.write_position(match.state)
    )
    view = view_of(people.server, game_id, watcher)
    last, bank = view["last_attack"], view["bank"]
    assert last["result"] == "controlled" and last["dice"] == [3, 3]
    for width, height in SIZES:
        page = watch(people, game_id, watcher, width, height)
        box = page.locator("#il-last-attack")
        expect(box.locator(".il-last-title")).to_contain_text("Player 2 (")
        expect(box.locator(".il-last-title")).to_contain_text(
            "Servants of Cthulhu on Madison Avenue (uncontrolled) to control"
        )
        expect(box).to_contain_text(f"Power {last['power']} against {last['resistance']}")
        expect(box).to_contain_text(f"Needed {last['need']} or less")
        assert dice_of(page, "#il-last-dice .il-die") == last["dice"]
        expect(box).to_have_attribute("data-result", "controlled")
        # The log's sentence for this attack is the box's last line, not a second box.
        expect(page.locator("#il-result")).to_have_count(1)
        expect(box.locator("#il-result")).to_contain_text(
            "Player 2 takes control of Madison Avenue"
        )
        shown_terms = box.locator(".il-last-terms li")
        expect(shown_terms).to_have_count(len([v for v in last["terms"].values() if v]))
        bank_line = page.locator("#il-bank")
        expect(bank_line).to_contain_text(f"paid out {bank['paid']} MB")
        expect(bank_line).to_contain_text(f"received {bank['received']} MB")
        expect(bank_line).to_contain_text(f"{bank['money_in_play']} MB in play")
        shot(page, "#il-last-attack", screenshots / f"illuminati-last-attack-{width}.png")
        shot(page, "#il-status", screenshots / f"illuminati-bank-{width}.png")
        page.screenshot(path=str(screenshots / f"illuminati-results-page-{width}.png"))


def test_campus_last_combat(people: People, screenshots: Path) -> None:
    match = until_combat(0)
    game_id, watcher = from_position(people.server, "campus", CAMPUS.write_position(match.state))
    fight = view_of(people.server, game_id, watcher)["last_combat"]
    assert fight["result"] == "defender_wins"
    for width, height in SIZES:
        page = watch(people, game_id, watcher, width, height)
        box = page.locator("#cc-last-combat")
        expect(box).to_be_visible()
        for role in ("attacker", "defender"):
            side = fight[role]
            shown = box.locator(f'.cc-fighter[data-role="{role}"]')
            expect(shown).to_contain_text(side["sector"])
            expect(shown.locator(".die")).to_have_text(str(side["roll"]))
            expect(shown).to_contain_text(f"d{side['die']} · level {side['level']}")
            expect(shown.locator(".cc-total")).to_have_text(str(side["total"]))
            expect(shown).to_contain_text(f"+{side['bonus']} =")
        expect(box.locator('.cc-fighter[data-role="attacker"]')).to_contain_text("Beech (")
        tie = fight["attacker"]["total"] == fight["defender"]["total"]
        expect(box.locator("#cc-last-result")).to_have_text(
            f"The defender wins{' the tie' if tie else ''}: Beech's unit is destroyed"
        )
        shot(page, "#cc-last-combat", screenshots / f"campus-last-combat-{width}.png")


def test_planets_last_combat(people: People, screenshots: Path) -> None:
    match = planets_until(2, over("space"))
    game_id, watcher = from_position(people.server, "planets", PLANETS.write_position(match.state))
    fight = view_of(people.server, game_id, watcher)["last_combat"]
    assert (fight["kind"], fight["where"]) == ("space", "0402")
    for width, height in SIZES:
        page = watch(people, game_id, watcher, width, height)
        box = page.locator("#pc-last-combat")
        expect(box).to_contain_text("Last combat: Space combat at 0402")
        rounds = box.locator("#pc-rounds > li")
        expect(rounds).to_have_count(len(fight["rounds"]))
        for i, r in enumerate(fight["rounds"]):
            for k, seat in enumerate((fight["attacker"], fight["defender"])):
                side = f'#pc-rounds > li[data-round="{i + 1}"] .pc-round-side[data-seat="{seat}"]'
                assert dice_of(page, f"{side} .die") == r["rolls"][k]
                hits = r["hits"][k]
                expect(page.locator(f"{side} .pc-hits")).to_have_text(
                    f"{hits} {'hit' if hits == 1 else 'hits'}"
                )
        expect(box.locator("#pc-last-result")).to_have_text("Red wins")
        shot(page, "#pc-last-combat", screenshots / f"planets-last-combat-{width}.png")


def test_planets_bombardment_is_one_volley(people: People, screenshots: Path) -> None:
    match = planets_until(5, over("bombardment"))
    game_id, watcher = from_position(people.server, "planets", PLANETS.write_position(match.state))
    fight = view_of(people.server, game_id, watcher)["last_combat"]
    assert fight["result"] == "fired" and len(fight["rounds"]) == 1
    volley = fight["rounds"][0]
    page = watch(people, game_id, watcher, 390, 844)
    box = page.locator("#pc-last-combat")
    expect(box).to_contain_text(f"Last combat: Bombardment at {fight['where']}")
    expect(box).to_contain_text("Blue bombards Green")
    expect(box).not_to_contain_text("Round 1")  # one volley, no rounds to count
    side = f'#pc-rounds .pc-round-side[data-seat="{fight["attacker"]}"]'
    assert dice_of(page, f"{side} .die") == volley["rolls"][0]
    # The side that rolls nothing back (the planet's defenders) is not drawn as a row.
    expect(box.locator(".pc-round-side")).to_have_count(1 if not volley["rolls"][1] else 2)
    expect(box.locator("#pc-last-result")).to_have_text("Fired")
    shot(page, "#pc-last-combat", screenshots / "planets-bombardment-390.png")


def test_sucker_last_capture(people: People, screenshots: Path) -> None:
    match = sucker_until(killed)
    game_id, watcher = from_position(people.server, "sucker", SUCKER.write_position(match.state))
    capture = view_of(people.server, game_id, watcher)["last_capture"]
    assert capture["killed"] == "yellow"
    for width, height in SIZES:
        page = watch(people, game_id, watcher, width, height)
        box = page.locator("#sls-last-capture")
        expect(box).to_contain_text(f"Last capture: pile {capture['pile']}")
        expect(box).to_contain_text("Blue played on it and Blue captured it")
        pile = box.locator("#sls-capture-pile [data-chip]")
        expect(pile).to_have_count(len(capture["chips"]))
        assert [pile.nth(i).get_attribute("data-chip") for i in range(pile.count())] == (
            capture["chips"]
        )
        expect(box.locator("[data-killed]")).to_have_attribute("data-killed", capture["killed"])
        taken = box.locator("#sls-capture-outcome .taken [data-chip]")
        assert [taken.nth(i).get_attribute("data-chip") for i in range(taken.count())] == (
            capture["taken"]
        )
        shot(page, "#sls-last-capture", screenshots / f"sucker-last-capture-{width}.png")
