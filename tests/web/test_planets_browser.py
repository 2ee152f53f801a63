"""Planet Control in the browser: two players and a spectator (the third seat a bot that
always passes). One player takes Mirren and its exploration card is shown to all; they
leave it under a control token; the other invades and takes it, and the card moves to the
invader's play area exhausted."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.web.conftest import People, Server
from tests.web.pages import join_by_id, same_player_elsewhere, settle, sign_in, unique

pytestmark = pytest.mark.browser

HOMES = {"red": "0301", "blue": "0504", "green": "0104"}
# For each colour: a planet next to its home, its system, and an empty-ish system next to it.
FRONTIER = {
    "red": ("Mirren", "0302", "0201"),
    "blue": ("Halvard", "0403", "0404"),
    "green": ("Vesta", "0203", "0204"),
}
# Carrier routes (one system per activation) from a home to another colour's frontier.
ROUTES = {
    ("blue", "red"): ["0403", "0303", "0302"],
    ("green", "red"): ["0203", "0202", "0302"],
    ("red", "blue"): ["0302", "0303", "0403"],
    ("green", "blue"): ["0203", "0303", "0403"],
    ("red", "green"): ["0201", "0202", "0203"],
    ("blue", "green"): ["0404", "0304", "0203"],
}
STEP_TITLE = "document.querySelector('#pc-controls h3')?.textContent ?? ''"


def colour_of(page: Page) -> str:
    colour = page.locator(".pc-player.me").get_attribute("data-colour")
    assert colour
    return colour


SEED = 2


def server_view(server: Server, page: Page, game_id: str) -> dict[str, Any]:
    """The view the server holds for the page's user (pages may still be drawing)."""
    token = page.evaluate("localStorage.getItem('parley.token')")
    view: dict[str, Any] = server.api("GET", f"/api/games/{game_id}/state", token)["observation"][
        "view"
    ]
    return view


def to_act(server: Server, page: Page, game_id: str) -> str:
    """Whose decision it is, asked of the server."""
    view = server_view(server, page, game_id)
    return str(view["players"][view["to_act"]]["colour"])


def in_step(server: Server, page: Page, game_id: str) -> None:
    """Wait until the page has drawn the state the server holds for its user."""
    token = page.evaluate("localStorage.getItem('parley.token')")
    drawn(page, server.api("GET", f"/api/games/{game_id}/state", token)["state_id"])


def drawn(page: Page, state_id: int) -> None:
    """Wait until the page's board shows state `state_id` or a later one."""
    page.wait_for_function(
        "n => Number(document.querySelector('#board')?.dataset.stateId ?? -1) >= n", arg=state_id
    )


def answered(page: Page, answer: Any) -> None:
    """The action was accepted, and the page has drawn the state it led to (or a later one):
    buttons left from the earlier drawing are never clicked."""
    assert answer.ok, answer.text()
    drawn(page, int(answer.json()["state_id"]))


def click(page: Page, action: str) -> None:
    """Click an offered action and wait until the page shows what the server made of it."""
    # Moves are also chosen by counts (test_rules_where_decided_browser); here by notation.
    page.evaluate("document.querySelectorAll('#pc-all-moves').forEach((d) => { d.open = true; })")
    button = page.locator(f'#pc-controls [data-action="{action}"]')
    expect(button).to_be_visible()
    with page.expect_response(
        lambda r: r.url.endswith("/actions") and r.request.method == "POST"
    ) as answer:
        button.click()
    answered(page, answer.value)


def step_title(page: Page, not_this: str) -> str:
    """The title of the step offered once the page has moved past `not_this`."""
    page.wait_for_function(f"({STEP_TITLE}) !== {not_this!r}")
    return str(page.evaluate(STEP_TITLE))


def move(page: Page, action: str) -> str:
    """Make a move, end the movement step if more moves are offered; the next step's title."""
    click(page, action)
    expect(page.locator("#pc-log")).to_contain_text(action.split(" ", 1)[1])
    if page.evaluate(STEP_TITLE) == "Movement":
        click(page, "done")
    return step_title(page, "Movement")


def activate(page: Page, system: str) -> None:
    """Click a highlighted system and wait until the server has answered the activation."""
    hex_ = page.locator(f'#pc-galaxy .pc-system.clickable[data-system="{system}"]')
    expect(hex_).to_be_visible()
    with page.expect_response(
        lambda r: r.url.endswith("/actions") and r.request.method == "POST"
    ) as answer:
        hex_.click()
    answered(page, answer.value)


def test_an_invasion_takes_a_planet_and_its_card_moves_exhausted(
    people: People, server: Server, screenshots: Path
) -> None:
    host, guest, watcher = people.page(), people.page(), people.page()
    for i, page in enumerate((host, guest, watcher)):
        sign_in(page, unique(f"pc{i}-"))
    # A fixed seed: the seat draw and the exploration decks are the same every run, and the
    # moves below are written for what they deal.
    token = host.evaluate("localStorage.getItem('parley.token')")
    game_id = server.api(
        "POST",
        "/api/games",
        token,
        json={
            "game": "planets",
            "name": "Planets test",
            "seats": 3,
            "seed": SEED,
            "options": {"rules": "compact"},  # the moves below are the compact game's
        },
    )["id"]
    host.goto(f"/#/game/{game_id}")
    join_by_id(guest, game_id, "player")
    join_by_id(watcher, game_id, "spectator")
    expect(host.locator("#lobby-players li")).to_have_count(3)  # two players, one spectator
    host.select_option("#start-fill", "default")  # the third seat only ever passes
    host.click("#start-game")
    host.click("#confirm-yes")  # it asks before filling empty seats with bots
    for page in (host, guest, watcher):
        expect(page.locator("#pc-galaxy .pc-system")).to_have_count(19)
    by_colour = {colour_of(host): host, colour_of(guest): guest}
    taker_colour, invader_colour = sorted(by_colour, key=list(HOMES).index)
    taker, invader = by_colour[taker_colour], by_colour[invader_colour]
    planet, system, refuge = FRONTIER[taker_colour]
    home = HOMES[taker_colour]

    # The taker lands on a planet next to home, then leaves it empty.
    def take() -> None:
        activate(taker, system)
        move(taker, f"move 1 carrier 2 infantry from {home} to {system}")
        click(taker, f"commit 2 infantry to {planet}")
        expect(taker.locator("#pc-log")).to_contain_text(f"gains control of {planet}")
        if step_title(taker, "Invasion 2: commit ground forces") == "Exploration":
            click(taker, f"explore cultural at {planet}")  # Mirren: the explorer picks the deck
        # The exploration card drawn for the newly controlled planet, shown to everyone.
        for page in (taker, invader, watcher):
            card = page.locator("#pc-explore-card")
            expect(card).to_have_attribute("data-planet", planet)
        held = watcher.locator(f'.pc-player[data-colour="{taker_colour}"] [data-card="{planet}"]')
        expect(held).to_have_attribute("data-state", "exhausted")
        settle(taker)
        taker.screenshot(path=str(screenshots / "planets-1366x900.png"))
        phone = same_player_elsewhere(people, taker, 390, 844)
        expect(phone.locator("#pc-galaxy")).to_be_visible()
        settle(phone)
        phone.screenshot(path=str(screenshots / "planets-390x844.png"), full_page=True)
        phone.close()

    def leave() -> None:
        activate(taker, refuge)
        move(taker, f"move 1 carrier 2 infantry from {system} to {refuge}")
        token = watcher.locator(f'[data-token="{planet}"]')  # a control token
        done = taker.locator('#pc-controls [data-action="done"]')
        # The steps after the move (the invasion's, when it offers them) each end with
        # "done"; a page that drew a step late must not make the test skip one.
        for _ in range(4):
            try:
                expect(token).to_have_count(1, timeout=5_000)
                return
            except AssertionError:
                if done.is_visible():
                    click(taker, "done")
        expect(token).to_have_count(1)

    # The invader carries four infantry across, one system per action, then lands.
    route = ROUTES[invader_colour, taker_colour]
    sources = [HOMES[invader_colour], *route]

    def hop(k: int) -> Callable[[], None]:
        def go() -> None:
            activate(invader, route[k])
            title = move(invader, f"move 1 carrier 4 infantry from {sources[k]} to {route[k]}")
            if k < len(route) - 1:
                if title.startswith("Invasion 2"):
                    click(invader, "done")  # commit nothing: they stay aboard
                return
            click(invader, f"commit 1 infantry to {planet}")
            click(invader, "done")

        return go

    def pass_(page: Page) -> Callable[[], None]:
        return lambda: click(page, "pass")

    # Ships under their owner's command token cannot move on: one step per round.
    plans = {
        taker_colour: [take, pass_(taker), leave, pass_(taker), pass_(taker)],
        invader_colour: [hop(0), pass_(invader), hop(1), pass_(invader), hop(2)],
    }
    while plans[invader_colour]:
        colour = to_act(server, watcher, game_id)
        assert colour in plans, f"{colour} should have passed"
        in_step(server, by_colour[colour], game_id)  # never act on a stale drawing
        plans[colour].pop(0)()

    # The invader holds the planet now: its card left the taker's play area and came to the
    # invader's, exhausted.
    taken = f"{invader_colour.title()} gains control of {planet}; its card comes exhausted from "
    for page in (taker, invader, watcher):
        circle = page.locator(f'#pc-galaxy .pc-planet[data-planet="{planet}"]')
        expect(circle).to_have_attribute("data-controller", invader_colour)
        card = page.locator(f'.pc-player[data-colour="{invader_colour}"] [data-card="{planet}"]')
        expect(card).to_have_attribute("data-state", "exhausted")
        old = page.locator(f'.pc-player[data-colour="{taker_colour}"] [data-card="{planet}"]')
        expect(old).to_have_count(0)
        expect(page.locator("#pc-log")).to_contain_text(
            taken + f"{taker_colour.title()}'s play area"
        )
    expect(watcher.locator("#pc-controls button")).to_have_count(0)
