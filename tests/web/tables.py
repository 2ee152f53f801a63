"""Started tables of every game for page-wide checks (phones, accessibility): a host, the
other seats heuristic bots, and a spectator, all through the server's API."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Page
from tests.web.conftest import People, Server
from tests.web.pages import unique

GAMES = ("sucker", "diplomacy", "campus", "illuminati", "planets")
# What shows that a game's page has drawn its board.
DRAWN = {
    "sucker": ".player-card",
    "diplomacy": "#map .unit",
    "campus": "#campus-map .cc-sector",
    "illuminati": ".il-player",
    "planets": "#pc-galaxy .pc-system",
}
# The board's drawing, which must fit the screen's width.
BOARD = {
    "sucker": "#board",
    "diplomacy": "#map",
    "campus": "#campus-map",
    "illuminati": "#board",
    "planets": "#pc-galaxy",
}


@dataclass
class Account:
    token: str
    user: dict[str, Any]


def account(server: Server, prefix: str) -> Account:
    out = server.api("POST", "/api/users", json={"username": unique(prefix)})
    return Account(out["token"], out["user"])


def started(server: Server, game: str, host: Account, spectator: Account) -> str:
    """A started game of `game`: `host` in a seat, the rest bots, `spectator` watching."""
    body = {"game": game, "name": f"Table {game}", "period_seconds": 86400, "seed": 4}
    game_id: str = server.api("POST", "/api/games", host.token, json=body)["id"]
    server.api("POST", f"/api/games/{game_id}/join", spectator.token, json={"role": "spectator"})
    server.api("POST", f"/api/games/{game_id}/start", host.token, json={"fill_with": "heuristic"})
    return game_id


def open_as(people: People, who: Account | None, path: str, width: int, height: int) -> Page:
    """A new browser for `who` (signed out when None) on `path`."""
    page: Page = people.page(width, height)
    if who is not None:
        page.add_init_script(
            f"localStorage.setItem('parley.token', {json.dumps(who.token)});"
            f"localStorage.setItem('parley.user', {json.dumps(json.dumps(who.user))});"
        )
    page.goto(path)
    return page
