"""Questions before actions that spend something, in the browser: announcing an Illuminati
attack asks first (the server's words on the option), Cancel sends nothing and keeps the
chosen attack, Yes announces it; a player who turns the questions off in the menu plays
straight on. (Taking actions back is not built yet.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from tests.web.conftest import People, Server
from tests.web.illuminati_helpers import Person, act, by_seat, drive, seeded_game, sign_up, state

pytestmark = pytest.mark.browser

OPENING = json.loads((Path(__file__).parent / "illuminati_opening.json").read_text())
TARGET = "Triliberal Commission"


def asking_page(people: People, person: Person, gid: str) -> Page:
    page: Page = people.page(confirm=True)
    page.add_init_script(
        f"localStorage.setItem('parley.token', {json.dumps(person.token)});"
        f"localStorage.setItem('parley.user', {json.dumps(json.dumps(person.user))});"
    )
    page.goto(f"/#/game/{gid}")
    return page


def choose_attack(page: Page) -> None:
    page.click("#il-mode-control")
    page.locator(f'#il-uncontrolled [data-card="{TARGET}"]').click()
    page.locator('.il-player[data-seat="0"] .il-grid [data-card="Gnomes of Zurich"]').click()


def test_an_attack_is_announced_only_once_confirmed(server: Server, people: People) -> None:
    players = [sign_up(server, f"cf{i}") for i in range(3)]
    watcher = sign_up(server, "cfw")
    gid = seeded_game(server, players, watcher, OPENING["seed"], OPENING["options"])
    for pick in OPENING["picks"]:
        chooser = state(server, gid, players[0])["observation"]["view"]["owed"]["seat"]
        act(server, gid, by_seat(players)[chooser], f"take {pick}")
    drive(server, gid, players, [tuple(s) for s in OPENING["steps"]])
    first = by_seat(players)[0]
    page = asking_page(people, first, gid)
    expect(page.locator("#il-turn")).to_be_visible()
    choose_attack(page)
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("Announce it")
    expect(dialog).to_contain_text("one of your two actions")
    dialog.get_by_role("button", name="Cancel").click()
    expect(page.locator("dialog[open]")).to_have_count(0)
    assert state(server, gid, first)["observation"]["view"]["attack"] is None  # nothing sent
    expect(page.locator("#il-hint")).to_contain_text(f"attacks {TARGET}")  # still chosen
    page.locator('.il-player[data-seat="0"] .il-grid [data-card="Gnomes of Zurich"]').click()
    page.click("#confirm-yes")
    expect(page.locator("#il-attack-box")).to_contain_text(f"attacks {TARGET}")
    assert state(server, gid, first)["observation"]["view"]["attack"]["target"] == TARGET
    # Questions turned off in the menu: the next announcement goes straight out.
    act(server, gid, first, "call off")
    page.click("#menu-button")
    page.locator("#menu-confirm").uncheck()
    assert page.evaluate("localStorage.getItem('parley.confirm')") == "off"
    page.keyboard.press("Escape")
    page.locator("#menu-button").click()
    expect(page.locator("#il-turn")).to_be_visible()
    page.click("#il-mode-control")
    page.locator(f'#il-uncontrolled [data-card="{TARGET}"]').click()
    page.locator('.il-player[data-seat="0"] .il-grid .il-target').first.click()  # who may
    expect(page.locator("#il-attack-box")).to_contain_text(f"attacks {TARGET}")
    expect(page.locator("dialog[open]")).to_have_count(0)
