"""A game's options never make the server read a file: maps and galaxies go by name."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from tests.server.conftest import Client, LiveServer

from parley.games.planets import galaxy

Users = Callable[..., Client]


@pytest.mark.parametrize(
    ("game", "option", "value"),
    [
        ("planets", "galaxy", "/etc/passwd"),
        ("planets", "galaxy", "secrets.toml"),
        ("planets", "galaxy", "..\\x.toml"),
        ("campus", "map", "../../campus"),
    ],
)
def test_a_path_in_the_options_is_refused_unread(
    live: LiveServer,
    users: Users,
    monkeypatch: pytest.MonkeyPatch,
    game: str,
    option: str,
    value: str,
) -> None:
    opened: list[str] = []

    def spy(path: str | Path) -> object:
        opened.append(str(path))
        raise AssertionError(f"the server read {path}")

    monkeypatch.setattr(galaxy, "read_galaxy", spy)
    galaxy.galaxy_for.cache_clear()
    amy = users("amy")
    answer = amy.post("/api/games", {"game": game, "options": {option: value}}, expect=400)
    assert "by name" in answer["message"] and option in answer["message"]
    assert opened == []


def test_built_in_galaxies_and_maps_are_still_taken_by_name(live: LiveServer, users: Users) -> None:
    amy = users("amy")
    amy.post("/api/games", {"game": "planets", "options": {"galaxy": "trine"}}, expect=201)
    amy.post("/api/games", {"game": "campus", "options": {"map": "campus"}}, expect=201)
