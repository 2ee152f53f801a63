"""Saved orders: parts saved as entered, seen by their seat alone, counted at the deadline
whether ready or not; the step resolves early once every owed seat is ready."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.server.conftest import Client, LiveServer, sign_up
from tests.server.test_play import start_game

Users = Callable[..., Client]


def draft(client: Client, gid: str, expect: int | None = None, **body: Any) -> Any:
    return client.post(f"/api/games/{gid}/draft", body, expect=expect)


def actions(client: Client, gid: str) -> list[dict[str, Any]]:
    return [e for e in client.get(f"/api/games/{gid}/history")["entries"] if e["type"] == "action"]


def test_saved_bids_count_at_the_deadline_without_ready(live_on: LiveServer) -> None:
    live = live_on  # on SQLite and on PostgreSQL
    amy, bob = sign_up(live.url, "amy"), sign_up(live.url, "bob")
    gid, seats = start_game(amy, [bob], "sealed-bids", period_seconds=600, options={"rounds": 3})
    mine = draft(amy, gid)
    assert mine["owes"] and not mine["ready"] and mine["state_id"] == 0
    assert [p["action"] for p in mine["parts"]] == [None]
    slot = mine["parts"][0]["slot"]
    saved = draft(amy, gid, parts={slot: "bid 3"}, state_id=0)
    assert saved["parts"][0]["action"] == "bid 3" and not saved["ready"]
    draft(bob, gid, parts={slot: "bid 1"})
    draft(bob, gid, parts={slot: "bid 2"})  # a later save replaces the earlier one
    # Nobody else sees a saved part: not the other seat, not the record, not the state.
    assert draft(bob, gid)["parts"][0]["action"] == "bid 2"
    assert actions(amy, gid) == [] and actions(bob, gid) == []
    assert "bid 3" not in str(bob.get(f"/api/games/{gid}/state?options=false"))
    watcher = sign_up(live.url, "watcher")
    watcher.post(f"/api/games/{gid}/join", {"role": "spectator"})
    assert watcher.get(f"/api/games/{gid}/draft", expect=403)["error"] == "forbidden"
    assert watcher.get(f"/api/games/{gid}/drafts", expect=403)["error"] == "forbidden"
    assert live.advance(600) == 1
    done = actions(amy, gid)
    by_seat = {e["seat"]: e for e in done}
    assert by_seat[seats["amy"]]["notation"] == "bid 3"
    assert by_seat[seats["bob"]]["notation"] == "bid 2"
    assert not any(e.get("auto") for e in done)  # saved orders are the players' own
    game = amy.get(f"/api/games/{gid}")
    assert all(s["missed"] == 0 for s in game["seats"])
    assert draft(amy, gid)["parts"][0]["action"] is None  # a new step starts empty


def test_the_step_resolves_once_every_owed_seat_is_ready(live: LiveServer, users: Users) -> None:
    amy, bob = users("amy"), users("bob")
    gid, seats = start_game(amy, [bob], "sealed-bids", period_seconds=600, options={"rounds": 3})
    slot = draft(amy, gid)["parts"][0]["slot"]
    assert draft(amy, gid, parts={slot: "bid 4"}, ready=True)["ready"]
    assert draft(amy, gid, ready=False)["ready"] is False  # changed her mind
    draft(bob, gid, parts={slot: "bid 1"}, ready=True)
    assert actions(amy, gid) == []  # amy is no longer ready: the step waits
    draft(amy, gid, ready=True)
    done = {e["seat"]: e["notation"] for e in actions(amy, gid)}
    assert done == {seats["amy"]: "bid 4", seats["bob"]: "bid 1"}
    assert amy.get(f"/api/games/{gid}/state")["state_id"] > 0
    # Ready with nothing saved: the game's default for a silent seat.
    draft(amy, gid, ready=True)
    draft(bob, gid, parts={slot: "bid 2"}, ready=True)
    assert len(actions(amy, gid)) == 4


def test_bad_parts_are_refused_and_change_nothing(live: LiveServer, users: Users) -> None:
    amy, bob = users("amy"), users("bob")
    gid, _ = start_game(amy, [bob], "sealed-bids", period_seconds=600, options={"rounds": 3})
    slot = draft(amy, gid)["parts"][0]["slot"]
    assert draft(amy, gid, 400, parts={"nowhere": "bid 1"})["error"] == "invalid"
    assert draft(amy, gid, 400, parts={slot: "sing"})["error"] == "invalid"
    assert draft(amy, gid, 422, parts={slot: "bid 99"})["error"] == "illegal"
    assert draft(amy, gid, 409, parts={slot: "bid 1"}, state_id=5)["error"] == "stale"
    # A flag is true or false, not a word that looks like one.
    for word in ("yes", "true", 1, "1"):
        refused = draft(amy, gid, 422, parts={slot: "bid 1"}, ready=word)
        assert refused["problems"][0]["where"] == "body.ready"
    assert draft(amy, gid)["parts"][0]["action"] is None
    assert draft(amy, gid)["ready"] is False


def _slots(state: dict[str, Any]) -> dict[str, list[str]]:
    def leaves(node: dict[str, Any]) -> list[str]:
        if "action" in node:
            return [node["action"]]
        return [leaf for child in node.get("children", []) for leaf in leaves(child)]

    return {c["key"]: leaves(c) for c in state["options"]["children"]}


def test_diplomacy_orders_saved_per_unit_count_at_the_deadline(
    live: LiveServer, users: Users
) -> None:
    host, bob = users("host"), users("bob")
    gid = host.post("/api/games", {"game": "diplomacy", "period_seconds": 3600}, expect=201)["id"]
    bob.post(f"/api/games/{gid}/join", {"role": "player"})
    host.post(f"/api/games/{gid}/start", {"fill_with": "random"})
    state = host.get(f"/api/games/{gid}/state")
    slots = _slots(state)
    mine = draft(host, gid)
    assert [p["slot"] for p in mine["parts"]] == list(slots)
    unit = next(iter(slots))
    move = next(a for a in slots[unit] if " - " in a)
    other = next(k for k in slots if k != unit)
    saved = draft(host, gid, parts={unit: move.lower()}, state_id=state["state_id"])
    assert {p["slot"]: p["action"] for p in saved["parts"]}[unit] == move  # canonical
    refused = draft(host, gid, 422, parts={other: move})
    assert refused["error"] == "illegal"
    assert live.advance(3600) == 1
    seat = state["viewer"]["seat"]
    entry = next(e for e in actions(host, gid) if e["seat"] == seat)
    assert move in entry["notation"] and not entry.get("auto")


def test_diplomacy_resolves_early_when_both_players_are_ready(
    live: LiveServer, users: Users
) -> None:
    host, bob = users("host"), users("bob")
    gid = host.post("/api/games", {"game": "diplomacy", "period_seconds": 3600}, expect=201)["id"]
    bob.post(f"/api/games/{gid}/join", {"role": "player"})
    host.post(f"/api/games/{gid}/start", {"fill_with": "random"})
    first = host.get(f"/api/games/{gid}/state")["state_id"]
    draft(host, gid, ready=True)
    assert host.get(f"/api/games/{gid}/state")["state_id"] == first
    draft(bob, gid, ready=True)
    assert host.get(f"/api/games/{gid}/state")["state_id"] > first


def test_the_archive_shows_saved_orders_after_the_end(live: LiveServer, users: Users) -> None:
    amy, bob = users("amy"), users("bob")
    gid, _ = start_game(amy, [bob], "sealed-bids", period_seconds=600, options={"rounds": 1})
    slot = draft(amy, gid)["parts"][0]["slot"]
    draft(amy, gid, parts={slot: "bid 1"})
    assert amy.get(f"/api/games/{gid}/drafts", expect=403)["error"] == "forbidden"
    draft(amy, gid, ready=True)
    draft(bob, gid, ready=True)
    assert amy.get(f"/api/games/{gid}")["status"] == "finished"
    shown = amy.get(f"/api/games/{gid}/drafts")["drafts"]
    assert any(d.get("action") == "bid 1" for d in shown)
    assert sum(1 for d in shown if d.get("ready")) == 2


def test_a_newcomer_never_sees_the_parts_the_seat_s_former_player_saved(
    live: LiveServer, users: Users
) -> None:
    amy, bob, cat, dan = users("amy"), users("bob"), users("cat"), users("dan")
    gid, seats = start_game(
        amy, [bob, cat], "sealed-bids", period_seconds=600, options={"rounds": 2}
    )
    slot = draft(bob, gid)["parts"][0]["slot"]
    draft(bob, gid, parts={slot: "bid 5"})
    bob.post(f"/api/games/{gid}/leave")
    amy.post(f"/api/games/{gid}/seats/{seats['bob']}/open", {"open": True})
    dan.post(f"/api/games/{gid}/join", {"role": "player"})
    assert "bid 5" not in str(dan.get(f"/api/games/{gid}/draft"))
    assert "bid 5" not in str(dan.get(f"/api/games/{gid}/history"))
    assert draft(dan, gid, 409, ready=True)["error"] == "out_of_turn"  # decided already
    for client in (amy, cat):
        draft(client, gid, ready=True)
    assert "bid 5" not in str(dan.get(f"/api/games/{gid}/draft"))
    for client in (amy, cat, dan):
        draft(client, gid, ready=True)
    assert amy.get(f"/api/games/{gid}")["status"] == "finished"
    shown = dan.get(f"/api/games/{gid}/drafts")["drafts"]
    assert [d["action"] for d in shown if "action" in d] == ["bid 5"]


def test_after_a_public_game_its_drafts_are_for_its_members_only(
    live: LiveServer, users: Users
) -> None:
    amy, bob, watcher = users("amy"), users("bob"), users("watcher")
    outsider, latecomer = users("outsider"), users("latecomer")
    gid, _ = start_game(amy, [bob], "sealed-bids", period_seconds=600, options={"rounds": 1})
    watcher.post(f"/api/games/{gid}/join", {"role": "spectator"})
    slot = draft(amy, gid)["parts"][0]["slot"]
    draft(amy, gid, parts={slot: "bid 2"})
    draft(bob, gid, parts={slot: "bid 1"})
    live.advance(600)
    assert amy.get(f"/api/games/{gid}")["status"] == "finished"
    live.clock.advance(1)
    # The game is public: anyone reads its record, archive included...
    archive = outsider.get(f"/api/games/{gid}/record", params={"view": "archive"})
    assert archive["view"] == "archive" and archive["record"]["entries"]
    # ...but not what its players drafted, nor one who joins now to read the game.
    refusal = outsider.get(f"/api/games/{gid}/drafts", expect=403)
    assert refusal["error"] == "forbidden" and "players" in refusal["message"]
    latecomer.post(f"/api/games/{gid}/join", {"role": "spectator"})
    assert latecomer.get(f"/api/games/{gid}/drafts", expect=403)["error"] == "forbidden"
    # The table does: both players and the spectator who watched it.
    for client in (amy, bob, watcher):
        shown = client.get(f"/api/games/{gid}/drafts")["drafts"]
        assert sorted(d["action"] for d in shown if "action" in d) == ["bid 1", "bid 2"]
