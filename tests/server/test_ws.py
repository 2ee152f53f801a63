"""Live updates over WebSocket: per-viewer messages, reveals, resume with `since`, commands."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tests.server.conftest import Client, LiveServer
from tests.server.test_play import start_game
from websockets.exceptions import ConnectionClosed

Users = Callable[..., Client]


def test_connect_sends_hello_game_timer_state(live: LiveServer, users: Users) -> None:
    amy, bob = users("amy"), users("bob")
    gid, seats = start_game(amy, [bob], "countdown")
    ws = amy.ws(gid)
    first = [ws.recv() for _ in range(4)]
    assert [m["type"] for m in first] == ["hello", "game", "timer", "state"]
    assert first[0]["viewer"] == seats["amy"]
    assert first[1]["game"]["id"] == gid and first[1]["game"]["status"] == "active"
    assert first[2]["deadline"]["state_id"] == 0
    assert first[3]["viewer"] == {"role": "player", "seat": seats["amy"]}
    ws.close()


def test_updates_reach_every_viewer_filtered(live: LiveServer, users: Users) -> None:
    amy, bob, spec = users("amy"), users("bob"), users("spec")
    gid, seats = start_game(amy, [bob], "sealed-bids", options={"rounds": 2})
    spec.post(f"/api/games/{gid}/join", {"role": "spectator"})
    sockets = {name: c.ws(gid) for name, c in (("amy", amy), ("bob", bob), ("spec", spec))}
    for ws in sockets.values():
        ws.wait_for(lambda m: m["type"] == "state", what="the first state")
    amy.post(f"/api/games/{gid}/actions", {"action": "bid 4"})
    got = {
        name: ws.wait_for(lambda m: m["type"] == "entries", what=f"entries for {name}")
        for name, ws in sockets.items()
    }
    assert got["amy"]["entries"][0]["notation"] == "bid 4"
    for name in ("bob", "spec"):
        assert got[name]["entries"] == [
            {"seq": 0, "type": "action", "seat": seats["amy"], "hidden": True}
        ]
    bob.post(f"/api/games/{gid}/actions", {"action": "bid 1"})
    for name, ws in sockets.items():
        message = ws.wait_for(lambda m: m["type"] == "entries", what=f"the resolving bid ({name})")
        assert message["entries"][0]["notation"] == "bid 1"
        if name != "amy":
            assert [e["notation"] for e in message["revealed"]] == ["bid 4"]
        state = ws.wait_for(lambda m: m["type"] == "state")
        assert state["state_id"] == 1
        assert ws.entries()[0]["notation"] == "bid 4"  # the client's picture is complete
    # The new step's deadline comes with its state (a bare timer message would be redundant).
    states = [m for m in sockets["spec"].messages if m["type"] == "state"]
    assert states[-1]["deadline"]["state_id"] == 1
    assert not any(m["type"] == "timer" for m in sockets["spec"].messages[4:])
    for ws in sockets.values():
        ws.close()


def test_reconnect_resumes_from_the_last_seq_seen(live: LiveServer, users: Users) -> None:
    amy, bob = users("amy"), users("bob")
    gid, _seats = start_game(amy, [bob], "sealed-bids", options={"rounds": 3})
    ws = bob.ws(gid)
    ws.wait_for(lambda m: m["type"] == "state")
    amy.post(f"/api/games/{gid}/actions", {"action": "bid 2"})
    seen = ws.wait_for(lambda m: m["type"] == "entries")["seq"]
    assert seen == 1
    ws.close()  # the connection drops; the game goes on
    bob.post(f"/api/games/{gid}/actions", {"action": "bid 3"})
    bob.post(f"/api/games/{gid}/press", {"text": "gg"})
    amy.post(f"/api/games/{gid}/actions", {"action": "bid 5"})
    again = bob.ws(gid, since=seen)
    hello = again.recv()
    assert hello["type"] == "hello"
    entries = again.wait_for(lambda m: m["type"] == "entries")
    assert [e["seq"] for e in entries["entries"]] == [1, 2, 3]
    assert entries["entries"][2]["hidden"] is True  # amy's bid of round 2: still sealed
    assert [e["notation"] for e in entries["revealed"]] == ["bid 2"]  # revealed while away
    assert entries["seq"] == 4
    again.close()


def test_commands_over_the_socket(live: LiveServer, users: Users) -> None:
    amy, bob = users("amy"), users("bob")
    gid, _seats = start_game(amy, [bob], "countdown", options={"start": 10})
    socks = {"amy": amy.ws(gid), "bob": bob.ws(gid)}
    for ws in socks.values():
        ws.wait_for(lambda m: m["type"] == "state")
    state = amy.get(f"/api/games/{gid}/state")
    name = "amy" if state["owes"] else "bob"
    ws = socks[name]
    ws.send({"type": "ping", "id": 1})
    assert ws.wait_for(lambda m: m["type"] == "ack")["result"] == "pong"
    ws.send({"type": "act", "id": "x", "action": "take 3", "state_id": 0})
    ack = ws.wait_for(lambda m: m.get("id") == "x")
    assert ack["type"] == "ack" and ack["result"]["entry"]["notation"] == "take 3"
    ws.send({"type": "act", "id": "y", "action": "take 1"})
    refused = ws.wait_for(lambda m: m.get("id") == "y")
    assert refused["type"] == "error" and refused["error"] == "out_of_turn"
    ws.send({"type": "say", "id": "z", "text": "hello all"})
    said = ws.wait_for(lambda m: m.get("id") == "z")
    assert said["result"]["text"] == "hello all"
    ws.send({"type": "teleport", "id": 9})
    assert ws.wait_for(lambda m: m.get("id") == 9)["error"] == "bad_request"
    ws.conn.send("not json")
    assert ws.wait_for(lambda m: m["type"] == "error")["error"] == "bad_request"
    other = socks["bob" if name == "amy" else "amy"]
    got = other.wait_for(
        lambda m: m["type"] == "entries" and any(e["type"] == "press" for e in m["entries"])
    )
    assert got["entries"][-1]["text"] == "hello all"
    for s in socks.values():
        s.close()


@pytest.mark.parametrize(("token", "code"), [("nonsense", 4401), ("", 4401)])
def test_sockets_need_a_valid_token(live: LiveServer, users: Users, token: str, code: int) -> None:
    amy, bob = users("amy"), users("bob")
    gid, _ = start_game(amy, [bob], "countdown")
    intruder = Client(live.url, "intruder", token=token)
    ws = intruder.ws(gid)
    assert ws.recv()["error"] == "unauthorized"
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == code


def test_private_games_refuse_strangers_and_unknown_games_404(
    live: LiveServer, users: Users
) -> None:
    host, stranger = users("host"), users("stranger")
    gid = host.post("/api/games", {"game": "countdown", "private": True}, expect=201)["id"]
    ws = stranger.ws(gid)
    assert ws.recv()["error"] == "not_found"
    ws = stranger.ws("nosuchgame")
    assert ws.recv()["error"] == "not_found"


def test_lobby_watchers_get_their_seat_at_the_start(live: LiveServer, users: Users) -> None:
    host, ann = users("host"), users("ann")
    gid = host.post("/api/games", {"game": "countdown"}, expect=201)["id"]
    ann.post(f"/api/games/{gid}/join")
    ws = ann.ws(gid)
    hello = ws.recv()
    assert hello["viewer"] == "spectator"  # no seat before the draw
    assert ws.recv()["game"]["status"] == "lobby"
    game = host.post(f"/api/games/{gid}/start")
    seat = next(s["seat"] for s in game["seats"] if s["player"] == "ann")
    again = ws.wait_for(lambda m: m["type"] == "hello", what="a new hello for the seat")
    assert again["viewer"] == seat
    state = ws.wait_for(lambda m: m["type"] == "state")
    assert state["viewer"]["seat"] == seat
    ws.close()
