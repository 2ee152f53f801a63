"""Persistence on SQLite and on PostgreSQL: schema, record, snapshots, concurrent writers."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from functools import partial
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from tests.server.conftest import LiveServer, make_settings, sign_up
from tests.server.test_play import start_game

from parley.kernel import ARCHIVE, StaleState
from parley.server.app import build_services
from parley.server.db.migrate import current_revision
from parley.server.db.models import Base
from parley.server.schemas import ActionIn, CreateGame
from parley.server.services import Services
from parley.server.vocab import Role


@pytest.fixture
def services(database_url: str) -> Iterator[Services]:
    svc = build_services(make_settings(database_url))
    yield svc
    svc.tables.db.dispose()


def test_migrations_build_exactly_the_models(services: Services) -> None:
    engine = services.tables.db.engine
    assert current_revision(engine) == "0016"
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []


def test_a_whole_game_on_each_backend(live_on: LiveServer) -> None:
    amy, bob, spec = (sign_up(live_on.url, n) for n in ("amy", "bob", "spec"))
    gid, _seats = start_game(amy, [bob], "sealed-bids", period_seconds=60, options={"rounds": 3})
    spec.post(f"/api/games/{gid}/join", {"role": "spectator"})
    ws = spec.ws(gid)
    ws.wait_for(lambda m: m["type"] == "state")
    amy.post(f"/api/games/{gid}/press", {"text": "good luck"})
    amy.post(f"/api/games/{gid}/actions", {"action": "bid 5"})
    bob.post(f"/api/games/{gid}/actions", {"action": "bid 2"})
    amy.post(f"/api/games/{gid}/actions", {"action": "bid 1", "state_id": 1})
    assert live_on.advance(60) == 1  # bob's round-2 bid by default
    amy.post(f"/api/games/{gid}/draw", {"accept": True})
    bob.post(f"/api/games/{gid}/draw", {"accept": False})
    amy.post(f"/api/games/{gid}/actions", {"action": "bid 0"})
    bob.post(f"/api/games/{gid}/actions", {"action": "bid 4"})
    game = spec.get(f"/api/games/{gid}")
    assert game["status"] == "finished"
    final = ws.wait_for(lambda m: m["type"] == "game" and m["game"]["status"] == "finished")
    assert final["game"]["outcome"] == game["outcome"]
    archive = spec.get(f"/api/games/{gid}/record", params={"view": "archive"})["record"]
    kinds = [e["type"] for e in archive["entries"]]
    assert kinds == [
        "press",
        "action",
        "action",
        "action",
        "action",
        "vote",
        "vote",
        "draw",
        "action",
        "action",
    ]
    ws.wait_for(lambda m: m["type"] == "entries" and m["seq"] == len(kinds))
    assert ws.entries() == {e["seq"]: e for e in spec.get(f"/api/games/{gid}/history")["entries"]}
    ws.close()


def _play(svc: Services, gid: str, user: Any, text: str, state_id: int | None = None) -> Any:
    return svc.play.act(user, gid, ActionIn(action=text, state_id=state_id))


def _two_player_game(svc: Services, game: str, **options: Any) -> tuple[str, Any, Any]:
    amy, _ = svc.accounts.register("amy", None)
    bob, _ = svc.accounts.register("bob", None)
    gid = svc.lobby.create(amy, CreateGame(game=game, options=options)).id
    svc.lobby.join(bob, gid, role=Role.PLAYER, invite_code=None)
    svc.lobby.start(amy, gid, None)
    return gid, amy, bob


def test_illuminati_games_from_before_new_options_keep_their_rules(services: Services) -> None:
    """Games stored without `privilege_by`, `lasers` and `destroyed_alone` get the values
    the engine played by before those options existed; newer games keep theirs."""
    from alembic import command
    from sqlalchemy import select, update

    from parley.server.db.migrate import alembic_config
    from parley.server.db.models import Game

    svc = services
    amy, _ = svc.accounts.register("amy", None)
    old = svc.lobby.create(amy, CreateGame(game="illuminati")).id
    new = svc.lobby.create(amy, CreateGame(game="illuminati", options={"lasers": "switch"})).id
    engine = svc.tables.db.engine
    legacy = ("privilege_by", "lasers", "destroyed_alone")
    with engine.begin() as conn:  # as stored by the code before those options
        stored = conn.execute(select(Game.options).where(Game.id == old)).scalar_one()
        before = {k: v for k, v in stored.items() if k not in legacy}
        conn.execute(update(Game).where(Game.id == old).values(options=before))
    config = alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.stamp(config, "0007")
        # The data migrations to test; the later ones create what the models made already.
        command.upgrade(config, "0009")
        command.stamp(config, "head")
    assert current_revision(engine) == "0016"
    with engine.connect() as conn:
        options = dict(conn.execute(select(Game.id, Game.options)).all())
    assert options[old] == {
        **before,
        "privilege_by": "anyone",
        "lasers": "add_remove_reverse",
        "destroyed_alone": "dead",
    }
    assert options[new]["lasers"] == "switch"
    assert options[new]["destroyed_alone"] == "center"


def test_illuminati_games_from_before_round_ends_keep_counting_from_player_1(
    services: Services,
) -> None:
    """A game stored without `round_ends` was played counting rounds from Player 1: it
    gets `player_1`; a newer game keeps the count from the first player."""
    from alembic import command
    from sqlalchemy import select, update

    from parley.server.db.migrate import alembic_config
    from parley.server.db.models import Game

    svc = services
    amy, _ = svc.accounts.register("amy", None)
    old = svc.lobby.create(amy, CreateGame(game="illuminati")).id
    new = svc.lobby.create(amy, CreateGame(game="illuminati")).id
    engine = svc.tables.db.engine
    with engine.begin() as conn:  # as stored by the code before the option
        stored = conn.execute(select(Game.options).where(Game.id == old)).scalar_one()
        before = {k: v for k, v in stored.items() if k != "round_ends"}
        conn.execute(update(Game).where(Game.id == old).values(options=before))
    config = alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.stamp(config, "0008")
        # The data migrations to test; the later ones create what the models made already.
        command.upgrade(config, "0009")
        command.stamp(config, "head")
    with engine.connect() as conn:
        options = dict(conn.execute(select(Game.id, Game.options)).all())
    assert options[old] == {**before, "round_ends": "player_1"}
    assert options[new]["round_ends"] == "first_player"


def test_illuminati_games_from_before_move_overflow_keep_moving_at_once(
    services: Services,
) -> None:
    """A game stored without `move_overflow` moved groups at once (what did not fit waited
    for room): it gets `wait`; a newer game keeps the seed's question (`confirm`)."""
    from alembic import command
    from sqlalchemy import select, update

    from parley.server.db.migrate import alembic_config
    from parley.server.db.models import Game

    svc = services
    amy, _ = svc.accounts.register("amy", None)
    old = svc.lobby.create(amy, CreateGame(game="illuminati")).id
    new = svc.lobby.create(amy, CreateGame(game="illuminati")).id
    engine = svc.tables.db.engine
    with engine.begin() as conn:  # as stored by the code before the option
        stored = conn.execute(select(Game.options).where(Game.id == old)).scalar_one()
        before = {k: v for k, v in stored.items() if k != "move_overflow"}
        conn.execute(update(Game).where(Game.id == old).values(options=before))
    config = alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.stamp(config, "0011")
        command.upgrade(config, "0012")
    with engine.connect() as conn:
        options = dict(conn.execute(select(Game.id, Game.options)).all())
    assert options[old] == {**before, "move_overflow": "wait"}
    assert options[new]["move_overflow"] == "confirm"


def test_a_game_loads_from_snapshots_and_the_record_alike(database_url: str) -> None:
    svc = build_services(make_settings(database_url, snapshot_every=4))
    try:
        gid, amy, bob = _two_player_game(svc, "sealed-bids", rounds=9)
        for r in range(7):
            _play(svc, gid, amy, f"bid {r % 6}")
            _play(svc, gid, bob, f"bid {(r * 5) % 6}")
        expected = svc.tables.view(gid, lambda live: live.match.to_json())  # type: ignore[union-attr]
        with svc.tables.db.read() as s:
            snaps = s.connection().exec_driver_sql("SELECT seq FROM snapshots ORDER BY seq").all()
        assert [r[0] for r in snaps] == [4, 8, 12]
        fresh = build_services(make_settings(database_url, snapshot_every=4, migrate=False))
        loaded = fresh.tables.view(gid, lambda live: live.match)
        assert loaded is not None and loaded.to_json() == expected
        # A snapshot written by other code is ignored: the record is replayed instead.
        with svc.tables.db.write() as s:
            s.execute(text("UPDATE snapshots SET data = :d"), {"d": b"garbage"})
        third = build_services(make_settings(database_url, migrate=False))
        again = third.tables.view(gid, lambda live: live.match)
        assert again is not None and again.to_json() == expected
        assert again.observe(ARCHIVE) == loaded.observe(ARCHIVE)
        for other in (fresh, third):
            other.tables.db.dispose()
    finally:
        svc.tables.db.dispose()


def test_a_stale_process_reloads_before_it_writes(database_url: str) -> None:
    one = build_services(make_settings(database_url))
    two = build_services(make_settings(database_url, migrate=False))
    try:
        gid, amy, bob = _two_player_game(one, "sealed-bids", rounds=5)
        two.tables.view(gid, lambda live: None)  # process two caches the game at state 0
        _play(one, gid, amy, "bid 1", state_id=0)
        _play(one, gid, bob, "bid 2", state_id=0)  # state 1 now; two's cache is behind
        with pytest.raises(StaleState):
            _play(two, gid, amy, "bid 3", state_id=0)
        out = _play(two, gid, amy, "bid 3", state_id=1)
        assert out.entry["seq"] == 2
        # Process one learns of two's write from the bus (here: by hand) and reads it.
        one.tables.mark_stale(gid, version=None)
        assert one.tables.view(gid, lambda live: live.row.seq) == 3
    finally:
        one.tables.db.dispose()
        two.tables.db.dispose()


def test_simultaneous_submissions_never_both_apply(database_url: str) -> None:
    """Two processes race to submit for the same seat and state: exactly one applies."""
    one = build_services(make_settings(database_url))
    two = build_services(make_settings(database_url, migrate=False))
    try:
        gid, amy, bob = _two_player_game(one, "countdown", start=99)
        seat_of = one.tables.view(gid, lambda live: {m.user_id: m.seat for m in live.members})
        for _ in range(6):
            owed = one.tables.view(gid, lambda live: min(live.match.turn().owing))  # type: ignore[union-attr]
            user = amy if seat_of[amy.id] == owed else bob
            state_id = one.tables.view(gid, lambda live: live.match.state_id)  # type: ignore[union-attr]
            two.tables.view(gid, lambda live: None)  # both processes are at the same state
            results: list[str] = []
            barrier = threading.Barrier(2)
            submit = partial(_race, barrier, results, gid, user)
            threads = [
                threading.Thread(target=submit, args=(one, "take 1")),
                threading.Thread(target=submit, args=(two, "take 2")),
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=10)
            assert sorted(r.startswith("ok") for r in results) == [False, True], results
            assert "OutOfTurn" in results
            assert one.tables.view(gid, lambda live: live.match.state_id) == state_id + 1  # type: ignore[union-attr]
    finally:
        one.tables.db.dispose()
        two.tables.db.dispose()


def _race(
    barrier: threading.Barrier, results: list[str], gid: str, user: Any, svc: Services, text: str
) -> None:
    barrier.wait()
    try:
        _play(svc, gid, user, text)
        results.append("ok")
    except Exception as err:
        results.append(type(err).__name__)


def test_entries_are_append_only_rows_with_actor_and_state(database_url: str) -> None:
    svc = build_services(make_settings(database_url))
    try:
        gid, amy, bob = _two_player_game(svc, "sealed-bids", rounds=2)
        _play(svc, gid, amy, "bid 1")
        _play(svc, gid, bob, "bid 2")
        with svc.tables.db.read() as s:
            rows = (
                s.connection()
                .exec_driver_sql("SELECT seq, kind, actor, state_id FROM entries ORDER BY seq")
                .all()
            )
        assert [tuple(r) for r in rows] == [
            (0, "action", f"user:{amy.id}", 0),
            (1, "action", f"user:{bob.id}", 0),
        ]
        # The key (game_id, seq) refuses a second entry with a number already taken.
        with pytest.raises(IntegrityError), svc.tables.db.write() as s:
            s.execute(
                text(
                    "INSERT INTO entries (game_id, seq, kind, data, actor, state_id, created_at)"
                    " VALUES (:g, 1, 'action', '{}', 'x', 0, 0)"
                ),
                {"g": gid},
            )
    finally:
        svc.tables.db.dispose()


def test_processes_starting_together_migrate_once(database_url: str) -> None:
    import subprocess
    import sys

    code = (
        "import sys; from parley.server.db.engine import make_engine;"
        "from parley.server.db.migrate import upgrade, current_revision;"
        "e = make_engine(sys.argv[1]); upgrade(e); print(current_revision(e))"
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, database_url],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    results = [p.communicate(timeout=60) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], [err[-500:] for _, err in results]
    assert [out.strip() for out, _ in results] == ["0016"] * 3


def test_planets_games_from_before_the_rules_option_keep_the_compact_game(
    services: Services,
) -> None:
    """A Planet Control game stored without `rules` was the compact game: it gets
    `compact`; a newer game keeps the fuller round it was started with."""
    from alembic import command
    from sqlalchemy import select, update

    from parley.server.db.migrate import alembic_config
    from parley.server.db.models import Game

    svc = services
    amy, _ = svc.accounts.register("amy", None)
    old = svc.lobby.create(amy, CreateGame(game="planets")).id
    new = svc.lobby.create(amy, CreateGame(game="planets")).id
    engine = svc.tables.db.engine
    with engine.begin() as conn:  # as stored by the code before the option
        stored = conn.execute(select(Game.options).where(Game.id == old)).scalar_one()
        before = {k: v for k, v in stored.items() if k != "rules"}
        conn.execute(update(Game).where(Game.id == old).values(options=before))
    config = alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.stamp(config, "0015")
        command.upgrade(config, "0016")
    with engine.connect() as conn:
        options = dict(conn.execute(select(Game.id, Game.options)).all())
    assert options[old] == {**before, "rules": "compact"}
    assert options[new]["rules"] == "full"
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0015")
    with engine.connect() as conn:
        options = dict(conn.execute(select(Game.id, Game.options)).all())
    assert "rules" not in options[old] and "rules" not in options[new]
