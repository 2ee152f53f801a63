"""Playing a real server from outside: the MCP tools (through the SDK's own client, in
process and over stdio) and the reference LLM player against a scripted chat endpoint.

The Parley server is a real `parley serve` process and the model a real HTTP endpoint, both
on loopback ports started by the test; nothing reaches outside the machine.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from tests.web.conftest import Server, free_port

from parley.agents.remote.client import ParleyClient
from parley.agents.remote.llm import Endpoint, LLMPlayer
from parley.agents.remote.tools import build_server

Script = Callable[[dict[str, Any]], dict[str, Any]]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("remote")
    srv = Server(free_port(), f"sqlite:///{folder / 'p.sqlite3'}", folder / "server.log")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


class Model:
    """A chat-completions endpoint that answers from a script and keeps every request."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.requests: list[dict[str, Any]] = []
        model = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                model.requests.append(body)
                reply = json.dumps({"choices": [{"message": model.script(body)}]}).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> Model:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _user(srv: Server, name: str) -> str:
    token: str = srv.api("POST", "/api/users", json={"username": name})["token"]
    return token


def _diplomacy_with_agent(srv: Server, tag: str) -> tuple[str, str, int, str, int]:
    """A running Diplomacy game: a human host, an agent, bots elsewhere.

    Returns the game id, the host's token and seat, the agent's token and seat.
    """
    host = _user(srv, f"host-{tag}")
    agent: str = srv.api("POST", "/api/agents", json={"name": f"agent-{tag}"})["token"]
    game = srv.api("POST", "/api/games", host, json={"game": "diplomacy", "seed": 3})
    srv.api("POST", f"/api/games/{game['id']}/join", agent, json={"role": "player"})
    started = srv.api("POST", f"/api/games/{game['id']}/start", host, json={"fill_with": "random"})
    seats = {s["user"]: s["seat"] for s in started["seats"] if s["user"]}
    return game["id"], host, seats[f"host-{tag}"], agent, seats[f"agent-{tag}"]


def _one_per_group(prompt: str) -> list[str]:
    """Option ids from the decision text, the first of each group."""
    chosen: dict[str, str] = {}
    for oid, group in re.findall(r"^- (\S+): .* \[(.*)\]$", prompt, re.MULTILINE):
        chosen.setdefault(group, oid)
    return list(chosen.values())


def _call(name: str, args: dict[str, Any], n: int = 0) -> dict[str, Any]:
    return {
        "id": f"call-{name}-{n}",
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(args)},
    }


def test_the_llm_player_sees_its_seat_press_and_options_and_its_words_go_where_they_should(
    server: Server,
) -> None:
    game_id, host, host_seat, agent, agent_seat = _diplomacy_with_agent(server, "talk")
    server.api(
        "POST",
        f"/api/games/{game_id}/press",
        host,
        json={"text": "PRP (PCE (ENG FRA))\nshall we?", "to": [agent_seat]},
    )

    def script(request: dict[str, Any]) -> dict[str, Any]:
        prompt = request["messages"][1]["content"]
        return {
            "role": "assistant",
            "content": "Peace in the west keeps me safe. XYZZY",
            "tool_calls": [
                _call("send_press", {"text": "YES (PRP (PCE (ENG FRA)))", "to": [host_seat]}),
                _call("submit_action", {"options": _one_per_group(prompt)}),
            ],
        }

    with Model(script) as model:
        player = LLMPlayer(ParleyClient(server.base, agent), Endpoint(model.url, "scripted"))
        result = asyncio.run(player.play(game_id, max_decisions=1))

    assert result["status"] == "accepted", result
    shown = model.requests[0]["messages"][1]["content"]
    # People read "England" (the game's seats); an agent reads the map's and the notation's
    # "ENGLAND" everywhere, its own name included.
    names = server.api("GET", f"/api/games/{game_id}", host)["seats"]
    assert names[agent_seat]["name"] == "England"
    assert f"You are ENGLAND (seat {agent_seat})" in shown
    words = "Austria proposes: peace between England and France [DAIDE: PRP (PCE (ENG FRA))]"
    assert f"(seat {host_seat}) to ENGLAND: {words}" in shown  # press in words, DAIDE beside
    assert "Legal actions (composite: one option per group)" in shown
    assert {t["function"]["name"] for t in model.requests[0]["tools"]} == {
        "submit_action",
        "send_press",
        "vote_draw",
    }
    # The reply reached the host; the reasoning stayed with the agent.
    history = server.api("GET", f"/api/games/{game_id}/history", host)["entries"]
    assert any(e.get("text") == "YES (PRP (PCE (ENG FRA)))" for e in history)
    assert "XYZZY" not in json.dumps(history)
    notes = server.api("GET", f"/api/agents/games/{game_id}/reasoning", agent)["notes"]
    assert any("XYZZY" in n["text"] for n in notes)


def test_the_llm_player_talks_in_negotiation_rounds(server: Server) -> None:
    host = _user(server, "host-rounds")
    agent: str = server.api("POST", "/api/agents", json={"name": "agent-rounds"})["token"]
    spec = {"game": "diplomacy", "seed": 3, "negotiation": {"rounds": 2, "seconds": 3600}}
    game = server.api("POST", "/api/games", host, json=spec)
    game_id = game["id"]
    server.api("POST", f"/api/games/{game_id}/join", agent, json={"role": "player"})
    started = server.api("POST", f"/api/games/{game_id}/start", host, json={"fill_with": "random"})
    seats = {s["user"]: s["seat"] for s in started["seats"] if s["user"]}
    host_seat, agent_seat = seats["host-rounds"], seats["agent-rounds"]
    server.api(
        "POST",
        f"/api/games/{game_id}/press",
        host,
        json={"text": "PRP (PCE (ENG FRA))", "to": [agent_seat]},
    )

    def script(request: dict[str, Any]) -> dict[str, Any]:
        answer = {"text": "YES (PRP (PCE (ENG FRA)))", "to": [host_seat]}
        return {"role": "assistant", "content": "", "tool_calls": [_call("send_press", answer)]}

    with Model(script) as model:
        player = LLMPlayer(ParleyClient(server.base, agent), Endpoint(model.url, "scripted"))

        async def one_round() -> tuple[dict[str, Any], int]:
            pending = await player.client.decision(game_id)
            return pending, await player.negotiate(game_id, pending)

        pending, calls = asyncio.run(one_round())
    assert pending["status"] == "negotiating" and calls == 1
    shown = model.requests[0]["messages"][1]["content"]
    assert "Negotiation round 1 of 2" in shown
    assert "3 more message(s)" in shown  # the host's message does not count against it
    words = "Austria proposes: peace between England and France [DAIDE: PRP (PCE (ENG FRA))]"
    assert f"(seat {host_seat}) to ENGLAND: {words}" in shown  # press in words, DAIDE beside
    # Who the model is, the rules and the board, as in a decision; the deadline in words.
    assert f"You are ENGLAND (seat {agent_seat}) in Diplomacy" in shown
    assert "DIPLOMACY IN SHORT" in shown and "S1901M on the standard map" in shown
    assert "ENGLAND: 3 centres (EDI, LON, LVP)" in shown
    assert re.search(r"The round ends in \d+ minutes \(at \d\d:\d\d:\d\d UTC\)", shown)
    assert "PRP (ALY (FRA GER) VSS (ENG))" in shown  # how to propose
    assert shown == pending["briefing"]  # the server's text, shown as it is
    assert {t["function"]["name"] for t in model.requests[0]["tools"]} == {
        "send_press",
        "vote_draw",
    }
    history = server.api("GET", f"/api/games/{game_id}/history", host)["entries"]
    sent = [e["text"] for e in history if e["type"] == "press" and e["seat"] == agent_seat]
    assert sent == ["YES (PRP (PCE (ENG FRA)))"]


def test_a_model_that_answers_nonsense_ends_in_the_default_action(server: Server) -> None:
    game_id, _, _, agent, _ = _diplomacy_with_agent(server, "babble")

    def script(request: dict[str, Any]) -> dict[str, Any]:
        return {"role": "assistant", "content": "I like turtles."}

    with Model(script) as model:
        player = LLMPlayer(ParleyClient(server.base, agent), Endpoint(model.url, "scripted"))
        result = asyncio.run(player.play(game_id, max_decisions=1))

    assert result["status"] == "defaulted", result
    assert len(model.requests) == 3  # one try per gateway attempt, then the default
    retry = model.requests[1]["messages"][-1]["content"]
    assert retry.startswith("That was not accepted") and "invalid" in retry


def test_a_model_endpoint_that_fails_costs_the_seat_its_choice_not_the_game(
    server: Server,
) -> None:
    game_id, _, _, agent, _ = _diplomacy_with_agent(server, "down")
    dead = f"http://127.0.0.1:{free_port()}/v1"  # nobody listens there
    player = LLMPlayer(ParleyClient(server.base, agent), Endpoint(dead, "none"))
    assert asyncio.run(player.play(game_id, max_decisions=1))["status"] == "defaulted"


# --- MCP -------------------------------------------------------------------------------------

TOOLS = {
    "list_game_types",
    "list_games",
    "create_game",
    "join_game",
    "add_bots",
    "start_game",
    "get_state",
    "get_decision",
    "write_diary",
    "wait_for_decision",
    "read_press",
    "send_press",
    "submit_action",
    "vote_draw",
}


def _data(result: Any) -> Any:
    assert not result.is_error, result
    structured = result.structured_content
    return structured


def test_mcp_tools_play_a_seat_through_the_sdk_client(server: Server) -> None:
    host = _user(server, "mcp-host")
    agent = server.api("POST", "/api/agents", json={"name": "mcp-agent"})["token"]
    game = server.api("POST", "/api/games", host, json={"game": "diplomacy", "seed": 5})

    async def session() -> None:
        async with Client(build_server(ParleyClient(server.base, agent))) as client:
            assert {t.name for t in (await client.list_tools()).tools} == TOOLS
            listed = _data(await client.call_tool("list_games", {"status": "lobby"}))
            assert game["id"] in json.dumps(listed)
            joined = _data(await client.call_tool("join_game", {"game_id": game["id"]}))
            assert joined.get("ok") is not False, joined
            server.api("POST", f"/api/games/{game['id']}/start", host, json={"fill_with": "random"})
            server.api("POST", f"/api/games/{game['id']}/press", host, json={"text": "hi all"})
            pending = _data(await client.call_tool("get_decision", {"game_id": game["id"]}))
            assert pending["pending"] and pending["decision"]["composite"]
            assert [p["text"] for p in pending["press_received"]] == ["hi all"]
            again = _data(await client.call_tool("get_decision", {"game_id": game["id"]}))
            assert again["press_received"] == []  # shown once
            sent = _data(
                await client.call_tool(
                    "send_press", {"game_id": game["id"], "text": "hello from MCP"}
                )
            )
            assert sent.get("ok") is not False, sent
            read = _data(await client.call_tool("read_press", {"game_id": game["id"]}))
            assert [p["text"] for p in read["press"]] == ["hi all", "hello from MCP"]
            voted = _data(await client.call_tool("vote_draw", {"game_id": game["id"]}))
            assert voted.get("ok") is not False, voted
            decision = pending["decision"]
            groups: dict[str, str] = {}
            for option in decision["options"]:
                groups.setdefault(option["group"], option["id"])
            answered = _data(
                await client.call_tool(
                    "submit_action",
                    {
                        "game_id": game["id"],
                        "decision_id": pending["decision_id"],
                        "options": list(groups.values()),
                    },
                )
            )
            assert answered["status"] == "accepted", answered
            refused = await client.call_tool(
                "submit_action",
                {"game_id": game["id"], "decision_id": f"{game['id']}.0.999", "action": "A PAR H"},
            )
            assert refused.is_error
            assert any(f"HTTP {n}" in refused.content[0].text for n in (404, 409, 422))

    asyncio.run(session())


def test_mcp_over_stdio_serves_the_same_tools(server: Server) -> None:
    agent = server.api("POST", "/api/agents", json={"name": "stdio-agent"})["token"]
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "parley.cli", "mcp", "--server", server.base, "--token", agent],
        cwd=str(Path(__file__).resolve().parents[2]),
    )

    async def session() -> None:
        async with Client(params, read_timeout_seconds=60) as client:
            assert {t.name for t in (await client.list_tools()).tools} == TOOLS
            listed = _data(await client.call_tool("list_games", {"status": "active"}))
            assert isinstance(listed, dict)

    asyncio.run(session())


def test_the_tools_are_offered_as_openai_functions() -> None:
    from parley.agents.remote.tools import openai_tools

    specs = asyncio.run(openai_tools(build_server(ParleyClient("http://127.0.0.1:1"))))
    assert {s["function"]["name"] for s in specs} == TOOLS
    submit = next(s for s in specs if s["function"]["name"] == "submit_action")["function"]
    assert submit["parameters"]["required"] == ["game_id", "decision_id"]
    assert "private" in submit["description"]


def test_parley_agent_needs_a_model(tmp_path: Path) -> None:
    import subprocess

    env = {"PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-m", "parley.cli", "agent", "GAME"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "base URL" in done.stderr


@pytest.mark.parametrize("game", sorted(__import__("parley.games", fromlist=["names"]).names()))
def test_what_the_model_is_shown_for_every_game(server: Server, game: str) -> None:
    """A real decision text per game, saved under artifacts/decision-texts/ for the docs."""
    from parley.agents.remote.llm import decision_text

    host = _user(server, f"show-{game}")
    agent = server.api("POST", "/api/agents", json={"name": f"show-agent-{game}"})["token"]
    created = server.api(
        "POST", "/api/games", host, json={"game": game, "seed": 11, "host_role": "spectator"}
    )
    server.api("POST", f"/api/games/{created['id']}/join", agent, json={"role": "player"})
    server.api("POST", f"/api/games/{created['id']}/start", host, json={"fill_with": "random"})

    async def first_decision() -> dict[str, Any]:
        player = LLMPlayer(ParleyClient(server.base, agent), Endpoint("http://127.0.0.1:1", "x"))
        for _ in range(200):  # bots answer within the request that made them owe
            pending = await player.server.call_tool("get_decision", {"game_id": created["id"]})
            data = pending.structured_content
            if data and data.get("pending"):
                return data
            await asyncio.sleep(0.05)
        raise AssertionError("the agent's seat never owed a decision")

    pending = asyncio.run(first_decision())
    text = decision_text(pending)
    d = pending["decision"]
    assert f"You are {d['seat_name']} (seat {d['seat']})" in text
    assert d["text"] in text and "Legal actions" in text
    assert all(f"- {o['id']}: {o['notation']}" in text for o in d["options"])
    # Through MCP, the gateway's whole text: the rules, the public facts, how to propose.
    from parley import briefing

    assert briefing.primer(game) and briefing.primer(game) in text
    assert d["primer"] == briefing.primer(game) and d["proposals"] in text
    assert d["facts"] in text and (game not in ("diplomacy", "planets", "illuminati") or d["facts"])
    assert re.search(r"Your answer is due in \d+ (seconds|minutes) \(at \d\d:\d\d:\d\d UTC\)", text)
    out = Path(__file__).resolve().parents[2] / "artifacts" / "decision-texts"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{game}.txt").write_text(text, encoding="utf-8")
