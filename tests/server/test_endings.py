"""Draws (UC 58/61), the host closing a game (UC 60B), and exports of the record."""

from __future__ import annotations

from collections.abc import Callable

from tests.server.conftest import Client, LiveServer
from tests.server.test_play import start_game

Users = Callable[..., Client]


def test_a_draw_needs_every_survivor_and_votes_stay_secret(live: LiveServer, users: Users) -> None:
    amy, bob, cat, spec = users("amy"), users("bob"), users("cat"), users("spec")
    gid, seats = start_game(amy, [bob, cat], "countdown", options={"start": 50})
    spec.post(f"/api/games/{gid}/join", {"role": "spectator"})
    ws = spec.ws(gid)
    ws.wait_for(lambda m: m["type"] == "state")
    nothing = amy.post(f"/api/games/{gid}/draw", {"accept": False}, expect=422)
    assert nothing["error"] == "illegal"
    assert amy.post(f"/api/games/{gid}/draw", {"accept": True}) == {
        "decided": False,
        "agreed": None,
        "votes": None,
        "status": "active",
    }
    bob.post(f"/api/games/{gid}/draw", {"accept": True})
    for viewer in (cat, spec):
        votes = [
            e for e in viewer.get(f"/api/games/{gid}/history")["entries"] if e["type"] == "vote"
        ]
        assert votes == [
            {"seq": 0, "type": "vote", "seat": seats["amy"]},
            {"seq": 1, "type": "vote", "seat": seats["bob"]},
        ]
    assert cat.get(f"/api/games/{gid}/state")["observation"]["draw_votes"] == sorted(
        [seats["amy"], seats["bob"]]
    )
    rejected = cat.post(f"/api/games/{gid}/draw", {"accept": False})
    assert rejected["decided"] and rejected["agreed"] is False
    assert rejected["votes"] == {
        str(seats["amy"]): True,
        str(seats["bob"]): True,
        str(seats["cat"]): False,
    }
    assert rejected["status"] == "active"  # UC 58 A: the game goes on
    for who in (amy, bob, cat):
        who.post(f"/api/games/{gid}/draw", {"accept": True})
    game = amy.get(f"/api/games/{gid}")
    assert game["status"] == "finished" and game["outcome"]["draw"] is True  # UC 61
    assert sorted(game["outcome"]["winners"]) == [0, 1, 2]
    final = ws.wait_for(lambda m: m["type"] == "game" and m["game"]["status"] == "finished")
    assert final["game"]["outcome"]["reason"] == "draw agreed by all survivors"
    amy.post(f"/api/games/{gid}/draw", {"accept": True}, expect=409)
    ws.close()


def test_seats_nobody_plays_answer_a_draw_at_once(live: LiveServer, users: Users) -> None:
    amy, bob = users("amy"), users("bob")
    gid, _seats = start_game(amy, [bob], "countdown", options={"start": 50})
    bob.post(f"/api/games/{gid}/leave")
    out = amy.post(f"/api/games/{gid}/draw", {"accept": True})
    # Too early for a seat in civil disorder to agree (tests/server/test_bot_draws.py).
    assert out["decided"] and not out["agreed"] and out["status"] == "active"


def test_the_host_closes_the_game_for_everyone(live: LiveServer, users: Users) -> None:
    amy, bob, spec = users("amy"), users("bob"), users("spec")
    gid, _seats = start_game(amy, [bob], "countdown", options={"start": 50})
    spec.post(f"/api/games/{gid}/join", {"role": "spectator"})
    ws = bob.ws(gid)
    ws.wait_for(lambda m: m["type"] == "state")
    first = "amy" if amy.get(f"/api/games/{gid}/state")["owes"] else "bob"
    (amy if first == "amy" else bob).post(f"/api/games/{gid}/actions", {"action": "take 2"})
    bob.post(f"/api/games/{gid}/press", {"text": "before the end"})
    bob.post(f"/api/games/{gid}/close", expect=403)
    closed = amy.post(f"/api/games/{gid}/close")
    assert closed["status"] == "closed" and closed["deadline"] is None
    pushed = ws.wait_for(lambda m: m["type"] == "game" and m["game"]["status"] == "closed")
    assert pushed["game"]["ended_at"] is not None
    for who in (amy, bob):
        who.post(f"/api/games/{gid}/actions", {"action": "take 1"}, expect=409)
        who.post(f"/api/games/{gid}/press", {"text": "after"}, expect=409)
    amy.post(f"/api/games/{gid}/close", expect=409)
    # The record is kept, and now the archive (everything) may be read.
    record = spec.get(f"/api/games/{gid}/record", params={"view": "archive"})["record"]
    assert [e["type"] for e in record["entries"]] == ["action", "press"]
    assert record["server"]["status"] == "closed"
    assert live.advance(10_000) == 0  # no deadline outlives the game
    ws.close()
