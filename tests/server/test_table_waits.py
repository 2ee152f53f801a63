"""Who the table waits for (done or not, never what was chosen), "your games" marking the
games that wait for you, and the waiting room's chat before the start."""

from __future__ import annotations

from collections.abc import Callable

from tests.server.conftest import Client, LiveServer
from tests.server.test_play import start_game

Users = Callable[..., Client]


def _mine(client: Client, gid: str) -> dict[str, object]:
    games = client.get("/api/me/games")["games"]
    found: dict[str, object] = next(g for g in games if g["id"] == gid)
    return found


def test_everyone_sees_who_is_done_and_nothing_of_what(live: LiveServer, users: Users) -> None:
    amy, bob, eve = users("amy"), users("bob"), users("eve")
    gid, seats = start_game(amy, [bob], "sealed-bids", period_seconds=600, options={"rounds": 3})
    eve.post(f"/api/games/{gid}/join", {"role": "spectator"})
    both = sorted(seats.values())
    table = eve.get(f"/api/games/{gid}/state")["table"]
    assert table == {"waiting": both, "done": [], "later": [], "simultaneous": True}
    owed = _mine(amy, gid)["you"]["owed"]
    assert owed and _mine(bob, gid)["you"]["owed"] == owed
    slot = amy.post(f"/api/games/{gid}/draft", {})["parts"][0]["slot"]
    sock = eve.ws(gid)
    sock.wait_for(lambda m: m["type"] == "state")
    amy.post(f"/api/games/{gid}/draft", {"parts": {slot: "bid 3"}, "ready": True})
    pushed = sock.wait_for(lambda m: m["type"] == "state" and m["table"]["done"])
    assert pushed["table"]["done"] == [seats["amy"]]
    assert pushed["table"]["waiting"] == [seats["bob"]]
    assert "bid 3" not in str(pushed) and "bid 3" not in str(
        bob.get(f"/api/games/{gid}/state?options=false")
    )
    # Your games: the game waits for bob, no longer for amy (she said she is ready).
    assert _mine(amy, gid)["you"]["owed"] is None
    bob_row = _mine(bob, gid)
    assert bob_row["you"]["owed"] == owed
    assert bob_row["deadline"] is not None
    # Not ready again: back on the waiting list.
    amy.post(f"/api/games/{gid}/draft", {"ready": False})
    assert eve.get(f"/api/games/{gid}/state")["table"]["waiting"] == both


def test_the_waiting_room_talks_before_the_start_for_members(
    live: LiveServer, users: Users
) -> None:
    amy, bob, out = users("amy"), users("bob"), users("out")
    gid = amy.post("/api/games", {"game": "sealed-bids", "seats": 2}, expect=201)["id"]
    room = f"/api/games/{gid}/waiting-room"
    said = amy.post(room, {"text": "Hello, who else is coming?"})["messages"]
    assert [(m["by"], m["text"]) for m in said] == [("amy", "Hello, who else is coming?")]
    assert out.get(room, expect=403)["error"] == "forbidden"  # not a member
    assert out.post(room, {"text": "hi"}, expect=403)["error"] == "forbidden"
    assert amy.post(room, {"text": "   "}, expect=400)["error"] == "bad_request"
    bob.post(f"/api/games/{gid}/join", {"role": "player"})
    assert [m["text"] for m in bob.get(room)["messages"]] == ["Hello, who else is coming?"]
    assert bob.get(f"/api/games/{gid}")["waiting_chat"] == 1
    # The game's server events, which anyone who sees the game reads, do not carry it.
    assert all(e["kind"] != "chat" for e in out.get(f"/api/games/{gid}/events")["events"])
    amy.post(f"/api/games/{gid}/start")
    assert bob.post(room, {"text": "late"}, expect=409)["error"] == "wrong_status"
    gunboat = amy.post(
        "/api/games", {"game": "sealed-bids", "seats": 2, "press": "none"}, expect=201
    )["id"]
    refused = amy.post(f"/api/games/{gunboat}/waiting-room", {"text": "hi"}, expect=403)
    assert "gunboat" in refused["message"]
