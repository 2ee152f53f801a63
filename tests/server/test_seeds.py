"""A host's seed tells nothing of a game's hidden chance, and every game says where its seed
came from.

On an ordinary server a host's seed is mixed with a fresh secret: two games created with
the same seed differ, and a match built from that seed (as the host could build one) does
not foresee the game's hidden draws. A server set up for fixed seeds (the other tests run on
one) uses the seed as given, and every view of the game says so.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import update
from tests.server.conftest import Client, LiveServer, make_settings, sign_up, start_live_server

from parley import games
from parley.kernel import Match, replay
from parley.server.db.models import Game
from parley.server.export import records_in_database

SEED = 777


@pytest.fixture
def mixing(sqlite_url: str) -> Iterator[LiveServer]:
    """A server as people run it: host seeds mixed with a secret."""
    server = start_live_server(make_settings(sqlite_url, fixed_seeds=False))
    yield server
    server.stop()


def _hidden(name: str, match: Match[Any, Any]) -> Any:
    """The hidden chance of a fresh match: where it hides, how its decks lie, its dice."""
    state = match.state
    if name == "campus":
        return state.pvc, repr(state.rng)
    if name == "illuminati":
        return list(state.deck), repr(state.rng)
    return {kind: list(deck) for kind, deck in state.decks.items()}, repr(state.rng)


def _server_match(live: LiveServer, gid: str) -> Match[Any, Any]:
    def copy(game: Any) -> Match[Any, Any]:
        assert game.match is not None
        found: Match[Any, Any] = game.match.copy()
        return found

    return live.services.tables.view(gid, copy)


def _stored_seed(live: LiveServer, gid: str) -> int:
    with live.services.tables.db.read() as s:
        return int(s.get_one(Game, gid).seed)


@pytest.mark.parametrize("name", ["campus", "illuminati", "planets"])
def test_a_host_who_chose_the_seed_cannot_foresee_the_hidden_draws(
    mixing: LiveServer, name: str
) -> None:
    live = mixing
    rules = games.find(name)
    seats = rules.spec.min_seats
    host = sign_up(live.url, "host")
    body = {"game": name, "seats": seats, "seed": SEED}
    made = [host.post("/api/games", body, expect=201) for _ in range(2)]
    for game in made:
        host.post(f"/api/games/{game['id']}/start", {"fill_with": "random"})
    # What the host could compute from the seed they chose...
    options = rules.spec.resolve_options({})
    foreseen = _hidden(name, Match(rules, seats, options, seed=SEED))
    # ...is not what either game holds, and the two games differ from each other.
    held = [_hidden(name, _server_match(live, game["id"]).copy()) for game in made]
    assert foreseen not in held
    assert held[0] != held[1]
    seeds = [_stored_seed(live, game["id"]) for game in made]
    assert SEED not in seeds and seeds[0] != seeds[1]
    # Everyone is told the host chose the seed, and that it was mixed.
    assert all(game["seed_source"] == "host-mixed" for game in made)
    listed = {g["id"]: g for g in sign_up(live.url, "visitor").get("/api/games")["games"]}
    assert all(listed[game["id"]]["seed_source"] == "host-mixed" for game in made)


def test_the_game_replays_from_the_seed_it_keeps_and_its_archive_says_where_it_came_from(
    mixing: LiveServer, sqlite_url: str
) -> None:
    live = mixing
    host, bob = sign_up(live.url, "host"), sign_up(live.url, "bob")
    gid = host.post("/api/games", {"game": "campus", "seats": 2, "seed": SEED}, expect=201)["id"]
    drawn = host.post("/api/games", {"game": "campus", "seats": 2}, expect=201)
    assert drawn["seed_source"] == "server"
    bob.post(f"/api/games/{gid}/join", {"role": "player"})
    host.post(f"/api/games/{gid}/start")
    before = _hidden("campus", _server_match(live, gid))
    running = host.get(f"/api/games/{gid}/record")["record"]
    assert "seed" not in running and running["server"]["seed_source"] == "host-mixed"
    host.post(f"/api/games/{gid}/close")
    archive = bob.get(f"/api/games/{gid}/record", params={"view": "archive"})["record"]
    assert archive["seed"] == _stored_seed(live, gid) != SEED
    assert archive["server"]["seed_source"] == "host-mixed"
    rebuilt = replay(games.find("campus"), {**archive, "entries": []})
    assert _hidden("campus", rebuilt) == before  # the kept seed is the one that was used
    exported = dict(records_in_database(sqlite_url, finished_only=False))
    assert exported[gid]["seed"] == archive["seed"]
    assert exported[gid]["seed_source"] == "host-mixed"


def test_a_game_stored_before_seed_sources_keeps_its_seed_as_it_was(
    sqlite_url: str,
) -> None:
    live = start_live_server(make_settings(sqlite_url, fixed_seeds=False))
    try:
        host, bob = sign_up(live.url, "host"), sign_up(live.url, "bob")
        gid = host.post("/api/games", {"game": "campus", "seats": 2}, expect=201)["id"]
        bob.post(f"/api/games/{gid}/join", {"role": "player"})
        # An older server: the seed as the host gave it, and no word of where it came from.
        with live.services.tables.db.write() as s:
            s.execute(update(Game).where(Game.id == gid).values(seed=SEED, seed_source=None))
    finally:
        live.stop()
    live = start_live_server(make_settings(sqlite_url, fixed_seeds=False))
    try:
        host = Client(live.url, "host", token=host.token)  # the same user, on the new port
        host.post(f"/api/games/{gid}/start")
        assert host.get(f"/api/games/{gid}")["seed_source"] is None
        mirror: Match[Any, Any] = Match(games.find("campus"), 2, seed=SEED)
        assert _hidden("campus", _server_match(live, gid)) == _hidden("campus", mirror)
    finally:
        live.stop()


def test_on_a_server_for_fixed_seeds_the_game_says_its_host_can_know_the_draws(
    live: LiveServer, sqlite_url: str
) -> None:
    host, bob = sign_up(live.url, "host"), sign_up(live.url, "bob")
    game = host.post("/api/games", {"game": "campus", "seats": 2, "seed": SEED}, expect=201)
    assert game["seed_source"] == "host-fixed"
    gid = game["id"]
    bob.post(f"/api/games/{gid}/join", {"role": "player"})
    host.post(f"/api/games/{gid}/start")
    mirror: Match[Any, Any] = Match(games.find("campus"), 2, seed=SEED)
    assert _hidden("campus", _server_match(live, gid)) == _hidden("campus", mirror)
    for viewer in (host, bob, sign_up(live.url, "visitor")):
        assert viewer.get(f"/api/games/{gid}")["seed_source"] == "host-fixed"
        listed = {g["id"]: g for g in viewer.get("/api/games")["games"]}
        assert listed[gid]["seed_source"] == "host-fixed"
    host.post(f"/api/games/{gid}/close")
    archive = bob.get(f"/api/games/{gid}/record", params={"view": "archive"})["record"]
    assert (archive["seed"], archive["server"]["seed_source"]) == (SEED, "host-fixed")
    exported = dict(records_in_database(sqlite_url, finished_only=False))
    assert exported[gid]["seed_source"] == "host-fixed"
