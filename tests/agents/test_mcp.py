"""`parley mcp --transport http` as an agent on its own meets it: a real `parley serve` and a
real `parley mcp` process on loopback ports, driven through the MCP SDK's own client over
streamable HTTP.

The server's guard (its own bearer token, Host and Origin checks on every bind address,
no listening beyond loopback without a given token), the checks on tool arguments before
they reach a URL, and the tools an agent needs to host, wait and play by itself.
"""

from __future__ import annotations

import asyncio
import json
import os
import select
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from tests.web.conftest import Server, free_port

from parley.agents.remote.client import ParleyClient, RequestRefused
from parley.agents.remote.serve import security_settings, server_token

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "mcp-test-token-0123456789abcdef"
START_SECONDS = 60.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("mcp")
    srv = Server(free_port(), f"sqlite:///{folder / 'p.sqlite3'}", folder / "server.log")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@dataclass
class McpProcess:
    """One `parley mcp --transport http` process."""

    process: subprocess.Popen[bytes]
    host: str
    port: int

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/mcp"

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=15)


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("PARLEY_")}


def _start_mcp(
    srv: Server, agent: str, *extra: str, host: str = "127.0.0.1", token: str | None = TOKEN
) -> McpProcess:
    port = free_port()
    args = [sys.executable, "-m", "parley.cli", "mcp", "--transport", "http"]
    args += ["--server", srv.base, "--token", agent, "--host", host, "--port", str(port)]
    if token is not None:
        args += ["--mcp-token", token]
    proc = subprocess.Popen(
        [*args, *extra], cwd=ROOT, env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    found = McpProcess(proc, host, port)
    deadline = time.monotonic() + START_SECONDS
    while True:  # polling a starting process, bounded by the deadline
        if proc.poll() is not None:
            raise RuntimeError(f"parley mcp exited: {proc.stderr.read() if proc.stderr else ''!r}")
        with socket.socket() as sock:
            if sock.connect_ex((host, port)) == 0:
                return found
        if time.monotonic() > deadline:
            found.stop()
            raise RuntimeError("parley mcp did not listen in time")
        time.sleep(0.1)


@asynccontextmanager
async def _client(url: str, token: str | None = TOKEN) -> AsyncIterator[Client]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with (
        create_mcp_http_client(headers=headers) as http,
        Client(streamable_http_client(url, http_client=http), read_timeout_seconds=60) as client,
    ):
        yield client


def _data(result: Any) -> dict[str, Any]:
    assert not result.is_error, result
    structured: dict[str, Any] = result.structured_content
    return structured


def _error_text(result: Any) -> str:
    assert result.is_error, result
    return "".join(getattr(c, "text", "") for c in result.content)


def _user(srv: Server, name: str) -> str:
    token: str = srv.api("POST", "/api/users", json={"username": name})["token"]
    return token


def _agent(srv: Server, name: str) -> str:
    token: str = srv.api("POST", "/api/agents", json={"name": name})["token"]
    return token


@pytest.fixture(scope="module")
def agent(server: Server) -> str:
    return _agent(server, "mcp-solo")


@pytest.fixture(scope="module")
def mcp(server: Server, agent: str) -> Iterator[McpProcess]:
    found = _start_mcp(server, agent)
    try:
        yield found
    finally:
        found.stop()


def _initialize(url: str, headers: dict[str, str]) -> httpx.Response:
    """One raw MCP `initialize` POST, so the test chooses every header."""
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"},
        },
    }
    base = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
    return httpx.post(url, json=body, headers={**base, **headers}, timeout=10)


# --- the guard ------------------------------------------------------------------------------


def test_every_request_needs_the_mcp_servers_own_token(mcp: McpProcess) -> None:
    assert _initialize(mcp.url, {}).status_code == 401
    wrong = _initialize(mcp.url, {"authorization": "Bearer not-the-token-at-all"})
    assert wrong.status_code == 401 and wrong.headers["www-authenticate"].startswith("Bearer")
    assert _initialize(mcp.url, {"authorization": f"Bearer {TOKEN}"}).status_code == 200

    async def without_token() -> None:
        async with _client(mcp.url, token=None) as client:
            await client.list_tools()

    with pytest.raises(Exception) as refused:
        asyncio.run(without_token())
    assert "error response" in repr(refused.value)  # the SDK's words for the 401

    async def with_token() -> set[str]:
        async with _client(mcp.url) as client:
            return {t.name for t in (await client.list_tools()).tools}

    assert "wait_for_decision" in asyncio.run(with_token())


def test_a_token_made_at_start_is_printed_once_and_admits_its_holder(
    server: Server, agent: str
) -> None:
    proc = _start_mcp(server, agent, token=None)
    try:
        assert proc.process.stderr is not None
        printed = b""
        deadline = time.monotonic() + START_SECONDS
        while b"Bearer " not in printed and time.monotonic() < deadline:
            ready, _, _ = select.select([proc.process.stderr], [], [], 1.0)
            if ready:
                printed += os.read(proc.process.stderr.fileno(), 4096)
        line = next(x for x in printed.decode().splitlines() if "Bearer " in x)
        made = line.split("Bearer ", 1)[1].rstrip("'")
        assert len(made) >= 32 and printed.decode().count(made) == 1
        assert _initialize(proc.url, {}).status_code == 401
        assert _initialize(proc.url, {"authorization": f"Bearer {made}"}).status_code == 200
    finally:
        proc.stop()


def test_host_and_origin_are_checked_whatever_the_bind_address(server: Server, agent: str) -> None:
    # 127.0.0.2 is loopback, but not one of the addresses the SDK protects by itself.
    proc = _start_mcp(server, agent, "--allow-host", "mcp.example.org", host="127.0.0.2")
    try:
        auth = {"authorization": f"Bearer {TOKEN}"}
        assert _initialize(proc.url, auth).status_code == 200
        assert _initialize(proc.url, {**auth, "host": "mcp.example.org"}).status_code == 200
        rebound = _initialize(proc.url, {**auth, "host": f"evil.example:{proc.port}"})
        assert rebound.status_code == 421
        page = _initialize(proc.url, {**auth, "origin": "http://evil.example"})
        assert page.status_code == 403
        local = _initialize(proc.url, {**auth, "origin": f"http://127.0.0.2:{proc.port}"})
        assert local.status_code == 200
    finally:
        proc.stop()


def test_listening_beyond_loopback_needs_a_token_given_explicitly(server: Server) -> None:
    base = [sys.executable, "-m", "parley.cli", "mcp", "--transport", "http"]
    base += ["--server", server.base, "--token", "x", "--port", str(free_port())]
    # 192.0.2.1 is a documentation address: nothing here could listen on it anyway.
    done = subprocess.run(
        [*base, "--host", "192.0.2.1"],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "MCP token" in done.stderr and done.stderr.count("\n") == 1, done.stderr
    # The same rule for every address beyond loopback, and for a token too short to guard.
    for host in ("0.0.0.0", "::", "10.0.0.5", "mcp.example.org"):
        with pytest.raises(ValueError, match="beyond loopback"):
            server_token(None, host)
    with pytest.raises(ValueError, match="at least 16"):
        server_token("short", "127.0.0.1")
    assert server_token(None, "::1")[1] and server_token(None, "localhost")[1]


def test_the_header_checks_always_name_loopback_the_bind_address_and_given_hosts() -> None:
    wide = security_settings("0.0.0.0", 8765, ["mcp.example.org", "::2"])
    assert wide.enable_dns_rebinding_protection
    assert {"127.0.0.1:*", "localhost:*", "[::1]:*"} <= set(wide.allowed_hosts)
    assert {"mcp.example.org", "mcp.example.org:8765", "[::2]:8765"} <= set(wide.allowed_hosts)
    assert "0.0.0.0:8765" not in wide.allowed_hosts
    assert "http://mcp.example.org:8765" in wide.allowed_origins
    one = security_settings("10.1.2.3", 9000)
    assert "10.1.2.3:9000" in one.allowed_hosts and one.enable_dns_rebinding_protection
    assert server_token(None, "127.0.0.1")[1] is True
    with pytest.raises(ValueError, match="beyond loopback"):
        server_token(None, "example.org")
    assert server_token(TOKEN, "0.0.0.0") == (TOKEN, False)


# --- arguments never reach another route -----------------------------------------------------


def test_a_game_id_that_walks_out_of_its_route_is_refused(server: Server, mcp: McpProcess) -> None:
    async def session() -> list[Any]:
        async with _client(mcp.url) as client:
            return [
                await client.call_tool(
                    "send_press", {"game_id": "../me/recovery-code#", "text": "x"}
                ),
                await client.call_tool("get_decision", {"game_id": "abc/../../me"}),
                await client.call_tool(
                    "submit_action",
                    {"game_id": "abc", "decision_id": "x/../../me", "action": "A PAR H"},
                ),
                await client.call_tool("join_game", {"game_id": "abc", "invite_code": "a?b=c"}),
            ]

    results = asyncio.run(session())
    for result in results:
        text = _error_text(result)
        assert "recovery" not in text.replace("recovery-code#", "") and "pattern" in text


def test_the_client_builds_only_allowed_routes_from_checked_ids() -> None:
    sent: list[httpx.Request] = []

    def record(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(200, json={"ok": True})

    http = httpx.AsyncClient(base_url="http://parley.test", transport=httpx.MockTransport(record))
    client = ParleyClient("http://parley.test", "t", http=http)

    async def attempts() -> None:
        for bad in ("../me/recovery-code#", "a/b", "a%2fb", "", "x" * 33, "a b", "é"):
            with pytest.raises(RequestRefused, match="game_id"):
                await client.press(bad, "x")
        with pytest.raises(RequestRefused, match="not a route"):
            await client.call("POST", "/api/me/recovery-code")
        with pytest.raises(RequestRefused, match="not a route"):
            await client.call("PUT", "/api/me/password", {"password": "x"})
        await client.press("Ab_-09", "x")

    asyncio.run(attempts())
    assert [str(r.url) for r in sent] == ["http://parley.test/api/games/Ab_-09/press"]


# --- tools for an agent on its own -----------------------------------------------------------


def test_every_parameter_is_described_and_the_decision_id_is_named(mcp: McpProcess) -> None:
    async def tools() -> list[Any]:
        async with _client(mcp.url) as client:
            return list((await client.list_tools()).tools)

    found = asyncio.run(tools())
    names = {t.name for t in found}
    assert {"create_game", "add_bots", "start_game", "wait_for_decision"} <= names
    for tool in found:
        assert tool.description, tool.name
        for param, schema in tool.input_schema.get("properties", {}).items():
            assert schema.get("description"), f"{tool.name}.{param} has no description"
    submit = next(t for t in found if t.name == "submit_action")
    assert submit.input_schema["required"] == ["game_id", "decision_id"]


def test_an_agent_hosts_a_game_with_bots_waits_and_plays_by_itself(mcp: McpProcess) -> None:
    async def session() -> None:
        async with _client(mcp.url) as client:
            catalog = _data(await client.call_tool("list_game_types", {}))
            sucker = next(g for g in catalog["games"] if g["name"] == "sucker")
            assert "random" in sucker["bots"]
            created = _data(
                await client.call_tool(
                    "create_game",
                    {"game": "sucker", "seats": 3, "visibility": "private", "name": "solo"},
                )
            )
            game_id = created["game_id"]
            assert created["private"] and created["invite_code"] and created["status"] == "lobby"
            bots = _data(
                await client.call_tool(
                    "add_bots", {"game_id": game_id, "bot": "random", "count": 2}
                )
            )
            assert [p.get("bot") for p in bots["players"]].count("random") == 2
            started = _data(await client.call_tool("start_game", {"game_id": game_id}))
            assert started["status"] == "active"
            answered_any = False
            for _ in range(5):  # a few turns are enough: the game may also end first
                waited = _data(
                    await client.call_tool(
                        "wait_for_decision", {"game_id": game_id, "timeout_seconds": 30}
                    )
                )
                assert waited["timed_out"] is False, waited
                if not waited["pending"]:
                    assert waited["status"] == "finished", waited
                    break
                decision = waited["decision"]
                assert waited["decision_id"] == decision["decision"]
                answered = _data(
                    await client.call_tool(
                        "submit_action",
                        {
                            "game_id": game_id,
                            "decision_id": waited["decision_id"],
                            "options": [decision["options"][0]["id"]],
                        },
                    )
                )
                assert answered["status"] == "accepted", answered
                answered_any = True
            assert answered_any

    asyncio.run(session())


def test_a_wait_returns_as_soon_as_the_seat_owes_and_says_when_it_timed_out(
    server: Server, mcp: McpProcess
) -> None:
    host = _user(server, "mcp-waiter-host")
    game = server.api("POST", "/api/games", host, json={"game": "diplomacy", "seats": 2})

    def connections() -> int:
        found: int = server.api("GET", "/api/health")["connections"]
        return found

    async def session() -> tuple[dict[str, Any], dict[str, Any]]:
        async with _client(mcp.url) as client:
            _data(await client.call_tool("join_game", {"game_id": game["id"]}))
            idle = _data(
                await client.call_tool(
                    "wait_for_decision", {"game_id": game["id"], "timeout_seconds": 0.3}
                )
            )
            before = connections()
            waiting = asyncio.ensure_future(
                client.call_tool(
                    "wait_for_decision", {"game_id": game["id"], "timeout_seconds": 120}
                )
            )
            for _ in range(600):  # until the wait watches the game: bounded, 30 s at most
                if await asyncio.to_thread(connections) > before:
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("the wait never watched the game")
            await asyncio.to_thread(
                server.api, "POST", f"/api/games/{game['id']}/start", host, json={}
            )
            return idle, _data(await asyncio.wait_for(waiting, 60))

    idle, woken = asyncio.run(session())
    assert idle["timed_out"] is True and idle["pending"] is False and idle["status"] == "lobby"
    assert idle["waited_seconds"] >= 0.3
    assert woken["timed_out"] is False and woken["pending"] is True, woken
    assert woken["waited_seconds"] < 60
    assert woken["decision"]["kind"] == "orders"


def test_failures_come_back_as_mcp_errors_that_say_why(server: Server, mcp: McpProcess) -> None:
    host = _user(server, "mcp-failures-host")
    game = server.api("POST", "/api/games", host, json={"game": "diplomacy", "seats": 2})

    async def session() -> list[str]:
        async with _client(mcp.url) as client:
            missing = await client.call_tool("join_game", {"game_id": "NoSuchGame1"})
            not_mine = await client.call_tool("start_game", {"game_id": game["id"]})
            _data(await client.call_tool("join_game", {"game_id": game["id"]}))
            server.api("POST", f"/api/games/{game['id']}/start", host, json={})
            owed = _data(await client.call_tool("get_decision", {"game_id": game["id"]}))
            wrong = await client.call_tool(
                "submit_action",
                {"game_id": game["id"], "decision_id": owed["decision_id"], "action": "nonsense"},
            )
            unknown_game = await client.call_tool(
                "create_game", {"game": "no-such-game-type", "seats": 2}
            )
            return [_error_text(r) for r in (missing, not_mine, wrong, unknown_game)]

    missing, not_mine, wrong, unknown = asyncio.run(session())
    assert "HTTP 404" in missing
    assert "HTTP 403" in not_mine or "HTTP 409" in not_mine
    assert "HTTP 422" in wrong and "attempts_left" in wrong
    assert "HTTP 4" in unknown


def test_text_observations_on_request_and_own_press_never_comes_back(
    server: Server, mcp: McpProcess, agent: str
) -> None:
    host = _user(server, "mcp-text-host")
    game = server.api("POST", "/api/games", host, json={"game": "diplomacy", "seats": 2})
    server.api("POST", f"/api/games/{game['id']}/join", agent, json={"role": "player"})
    started = server.api("POST", f"/api/games/{game['id']}/start", host, json={})
    seats = {s["user"]: s["seat"] for s in started["seats"] if s["user"]}
    host_seat, agent_seat = seats["mcp-text-host"], seats["mcp-solo"]

    async def session() -> tuple[Any, Any, dict[str, Any], Any]:
        async with _client(mcp.url) as client:
            first = _data(await client.call_tool("get_decision", {"game_id": game["id"]}))
            assert first["press_received"] == []
            mine = {"game_id": game["id"], "text": "sent through MCP", "to": [host_seat]}
            _data(await client.call_tool("send_press", mine))
            # Sent with the same account outside MCP: its seat gives it away.
            server.api(
                "POST", f"/api/games/{game['id']}/press", agent, json={"text": "sent directly"}
            )
            server.api(
                "POST",
                f"/api/games/{game['id']}/press",
                host,
                json={"text": "from the host", "to": [agent_seat]},
            )
            text = await client.call_tool("get_decision", {"game_id": game["id"], "format": "text"})
            state = await client.call_tool("get_state", {"game_id": game["id"], "format": "text"})
            again = _data(await client.call_tool("get_decision", {"game_id": game["id"]}))
            read = _data(await client.call_tool("read_press", {"game_id": game["id"]}))
            return text, state, again, read

    text, state, again, read = asyncio.run(session())
    assert not text.is_error and text.structured_content is None
    shown = text.content[0].text
    assert "Legal actions" in shown and "from the host" in shown
    # Its own messages are never shown as received; its memory lists them as sent.
    received, _, remembered = shown.partition("Your memory")
    assert "sent through MCP" not in received and "sent directly" not in received
    assert "Messages you sent:" in remembered and "sent through MCP" in remembered
    assert "Answer with decision_id " in shown
    assert not state.is_error and state.structured_content is None
    assert "S1901M" in state.content[0].text
    assert not state.content[0].text.lstrip().startswith("{")
    assert again["press_received"] == []  # everything was shown once already
    assert [p["text"] for p in read["press"]] == [
        "sent through MCP",
        "sent directly",
        "from the host",
    ]


def test_the_wait_is_bounded(mcp: McpProcess) -> None:
    async def session() -> str:
        async with _client(mcp.url) as client:
            result = await client.call_tool(
                "wait_for_decision", {"game_id": "abc", "timeout_seconds": 601}
            )
            return _error_text(result)

    assert "timeout_seconds" in asyncio.run(session())


def test_json_answers_keep_their_shape(server: Server, mcp: McpProcess) -> None:
    async def session() -> Any:
        async with _client(mcp.url) as client:
            return await client.call_tool("list_games", {"status": "active"})

    result = asyncio.run(session())
    assert json.loads(result.content[0].text) == _data(result)


def test_a_wait_stops_once_for_each_negotiation_round(server: Server, mcp: McpProcess) -> None:
    host = _user(server, "mcp-rounds-host")
    spec = {"game": "diplomacy", "seats": 2, "negotiation": {"rounds": 1, "seconds": 3600}}
    game = server.api("POST", "/api/games", host, json=spec)

    async def session() -> tuple[dict[str, Any], Any, dict[str, Any]]:
        async with _client(mcp.url) as client:
            _data(await client.call_tool("join_game", {"game_id": game["id"]}))
            await asyncio.to_thread(
                server.api, "POST", f"/api/games/{game['id']}/start", host, json={}
            )
            args = {"game_id": game["id"], "timeout_seconds": 30}
            first = _data(await client.call_tool("wait_for_decision", args))
            text = await client.call_tool("get_decision", {"game_id": game["id"], "format": "text"})
            again = _data(
                await client.call_tool("wait_for_decision", {**args, "timeout_seconds": 0.3})
            )
            return first, text, again

    first, text, again = asyncio.run(session())
    assert first["status"] == "negotiating" and first["timed_out"] is False, first
    assert first["negotiation"]["round"] == 1
    assert "Negotiation round 1 of 1" in text.content[0].text
    # The round was shown: waiting again waits for the orders, not for the same round.
    assert again["status"] == "negotiating" and again["timed_out"] is True
