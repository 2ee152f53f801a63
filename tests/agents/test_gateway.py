"""The agent gateway against a real server app: decisions, retries, time-outs, redaction."""

from __future__ import annotations

import asyncio
import errno
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from examples import gateway_agent
from fastapi.testclient import TestClient
from tests.agents.toys import Marching
from tests.kernel.toygames import Countdown

from parley import games
from parley.server import Limits, Settings, create_app
from parley.server.clock import ManualClock
from parley.server.gateway import DecisionStatus, Gateway, GatewayConfig, install

SECRET = "PRIVATE-REASONING-7f3a"


@pytest.fixture(autouse=True)
def toy_games() -> Iterator[None]:
    added = []
    for rules in (Countdown(), Marching()):
        if rules.spec.name not in games.names():
            games.register(rules)
            added.append(rules.spec.name)
    yield
    for name in added:
        games.unregister(name)


class Server:
    def __init__(self, client: TestClient, gateway: Gateway, clock: ManualClock) -> None:
        self.client = client
        self.gateway = gateway
        self.clock = clock

    def call(self, method: str, path: str, token: str, expect: int = 200, **kw: Any) -> Any:
        reply = self.client.request(
            method, path, headers={"Authorization": f"Bearer {token}"}, **kw
        )
        assert reply.status_code == expect, f"{method} {path}: {reply.status_code} {reply.text}"
        return reply.json()

    def sign_up(self, name: str) -> str:
        reply = self.client.post("/api/users", json={"username": name})
        assert reply.status_code == 201, reply.text
        token: str = reply.json()["token"]
        return token

    def agent(self, name: str, **extra: Any) -> str:
        reply = self.client.post("/api/agents", json={"name": name, **extra})
        assert reply.status_code == 201, reply.text
        token: str = reply.json()["token"]
        return token

    def game_with_bot(self, host: str, agent: str, game: str = "countdown", **body: Any) -> str:
        """A started two-seat game: the agent and a random bot; the host watches."""
        spec = {"game": game, "seats": 2, "host_role": "spectator", **body}
        gid: str = self.call("POST", "/api/games", host, 201, json=spec)["id"]
        self.call("POST", f"/api/games/{gid}/join", agent, json={"role": "player"})
        self.call("POST", f"/api/games/{gid}/bots", host, json={"bot": "random", "count": 1})
        self.call("POST", f"/api/games/{gid}/start", host)
        return gid

    def decision(self, token: str, gid: str) -> dict[str, Any]:
        body: dict[str, Any] = self.call("GET", f"/api/agents/games/{gid}/decision", token)
        return body

    def answer(self, token: str, gid: str, expect: int = 200, **body: Any) -> dict[str, Any]:
        out: dict[str, Any] = self.call(
            "POST", f"/api/agents/games/{gid}/decision", token, expect, json=body
        )
        return out


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    clock = ManualClock()
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'gateway.sqlite3'}",
        clock=clock,
        scheduler_poll_seconds=None,
        fixed_seeds=True,  # tests here rely on their games' seeds (e.g. no retreats)
        limits=Limits(rate_per_second=1000.0, rate_burst=1000.0, signup_burst=1000.0),
    )
    app = create_app(settings)
    gateway = install(app, GatewayConfig(budget_seconds=30.0, max_attempts=3), tick_seconds=None)
    with TestClient(app) as client:
        yield Server(client, gateway, clock)


def test_a_decision_carries_text_observation_options_and_budget(server: Server) -> None:
    host, agent = server.sign_up("host"), server.agent("bot-one", description="tester")
    assert server.call("GET", "/api/agents/me", agent)["budget_seconds"] == 30.0
    gid = server.game_with_bot(host, agent, options={"start": 9})
    pending = server.decision(agent, gid)
    assert pending["pending"] is True
    decision = pending["decision"]
    left = decision["observation"]["view"]["left"]
    assert decision["text"] and str(left) in decision["text"]
    assert [o["notation"] for o in decision["options"]] == [f"take {n}" for n in (1, 2, 3)]
    assert [o["id"] for o in decision["options"]] == ["0", "1", "2"]
    assert decision["composite"] is False and decision["attempts_left"] == 3
    assert decision["deadline"] == pytest.approx(server.clock.now() + 30.0)
    server.clock.advance(10)
    again = server.decision(agent, gid)["decision"]
    assert again["decision"] == decision["decision"]  # the budget runs from the first offer
    assert again["remaining_seconds"] == pytest.approx(20.0)


def test_an_answer_by_option_id_or_notation_is_played(server: Server) -> None:
    host, agent = server.sign_up("host"), server.agent("bot-two")
    gid = server.game_with_bot(host, agent, options={"start": 20})
    first = server.decision(agent, gid)["decision"]
    out = server.answer(agent, gid, decision=first["decision"], options=["2"])
    assert out["status"] == "accepted" and out["played"] == "take 3"
    second = server.decision(agent, gid)["decision"]
    out = server.answer(agent, gid, decision=second["decision"], action="Take 2")
    assert out["status"] == "accepted" and out["played"] == "take 2"
    stale = server.answer(agent, gid, 409, decision=first["decision"], action="take 1")
    assert "closed" in stale["message"]


def test_invalid_answers_get_the_error_then_the_default_is_played(server: Server) -> None:
    host, agent = server.sign_up("host"), server.agent("fumbler")
    gid = server.game_with_bot(host, agent, options={"start": 20})
    decision = server.decision(agent, gid)["decision"]["decision"]
    first = server.answer(agent, gid, 422, decision=decision, action="banana")
    assert first["status"] == "rejected" and first["attempts_left"] == 2
    assert first["error"]["error"] == "invalid" and "not understood" in first["error"]["message"]
    second = server.answer(agent, gid, 422, decision=decision, action="take 9")
    assert second["error"]["error"] == "illegal" and second["attempts_left"] == 1
    assert server.decision(agent, gid)["decision"]["attempts_left"] == 1
    third = server.answer(agent, gid, 200, decision=decision, options=["7"])
    assert third["status"] == "defaulted" and third["played"] == "take 1"
    assert third["attempts_left"] == 0
    entries = server.call("GET", f"/api/games/{gid}/history", host)["entries"]
    mine = [e for e in entries if e["type"] == "action" and e.get("auto")]
    assert mine and mine[0]["notation"] == "take 1"


def test_a_late_answer_and_a_silent_agent_both_get_the_default(server: Server) -> None:
    host, agent = server.sign_up("host"), server.agent("sleepy", budget_seconds=5)
    gid = server.game_with_bot(host, agent, options={"start": 30})
    decision = server.decision(agent, gid)["decision"]
    assert decision["budget_seconds"] == 5.0
    server.clock.advance(5.5)
    late = server.answer(agent, gid, decision=decision["decision"], action="take 3")
    assert late["status"] == "timed_out" and late["played"] == "take 1"
    # Silent: the sweep (run by the server's ticker, here by hand) plays the default.
    decision = server.decision(agent, gid)["decision"]
    seq = server.call("GET", f"/api/games/{gid}", host)["seq"]
    server.clock.advance(4.0)
    assert server.gateway.expire_due() == 0
    server.clock.advance(2.0)
    assert server.gateway.expire_due() == 1
    assert server.call("GET", f"/api/games/{gid}", host)["seq"] > seq
    assert server.answer(agent, gid, decision=decision["decision"], options=["0"])["status"] == (
        "timed_out"
    )
    statuses = [d.status for d in server.gateway.store.decisions_of(gid)]
    assert statuses[:2] == [DecisionStatus.TIMED_OUT, DecisionStatus.TIMED_OUT]


def test_the_ticker_expires_decisions_on_its_own(server: Server) -> None:
    host, agent = server.sign_up("host"), server.agent("ticked", budget_seconds=5)
    gid = server.game_with_bot(host, agent, options={"start": 30})
    decision = server.decision(agent, gid)["decision"]["decision"]
    ticks: list[float] = []

    async def fake_sleep(seconds: float) -> None:  # the clock moves instead of time passing
        if ticks:
            raise asyncio.CancelledError
        ticks.append(seconds)
        server.clock.advance(6)

    async def run() -> None:
        server.gateway.start(1.0, sleep=fake_sleep)
        task = server.gateway._ticker
        assert task is not None
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(run())
    gid_, seat, state_id = decision.rsplit(".", 2)
    record = server.gateway.store.decision(gid_, int(seat), int(state_id))
    assert record is not None and record.status is DecisionStatus.TIMED_OUT


def test_private_reasoning_stays_private_until_the_research_export(server: Server) -> None:
    host, agent = server.sign_up("host"), server.agent("thinker")
    other_agent = server.agent("rival")
    gid = server.game_with_bot(host, agent, options={"start": 12})
    server.call("POST", f"/api/games/{gid}/join", other_agent, json={"role": "spectator"})
    decision = server.decision(agent, gid)["decision"]["decision"]
    out = server.answer(
        agent,
        gid,
        decision=decision,
        options=["0"],
        reasoning=f"{SECRET}: take one and see",
        press=[{"text": "good luck, bot"}],
    )
    assert out["status"] == "accepted"
    mine = server.call("GET", f"/api/agents/games/{gid}/reasoning", agent)["notes"]
    assert [n["text"] for n in mine] == [f"{SECRET}: take one and see"]
    assert server.call("GET", f"/api/agents/games/{gid}/reasoning", other_agent)["notes"] == []
    for viewer in (host, other_agent, agent):
        seen = json.dumps(
            [
                server.call("GET", f"/api/games/{gid}/state", viewer),
                server.call("GET", f"/api/games/{gid}/history", viewer),
                server.call("GET", f"/api/games/{gid}/record", viewer),
                server.call("GET", f"/api/games/{gid}/events", viewer),
                server.call("GET", f"/api/games/{gid}", viewer),
            ]
        )
        assert SECRET not in seen
        assert "good luck, bot" in seen  # press goes into the record as usual
    refused = server.call("GET", f"/api/agents/games/{gid}/research", host, 403)
    assert "once the game has ended" in refused["message"]
    gateway_agent.play(server.client, gid, agent, wait=_no_waiting)  # play it out
    archive = server.call("GET", f"/api/games/{gid}/record", host, params={"view": "archive"})
    assert SECRET not in json.dumps(archive)
    research = server.call("GET", f"/api/agents/games/{gid}/research", host)
    assert research["record"]["outcome"] is not None
    texts = [n["text"] for n in research["reasoning"]]
    assert texts[0] == f"{SECRET}: take one and see" and len(texts) >= 2
    assert {d["status"] for d in research["decisions"]} == {"accepted"}


def _no_waiting(seconds: float) -> None:
    raise AssertionError("a bot answers at once: the agent never has to wait here")


def test_composite_decisions_take_one_option_per_group(server: Server) -> None:
    host, agent = server.sign_up("host"), server.agent("marcher")
    gid = server.game_with_bot(host, agent, game="marching", options={"rounds": 2})
    decision = server.decision(agent, gid)["decision"]
    assert decision["composite"] is True
    groups = {o["group"] for o in decision["options"]}
    assert groups == {"t0", "t1"}
    up = [o["id"] for o in decision["options"] if o["notation"].endswith("+1")]
    twice = [o["id"] for o in decision["options"] if o["group"] == "t0"][:2]
    bad = server.answer(agent, gid, 422, decision=decision["decision"], options=twice)
    assert "one option per group" in bad["error"]["message"]
    out = server.answer(agent, gid, decision=decision["decision"], options=up)
    assert out["status"] == "accepted"
    # The bot has answered too, so the round resolved: both tokens moved up (or collided).
    state = server.call("GET", f"/api/games/{gid}/state", agent)
    assert state["observation"]["view"]["round"] == 1


def test_the_example_agent_plays_a_whole_game(server: Server) -> None:
    host = server.sign_up("host")
    token = gateway_agent.register(server.client, "example")
    spec = {"game": "countdown", "seats": 2, "host_role": "spectator", "options": {"start": 15}}
    gid = server.call("POST", "/api/games", host, 201, json=spec)["id"]
    outsider = server.agent("outsider")
    server.call("GET", f"/api/agents/games/{gid}/decision", outsider, 403)
    server.call("POST", f"/api/games/{gid}/join", token, json={"role": "player"})
    lobby = server.decision(token, gid)
    assert lobby == {
        "pending": False,
        "decision": None,
        "status": "lobby",
        "outcome": None,
        "negotiation": None,
        "messages": None,
        "you": None,
        "briefing": None,
    }
    server.call(
        "POST",
        f"/api/games/{gid}/bots",
        host,
        json={"bot": "heuristic"} if False else {"bot": "random"},
    )
    server.call("POST", f"/api/games/{gid}/start", host)
    final = gateway_agent.play(server.client, gid, token, seed=3, wait=_no_waiting)
    assert final["status"] == "finished" and final["outcome"]["reason"] == "took the last one"
    research = server.call("GET", f"/api/agents/games/{gid}/research", token)
    assert len(research["reasoning"]) == len(research["decisions"]) >= 1


def test_the_websocket_pushes_decisions_and_takes_answers(server: Server) -> None:
    host, agent = server.sign_up("host"), server.agent("socketeer")
    gid = server.game_with_bot(host, agent, options={"start": 6})
    results: list[dict[str, Any]] = []
    answered: list[str] = []
    with server.client.websocket_connect(f"/ws/agents/games/{gid}") as ws:
        ws.send_json({"type": "auth", "token": agent})
        ws.send_json({"type": "ping", "id": "p"})
        while True:  # pushed decisions and replies to answers may come in any order
            message = ws.receive_json()
            if message["type"] == "over":
                assert message["outcome"]["reason"] == "took the last one"
                break
            if message["type"] == "result":
                results.append(message)
                continue
            if message["type"] == "pong":
                assert message["id"] == "p"
                continue
            assert message["type"] == "decision", message
            assert message["decision"] not in answered  # each decision is pushed once
            answered.append(message["decision"])
            ws.send_json(
                {
                    "type": "answer",
                    "id": len(answered),
                    "decision": message["decision"],
                    "options": [message["options"][-1]["id"]],
                }
            )
        while len(results) < len(answered):
            results.append(ws.receive_json())
    assert answered and [r["id"] for r in results] == list(range(1, len(answered) + 1))
    assert {r["status"] for r in results} == {"accepted"}
    with server.client.websocket_connect(f"/ws/agents/games/{gid}") as ws:
        ws.send_json({"type": "auth", "token": "nope"})
        assert ws.receive_json()["error"] == "unauthorized"


def test_an_answer_the_disk_cannot_keep_is_not_confirmed(server: Server) -> None:
    """SQLite at FULL: if the flush covering an answer fails, the socket says so instead of
    confirming it, and nothing more is offered or accepted."""
    host, agent = server.sign_up("host"), server.agent("unlucky")
    gid = server.game_with_bot(host, agent, options={"start": 9})
    syncer = server.client.app.state.services.tables.syncer  # type: ignore[attr-defined]
    assert syncer is not None, "SQLite at FULL runs with a syncer"
    with server.client.websocket_connect(f"/ws/agents/games/{gid}") as ws:
        ws.send_json({"type": "auth", "token": agent})
        message = ws.receive_json()
        while message["type"] != "decision":
            message = ws.receive_json()

        def failing(fd: int) -> None:
            raise OSError(errno.EIO, "injected disk failure")

        syncer.fsync = failing
        ws.send_json(
            {
                "type": "answer",
                "id": 1,
                "decision": message["decision"],
                "options": [message["options"][0]["id"]],
            }
        )
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["error"] == "not_durable", reply
    refused = server.call("GET", f"/api/agents/games/{gid}/decision", agent, expect=503)
    assert refused["error"] == "not_durable"


def test_install_runs_the_ticker_while_the_app_serves(tmp_path: Path) -> None:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'ticker.sqlite3'}",
        clock=ManualClock(),
        scheduler_poll_seconds=None,
    )
    app = create_app(settings)
    gateway = install(app, tick_seconds=3600.0)
    assert gateway._ticker is None
    with TestClient(app):
        assert gateway._ticker is not None and not gateway._ticker.done()
    assert gateway._ticker is None
