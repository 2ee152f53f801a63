"""Hostile text in every field a user can fill, for every game: stored as written or refused
with a 400 naming the field, and every view of the game reads back afterwards.

Over HTTP, the WebSocket and the agent gateway. Parametrised over the game registry, so a
new game is covered by itself.
"""

from __future__ import annotations

import json
import logging
import random
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tests.server.conftest import (
    WAIT,
    Client,
    LiveServer,
    Socket,
    make_settings,
    sign_up,
    start_live_server,
)
from tests.server.driver import pick
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from parley import games

# Text a server must store and give back exactly: markup, quotes, SQL, template syntax,
# astral and combining characters, right-to-left letters, a long run.
HOSTILE = (
    "<script>alert('x')</script> \"q\" \\ '; DROP TABLE games; -- ${x} {{y}} %s "
    "\U0001f3b2 e\u0301 \u05e9\u05dc\u05d5\u05dd"
)
LONE = "\\ud800"  # a lone surrogate as a JSON escape: never storable as text
GAMES = games.names()


@pytest.fixture
def live_gateway(sqlite_url: str) -> Iterator[LiveServer]:
    server = start_live_server(make_settings(sqlite_url), gateway=True)
    yield server
    server.stop()


def _raw(client: Client, method: str, path: str, body: str) -> httpx.Response:
    headers = {**client.headers, "content-type": "application/json"}
    return client.http.request(method, path, content=body.encode(), headers=headers)


def _refused(client: Client, path: str, body: str, field: str) -> None:
    """A body with a lone surrogate in `field`: 400 naming it."""
    answer = _raw(client, "POST", path, body)
    assert answer.status_code == 400, (path, body, answer.text)
    assert answer.json()["field"] == field, answer.text


def _no_5xx(answer: httpx.Response) -> None:
    assert answer.status_code < 500, answer.text


@pytest.mark.parametrize("name", GAMES)
def test_hostile_text_is_stored_as_written_or_refused_and_every_view_reads_back(
    live_gateway: LiveServer, name: str
) -> None:
    live = live_gateway
    rules = games.find(name)
    seats = rules.spec.default_seats or rules.spec.min_seats
    # --- accounts: a password and an agent description --------------------------------
    host = sign_up(live.url, "host", password="pw " + HOSTILE)
    _refused(
        Client(live.url, "x"),
        "/api/users",
        '{"username": "s1", "password": "12345678' + LONE + '"}',
        "password",
    )
    relog = httpx.post(
        live.url + "/api/sessions",
        json={"username": "host", "password": "pw " + HOSTILE},
        timeout=WAIT,
    )
    assert relog.status_code == 200, relog.text
    agent_body = {"name": "agent", "description": HOSTILE}
    registered = httpx.post(live.url + "/api/agents", json=agent_body, timeout=WAIT)
    assert registered.status_code == 201, registered.text
    agent = Client(live.url, "agent", token=registered.json()["token"])
    _refused(
        agent, "/api/agents", '{"name": "agent2", "description": "' + LONE + '"}', "description"
    )
    watcher = sign_up(live.url, "watcher")
    # --- the game: name, description, options, invite code ----------------------------
    for field in ("name", "description"):
        _refused(host, "/api/games", f'{{"game": "{name}", "{field}": "x{LONE}"}}', field)
    _refused(
        host, "/api/games", f'{{"game": "{name}", "options": {{"k{LONE}": 1}}}}', "options.k\\ud800"
    )
    _no_5xx(_raw(host, "POST", "/api/games", json.dumps({"game": name, "options": {"x": HOSTILE}})))
    body = {"game": name, "name": HOSTILE[:100], "description": HOSTILE, "seats": seats}
    gid = host.post("/api/games", body, expect=201)["id"]
    _no_5xx(
        _raw(watcher, "POST", f"/api/games/{gid}/join", json.dumps({"invite_code": HOSTILE[:64]}))
    )
    _refused(watcher, f"/api/games/{gid}/join", '{"invite_code": "' + LONE + '"}', "invite_code")
    watcher.post(f"/api/games/{gid}/join", {"role": "spectator"})
    if seats > 1:
        agent.post(f"/api/games/{gid}/join", {"role": "player"})
    host.post(f"/api/games/{gid}/start", {"fill_with": "random"})
    sockets = {c.username: c.ws(gid) for c in (host, agent, watcher)}
    for ws in sockets.values():
        ws.wait_for(lambda m: m["type"] == "state")
    seq = host.get(f"/api/games/{gid}")["seq"]
    # --- press: public and private, over HTTP and the WebSocket ------------------------
    me = host.get(f"/api/games/{gid}")["you"]["seat"]
    other = next((s for s in range(seats) if s != me), None)
    stored: list[str] = []
    if rules.spec.max_seats > 1:
        host.post(f"/api/games/{gid}/press", {"text": "public " + HOSTILE})
        stored.append("public " + HOSTILE)
        if other is not None:
            private = {"text": "private " + HOSTILE, "to": [other], "channel": "a-b.c d_e"}
            host.post(f"/api/games/{gid}/press", private)
            stored.append("private " + HOSTILE)
        _refused(host, f"/api/games/{gid}/press", '{"text": "a' + LONE + '"}', "text")
        sockets["host"].send({"type": "say", "id": 7, "text": "socket " + HOSTILE})
        ack = sockets["host"].wait_for(lambda m: m.get("id") == 7)
        assert ack["type"] == "ack", ack
        stored.append("socket " + HOSTILE)
    sockets["host"].conn.send('{"type": "say", "id": 8, "text": "b' + LONE + '"}')
    refusal = sockets["host"].wait_for(lambda m: m.get("id") == 8)
    assert (refusal["type"], refusal["error"], refusal["field"]) == ("error", "bad_request", "text")
    # --- actions: hostile notation, JSON and parts; refused or played, never a 5xx -----
    before = host.get(f"/api/games/{gid}")["seq"]
    for action in (
        {"action": HOSTILE},
        {"action": {"hostile": HOSTILE, "list": [HOSTILE, 1, None]}},
        {"parts": [HOSTILE, HOSTILE]},
        {"action": HOSTILE, "state_id": 0},
    ):
        _no_5xx(_raw(host, "POST", f"/api/games/{gid}/actions", json.dumps(action)))
    _refused(host, f"/api/games/{gid}/actions", '{"action": "' + LONE + '"}', "action")
    _refused(host, f"/api/games/{gid}/actions", '{"action": {"k": ["' + LONE + '"]}}', "action.k.0")
    _refused(host, f"/api/games/{gid}/actions", '{"parts": ["ok", "' + LONE + '"]}', "parts.1")
    sockets["host"].send({"type": "act", "id": 9, "action": HOSTILE})
    assert sockets["host"].wait_for(lambda m: m.get("id") == 9)["type"] in ("ack", "error")
    sockets["host"].conn.send('{"type": "act", "id": 10, "action": "' + LONE + '"}')
    assert sockets["host"].wait_for(lambda m: m.get("id") == 10)["field"] == "action"
    assert host.get(f"/api/games/{gid}")["seq"] >= before >= seq
    # --- the gateway: answers, reasoning, press ----------------------------------------
    pending = agent.get(f"/api/agents/games/{gid}/decision") if seats > 1 else {"pending": False}
    if pending["pending"]:
        decision = pending["decision"]["decision"]
        path = f"/api/agents/games/{gid}/decision"
        _refused(agent, path, f'{{"decision": "{decision}", "action": "{LONE}"}}', "action")
        _refused(
            agent,
            path,
            f'{{"decision": "{decision}", "action": "x", "reasoning": "{LONE}"}}',
            "reasoning",
        )
        answer = {"decision": decision, "action": HOSTILE, "reasoning": HOSTILE,
                  "press": [{"text": "refused " + HOSTILE}]}  # fmt: skip
        _no_5xx(_raw(agent, "POST", path, json.dumps(answer)))
        leaves = pick(agent.get(f"/api/games/{gid}/state")["options"], random.Random(1))
        good = {"decision": decision, "action": "; ".join(leaves), "reasoning": "why " + HOSTILE,
                "press": [{"text": "agent " + HOSTILE}]}  # fmt: skip
        out = _raw(agent, "POST", path, json.dumps(good))
        _no_5xx(out)
        if out.status_code == 200 and out.json()["status"] == "accepted":
            stored.append("agent " + HOSTILE)
    _no_5xx(
        _raw(
            agent,
            "POST",
            f"/api/agents/games/{gid}/decision",
            json.dumps({"decision": HOSTILE[:100]}),
        )
    )
    # The gateway's own socket: a lone surrogate is refused naming its field, hostile text
    # in an answer is an ordinary refusal or result.
    agent_socket = Socket(
        connect(f"{live.ws_url}/ws/agents/games/{gid}", open_timeout=WAIT, legacy=True)
    )
    agent_socket.send({"type": "auth", "token": agent.token})
    agent_socket.conn.send(
        '{"type": "answer", "id": 1, "decision": "d", "reasoning": "' + LONE + '"}'
    )
    refused = agent_socket.wait_for(lambda m: m.get("id") == 1)
    assert (refused["error"], refused["field"]) == ("bad_request", "reasoning"), refused
    hostile = {"type": "answer", "id": 2, "decision": HOSTILE[:100], "action": HOSTILE}
    agent_socket.send({**hostile, "reasoning": HOSTILE, "press": [{"text": HOSTILE}]})
    assert agent_socket.wait_for(lambda m: m.get("id") == 2)["type"] in ("error", "result")
    agent_socket.close()
    _refused(Client(live.url, "x"), "/api/users", '{"username": "a' + LONE + '"}', "username")
    # --- every view, for every viewer, reads back ----------------------------------------
    host.post(f"/api/games/{gid}/close")
    for ws in sockets.values():
        ws.drain(0.3)
    for viewer in (host, agent, watcher):
        seen = "\n".join(_strings([_every_view(viewer, gid), sockets[viewer.username].messages]))
        assert HOSTILE in seen  # the game's name and description, at least
        if viewer is host:
            assert all(text in seen for text in stored), [t for t in stored if t not in seen]
    research = agent.get(f"/api/agents/games/{gid}/research")
    assert research["record"]["server"]["name"] == HOSTILE[:100]
    for ws in sockets.values():
        ws.close()


def _strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value (texts compared as the client decodes them)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _every_view(client: Client, gid: str) -> list[Any]:
    game = client.get(f"/api/games/{gid}")
    assert game["name"] == HOSTILE[:100] and game["description"] == HOSTILE
    views: list[Any] = [
        game,
        client.get("/api/games", params={"status": ["lobby", "active", "closed"]}),
        client.get("/api/me/games"),
        client.get(f"/api/games/{gid}/state", params={"text": True}),
        client.get(f"/api/games/{gid}/state", params={"at": 1, "text": True}),
        client.get(f"/api/games/{gid}/history"),
        client.get(f"/api/games/{gid}/steps"),
        client.get(f"/api/games/{gid}/record"),
        client.get(f"/api/games/{gid}/record", params={"view": "archive"}),
        client.get(f"/api/games/{gid}/events"),
        client.get("/api/agents/me"),
        client.get(f"/api/agents/games/{gid}/reasoning"),
    ]
    if game["you"] and game["you"]["seat"] is not None:
        views.append(client.get(f"/api/agents/games/{gid}/decision"))
    return views


# Every character that ends a line somewhere: `str.splitlines` splits on each, and a mail
# header may not hold any.
LINE_BREAKS = "\u2028\u2029\x85\n\x0b\x0c\r\x1c\x1d\x1e"


def test_one_line_fields_refuse_every_line_break(live: LiveServer) -> None:
    host = sign_up(live.url, "host")
    assert all(len(f"a{c}b".splitlines()) == 2 for c in LINE_BREAKS)
    for char in LINE_BREAKS:
        body = {"game": "sealed-bids", "name": f"Spring{char}Evil: x", "seats": 2}
        answer = _raw(host, "POST", "/api/games", json.dumps(body))
        assert answer.status_code == 422, (hex(ord(char)), answer.text)
        refusal = answer.json()
        assert refusal["error"] == "invalid_request", refusal
        assert f"U+{ord(char):04X}" in refusal["message"] and "line" in refusal["message"]
        assert refusal["message"].startswith("body.name:"), refusal
    # A multi-line field keeps its newlines; the game's name, one line, is stored as given.
    body = {"game": "sealed-bids", "name": "Spring \u2027 1901", "description": "a\nb", "seats": 2}
    gid = host.post("/api/games", body, expect=201)["id"]
    game = host.get(f"/api/games/{gid}")
    assert (game["name"], game["description"]) == ("Spring \u2027 1901", "a\nb")


# --- JSON nested too deeply to parse safely ------------------------------------------------

NESTED = "[" * 1000 + "]" * 1000
NESTED_LONE = "[" * 1000 + '"' + LONE + '"' + "]" * 1000  # the Unicode check walks it too
NESTED_OBJECT = '{"action": ' + '{"a": ' * 200 + "1" + "}" * 200 + "}"


def _nesting_refused(answer: httpx.Response) -> None:
    assert answer.status_code == 400, answer.text
    body = answer.json()
    assert body["error"] == "bad_request" and "levels deep" in body["message"], body


def _server_errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


def test_deeply_nested_json_is_refused_with_400_on_every_route(
    live_gateway: LiveServer, caplog: pytest.LogCaptureFixture
) -> None:
    live = live_gateway
    host, bob = sign_up(live.url, "host"), sign_up(live.url, "bob")
    gid = host.post("/api/games", {"game": "sealed-bids"}, expect=201)["id"]
    bob.post(f"/api/games/{gid}/join", {"role": "player"})
    host.post(f"/api/games/{gid}/start")
    anonymous = Client(live.url, "nobody")
    paths = httpx.get(live.url + "/openapi.json", timeout=WAIT).json()["paths"]
    routes = [
        (method.upper(), path.replace("{game_id}", gid))
        for path, methods in paths.items()
        for method in methods
        if method in ("post", "put", "patch", "delete")
    ]
    assert ("POST", f"/api/games/{gid}/actions") in routes and ("POST", "/api/users") in routes
    caplog.set_level(logging.INFO)
    caplog.clear()
    sent = 0
    for method, path in routes:
        path = re.sub(r"\{[^}]+\}", "0", path)  # seats, codes: the body is refused first
        for body in (NESTED, NESTED_LONE, NESTED_OBJECT):
            for client in (host, anonymous):
                _nesting_refused(_raw(client, method, path, body))
                sent += 1
    # One line each, no traceback; and nothing was stored on the way.
    refusals = [r for r in caplog.records if "nests too deeply" in r.getMessage()]
    assert len(refusals) == sent and not _server_errors(caplog)
    assert host.get(f"/api/games/{gid}")["seq"] == 0
    # Nesting up to the limit is an ordinary body: parsed, and judged by the route.
    fine = '{"action": ' + "[" * 60 + "1" + "]" * 60 + "}"
    answer = _raw(host, "POST", f"/api/games/{gid}/actions", fine)
    assert answer.status_code in (400, 409, 422) and "levels deep" not in answer.text, answer.text


def test_deeply_nested_json_on_both_sockets_gets_an_error_frame_and_the_socket_lives_on(
    live_gateway: LiveServer, caplog: pytest.LogCaptureFixture
) -> None:
    live = live_gateway
    host = sign_up(live.url, "host")
    registered = httpx.post(live.url + "/api/agents", json={"name": "agent"}, timeout=WAIT)
    agent = Client(live.url, "agent", token=registered.json()["token"])
    gid = host.post("/api/games", {"game": "sealed-bids"}, expect=201)["id"]
    agent.post(f"/api/games/{gid}/join", {"role": "player"})
    host.post(f"/api/games/{gid}/start")
    caplog.set_level(logging.INFO)
    caplog.clear()
    game = host.ws(gid)
    game.wait_for(lambda m: m["type"] == "state")
    agents = Socket(connect(f"{live.ws_url}/ws/agents/games/{gid}", open_timeout=WAIT, legacy=True))
    agents.send({"type": "auth", "token": agent.token})
    for socket, ping, answer in ((game, "ping", "ack"), (agents, "ping", "pong")):
        for text in (NESTED, NESTED_LONE, '{"type": "act", "id": 1, "action": ' + NESTED + "}"):
            socket.conn.send(text)
            frame = socket.wait_for(lambda m: m["type"] == "error")
            assert frame["error"] == "bad_request" and "levels deep" in frame["message"], frame
        socket.send({"type": ping, "id": 5})  # still open, still answering
        assert socket.wait_for(lambda m: m.get("id") == 5)["type"] == answer
    refusals = [r for r in caplog.records if "nests too deeply" in r.getMessage()]
    assert len(refusals) == 6 and not _server_errors(caplog)
    game.close()
    agents.close()
    # The first message of a socket (its token) too: refused plainly, and closed.
    late = Socket(connect(f"{live.ws_url}/ws/games/{gid}", open_timeout=WAIT, legacy=True))
    late.conn.send("[" * 500 + "]" * 500)
    frame = late.wait_for(lambda m: m["type"] == "error")
    assert frame["error"] == "bad_request" and "levels deep" in frame["message"], frame
    with pytest.raises(ConnectionClosed) as closed:
        late.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4400
    assert not _server_errors(caplog)
