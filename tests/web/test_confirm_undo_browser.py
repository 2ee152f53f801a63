"""Questions before actions that spend something, in the browser: announcing an Illuminati
attack asks first (the server's words on the option), Cancel sends nothing and keeps the
chosen attack, Yes announces it; a player who turns the questions off in the menu plays
straight on. And taking back: after a campus step that rolled nothing and found nothing
hidden, the player is offered "Undo it"; the step is taken back and the log keeps both."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.web.conftest import People, Server
from tests.web.illuminati_helpers import Person, act, by_seat, drive, seeded_game, sign_up, state

from parley import games
from parley.kernel import Match, Rng
from parley.kernel.conformance import random_step

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


def test_a_campus_step_is_taken_back_with_undo(server: Server, people: People) -> None:
    rules: Any = games.find("campus")
    players = [sign_up(server, f"un{i}") for i in range(3)]
    host = players[0]
    body = {"game": "campus", "name": "Undo", "seats": 3, "seed": 4, "period_seconds": 3600}
    gid = server.api("POST", "/api/games", host.token, json=body)["id"]
    for p in players[1:]:
        server.api("POST", f"/api/games/{gid}/join", p.token, json={"role": "player"})
    server.api("POST", f"/api/games/{gid}/start", host.token, json={})
    for p in players:
        p.seat = server.api("GET", f"/api/games/{gid}", p.token)["you"]["seat"]
    match: Match[Any, Any] = Match(rules, 3, seed=4)
    seat = match.turn().owed[0].seat
    mover = by_seat(players)[seat]
    assert state(server, gid, mover)["owes"]
    step = next(
        leaf
        for leaf in rules.options_tree(match.state, seat).leaves()
        if (trial := match.copy()).act(seat, leaf) and trial.can_take_back(seat)
    )
    page = asking_page(people, mover, gid)
    expect(page.locator("#board")).to_have_attribute("data-state-id", "0")
    expect(page.locator("#undo-button")).to_be_hidden()
    act(server, gid, mover, step)
    expect(page.locator("#undo-button")).to_be_visible()
    page.click("#undo-button")
    expect(page.locator(".toast").last).to_contain_text("taken back")
    expect(page.locator("#undo-button")).to_be_hidden()
    after = state(server, gid, mover)
    assert after["owes"] and not after["can_undo"] and after["seq"] == 2
    page.click("#tab-log")
    expect(page.locator(".log")).to_contain_text("took back #0")
    expect(page.locator(".log")).to_contain_text(step)  # the record keeps the step


@pytest.mark.parametrize(
    ("game", "seed", "kind"), [("sucker", 3, "play "), ("illuminati", 5, "give ")]
)
def test_undo_in_sucker_and_illuminati(
    server: Server, people: People, game: str, seed: int, kind: str
) -> None:
    """The same offer after a chip played (So Long Sucker) and a transfer of money
    (Illuminati): the game is played to that point through the API, as a local match of the
    same seed finds it."""
    rules: Any = games.find(game)
    players = [sign_up(server, f"u{game[:3]}{i}") for i in range(3)]
    body = {"game": game, "name": "Undo", "seats": 3, "seed": seed, "period_seconds": 3600}
    gid = server.api("POST", "/api/games", players[0].token, json=body)["id"]
    for p in players[1:]:
        server.api("POST", f"/api/games/{gid}/join", p.token, json={"role": "player"})
    server.api("POST", f"/api/games/{gid}/start", players[0].token, json={})
    for p in players:
        p.seat = server.api("GET", f"/api/games/{gid}", p.token)["you"]["seat"]
    match: Match[Any, Any] = Match(rules, 3, seed=seed)
    rng = Rng(9)
    found = None
    for _ in range(200):
        for owed in match.turn().owed:
            for leaf in rules.options_tree(match.state, owed.seat).leaves():
                if leaf.startswith(kind):
                    trial = match.copy()
                    trial.act(owed.seat, leaf)
                    if trial.can_take_back(owed.seat):
                        found = (owed.seat, leaf)
                        break
            if found:
                break
        if found:
            break
        random_step(match, rng)
    assert found is not None
    seats = by_seat(players)
    for entry in match.to_json()["entries"]:
        act(
            server, gid, seats[entry["seat"]], rules.format(rules.action_from_json(entry["action"]))
        )
    seat, leaf = found
    mover = seats[seat]
    page = asking_page(people, mover, gid)
    expect(page.locator("#board")).to_have_attribute(
        "data-state-id", str(state(server, gid, mover)["state_id"])
    )
    act(server, gid, mover, leaf)
    expect(page.locator("#undo-button")).to_be_visible()
    page.click("#undo-button")
    expect(page.locator("#undo-button")).to_be_hidden()
    after = state(server, gid, mover)
    assert after["owes"] and not after["can_undo"]
    page.click("#tab-log")
    expect(page.locator(".log")).to_contain_text("took back #")


def test_a_planet_control_activation_asks_before_spending_a_token(
    server: Server, people: People
) -> None:
    players = [sign_up(server, f"pcq{i}") for i in range(3)]
    body = {"game": "planets", "name": "Tokens", "seats": 3, "seed": 2, "period_seconds": 3600}
    gid = server.api("POST", "/api/games", players[0].token, json=body)["id"]
    for p in players[1:]:
        server.api("POST", f"/api/games/{gid}/join", p.token, json={"role": "player"})
    server.api("POST", f"/api/games/{gid}/start", players[0].token, json={})
    for p in players:
        p.seat = server.api("GET", f"/api/games/{gid}", p.token)["you"]["seat"]
    for _ in range(30):
        mover = next(p for p in players if state(server, gid, p)["owes"])
        st = state(server, gid, mover)
        leaves = _leaves(st["options"])
        activations = [x for x in leaves if x["action"].startswith("activate ")]
        if activations:
            break
        act(server, gid, mover, leaves[0]["action"])
    else:
        raise AssertionError("no activation was offered")
    system = activations[0]["action"].split(" ")[1]
    page = asking_page(people, mover, gid)
    hex_ = page.locator(f'#pc-galaxy .pc-system.clickable[data-system="{system}"]')
    hex_.click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text(f"Spend a command token to activate {system}?")
    dialog.get_by_role("button", name="Cancel").click()
    assert state(server, gid, mover)["state_id"] == st["state_id"]  # nothing sent
    hex_.click()
    page.click("#confirm-yes")
    expect(page.locator("#board")).not_to_have_attribute("data-state-id", str(st["state_id"]))
    entries = server.api("GET", f"/api/games/{gid}/history", mover.token)["entries"]
    assert entries[-1]["notation"] == f"activate {system}"


def _leaves(node: dict[str, Any] | None) -> list[dict[str, Any]]:
    if not node:
        return []
    if isinstance(node.get("action"), str):
        return [node]
    return [x for c in node.get("children") or [] for x in _leaves(c)]


def test_a_campus_attack_asks_with_its_chance(server: Server, people: People) -> None:
    rules: Any = games.find("campus")
    players = [sign_up(server, f"cca{i}") for i in range(3)]
    body = {"game": "campus", "name": "Odds", "seats": 3, "seed": 4, "period_seconds": 3600}
    gid = server.api("POST", "/api/games", players[0].token, json=body)["id"]
    for p in players[1:]:
        server.api("POST", f"/api/games/{gid}/join", p.token, json={"role": "player"})
    server.api("POST", f"/api/games/{gid}/start", players[0].token, json={})
    for p in players:
        p.seat = server.api("GET", f"/api/games/{gid}", p.token)["you"]["seat"]
    match: Match[Any, Any] = Match(rules, 3, seed=4)
    rng = Rng(5)
    attack = None
    for _ in range(400):
        seat = match.turn().owed[0].seat
        asked = [
            x
            for x in rules.options_tree(match.state, seat).leaves()
            if rules.confirm(match.state, seat, x)
        ]
        if asked:
            attack = (seat, asked[0], rules.confirm(match.state, seat, asked[0]))
            break
        random_step(match, rng)
    assert attack is not None
    seats = by_seat(players)
    for entry in match.to_json()["entries"]:
        act(
            server,
            gid,
            seats[entry["seat"]],
            rules.format(rules.action_from_json(entry["action"], None, None)),
        )
    seat, leaf, question = attack
    _, src, _, dst = leaf.split()
    mover = seats[seat]
    before = state(server, gid, mover)["seq"]
    page = asking_page(people, mover, gid)
    page.locator(f'.cc-sector[data-code="{src}"]').click()
    page.locator(f'.cc-sector[data-code="{dst}"]').click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text(question)
    expect(dialog).to_contain_text("% to win")
    dialog.get_by_role("button", name="Cancel").click()
    assert state(server, gid, mover)["seq"] == before  # nothing sent
