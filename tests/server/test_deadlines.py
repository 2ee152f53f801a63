"""Deadlines with a manual clock: time limits, early resolution, civil disorder, bots."""

from __future__ import annotations

import threading
from collections.abc import Callable

from tests.server.conftest import Client, LiveServer, make_settings, sign_up, start_live_server
from tests.server.test_play import start_game

from parley.server.app import build_services

Users = Callable[..., Client]


def owed_seat(client: Client, gid: str) -> int:
    state = client.get(f"/api/games/{gid}/state")
    return int(state["observation"]["turn"]["owed"][0]["seat"])


def seat_row(client: Client, gid: str, seat: int) -> dict[str, object]:
    game = client.get(f"/api/games/{gid}")
    return next(s for s in game["seats"] if s["seat"] == seat)


def test_time_limit_takes_the_default_for_the_owed_seat(live: LiveServer, users: Users) -> None:
    amy, bob = users("amy"), users("bob")
    gid, _seats = start_game(amy, [bob], "countdown", period_seconds=60)
    seat = owed_seat(amy, gid)
    assert live.advance(59) == 0  # not yet (UC 57 needs the limit to be up)
    assert amy.get(f"/api/games/{gid}/history")["entries"] == []
    assert live.advance(1) == 1
    history = amy.get(f"/api/games/{gid}/history")["entries"]
    assert history == [
        {
            "seq": 0,
            "type": "action",
            "seat": seat,
            "auto": True,
            "action": "take 1",
            "notation": "take 1",
        }
    ]
    assert seat_row(amy, gid, seat)["missed"] == 1
    # The next seat has a fresh deadline of its own.
    game = amy.get(f"/api/games/{gid}")
    assert game["deadline"]["state_id"] == 1 and game["deadline"]["remaining_seconds"] == 60
    events = amy.get(f"/api/games/{gid}/events")["events"]
    fired = [e for e in events if e["kind"] == "deadline"]
    assert len(fired) == 1 and fired[0]["data"]["seats"] == [seat]
    assert live.fire_deadlines() == 0  # a deadline fires once


def test_a_step_resolves_early_when_everyone_has_decided(live: LiveServer, users: Users) -> None:
    amy, bob = users("amy"), users("bob")
    gid, _ = start_game(amy, [bob], "sealed-bids", period_seconds=600, options={"rounds": 3})
    live.clock.advance(100)
    amy.post(f"/api/games/{gid}/actions", {"action": "bid 1"})
    assert amy.get(f"/api/games/{gid}")["deadline"]["remaining_seconds"] == 500
    bob.post(f"/api/games/{gid}/actions", {"action": "bid 2"})  # the last one: UC 56
    game = amy.get(f"/api/games/{gid}")
    assert game["state_id"] == 1
    assert game["deadline"] == {**game["deadline"], "state_id": 1, "remaining_seconds": 600}
    assert live.advance(599) == 0


def test_missing_simultaneous_decisions_take_the_default(live: LiveServer, users: Users) -> None:
    amy, bob, cat = users("amy"), users("bob"), users("cat")
    gid, seats = start_game(
        amy, [bob, cat], "sealed-bids", period_seconds=60, options={"rounds": 2}
    )
    ws = cat.ws(gid)
    ws.wait_for(lambda m: m["type"] == "state")
    amy.post(f"/api/games/{gid}/actions", {"action": "bid 5"})
    assert live.advance(60) == 1
    entries = cat.get(f"/api/games/{gid}/history")["entries"]
    auto = {e["seat"]: e["notation"] for e in entries if e.get("auto")}
    assert auto == {seats["bob"]: "bid 0", seats["cat"]: "bid 0"}
    assert cat.get(f"/api/games/{gid}/state")["state_id"] == 1
    pushed = ws.wait_for(lambda m: m["type"] == "state" and m["state_id"] == 1)
    assert pushed["observation"]["view"]["round"] == 1
    assert pushed["deadline"]["state_id"] == 1  # the new round's deadline comes with it
    ws.close()


def test_missed_turns_lead_to_civil_disorder_and_back(live: LiveServer, users: Users) -> None:
    amy, bob = users("amy"), users("bob")
    gid, seats = start_game(
        amy, [bob], "sealed-bids", period_seconds=60, disorder_after=2, options={"rounds": 6}
    )
    bob_seat = seats["bob"]
    for round_ in range(2):
        amy.post(f"/api/games/{gid}/actions", {"action": "bid 3"})
        assert live.advance(60) == 1
        expected = "human" if round_ == 0 else "disorder"
        assert seat_row(amy, gid, bob_seat)["controller"] == expected
    # In civil disorder the seat's default is taken at once: no waiting for deadlines.
    amy.post(f"/api/games/{gid}/actions", {"action": "bid 3"})
    assert amy.get(f"/api/games/{gid}/state")["state_id"] == 3
    blocked = bob.post(f"/api/games/{gid}/actions", {"action": "bid 1"}, expect=409)
    assert "back" in blocked["message"]
    back = bob.post(f"/api/games/{gid}/back")
    mine = next(s for s in back["seats"] if s["seat"] == bob_seat)
    assert (mine["controller"], mine["missed"]) == ("human", 0)
    bob.post(f"/api/games/{gid}/actions", {"action": "bid 4"})
    amy.post(f"/api/games/{gid}/actions", {"action": "bid 1"})
    history = amy.get(f"/api/games/{gid}/history")["entries"]
    assert history[-2]["seat"] == bob_seat and history[-2]["notation"] == "bid 4"
    kinds = [e["kind"] for e in amy.get(f"/api/games/{gid}/events")["events"]]
    assert kinds.count("disorder") == 1 and kinds.count("back") == 1


def test_the_host_hands_a_seat_in_disorder_to_a_bot(live: LiveServer, users: Users) -> None:
    amy, bob = users("amy"), users("bob")
    gid, seats = start_game(amy, [bob], "countdown", period_seconds=60, disorder_after=1)
    bob_seat = seats["bob"]
    refused = amy.post(f"/api/games/{gid}/seats/{bob_seat}/bot", {"bot": "random"}, expect=409)
    assert "civil disorder" in refused["message"]
    bob.post(f"/api/games/{gid}/seats/{bob_seat}/bot", {}, expect=403)
    if owed_seat(amy, gid) != bob_seat:
        amy.post(f"/api/games/{gid}/actions", {"action": "take 1"})
    live.advance(60)  # bob misses: disorder
    assert seat_row(amy, gid, bob_seat)["controller"] == "disorder"
    game = amy.post(f"/api/games/{gid}/seats/{bob_seat}/bot", {"bot": "random"})
    seat = next(s for s in game["seats"] if s["seat"] == bob_seat)
    assert (seat["controller"], seat["bot"], seat["user"]) == ("bot", "random", "bob")
    # From now on the bot answers each of amy's moves at once.
    amy.post(f"/api/games/{gid}/actions", {"action": "take 1"})
    entries = amy.get(f"/api/games/{gid}/history")["entries"]
    assert entries[-1]["seat"] == bob_seat and "auto" not in entries[-1]
    assert (
        owed_seat(amy, gid) == seats["amy"] or amy.get(f"/api/games/{gid}")["status"] == "finished"
    )
    bob.post(f"/api/games/{gid}/back")
    assert seat_row(amy, gid, bob_seat)["controller"] == "human"


def test_bots_take_over_by_themselves_after_enough_misses(live: LiveServer, users: Users) -> None:
    amy, bob = users("amy"), users("bob")
    gid, seats = start_game(
        amy,
        [bob],
        "sealed-bids",
        period_seconds=60,
        disorder_after=1,
        bot_after=2,
        options={"rounds": 5},
    )
    amy.post(f"/api/games/{gid}/actions", {"action": "bid 1"})
    live.advance(60)  # miss 1: disorder; round 2 then takes bob's default at once: miss 2
    seat = seat_row(amy, gid, seats["bob"])
    assert (seat["controller"], seat["missed"]) == ("bot", 2)
    events = amy.get(f"/api/games/{gid}/events")["events"]
    changes = [
        (e["kind"], e["data"].get("missed"))
        for e in events
        if e["kind"] in ("disorder", "takeover")
    ]
    assert changes == [("disorder", 1), ("takeover", None)]
    entries = amy.get(f"/api/games/{gid}/history")["entries"]
    assert [e.get("auto", False) for e in entries if e["seat"] == seats["bob"]] == [True, True]


def test_leaving_puts_the_seat_in_disorder_and_a_newcomer_takes_it(
    live: LiveServer, users: Users
) -> None:
    amy, bob, cal = users("amy"), users("bob"), users("cal")
    gid, seats = start_game(amy, [bob], "countdown", options={"start": 40})
    left = bob.post(f"/api/games/{gid}/leave")
    seat = next(s for s in left["seats"] if s["seat"] == seats["bob"])
    assert (seat["controller"], seat["user"]) == ("disorder", None)
    assert owed_seat(amy, gid) == seats["amy"]  # bob's turns pass by default at once
    bob.post(f"/api/games/{gid}/actions", {"action": "take 1"}, expect=403)
    cal.post(f"/api/games/{gid}/join", {"role": "player"}, expect=409)  # not open yet
    amy.post(f"/api/games/{gid}/seats/{seats['bob']}/open", {"open": True})
    joined = cal.post(f"/api/games/{gid}/join", {"role": "player"})
    seat = next(s for s in joined["seats"] if s["seat"] == seats["bob"])
    assert (seat["controller"], seat["user"]) == ("human", "cal")
    amy.post(f"/api/games/{gid}/actions", {"action": "take 1"})
    assert owed_seat(amy, gid) == seats["bob"]
    cal.post(f"/api/games/{gid}/actions", {"action": "take 2"})


def test_deadlines_survive_a_restart(sqlite_url: str) -> None:
    first = start_live_server(make_settings(sqlite_url))
    try:
        amy, bob = sign_up(first.url, "amy"), sign_up(first.url, "bob")
        gid, _ = start_game(amy, [bob], "countdown", period_seconds=300)
        seat = owed_seat(amy, gid)
    finally:
        first.stop()
    clock = first.clock
    clock.advance(301)
    second = start_live_server(make_settings(sqlite_url, clock=clock))
    try:
        assert second.fire_deadlines() == 1
        amy.base = second.url
        amy.http = type(amy.http)(base_url=second.url, timeout=10)
        history = amy.get(f"/api/games/{gid}/history")["entries"]
        assert history[0]["seat"] == seat and history[0]["auto"] is True
    finally:
        second.stop()


def test_each_deadline_fires_once_among_racing_schedulers(live: LiveServer, users: Users) -> None:
    amy, bob = users("amy"), users("bob")
    games = [start_game(amy, [bob], "countdown", period_seconds=30)[0] for _ in range(6)]
    other = build_services(make_settings(str(live.services.tables.db.engine.url), clock=live.clock))
    # Like two processes on one bus: what one changes, the other re-reads.
    other.tables.notify = lambda n: live.services.tables.mark_stale(n.game_id, n.version)
    live.clock.advance(30)
    counts: list[int] = []
    barrier = threading.Barrier(2)

    def race(fire: Callable[[], int]) -> None:
        barrier.wait()
        counts.append(fire())

    threads = [
        threading.Thread(target=race, args=(live.services.scheduler.fire_due,)),
        threading.Thread(target=race, args=(other.scheduler.fire_due,)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    assert sum(counts) == len(games)
    for gid in games:
        events = amy.get(f"/api/games/{gid}/events")["events"]
        assert sum(e["kind"] == "deadline" for e in events) == 1
        autos = [e for e in amy.get(f"/api/games/{gid}/history")["entries"] if e.get("auto")]
        assert len(autos) == 1
    other.tables.db.dispose()


def test_whole_game_driven_by_deadlines_alone(live: LiveServer, users: Users) -> None:
    amy, bob = users("amy"), users("bob")
    gid, _ = start_game(
        amy, [bob], "countdown", period_seconds=10, disorder_after=0, options={"start": 5}
    )
    for _ in range(5):
        live.advance(10)
    game = amy.get(f"/api/games/{gid}")
    assert game["status"] == "finished" and game["deadline"] is None
    assert all(s["controller"] == "human" for s in game["seats"])  # disorder_after=0: never
