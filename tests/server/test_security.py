"""Security: per-viewer redaction for every game, seats act only for themselves, limits."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from tests.server.conftest import (
    Client,
    LiveServer,
    Socket,
    make_settings,
    sign_up,
    start_live_server,
)
from tests.server.driver import act_randomly
from tests.server.test_play import start_game

from parley import games
from parley.kernel import Viewer
from parley.server import Limits

Users = Callable[..., Client]
# Every registered game, and the ones the platform promises even while they are missing:
# their absence must fail here, loudly.
REQUIRED = {"countdown", "sealed-bids", "diplomacy", "sucker"}
GAMES = sorted(REQUIRED | set(games.names()))
STEPS = 24


@pytest.mark.parametrize("name", GAMES)
def test_no_viewer_receives_what_is_hidden_from_it(live: LiveServer, name: str) -> None:
    rules = games.find(name)
    seats = rules.spec.default_seats or rules.spec.min_seats
    players = [sign_up(live.url, f"p{i}") for i in range(seats)]
    watcher = sign_up(live.url, "watcher")
    gid, seat_of = start_game(players[0], players[1:], name, period_seconds=60, disorder_after=0)
    watcher.post(f"/api/games/{gid}/join", {"role": "spectator"})
    by_seat = {seat_of[c.username]: c for c in players}
    viewers: dict[Viewer, Client] = {Viewer.of(s): c for s, c in by_seat.items()}
    viewers[Viewer()] = watcher
    sockets = {v: c.ws(gid) for v, c in viewers.items()}
    checked = {v: 0 for v in viewers}  # WebSocket messages already checked, per viewer
    whispers: dict[str, frozenset[int]] = {}  # private press text → who may read it
    rng = random.Random(name)
    secrets_checked = game_secrets = 0
    try:
        for step in range(STEPS):
            if seats >= 2:
                sender, receiver = rng.sample(sorted(by_seat), 2)
                text = f"whisper-{step}-{sender}-{receiver}"
                by_seat[sender].post(f"/api/games/{gid}/press", {"text": text, "to": [receiver]})
                whispers[text] = frozenset({sender, receiver})
            owed = _server_side(live, gid, lambda m: sorted(m.turn().owing))
            acted = bool(owed) and act_randomly(by_seat[rng.choice(owed)], gid, rng)
            if not acted:
                live.advance(60)  # nobody could act: the deadline takes the defaults
            secrets = _server_side(
                live, gid, lambda m: {s: set(rules.secrets(m.state, s)) for s in range(m.seats)}
            )
            game_secrets += sum(len(texts) for texts in secrets.values())
            seq, over = _server_side(live, gid, lambda m: (m.seq, m.is_over))
            for viewer, client in viewers.items():
                hidden = {
                    text
                    for owner, texts in secrets.items()
                    if owner != viewer.seat
                    for text in texts
                } | {text for text, readers in whispers.items() if viewer.seat not in readers}
                seen = json.dumps(
                    [
                        client.get(f"/api/games/{gid}/state"),
                        client.get(f"/api/games/{gid}/history"),
                        client.get(f"/api/games/{gid}/record"),
                    ]
                )
                ws = sockets[viewer]
                ws.wait_for(lambda m, s=seq: m["type"] == "state" and m["seq"] == s)
                seen += json.dumps(ws.messages[checked[viewer] :])
                checked[viewer] = len(ws.messages)
                secrets_checked += len(hidden)
                leaks = sorted(t for t in hidden if t in seen)
                assert not leaks, f"{name} step {step}: {viewer.to_json()} received {leaks}"
                mine = [t for t, readers in whispers.items() if viewer.seat in readers]
                assert all(t in seen or _in_history(client, gid, t) for t in mine)
            if over:
                break
        assert secrets_checked > 0, "the test never had anything hidden to look for"
        if rules.spec.hidden_information:  # the game's own secrets were put to the test
            assert game_secrets > 0, f"{name}: no secret arose in {STEPS} steps"
    finally:
        for ws in sockets.values():
            ws.close()


def _server_side(live: LiveServer, gid: str, fn: Callable[[Any], Any]) -> Any:
    return live.services.tables.view(gid, lambda game: fn(game.match))


def _in_history(client: Client, gid: str, text: str) -> bool:
    return text in json.dumps(client.get(f"/api/games/{gid}/history"))


def test_a_seat_acts_only_for_itself(live: LiveServer, users: Users) -> None:
    amy, bob = users("amy"), users("bob")
    gid, seats = start_game(amy, [bob], "sealed-bids", options={"rounds": 2})
    bob.post(f"/api/games/{gid}/actions", {"action": "bid 5", "seat": seats["amy"]}, expect=422)
    bob.post(f"/api/games/{gid}/actions", {"action": "bid 5"})
    entries = amy.get(f"/api/games/{gid}/history")["entries"]
    assert [e["seat"] for e in entries] == [seats["bob"]]
    other = amy.post("/api/games", {"game": "countdown"}, expect=201)["id"]
    bob.post(f"/api/games/{other}/actions", {"action": "take 1"}, expect=403)  # not a member
    bob.post(f"/api/games/{other}/start", expect=403)  # not the host
    bob.post(f"/api/games/{gid}/draw", {"accept": True})
    votes = amy.get(f"/api/games/{gid}/history")["entries"][-1]
    assert votes == {"seq": 1, "type": "vote", "seat": seats["bob"]}


@pytest.fixture
def strict(sqlite_url: str) -> Iterator[LiveServer]:
    limits = Limits(
        rate_per_second=0.5,
        rate_burst=3,
        signup_rate_per_second=0.01,
        signup_burst=5,
        max_body_bytes=2048,
    )
    server = start_live_server(make_settings(sqlite_url, limits=limits))
    yield server
    server.stop()


def test_rate_limits_per_user(strict: LiveServer) -> None:
    amy, bob = sign_up(strict.url, "amy"), sign_up(strict.url, "bob")
    gid = amy.post("/api/games", {"game": "countdown"}, expect=201)["id"]  # token 1 of 3
    amy.post(f"/api/games/{gid}/bots", {"count": 1})  # 2
    amy.post("/api/games", {"game": "countdown"}, expect=201)  # 3
    refused = amy.http.post("/api/games", json={"game": "countdown"}, headers=amy.headers)
    assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
    assert int(refused.headers["Retry-After"]) >= 1
    assert len(amy.get("/api/me/games")["games"]) == 2  # reads are not limited; nothing changed
    bob.post("/api/games", {"game": "countdown"}, expect=201)  # each user has a bucket


def test_sign_ups_are_limited_per_address(strict: LiveServer) -> None:
    for i in range(3):  # the burst is 5 sign-ups from one address
        sign_up(strict.url, f"user{i}")
    codes = [
        httpx.post(strict.url + "/api/users", json={"username": f"more{i}"}).status_code
        for i in range(4)
    ]
    assert codes[:2] == [201, 201] and codes[2:] == [429, 429]


def test_request_bodies_are_limited(strict: LiveServer) -> None:
    amy = sign_up(strict.url, "amy")
    big = {"game": "countdown", "description": "x" * 4000}
    answer = amy.post("/api/games", big, expect=413)
    assert answer["error"] == "too_large"
    streamed = httpx.post(
        strict.url + "/api/games",
        content=iter([b'{"game": "countdown", "description": "', b"y" * 3000, b'"}']),
        headers={**amy.headers, "content-type": "application/json"},
    )
    assert streamed.status_code == 413
    assert amy.get("/api/me/games")["games"] == []


def test_bad_input_of_every_kind_is_a_clear_4xx(live: LiveServer, users: Users) -> None:
    amy, bob = users("amy"), users("bob")
    gid, _ = start_game(amy, [bob], "countdown")
    before = amy.get(f"/api/games/{gid}/state")
    raw = httpx.Client(base_url=live.url, headers=amy.headers)
    cases: list[tuple[str, str, Any, int]] = [
        ("POST", f"/api/games/{gid}/actions", b"{not json", 400),
        ("POST", f"/api/games/{gid}/actions", b"[1, 2]", 422),
        ("POST", f"/api/games/{gid}/actions", b'{"action": "take 1", "state_id": -1}', 422),
        ("POST", f"/api/games/{gid}/actions", b'{"action": "take 1", "state_id": 1e400}', 422),
        ("POST", f"/api/games/{gid}/press", b'{"text": "hi", "to": "everyone"}', 422),
        ("POST", f"/api/games/{gid}/draw", b'{"accept": "maybe"}', 422),
        ("GET", f"/api/games/{gid}/history?since=-4", None, 422),
        ("GET", f"/api/games/{gid}/history?since=abc", None, 422),
        ("GET", f"/api/games/{gid}/record?view=god", None, 422),
        ("POST", "/api/games/%00/join", b"{}", 422),
        ("DELETE", f"/api/games/{gid}", None, 405),
        ("GET", "/api/nowhere", None, 404),
    ]
    for method, path, body, status in cases:
        response = raw.request(
            method, path, content=body, headers={"content-type": "application/json"}
        )
        assert response.status_code == status, (path, body, response.text)
        answer = response.json()
        assert answer["error"] and answer["message"], answer
    anonymous = httpx.get(live.url + f"/api/games/{gid}/state")
    assert anonymous.status_code == 401 and anonymous.json()["error"] == "unauthorized"
    after = amy.get(f"/api/games/{gid}/state")
    assert after == before


def test_ws_messages_are_limited_and_checked(live: LiveServer, users: Users) -> None:
    amy, bob = users("amy"), users("bob")
    gid, _ = start_game(amy, [bob], "countdown")
    ws: Socket = amy.ws(gid)
    ws.wait_for(lambda m: m["type"] == "state")
    ws.conn.send(json.dumps({"type": "say", "id": 1, "text": "z" * 70_000}))
    assert ws.wait_for(lambda m: m.get("id") == 1 or m["type"] == "error")["error"] == "too_large"
    ws.send({"type": "act", "id": 2, "action": "take 1", "extra": True})
    assert ws.wait_for(lambda m: m.get("id") == 2)["error"] == "invalid_request"
    ws.close()
