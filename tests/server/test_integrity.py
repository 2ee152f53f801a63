"""Integrity: who may take a seat, text that cannot be served back, honest failures."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
from tests.server.conftest import Client, LiveServer

from parley.kernel import Viewer

Users = Callable[..., Client]
LONE = "\\ud800"  # a lone surrogate, as a JSON escape: valid JSON, not valid Unicode text


def _raw(client: Client, path: str, body: str) -> httpx.Response:
    return client.http.post(
        path, content=body.encode(), headers={**client.headers, "content-type": "application/json"}
    )


def _diplomacy_with_bots(host: Client) -> str:
    gid: str = host.post("/api/games", {"game": "diplomacy", "period_seconds": 3600}, expect=201)[
        "id"
    ]
    host.post(f"/api/games/{gid}/start", {"fill_with": "random"})
    return gid


def _bot_seat(game: dict[str, Any]) -> dict[str, Any]:
    return next(s for s in game["seats"] if s["controller"] == "bot")


def _seat(game: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(s for s in game["seats"] if s["seat"] == seat)


def test_an_outsider_cannot_take_a_bot_seat_unless_the_host_opens_it(
    live: LiveServer, users: Users
) -> None:
    host, outsider = users("host"), users("outsider")
    gid = _diplomacy_with_bots(host)
    before = host.get(f"/api/games/{gid}")
    refused = outsider.post(f"/api/games/{gid}/join", {"role": "player"}, expect=409)
    assert "open" in refused["message"]
    assert host.get(f"/api/games/{gid}")["seats"] == before["seats"]
    bot = _bot_seat(before)["seat"]
    host_seat = next(s["seat"] for s in before["seats"] if s["user"] == "host")
    outsider.post(f"/api/games/{gid}/seats/{bot}/open", {"open": True}, expect=403)
    host.post(f"/api/games/{gid}/seats/{host_seat}/open", {"open": True}, expect=409)
    opened = host.post(f"/api/games/{gid}/seats/{bot}/open", {"open": True})
    assert _seat(opened, bot)["open"] is True
    joined = outsider.post(f"/api/games/{gid}/join", {"role": "player"})
    seat = _seat(joined, bot)
    assert (seat["user"], seat["controller"], seat["open"]) == ("outsider", "human", False)
    events = host.get(f"/api/games/{gid}/events")["events"]
    taken = [e["data"] for e in events if e["kind"] == "seat_taken"]
    assert taken == [{"seat": bot, "user": "outsider", "from": "random bot"}]
    users("third").post(f"/api/games/{gid}/join", {"role": "player"}, expect=409)


def test_a_newcomer_never_sees_orders_drafted_before_taking_the_seat(
    live: LiveServer, users: Users
) -> None:
    host, outsider = users("host"), users("outsider")
    gid = _diplomacy_with_bots(host)
    bot = _bot_seat(host.get(f"/api/games/{gid}"))["seat"]
    drafted = [
        e
        for e in live.services.tables.view(gid, lambda g: g.match.history(Viewer.of(bot)))
        if e.get("seat") == bot and e["type"] == "action"
    ]
    assert drafted and "notation" in drafted[-1], "the bot drafted orders for the open phase"
    host.post(f"/api/games/{gid}/seats/{bot}/open", {"open": True})
    outsider.post(f"/api/games/{gid}/join", {"role": "player"})
    socket = outsider.ws(gid)
    socket.wait_for(lambda m: m["type"] == "state")
    socket.close()
    seen = json.dumps(
        [
            outsider.get(f"/api/games/{gid}/state"),
            outsider.get(f"/api/games/{gid}/history"),
            outsider.get(f"/api/games/{gid}/record"),
            outsider.get(f"/api/games/{gid}/state", params={"at": 3}),
            socket.messages,
        ]
    )
    assert drafted[-1]["notation"] not in seen
    state = outsider.get(f"/api/games/{gid}/state")
    assert state["can_act"] is True
    assert state["observation"]["view"].get("my_orders") != drafted[-1]["notation"]
    orders = _first_leaves(state["options"])
    outsider.post(f"/api/games/{gid}/actions", {"parts": orders, "state_id": state["state_id"]})


def _first_leaves(tree: dict[str, Any]) -> list[str]:
    out = []
    for unit in tree["children"]:
        node = unit
        while node.get("action") is None:
            node = node["children"][0]
        out.append(node["action"])
    return out


def test_a_lone_surrogate_in_an_action_is_refused_and_the_record_stays_readable(
    live: LiveServer, users: Users
) -> None:
    a, b, c = users("amy"), users("bob"), users("cal")
    gid = a.post("/api/games", {"game": "sucker", "seats": 3}, expect=201)["id"]
    for other in (b, c):
        other.post(f"/api/games/{gid}/join", {"role": "player"})
    a.post(f"/api/games/{gid}/start")
    players = [a, b, c]
    before = a.get(f"/api/games/{gid}")["seq"]
    body = '{"action": "propose to green: \\"deal ' + LONE + ' ok\\""}'
    for p in players:
        answer = _raw(p, f"/api/games/{gid}/actions", body)
        assert answer.status_code == 400, answer.text
        assert answer.json()["field"] == "action"
    assert a.get(f"/api/games/{gid}")["seq"] == before
    for p in players:
        p.get(f"/api/games/{gid}/history")
        p.get(f"/api/games/{gid}/record")
        p.get(f"/api/games/{gid}/state")


def test_lone_surrogates_in_names_descriptions_and_refused_actions_are_400(
    live: LiveServer, users: Users
) -> None:
    amy, bob = users("amy"), users("bob")
    for field in ("name", "description"):
        body = '{"game": "countdown", "' + field + '": "a ' + LONE + ' b"}'
        answer = _raw(amy, "/api/games", body)
        assert answer.status_code == 400, answer.text
        assert answer.json()["field"] == field
    assert amy.get("/api/me/games")["games"] == []
    gid = amy.post("/api/games", {"game": "countdown", "seats": 2}, expect=201)["id"]
    bob.post(f"/api/games/{gid}/join", {"role": "player"})
    amy.post(f"/api/games/{gid}/start")
    for who in (amy, bob):
        answer = _raw(who, f"/api/games/{gid}/actions", '{"action": "take ' + LONE + '"}')
        assert answer.status_code == 400, answer.text
        answer = _raw(who, f"/api/games/{gid}/actions", '{"action": {"n": "' + LONE + '"}}')
        assert answer.status_code == 400 and answer.json()["field"] == "action.n", answer.text
        answer = _raw(who, f"/api/games/{gid}/press", '{"text": "' + LONE + '"}')
        assert answer.status_code == 400 and answer.json()["field"] == "text", answer.text
    answer = _raw(amy, "/api/sessions", '{"username": "amy", "password": "pass' + LONE + 'word"}')
    assert answer.status_code == 400 and answer.json()["field"] == "password", answer.text
    assert amy.get(f"/api/games/{gid}")["seq"] == 0
