"""Planet Control through the generic front ends: terminal, arena and agent gateway."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from parley import games
from parley.agents.arena import ArenaConfig, run_arena
from parley.cli import app
from parley.kernel import replay
from parley.server import Limits, Settings, create_app
from parley.server.clock import ManualClock
from parley.server.gateway import GatewayConfig, install

# Whatever Red owes, one of these answers it (Red activates its home, then passes).
ANSWERS = [
    "activate 0301",
    "done",
    "pass",
    "bombard none",
    "destroy infantry",
    "destroy destroyer",
    "destroy cruiser",
    "destroy carrier",
    "sustain dreadnought",
    "destroy dreadnought",
    "sustain mech",
    "destroy mech",
]


def test_a_human_plays_a_whole_game_in_the_terminal(tmp_path: Path) -> None:
    record = tmp_path / "planets.json"
    lines = ["banana", *ANSWERS * 80]
    result = CliRunner().invoke(
        app,
        [
            "play",
            "planets",
            "--seat",
            "1",
            "--seed",
            "3",
            "-o",
            "rounds=2",
            "-o",
            "rules=compact",
            "--save",
            str(record),
        ],
        input="\n".join(lines) + "\n",
    )
    assert result.exit_code == 0, result.output
    assert "'banana' is not understood" in result.output
    assert "Systems (id kind: command tokens; ships; planets):" in result.output
    assert "Aurel: 4R/2I, red (readied)" in result.output
    assert "Game over" in result.output
    data = json.loads(record.read_text())
    again = replay(games.find("planets"), data)
    assert again.is_over and again.to_json() == data


# The fuller round adds these: picks and strategic actions in an order that keeps Red away
# from Command (so its sheet stays `<n> 3 2` and one of the token lines fits), declining
# every secondary, and whatever each card's primary asks.
CARD_ORDER = ("mandate", "commerce", "survey", "foundations", "accord", "dominion", "mobilisation")
FULL_ANSWERS = [
    *(f"pick {c}" for c in (*CARD_ORDER, "command")),
    *(f"strategy {c}" for c in (*CARD_ORDER, "command")),
    "decline",
    "speaker red",
    "speaker blue",
    "seal 0301",
    "place pds on Aurel",
    "stay",
    "fire at blue",
    "fire at green",
    *(f"tokens {n} 3 2" for n in range(12)),
    *(f"remove {kind}" for kind in ("destroyer", "cruiser", "carrier", "dreadnought")),
    *ANSWERS,
]


@pytest.mark.parametrize("seats", [3, 5])
def test_a_human_plays_a_whole_full_rules_game_in_the_terminal(tmp_path: Path, seats: int) -> None:
    record = tmp_path / "planets.json"
    result = CliRunner().invoke(
        app,
        [
            *("play", "planets", "--seat", "1", "--players", str(seats), "--seed", "3"),
            *("-o", "rounds=2", "--save", str(record)),
        ],
        input="\n".join(FULL_ANSWERS * 60) + "\n",
    )
    assert result.exit_code == 0, result.output
    assert "Strategy cards (number name: holder; primary / secondary):" in result.output
    assert "Command sheets (tactic / fleet / strategy; reinforcements):" in result.output
    assert "Game over" in result.output
    data = json.loads(record.read_text())
    assert data["options"]["rules"] == "full"
    again = replay(games.find("planets"), data)
    assert again.is_over and again.to_json() == data


def test_the_arena_plays_heuristic_against_random(tmp_path: Path) -> None:
    config = ArenaConfig("planets", ("heuristic", "random"), games=4, seed=2, out=tmp_path)
    report = run_arena(config)
    assert len(report.results) == 4
    standings = report.summary["standings"]
    assert isinstance(standings, dict) and set(standings) == {"heuristic", "random"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'gateway.sqlite3'}",
        clock=ManualClock(),
        scheduler_poll_seconds=None,
        limits=Limits(rate_per_second=1000.0, rate_burst=1000.0, signup_burst=1000.0),
    )
    server = create_app(settings)
    install(server, GatewayConfig(budget_seconds=30.0, max_attempts=3), tick_seconds=None)
    with TestClient(server) as test_client:
        yield test_client


def _call(
    client: TestClient, method: str, path: str, token: str, expect: int = 200, **kw: Any
) -> Any:
    reply = client.request(method, path, headers={"Authorization": f"Bearer {token}"}, **kw)
    assert reply.status_code == expect, f"{method} {path}: {reply.status_code} {reply.text}"
    return reply.json()


def test_the_gateway_describes_the_galaxy_and_the_step(client: TestClient) -> None:
    host = client.post("/api/users", json={"username": "host"}).json()["token"]
    agent = client.post("/api/agents", json={"name": "strategist"}).json()["token"]
    spec = {
        "game": "planets",
        "seats": 3,
        "host_role": "spectator",
        "seed": 5,
        "options": {"rules": "compact"},
    }
    gid = _call(client, "POST", "/api/games", host, 201, json=spec)["id"]
    _call(client, "POST", f"/api/games/{gid}/join", agent, json={"role": "player"})
    _call(client, "POST", f"/api/games/{gid}/bots", host, json={"bot": "random", "count": 2})
    _call(client, "POST", f"/api/games/{gid}/start", host)
    for _ in range(40):
        body = _call(client, "GET", f"/api/agents/games/{gid}/decision", agent)
        if body["pending"]:
            break
    decision = body["decision"]
    text = decision["text"]
    for words in ("Systems (id kind", "Aurel", "readied", "R/", "Now: ", "Objectives:"):
        assert words in text, f"{words!r} missing from the decision text"
    notations = [o["notation"] for o in decision["options"]]
    assert "pass" in notations or "done" in notations
    out = _call(
        client,
        "POST",
        f"/api/agents/games/{gid}/decision",
        agent,
        json={"decision": decision["decision"], "action": notations[-1]},
    )
    assert out["status"] == "accepted" and out["played"] == notations[-1]
