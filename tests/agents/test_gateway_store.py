"""The gateway's stores: one contract for memory and the database, and a server restart."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from examples import gateway_agent
from fastapi.testclient import TestClient
from tests.kernel.toygames import Countdown
from tests.server import conftest as server_fixtures
from tests.server.conftest import make_settings

from parley import games
from parley.server import Limits, Settings, create_app
from parley.server.app import build_services
from parley.server.clock import ManualClock
from parley.server.gateway import (
    DecisionStatus,
    GatewayConfig,
    GatewayStore,
    MemoryStore,
    SqlStore,
    install,
)
from parley.server.gateway.store import AgentProfile, DecisionRecord, Note
from parley.server.schemas import CreateGame

# The server tests' backend fixture (a SQLite file, and a fresh PostgreSQL schema — required
# under CI=true, skipped elsewhere when no server is reachable), shared rather than copied.
database_url = server_fixtures.database_url

SECRET = "PRIVATE-REASONING-c41e"


@pytest.fixture(autouse=True)
def countdown() -> Iterator[None]:
    added = Countdown().spec.name not in games.names()
    if added:
        games.register(Countdown())
    yield
    if added:
        games.unregister(Countdown().spec.name)


@dataclass(frozen=True)
class World:
    """A store, and two users and two games it may refer to."""

    store: GatewayStore
    users: tuple[int, int]
    games: tuple[str, str]


def _decision(game_id: str, user_id: int, seat: int, state_id: int, at: float) -> DecisionRecord:
    return DecisionRecord(game_id, seat, state_id, user_id, at, at + 30.0)


class Contract:
    """What any `GatewayStore` does; subclasses provide the `world` fixture."""

    def test_agents_are_saved_found_and_replaced(self, world: World) -> None:
        store, (ann, bob) = world.store, world.users
        assert store.agent(ann) is None
        store.save_agent(AgentProfile(ann, "ann", "first try", 30.0))
        store.save_agent(AgentProfile(bob, "bob", "", 12.5))
        assert store.agent(ann) == AgentProfile(ann, "ann", "first try", 30.0)
        store.save_agent(AgentProfile(ann, "ann", "thinks in ünïcode ✓\nand lines", 7.25))
        assert store.agent(ann) == AgentProfile(ann, "ann", "thinks in ünïcode ✓\nand lines", 7.25)
        assert store.agent(bob) == AgentProfile(bob, "bob", "", 12.5)

    def test_a_decision_is_saved_then_updated_in_place(self, world: World) -> None:
        store, (ann, _), (g1, _) = world.store, world.users, world.games
        assert store.decision(g1, 0, 3) is None
        opened = _decision(g1, ann, 0, 3, 100.0)
        store.save_decision(opened)
        assert store.decision(g1, 0, 3) == opened
        assert store.decision(g1, 1, 3) is None and store.decision(g1, 0, 4) is None
        tried = replace(opened, attempts=2)
        store.save_decision(tried)
        assert store.decision(g1, 0, 3) == tried
        closed = replace(tried, status=DecisionStatus.DEFAULTED, played="take 1; and more")
        store.save_decision(closed)
        found = store.decision(g1, 0, 3)
        assert found == closed and found is not None and found.status is DecisionStatus.DEFAULTED
        assert store.decisions_of(g1) == [closed]

    def test_open_decisions_and_a_games_decisions_in_order(self, world: World) -> None:
        store, (ann, bob), (g1, g2) = world.store, world.users, world.games
        late = _decision(g1, ann, 0, 5, 200.0)
        early = _decision(g1, bob, 1, 2, 100.0)
        same_time = _decision(g1, ann, 0, 1, 200.0)
        elsewhere = _decision(g2, bob, 0, 1, 50.0)
        for record in (late, early, same_time, elsewhere):
            store.save_decision(record)
        store.save_decision(replace(early, status=DecisionStatus.ACCEPTED, played="take 2"))
        store.save_decision(replace(elsewhere, status=DecisionStatus.TIMED_OUT))
        accepted = replace(early, status=DecisionStatus.ACCEPTED, played="take 2")
        assert store.decisions_of(g1) == [accepted, same_time, late]
        assert store.decisions_of(g2) == [replace(elsewhere, status=DecisionStatus.TIMED_OUT)]
        assert sorted(d.id for d in store.open_decisions()) == sorted([late.id, same_time.id])
        assert store.decisions_of("nosuchgame") == []

    def test_notes_keep_their_game_and_order(self, world: World) -> None:
        store, (ann, bob), (g1, g2) = world.store, world.users, world.games
        assert store.notes(g1) == []
        written = [
            Note(g1, 0, 4, ann, 300.0, "later state, written first"),
            Note(g2, 1, 1, bob, 10.0, "other game"),
            Note(g1, 1, 2, bob, 100.0, "x" * 20_000),
            Note(g1, 0, 4, ann, 300.0, "same decision again: ünïcode ✓"),
        ]
        for note in written:
            store.add_note(note)
        assert store.notes(g1) == [written[0], written[2], written[3]]
        assert store.notes(g2) == [written[1]]


class TestMemoryStore(Contract):
    @pytest.fixture
    def world(self) -> World:
        return World(MemoryStore(), (1, 2), ("g1", "g2"))


class TestSqlStore(Contract):
    @pytest.fixture
    def world(self, database_url: str) -> Iterator[World]:
        services = build_services(make_settings(database_url))
        try:
            ann, _ = services.accounts.register("ann", None)
            bob, _ = services.accounts.register("bob", None)
            made = [services.lobby.create(ann, CreateGame(game="countdown")).id for _ in "12"]
            yield World(SqlStore(services.tables.db.engine), (ann.id, bob.id), (made[0], made[1]))
        finally:
            services.tables.db.dispose()

    def test_another_process_sees_the_same_records(self, world: World, database_url: str) -> None:
        store, (ann, bob), (g1, _) = world.store, world.users, world.games
        store.save_agent(AgentProfile(ann, "ann", "", 5.0))
        store.save_decision(_decision(g1, bob, 1, 7, 40.0))
        store.add_note(Note(g1, 1, 7, bob, 41.0, "seen from elsewhere"))
        other = build_services(make_settings(database_url, migrate=False))
        try:
            seen = SqlStore(other.tables.db.engine)
            assert seen.agent(ann) == AgentProfile(ann, "ann", "", 5.0)
            assert [d.id for d in seen.open_decisions()] == [f"{g1}.1.7"]
            assert [n.text for n in seen.notes(g1)] == ["seen from elsewhere"]
            seen.save_decision(replace(_decision(g1, bob, 1, 7, 40.0), attempts=1))
            found = store.decision(g1, 1, 7)
            assert found is not None and found.attempts == 1
        finally:
            other.tables.db.dispose()


# --- a restart ------------------------------------------------------------------------------


def _call(
    client: TestClient, method: str, path: str, token: str, expect: int = 200, **kw: Any
) -> Any:
    reply = client.request(method, path, headers={"Authorization": f"Bearer {token}"}, **kw)
    assert reply.status_code == expect, f"{method} {path}: {reply.status_code} {reply.text}"
    return reply.json()


def _no_waiting(seconds: float) -> None:
    raise AssertionError("a bot answers at once: the agent never has to wait here")


def test_agents_decisions_and_reasoning_survive_a_restart(tmp_path: Path) -> None:
    clock = ManualClock()
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'restart.sqlite3'}",
        clock=clock,
        scheduler_poll_seconds=None,
        limits=Limits(rate_per_second=1000.0, rate_burst=1000.0, signup_burst=1000.0),
    )
    config = GatewayConfig(budget_seconds=30.0, max_attempts=3)

    first = create_app(settings)
    gateway = install(first, config, tick_seconds=None)
    assert isinstance(gateway.store, SqlStore)  # the default: the server's database
    with TestClient(first) as client:
        host = client.post("/api/users", json={"username": "host"}).json()["token"]
        reply = client.post(
            "/api/agents", json={"name": "keeper", "description": "remembers", "budget_seconds": 20}
        )
        assert reply.status_code == 201, reply.text
        agent = reply.json()["token"]
        spec = {"game": "countdown", "seats": 2, "host_role": "spectator", "options": {"start": 12}}
        gid = _call(client, "POST", "/api/games", host, 201, json=spec)["id"]
        _call(client, "POST", f"/api/games/{gid}/join", agent, json={"role": "player"})
        _call(client, "POST", f"/api/games/{gid}/bots", host, json={"bot": "random", "count": 1})
        _call(client, "POST", f"/api/games/{gid}/start", host)
        offered = _call(client, "GET", f"/api/agents/games/{gid}/decision", agent)["decision"]
        wrong = {"decision": offered["decision"], "action": "banana", "reasoning": "dropped"}
        refused = _call(client, "POST", f"/api/agents/games/{gid}/decision", agent, 422, json=wrong)
        assert refused["attempts_left"] == 2
    clock.advance(5.0)

    second = create_app(settings)
    install(second, config, tick_seconds=None)
    with TestClient(second) as client:
        me = _call(client, "GET", "/api/agents/me", agent)
        assert (me["name"], me["description"], me["budget_seconds"]) == (
            "keeper",
            "remembers",
            20.0,
        )
        again = _call(client, "GET", f"/api/agents/games/{gid}/decision", agent)["decision"]
        assert again["decision"] == offered["decision"]
        assert again["attempts_left"] == 2
        assert again["deadline"] == pytest.approx(offered["deadline"])
        assert again["remaining_seconds"] == pytest.approx(15.0)
        notes = _call(client, "GET", f"/api/agents/games/{gid}/reasoning", agent)["notes"]
        assert notes == []  # the reasoning of a refused answer is not kept
        right = {"decision": offered["decision"], "options": ["0"], "reasoning": SECRET}
        accepted = _call(client, "POST", f"/api/agents/games/{gid}/decision", agent, json=right)
        assert accepted["status"] == "accepted"

    third = create_app(settings)
    install(third, config, tick_seconds=None)
    with TestClient(third) as client:
        notes = _call(client, "GET", f"/api/agents/games/{gid}/reasoning", agent)["notes"]
        assert [n["text"] for n in notes] == [SECRET]
        _call(client, "GET", f"/api/agents/games/{gid}/research", host, 403)  # not over yet
        final = gateway_agent.play(client, gid, agent, wait=_no_waiting)
        assert final["status"] == "finished"
        research = _call(client, "GET", f"/api/agents/games/{gid}/research", host)
    texts = [n["text"] for n in research["reasoning"]]
    assert texts[0] == SECRET and len(texts) >= 2
    decisions = {d["decision"]: d for d in research["decisions"]}
    assert decisions[offered["decision"]]["attempts"] == 1
    assert decisions[offered["decision"]]["status"] == "accepted"
