"""The move route's hot path answers exactly as the route does, and is the one used.

Each request is sent twice: once as an ordinary client sends it (`application/json`, a
recently checked token: the hot path answers), and once with `; charset=utf-8` added to
its content type, which the hot path leaves to the FastAPI route. Status, headers and
body bytes must match, for a move that is accepted and for each kind of refusal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from tests.server.conftest import Client, LiveServer

from parley.server.api import hot

Users = Callable[..., Client]
HOT = "application/json"
ROUTE = "application/json; charset=utf-8"  # the same JSON; the hot path passes it on


def send(client: Client, gid: str, body: Any, kind: str) -> tuple[int, dict[str, str], bytes]:
    raw = body if isinstance(body, bytes) else httpx.Request("POST", "/", json=body).content
    response = client.http.post(
        f"/api/games/{gid}/actions",
        content=raw,
        headers={"Authorization": f"Bearer {client.token}", "Content-Type": kind},
    )
    # The date and the request's own id differ between any two answers.
    headers = {k: v for k, v in response.headers.items() if k not in ("date", "x-request-id")}
    return response.status_code, headers, response.content


@pytest.fixture
def hot_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many requests the hot path answered itself."""
    calls: list[int] = []
    read = hot._action

    def counting(body: bytes) -> Any:
        found = read(body)
        if found is not None:
            calls.append(1)
        return found

    monkeypatch.setattr(hot, "_action", counting)
    return calls


def two_games(a: Client, b: Client) -> tuple[str, str]:
    """Two games in the same position (same seed, same seats)."""
    ids = []
    for _ in range(2):
        body = {"game": "countdown", "seats": 2, "seed": 5, "options": {"start": 10}}
        gid = a.post("/api/games", body, expect=201)["id"]
        b.post(f"/api/games/{gid}/join", {"role": "player"})
        a.post(f"/api/games/{gid}/start")
        ids.append(gid)
    return ids[0], ids[1]


def test_the_hot_path_answers_moves_and_refusals_as_the_route(
    live: LiveServer, users: Users, hot_calls: list[int]
) -> None:
    a, b, outsider = users("amy"), users("bob"), users("cyd")
    first, second = two_games(a, b)
    for c in (a, b, outsider):
        c.get("/api/games")  # a checked token: what the hot path needs
    state = a.get(f"/api/games/{first}/state")
    mover, other = (a, b) if state["owes"] else (b, a)
    sid = state["state_id"]

    refusals: list[tuple[Client, str, Any]] = [
        (other, first, {"action": "take 1"}),  # not their turn
        (mover, first, {"action": "take 1", "state_id": sid + 7}),  # a stale state
        (mover, first, {"action": "take 9"}),  # not a legal action
        (mover, first, {"action": "fly away"}),  # not readable
        (mover, first, {"action": "take 1", "revision": 5}),  # a stale revision
        (mover, first, {"parts": ["take 1"], "action": "take 1"}),  # both forms
        (mover, first, {}),  # nothing to play
        (outsider, first, {"action": "take 1"}),  # not in the game
        (mover, "nosuchgame", {"action": "take 1"}),  # no such game
    ]
    for client, gid, body in refusals:
        before = len(hot_calls)
        fast = send(client, gid, body, HOT)
        assert len(hot_calls) == before + 1, f"the hot path passed {body} on"
        slow = send(client, gid, body, ROUTE)
        assert len(hot_calls) == before + 1
        assert fast == slow, body
        assert fast[0] >= 400

    before = len(hot_calls)
    fast = send(mover, first, {"action": "take 2", "state_id": sid}, HOT)
    slow = send(mover, second, {"action": "take 2", "state_id": sid}, ROUTE)
    assert len(hot_calls) == before + 1
    assert fast == slow and fast[0] == 200
    assert fast[1]["content-type"] == "application/json"
    history = a.get(f"/api/games/{first}/history")["entries"]
    assert [e["notation"] for e in history] == ["take 2"]


def test_what_the_hot_path_passes_on_gets_the_routes_answer(
    live: LiveServer, users: Users, hot_calls: list[int]
) -> None:
    a, b = users("amy"), users("bob")
    first, _ = two_games(a, b)
    a.get("/api/games")
    odd: list[Any] = [
        b"{not json",
        b"[1, 2]",
        {"action": "take 1", "extra": True},  # an unknown field
        {"action": "take 1", "state_id": -1},
        {"parts": "take 1"},
    ]
    for body in odd:
        fast = send(a, first, body, HOT)
        slow = send(a, first, body, ROUTE)
        assert fast == slow, body
        assert fast[0] in (400, 422)
    assert hot_calls == []


def test_tokens_are_checked_as_the_route_checks_them(
    live: LiveServer, users: Users, hot_calls: list[int]
) -> None:
    a, b = users("amy"), users("bob")
    first, _ = two_games(a, b)
    stranger = Client(live.url, "nobody")
    stranger.token = "x" * 43  # never issued
    fast = send(stranger, first, {"action": "take 1"}, HOT)
    assert fast == send(stranger, first, {"action": "take 1"}, ROUTE)
    assert fast[0] == 401 and len(hot_calls) == 1
    stranger.close()
    # A token not checked yet is looked up, and the move goes through.
    live.services.accounts._known.clear()
    state = a.get(f"/api/games/{first}/state")
    mover = a if state["owes"] else b
    live.services.accounts._known.clear()
    assert send(mover, first, {"action": "take 1"}, HOT)[0] == 200 and len(hot_calls) == 2
    # A token revoked (log-out) is refused at once, as by the route.
    mover.call("DELETE", "/api/sessions/current", expect=200)
    fast = send(mover, first, {"action": "take 1"}, HOT)
    assert fast == send(mover, first, {"action": "take 1"}, ROUTE)
    assert fast[0] == 401 and len(hot_calls) == 3
