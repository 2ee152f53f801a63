"""A player attacking an Illuminati game through the HTTP API: hostile actions get a 4xx
with a clear message and change nothing, and no reply to another player or a spectator
shows a face-down special card.

The game is the seeded three-player opening of the browser tests (tests/web/
illuminati_opening.json): at its end Player 2 holds Assassination face down.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.server.conftest import Client, LiveServer

Users = Callable[..., Client]

OPENING = json.loads(
    (Path(__file__).parents[1] / "web" / "illuminati_opening.json").read_text("utf-8")
)
BIG = "9" * 5000
TARGET = "Triliberal Commission"  # uncontrolled at the end of the opening


def opening(users: Users) -> tuple[str, dict[int, Client], Client]:
    """The opening played through the API: its id, the players by seat, a spectator."""
    people = [users(f"il{i}") for i in range(3)]
    watcher = users("ilwatch")
    body = {
        "game": "illuminati",
        "seats": 3,
        "options": OPENING["options"],
        "seed": OPENING["seed"],
    }
    gid = people[0].post("/api/games", body, expect=201)["id"]
    for p in people[1:]:
        p.post(f"/api/games/{gid}/join", {"role": "player"})
    watcher.post(f"/api/games/{gid}/join", {"role": "spectator"})
    seats = {s["player"]: s["seat"] for s in people[0].post(f"/api/games/{gid}/start")["seats"]}
    by_seat = {seats[p.username]: p for p in people}
    for pick in OPENING["picks"]:
        chooser = people[0].get(f"/api/games/{gid}/state")["observation"]["view"]["owed"]["seat"]
        by_seat[chooser].post(f"/api/games/{gid}/actions", {"action": f"take {pick}"})
    for seat, text in OPENING["steps"]:
        by_seat[seat].post(f"/api/games/{gid}/actions", {"action": text})
    return gid, by_seat, watcher


def test_hostile_actions_over_http_answer_4xx_and_change_nothing(
    live: LiveServer, users: Users
) -> None:
    gid, seats, watcher = opening(users)
    path = f"/api/games/{gid}/actions"
    first = seats[0]
    state = first.get(f"/api/games/{gid}/state")
    assert state["observation"]["view"]["owed"]["seat"] == 0
    before = {s: c.get(f"/api/games/{gid}/state") for s, c in seats.items()}
    treasury = state["observation"]["view"]["players"][0]["treasury"]
    over = treasury + 1
    cases: list[tuple[Client, dict[str, Any], int, str]] = [
        (first, {"action": "attack Atlantis with Gnomes to control"}, 400, "invalid"),
        (first, {"action": "attack Madison Avenue with Gnomes to control"}, 422, "illegal"),
        (first, {"action": "attack Madison Avenue with Gnomes to neutralize"}, 422, "illegal"),
        (first, {"action": "attack Network with Gnomes to destroy"}, 422, "illegal"),
        (
            first,
            {"action": f"attack {TARGET} with Gnomes to control, spend {over}"},
            422,
            "illegal",
        ),
        (first, {"action": f"pay {over} to Player 2"}, 422, "illegal"),
        (first, {"action": "pay -3 to Player 2"}, 400, "invalid"),
        (first, {"action": f"pay {BIG} to Player 2"}, 400, "invalid"),
        (first, {"action": "pay 1 to Player 9"}, 400, "invalid"),
        (first, {"action": "\u0440ass"}, 400, "invalid"),  # a Cyrillic r
        (first, {"action": "pass\u0000"}, 400, "bad_request"),
        (first, {"action": {"attack": "Texas"}}, 400, "invalid"),
        (first, {"action": 5}, 400, "invalid"),
        (first, {"action": "roll"}, 422, "illegal"),
        (first, {"action": "pass", "state_id": state["state_id"] + 1}, 409, "stale"),
        (seats[1], {"action": "pass"}, 409, "out_of_turn"),
        (seats[2], {"action": "interfere 1"}, 409, "out_of_turn"),
        (watcher, {"action": "pass"}, 403, "forbidden"),
    ]
    for who, body, status, code in cases:
        answer = who.post(path, body, expect=status)
        assert answer["error"] == code, (body, answer)
        assert answer["message"]
        assert "ValueError" not in answer["message"]
    for s, c in seats.items():
        after = c.get(f"/api/games/{gid}/state")
        assert after["seq"] == before[s]["seq"]
        assert after["observation"] == before[s]["observation"]
    # Replays of the opening's last actions (Player 2's pass, Player 3's roll) are refused.
    assert OPENING["steps"][-1] == [1, "pass"] and [2, "roll"] in OPENING["steps"]
    for who, text in ((seats[1], "pass"), (seats[2], "roll")):
        assert who.post(path, {"action": text}, expect=409)["error"] == "out_of_turn"
    assert first.get(f"/api/games/{gid}/state")["seq"] == before[0]["seq"]


def test_no_reply_shows_another_players_face_down_card(live: LiveServer, users: Users) -> None:
    gid, seats, watcher = opening(users)
    holder = seats[1]
    mine = json.dumps(holder.get(f"/api/games/{gid}/state"))
    assert "Assassination" in mine
    watcher.get(f"/api/games/{gid}/record?view=archive", expect=403)  # only once it is over
    for who in (seats[0], seats[2], watcher):
        for route in ("state", "history", "steps", "record"):
            text = json.dumps(who.get(f"/api/games/{gid}/{route}"))
            assert "Assassination" not in text, (who.username, route)
        view = who.get(f"/api/games/{gid}/state")["observation"]["view"]
        hand = view["players"][1]["hand"]
        assert hand and all(h["card"] is None for h in hand if not h["face_up"])
        assert view["attack_odds"] == {} or who is seats[0]
    # the options of the player to act name only its own cards
    options = json.dumps(seats[0].get(f"/api/games/{gid}/options"))
    assert "Assassination" not in options


def test_refusals_over_http_carry_their_reason(live: LiveServer, users: Users) -> None:
    """The error JSON passes on the refusal's reason tag, and an out-of-turn refusal says
    who is to act."""
    gid, seats, _ = opening(users)
    path = f"/api/games/{gid}/actions"
    view = seats[0].get(f"/api/games/{gid}/state")["observation"]["view"]
    over = view["players"][0]["treasury"] + 1
    poor = seats[0].post(path, {"action": f"pay {over} to Player 2"}, expect=422)
    assert poor["error"] == "illegal" and poor["reason"] == "not_enough_money"
    assert f"not {over}" in poor["message"]
    idle = seats[1].post(path, {"action": "pass"}, expect=409)
    assert idle["error"] == "out_of_turn" and idle["reason"] == "not_your_turn"
    assert "Player 1 to act" in idle["message"]
    odd = seats[0].post(path, {"action": "\u0440ass"}, expect=400)
    assert "reason" not in odd  # not understood: no rule was asked
