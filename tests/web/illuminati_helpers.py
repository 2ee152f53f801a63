"""Helpers for the Illuminati browser tests: people made over the HTTP API, games created
with a fixed seed, early actions driven through the API, pages opened with a session."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Page, expect
from tests.web.conftest import People, Server
from tests.web.pages import unique

# Every live message each person's browsers received, by person name (to check secrets).
FRAMES: dict[str, list[str]] = {}


@dataclass
class Person:
    name: str
    token: str
    user: dict[str, Any]
    seat: int | None = None
    page: Page | None = None


def sign_up(server: Server, prefix: str) -> Person:
    out = server.api("POST", "/api/users", json={"username": unique(prefix)})
    return Person(out["user"]["username"], out["token"], out["user"])


def open_game(
    people: People, person: Person, game_id: str, width: int = 1366, height: int = 900
) -> Page:
    """A browser for `person`, signed in, on the game's page."""
    page: Page = people.page(width, height)
    frames = FRAMES.setdefault(person.name, [])
    page.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(str(data))))
    page.add_init_script(
        f"localStorage.setItem('parley.token', {json.dumps(person.token)});"
        f"localStorage.setItem('parley.user', {json.dumps(json.dumps(person.user))});"
    )
    page.goto(f"/#/game/{game_id}")
    return page


def seeded_game(
    server: Server, players: list[Person], spectator: Person, seed: int, options: dict[str, Any]
) -> str:
    """A started game of Illuminati for `players` (joining in that order) and a spectator."""
    host = players[0]
    game = server.api(
        "POST",
        "/api/games",
        host.token,
        json={
            "game": "illuminati",
            "name": "Illuminati test",
            "seats": len(players),
            "options": options,
            "seed": seed,
            "period_seconds": 3600,
        },
    )
    game_id: str = game["id"]
    for p in players[1:]:
        server.api("POST", f"/api/games/{game_id}/join", p.token, json={"role": "player"})
    server.api("POST", f"/api/games/{game_id}/join", spectator.token, json={"role": "spectator"})
    server.api("POST", f"/api/games/{game_id}/start", host.token, json={})
    for p in players:
        p.seat = server.api("GET", f"/api/games/{game_id}", p.token)["you"]["seat"]
    return game_id


def state(server: Server, game_id: str, person: Person) -> dict[str, Any]:
    out: dict[str, Any] = server.api("GET", f"/api/games/{game_id}/state", person.token)
    return out


def act(server: Server, game_id: str, person: Person, text: str) -> None:
    server.api("POST", f"/api/games/{game_id}/actions", person.token, json={"action": text})


def by_seat(players: list[Person]) -> dict[int, Person]:
    return {p.seat: p for p in players if p.seat is not None}


def owed_seat(server: Server, game_id: str, person: Person) -> int | None:
    owed = state(server, game_id, person)["observation"]["view"]["owed"]
    return None if owed is None else int(owed["seat"])


def drive(
    server: Server, game_id: str, players: list[Person], steps: list[tuple[int, str]]
) -> None:
    """Play recorded (seat, action) steps through the API."""
    seats = by_seat(players)
    for seat, text in steps:
        act(server, game_id, seats[seat], text)


def wait_owed(page: Page, seat: int) -> None:
    expect(page.locator(f'.il-player[data-seat="{seat}"].owed')).to_have_count(1)
