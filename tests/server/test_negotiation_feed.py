"""The live feed follows negotiation rounds: a round opening or closing, and a seat's own
message in a round (its quota), each send a fresh state, although no step has passed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.server.conftest import Client, LiveServer
from tests.server.test_play import start_game

Users = Callable[..., Client]


def talk_state(message: dict[str, Any]) -> bool:
    return message["type"] == "state" and message.get("negotiation") is not None


def test_rounds_and_the_quota_reach_open_sockets(live: LiveServer, users: Users) -> None:
    amy, bob = users("amy"), users("bob")
    talk = {"rounds": 2, "messages": 2, "seconds": 30}
    gid, seats = start_game(amy, [bob], "sealed-bids", negotiation=talk)
    socket = amy.ws(gid)
    first = socket.wait_for(talk_state)
    assert first["negotiation"] == {**talk, "round": 1, "messages_left": 2}
    assert (first["owes"], first["can_act"]) == (False, False)
    watching = bob.ws(gid)
    watching.wait_for(talk_state)

    amy.post(f"/api/games/{gid}/press", {"text": "deal?", "to": [seats["bob"]]})
    mine = socket.wait_for(lambda m: talk_state(m) and m["negotiation"]["messages_left"] == 1)
    assert mine["negotiation"]["round"] == 1
    # Bob's own count did not change: his page is told nothing it must redraw.
    entries = watching.wait_for(lambda m: m["type"] == "entries")
    assert [e["text"] for e in entries["entries"]] == ["deal?"]
    assert not [m for m in watching.drain() if m["type"] == "state"]

    live.advance(31)
    second = socket.wait_for(lambda m: talk_state(m) and m["negotiation"]["round"] == 2)
    assert second["negotiation"]["messages_left"] == 2  # a new round, a new quota
    summaries = [m["game"]["negotiation"] for m in socket.messages if m["type"] == "game"]
    assert summaries[-1]["round"] == 2
    live.advance(31)
    open_ = socket.wait_for(lambda m: talk_state(m) and m["negotiation"]["round"] == 0)
    assert open_["owes"] and open_["can_act"]
    assert "messages_left" not in open_["negotiation"]
    socket.close()
    watching.close()
