"""What a gateway decision tells an agent: who it is, the last step, its messages, the draw,
the deadlines; and the budget cap, a server setting that refuses larger budgets."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.agents.test_gateway import Server, server, toy_games

from parley.agents.remote.llm import decision_text
from parley.server import Limits, Settings, create_app
from parley.server.clock import ManualClock
from parley.server.gateway import install

__all__ = ["server", "toy_games"]  # fixtures used here


def countdown_with_host(srv: Server) -> tuple[str, str, int, str, int]:
    """A started Countdown: a human host and an agent. Game id, tokens and seats."""
    host, agent = srv.sign_up("hosta"), srv.agent("agenta")
    gid: str = srv.call("POST", "/api/games", host, 201, json={"game": "countdown"})["id"]
    srv.call("POST", f"/api/games/{gid}/join", agent, json={"role": "player"})
    seats = srv.call("POST", f"/api/games/{gid}/start", host)["seats"]
    by_name = {s["player"]: s["seat"] for s in seats}
    return gid, host, by_name["hosta"], agent, by_name["agenta"]


def test_a_decision_says_who_what_happened_what_was_said_and_the_draw(server: Server) -> None:
    gid, host, host_seat, agent, agent_seat = countdown_with_host(server)
    first = server.decision(agent, gid)
    if first["pending"]:  # the agent moves first: its action opens the last step
        server.answer(agent, gid, decision=first["decision"]["decision"], action="take 1")
    server.call("POST", f"/api/games/{gid}/press", host, json={"text": "hi all"})
    private = {"text": "just you", "to": [agent_seat]}
    server.call("POST", f"/api/games/{gid}/press", host, json=private)
    server.call("POST", f"/api/games/{gid}/actions", host, json={"action": "take 2"})
    server.call("POST", f"/api/games/{gid}/draw", host, json={"accept": True})

    pending = server.decision(agent, gid)
    d = pending["decision"]
    names = server.call("GET", f"/api/games/{gid}", host)["seats"]
    host_name = names[host_seat]["name"]
    assert (d["player"], d["seat"], d["seat_name"]) == (
        "agenta",
        agent_seat,
        names[agent_seat]["name"],
    )
    assert [(m["text"], m["from"], m["to"]) for m in d["messages"]] == [
        ("hi all", host_name, None),
        ("just you", host_name, [agent_seat]),
    ]
    assert [(e["by"], e["notation"]) for e in d["last_step"]][-1] == (host_name, "take 2")
    if first["pending"]:
        assert d["last_step"][0]["seat"] == agent_seat  # its own previous action first
    assert d["draw"]["open"] and d["draw"]["voted"] == [host_seat]
    assert not d["draw"]["you_voted"]
    game = server.call("GET", f"/api/games/{gid}", host)
    assert d["game_deadline"] == game["deadline"]["at"]
    text = decision_text(pending)
    assert "playing as agenta" in text
    assert f"(seat {host_seat}) to {d['seat_name']}: just you" in text
    assert f"A draw is proposed: seats {host_seat} have voted; you have not voted." in text
    assert f"- {host_name}: take 2" in text

    # Answered, the messages are not shown again; the host's next message is.
    server.answer(agent, gid, decision=d["decision"], action="take 1")
    server.call("POST", f"/api/games/{gid}/press", host, json={"text": "again"})
    server.call("POST", f"/api/games/{gid}/actions", host, json={"action": "take 1"})
    # The earlier proposal lapsed when the game moved on; a new one is withdrawn by a no.
    server.call("POST", f"/api/games/{gid}/draw", host, json={"accept": True})
    server.call("POST", f"/api/games/{gid}/draw", host, json={"accept": False})
    later = server.decision(agent, gid)["decision"]
    assert [m["text"] for m in later["messages"]] == ["again"]
    assert later["draw"]["open"] is False
    assert later["draw"]["last_decision"]["agreed"] is False


@pytest.fixture
def capped(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'capped.sqlite3'}",
        clock=ManualClock(),
        scheduler_poll_seconds=None,
        limits=Limits(signup_burst=100.0, agent_budget_seconds=10.0),
    )
    app = create_app(settings)
    install(app, tick_seconds=None)  # no budget of its own: the server's cap
    with TestClient(app) as client:
        yield client


def test_budgets_above_the_servers_cap_are_refused_not_cut(capped: TestClient) -> None:
    refused = capped.post("/api/agents", json={"name": "greedy", "budget_seconds": 11})
    assert refused.status_code == 422
    body: dict[str, Any] = refused.json()
    assert body["error"] == "budget_too_large" and "10 s" in body["message"]
    # Nothing was made: the name is still free.
    ok = capped.post("/api/agents", json={"name": "greedy", "budget_seconds": 10})
    assert ok.status_code == 201 and ok.json()["agent"]["budget_seconds"] == 10.0
    plain = capped.post("/api/agents", json={"name": "plain"})
    assert plain.json()["agent"]["budget_seconds"] == 10.0  # no budget asked: the cap
