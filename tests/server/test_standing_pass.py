"""Illuminati's start-of-turn window over HTTP: a standing pass answers it at once (kept
ahead, or turned on while asked), the window's deadline is the short one and silence there
costs no missed turn, and the setting is the player's own and checked.

The game is the seeded three-player opening of the browser tests (tests/web/
illuminati_opening.json): its last step is Player 2's pass in the window that opens Player
1's turn, Player 2 holding Assassination, which cannot be played there."""

from __future__ import annotations

from functools import partial
from typing import Any

from tests.server.conftest import Client, LiveServer
from tests.server.test_illuminati_api import OPENING, Users

from parley.server.notify import Notifier

PERIOD = 3600


def opening(users: Users, steps: int, **options: Any) -> tuple[str, dict[int, Client], Client]:
    """The opening played through the API up to (not including) step `steps`."""
    people = [users(f"sp{i}") for i in range(3)]
    watcher = users("spwatch")
    body = {
        "game": "illuminati",
        "seats": 3,
        "options": {**OPENING["options"], **options},
        "seed": OPENING["seed"],
        "period_seconds": PERIOD,
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
    for seat, text in OPENING["steps"][:steps]:
        by_seat[seat].post(f"/api/games/{gid}/actions", {"action": text})
    return gid, by_seat, watcher


def owed(client: Client, gid: str) -> dict[str, Any]:
    view = client.get(f"/api/games/{gid}/state")["observation"]["view"]
    return {"seat": view["owed"]["seat"], "kind": view["owed"]["kind"], "phase": view["phase"]}


def last_action(client: Client, gid: str) -> dict[str, Any]:
    entries = client.get(f"/api/games/{gid}/history")["entries"]
    found: dict[str, Any] = [e for e in entries if e["type"] == "action"][-1]
    return found


def standing(client: Client, gid: str, expect: int | None = None, **body: Any) -> Any:
    return client.post(f"/api/games/{gid}/standing", body, expect=expect)


def test_a_standing_pass_kept_ahead_answers_the_window_at_once(
    live: LiveServer, users: Users
) -> None:
    gid, seats, _ = opening(users, len(OPENING["steps"]) - 2)  # Player 3 ends its turn next
    mine = seats[1].get(f"/api/games/{gid}/standing")
    assert mine["settings"] == [
        {"name": "start_pass", "label": mine["settings"][0]["label"], "on": False}
    ]
    assert standing(seats[1], gid, name="start_pass", on=True)["settings"][0]["on"] is True
    assert seats[2].get(f"/api/games/{gid}/standing")["settings"][0]["on"] is False  # its own
    seats[2].post(f"/api/games/{gid}/actions", {"action": "done"})
    # Player 2 was asked (it holds a card) and its standing pass answered in the same change.
    assert owed(seats[0], gid) == {"seat": 0, "kind": "turn", "phase": "main"}
    passed = last_action(seats[0], gid)
    assert (passed["seat"], passed["notation"], passed.get("auto", False)) == (1, "pass", False)
    game = seats[0].get(f"/api/games/{gid}")
    assert game["deadline"]["remaining_seconds"] == PERIOD  # the turn has the whole deadline


def test_turning_the_standing_pass_on_while_asked_answers_at_once(
    live: LiveServer, users: Users
) -> None:
    gid, seats, _ = opening(users, len(OPENING["steps"]) - 1)
    assert owed(seats[0], gid)["kind"] == "start"
    standing(seats[1], gid, name="start_pass", on=True)
    assert owed(seats[0], gid)["kind"] == "turn"
    assert last_action(seats[0], gid)["seat"] == 1
    # Turned off again, it answers nothing more.
    assert standing(seats[1], gid, name="start_pass", on=False)["settings"][0]["on"] is False


def test_the_window_has_its_own_short_deadline_and_silence_costs_no_missed_turn(
    live: LiveServer, users: Users
) -> None:
    gid, seats, _ = opening(users, len(OPENING["steps"]) - 1, start_window=20)
    game = seats[0].get(f"/api/games/{gid}")
    assert owed(seats[0], gid)["kind"] == "start"
    assert game["deadline"]["remaining_seconds"] == 20
    # No deadline warning for a window whose silence is a pass; the turn itself gets one.
    sid = seats[0].get(f"/api/games/{gid}/state")["state_id"]
    assert live.services.tables.view(gid, partial(Notifier._owing, state_id=sid)) == []
    assert live.advance(19) == 0
    assert live.advance(1) == 1
    assert owed(seats[0], gid)["kind"] == "turn"
    passed = last_action(seats[0], gid)
    assert (passed["seat"], passed["notation"], passed["auto"]) == (1, "pass", True)
    game = seats[0].get(f"/api/games/{gid}")
    assert game["deadline"]["remaining_seconds"] == PERIOD
    assert all(s["missed"] == 0 for s in game["seats"])
    sid = seats[0].get(f"/api/games/{gid}/state")["state_id"]
    warned = live.services.tables.view(gid, partial(Notifier._owing, state_id=sid))
    assert [w[0] for w in warned] == [0]


def test_bad_standing_requests_are_refused_and_change_nothing(
    live: LiveServer, users: Users
) -> None:
    gid, seats, watcher = opening(users, len(OPENING["steps"]) - 1)
    refused = standing(seats[1], gid, 400, name="always win", on=True)
    assert refused["error"] == "invalid" and "start_pass" in refused["message"]
    assert standing(seats[1], gid, 422, name="start_pass", on="yes")["error"]
    assert standing(watcher, gid, 403, name="start_pass", on=True)["error"] == "forbidden"
    assert owed(seats[0], gid)["kind"] == "start"  # still asked
    assert seats[1].get(f"/api/games/{gid}/standing")["settings"][0]["on"] is False
