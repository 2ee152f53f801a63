"""Playing over HTTP: observations, options, actions in notation/JSON/parts, history."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.server.conftest import Client, LiveServer

Users = Callable[..., Client]


def start_game(
    host: Client, others: list[Client], game: str, **settings: Any
) -> tuple[str, dict[str, int]]:
    """A started game with `host` and `others` seated; returns its id and seat by username."""
    body = {"game": game, "seats": 1 + len(others), **settings}
    gid = host.post("/api/games", body, expect=201)["id"]
    for other in others:
        other.post(f"/api/games/{gid}/join", {"role": "player"})
    seats = host.post(f"/api/games/{gid}/start")["seats"]
    return gid, {s["player"]: s["seat"] for s in seats}


def mover(clients: list[Client], gid: str) -> Client:
    """The client whose seat owes the next decision."""
    for c in clients:
        if c.get(f"/api/games/{gid}/state")["owes"]:
            return c
    raise AssertionError("nobody owes a decision")


def test_a_whole_sequential_game_over_http(live: LiveServer, users: Users) -> None:
    a, b, c = users("amy"), users("bob"), users("cat")
    gid, _seats = start_game(a, [b, c], "countdown", options={"start": 10})
    players = [a, b, c]
    plays = 0
    while True:
        state = a.get(f"/api/games/{gid}/state")
        if state["status"] == "finished":
            break
        who = mover(players, gid)
        mine = who.get(f"/api/games/{gid}/state")
        leaves = [n["action"] for n in mine["options"]["children"]]
        assert leaves == [
            f"take {n}" for n in range(1, min(3, mine["observation"]["view"]["left"]) + 1)
        ]
        out = who.post(f"/api/games/{gid}/actions", {"action": leaves[-1]})
        assert out["entry"]["notation"] == leaves[-1]
        plays += 1
    assert plays == 4  # 3 + 3 + 3 + 1
    final = a.get(f"/api/games/{gid}")
    assert final["status"] == "finished" and final["deadline"] is None
    assert final["outcome"]["reason"] == "took the last one"
    history = a.get(f"/api/games/{gid}/history")["entries"]
    assert [e["notation"] for e in history] == ["take 3", "take 3", "take 3", "take 1"]
    a.post(f"/api/games/{gid}/actions", {"action": "take 1"}, expect=409)


def test_actions_as_text_json_and_parts(live: LiveServer, users: Users) -> None:
    a, b = users("amy"), users("bob")
    gid, _ = start_game(a, [b], "countdown", options={"start": 30})
    first = mover([a, b], gid)
    first.post(f"/api/games/{gid}/actions", {"action": " TAKE 2 "})
    second = mover([a, b], gid)
    second.post(f"/api/games/{gid}/actions", {"parts": ["take 1"]})
    third = mover([a, b], gid)
    both = third.post(
        f"/api/games/{gid}/actions", {"action": "take 1", "parts": ["take 1"]}, expect=400
    )
    assert "not both" in both["message"]
    assert third.post(f"/api/games/{gid}/actions", {}, expect=400)["error"] == "bad_request"
    notations = [e["notation"] for e in a.get(f"/api/games/{gid}/history")["entries"]]
    assert notations == ["take 2", "take 1"]


def test_bad_actions_answer_4xx_and_change_nothing(live: LiveServer, users: Users) -> None:
    a, b = users("amy"), users("bob")
    gid, _ = start_game(a, [b], "countdown", options={"start": 30})
    on, off = mover([a, b], gid), None
    off = b if on is a else a
    before = a.get(f"/api/games/{gid}/state")
    cases = [
        (on, {"action": "grab 2"}, 400, "invalid"),
        (on, {"action": "take 7"}, 422, "illegal"),
        (on, {"action": {"take": 2}}, 400, "invalid"),
        (on, {"action": 12}, 400, "invalid"),
        (on, {"action": "take 1", "state_id": 5}, 409, "stale"),
        (on, {"action": "take\u0000 1"}, 400, "bad_request"),
        (off, {"action": "take 1"}, 409, "out_of_turn"),
        (on, {"action": "take 1", "seat": 1}, 422, "invalid_request"),
    ]
    for who, body, status, code in cases:
        answer = who.post(f"/api/games/{gid}/actions", body, expect=status)
        assert answer["error"] == code, (body, answer)
        assert answer["message"]
    after = a.get(f"/api/games/{gid}/state")
    assert after["seq"] == before["seq"] == 0
    assert after["observation"] == before["observation"]


def test_spectators_and_strangers_cannot_act(live: LiveServer, users: Users) -> None:
    a, b, spec, stranger = users("amy"), users("bob"), users("spec"), users("stranger")
    gid, _ = start_game(a, [b], "countdown")
    spec.post(f"/api/games/{gid}/join", {"role": "spectator"})
    for who in (spec, stranger):
        answer = who.post(f"/api/games/{gid}/actions", {"action": "take 1"}, expect=403)
        assert answer["error"] == "forbidden"
        who.get(f"/api/games/{gid}/options", expect=403)
    view = spec.get(f"/api/games/{gid}/state")
    assert view["viewer"] == {"role": "spectator", "seat": None}
    assert view["can_act"] is False and view["options"] is None


def test_simultaneous_bids_stay_hidden_until_the_round_resolves(
    live: LiveServer, users: Users
) -> None:
    a, b, spec = users("amy"), users("bob"), users("spec")
    gid, seats = start_game(a, [b], "sealed-bids", options={"rounds": 2})
    spec.post(f"/api/games/{gid}/join", {"role": "spectator"})
    a.post(f"/api/games/{gid}/actions", {"action": "bid 4", "state_id": 0})
    own = a.get(f"/api/games/{gid}/history")["entries"]
    other = b.get(f"/api/games/{gid}/history")["entries"]
    watcher = spec.get(f"/api/games/{gid}/history")["entries"]
    assert own[0]["notation"] == "bid 4"
    assert other[0] == {"seq": 0, "type": "action", "seat": seats["amy"], "hidden": True}
    assert watcher == other
    assert "4" not in str(b.get(f"/api/games/{gid}/state")["observation"])
    # a may revise (an anytime action), b resolves the round, the bids become public.
    a.post(f"/api/games/{gid}/actions", {"action": "bid 5"})
    b.post(f"/api/games/{gid}/actions", {"action": "bid 2"})
    shown = [e.get("notation") for e in spec.get(f"/api/games/{gid}/history")["entries"]]
    assert shown == ["bid 4", "bid 5", "bid 2"]
    assert spec.get(f"/api/games/{gid}/state")["state_id"] == 1


def test_state_with_text_and_the_options_route(live: LiveServer, users: Users) -> None:
    a, b = users("amy"), users("bob")
    gid, _ = start_game(a, [b], "countdown")
    who = mover([a, b], gid)
    state = who.get(f"/api/games/{gid}/state", params={"text": True})
    assert '"left": 21' in state["text"]
    options = who.get(f"/api/games/{gid}/options")
    assert options["can_act"] and options["options"]["children"][0]["action"] == "take 1"


def test_records_per_viewer_and_the_archive_after_the_end(live: LiveServer, users: Users) -> None:
    a, b, spec = users("amy"), users("bob"), users("spec")
    gid, _ = start_game(a, [b], "sealed-bids", options={"rounds": 1})
    spec.post(f"/api/games/{gid}/join", {"role": "spectator"})
    a.post(f"/api/games/{gid}/actions", {"action": "bid 3"})
    mine = a.get(f"/api/games/{gid}/record")
    theirs = b.get(f"/api/games/{gid}/record")
    assert mine["view"] == "seat" and mine["record"]["entries"][0]["notation"] == "bid 3"
    assert theirs["record"]["entries"][0]["hidden"] is True
    assert "seed" not in theirs["record"]
    assert (
        a.get(f"/api/games/{gid}/record", params={"view": "archive"}, expect=403)["error"]
        == "forbidden"
    )
    b.post(f"/api/games/{gid}/actions", {"action": "bid 1"})
    archive = spec.get(f"/api/games/{gid}/record", params={"view": "archive"})["record"]
    assert archive["format"] == "parley.record" and "seed" in archive
    assert [e["notation"] for e in archive["entries"]] == ["bid 3", "bid 1"]
    assert archive["outcome"]["winners"] == [0] or archive["outcome"]["winners"] == [1]


def test_earlier_points_as_each_viewer_saw_them(live: LiveServer, users: Users) -> None:
    amy, bob = users("amy"), users("bob")
    gid, seats = start_game(amy, [bob], "sealed-bids", options={"rounds": 3})
    amy.post(f"/api/games/{gid}/actions", {"action": "bid 4"})
    bob.post(f"/api/games/{gid}/actions", {"action": "bid 1"})
    amy.post(f"/api/games/{gid}/actions", {"action": "bid 2"})
    steps = bob.get(f"/api/games/{gid}/steps")["steps"]
    assert steps == [{"state_id": 0, "seq": 0}, {"state_id": 1, "seq": 2}]
    then = bob.get(f"/api/games/{gid}/state", params={"at": 1})
    assert then["at"] == 1 and then["seq"] == 1 and then["state_id"] == 0
    assert then["can_act"] is False and then["options"] is None and then["deadline"] is None
    assert then["observation"]["view"]["submitted"] == [seats["amy"]]
    assert "my_bid" not in then["observation"]["view"]  # bob had not bid yet
    mine = amy.get(f"/api/games/{gid}/state", params={"at": 1})["observation"]["view"]
    assert mine["my_bid"] == f"sealed:0:{seats['amy']}:4"  # amy's own sealed bid, as then
    now = bob.get(f"/api/games/{gid}/state", params={"at": 99})
    assert now["at"] is None and now["seq"] == 3  # past the end: the present
    assert "my_bid" not in str(bob.get(f"/api/games/{gid}/state", params={"at": 3}))
