"""Whole games of Diplomacy and So Long Sucker through HTTP and WebSocket, several users.

Deadlines run on the manual clock; seats miss turns, fall into civil disorder, go to bots;
clients drop and resume; spectators watch; games end by the rules, by a draw, or by the
host closing them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from tests.server.conftest import Client, LiveServer, Socket, sign_up
from tests.server.driver import act_randomly
from tests.server.test_play import start_game

from parley import games
from parley.kernel import replay

PERIOD = 3600


@pytest.fixture
def table(live: LiveServer) -> Iterator[list[Socket]]:
    """Sockets opened by a test, closed after it."""
    opened: list[Socket] = []
    yield opened
    for ws in opened:
        ws.close()


def _seated(
    live: LiveServer, game: str, count: int, **settings: object
) -> tuple[str, dict[int, Client], Client]:
    players = [sign_up(live.url, f"{game[:3]}{i}") for i in range(count)]
    gid, seat_of = start_game(
        players[0], players[1:], game, period_seconds=PERIOD, seed=20240601, **settings
    )
    watcher = sign_up(live.url, f"{game[:3]}-watcher")
    watcher.post(f"/api/games/{gid}/join", {"role": "spectator"})
    return gid, {seat_of[c.username]: c for c in players}, watcher


def _owed(client: Client, gid: str) -> list[int]:
    turn = client.get(f"/api/games/{gid}/state", params={"options": False})["observation"]["turn"]
    return sorted({int(o["seat"]) for o in turn["owed"]})


def test_a_whole_diplomacy_game(live: LiveServer, table: list[Socket]) -> None:
    games.find("diplomacy")  # fails loudly if the game is not installed
    gid, by_seat, watcher = _seated(
        live, "diplomacy", 7, options={"year_limit": 1902}, disorder_after=2
    )
    host = next(c for c in by_seat.values() if c.username == "dip0")
    seats = sorted(by_seat)
    sleeper, leaver, dropper = [s for s in seats if by_seat[s] is not host][:3]
    sockets = {s: by_seat[s].ws(gid) for s in seats}
    spectator = watcher.ws(gid)
    table += [*sockets.values(), spectator]
    rng = random.Random(7)
    phases = deadlines = 0
    resumed = False
    last_seen = 0
    while host.get(f"/api/games/{gid}")["status"] == "active" and phases < 30:
        state_id = host.get(f"/api/games/{gid}/state")["state_id"]
        owed = _owed(host, gid)
        speaker = rng.choice([s for s in seats if phases == 0 or s != leaver])
        by_seat[speaker].post(f"/api/games/{gid}/press", {"text": f"phase {state_id}: peace?"})
        for seat in owed:
            if seat == sleeper:
                continue  # never answers: deadlines, then civil disorder
            assert act_randomly(by_seat[seat], gid, rng), f"seat {seat} could not order"
        if phases == 0:
            # The spectator sees that orders were given, not which ones, before the phase ends.
            pending = spectator.wait_for(
                lambda m: (
                    m["type"] == "entries" and any(e["type"] == "action" for e in m["entries"])
                )
            )["entries"]
            assert all(e.get("hidden") for e in pending if e["type"] == "action")
            by_seat[leaver].post(f"/api/games/{gid}/leave")
            host.post(f"/api/games/{gid}/seats/{leaver}/bot", {"bot": "random"})
            last_seen = sockets[dropper].wait_for(lambda m: m["type"] == "entries")["seq"]
            dropped = sockets[dropper]
            dropped.close()  # this client drops out for a while
        if host.get(f"/api/games/{gid}/state")["state_id"] == state_id:
            assert sleeper in _owed(host, gid)  # only the sleeper holds the phase up
            assert live.advance(PERIOD) == 1
            deadlines += 1
        assert host.get(f"/api/games/{gid}/state")["state_id"] > state_id
        phases += 1
        if phases == 3 and not resumed:
            sockets[dropper] = by_seat[dropper].ws(gid, since=last_seen)
            table.append(sockets[dropper])
            resumed = True
    game = host.get(f"/api/games/{gid}")
    assert game["status"] == "finished", game
    assert game["outcome"]["reason"] == "the year limit 1902 was reached"
    assert phases >= 4  # spring and autumn of two years, and the adjustments needed
    assert deadlines == 2  # two misses put the sleeper into civil disorder (disorder_after=2)
    seat_state = {s["seat"]: s for s in game["seats"]}
    assert seat_state[sleeper]["controller"] == "disorder"
    assert (seat_state[leaver]["controller"], seat_state[leaver]["user"]) == ("bot", None)
    # Every client's picture, built from pushes alone (the dropped one resumed with `since`),
    # equals the history the server holds for that viewer.
    for seat, ws in sockets.items():
        if seat == leaver:
            continue
        seq = game["seq"]
        ws.wait_for(lambda m, s=seq: m["type"] == "entries" and m["seq"] == s)
        history = by_seat[seat].get(f"/api/games/{gid}/history")["entries"]
        got = ws.entries()
        if seat == dropper:
            assert min(got) == last_seen  # resumed where it stopped, plus what was revealed
            got = {**dropped.entries(), **got}
        assert got == {e["seq"]: e for e in history}, f"seat {seat}"
    spectator.wait_for(lambda m: m["type"] == "entries" and m["seq"] == game["seq"])
    watched = spectator.entries()
    assert watched == {e["seq"]: e for e in watcher.get(f"/api/games/{gid}/history")["entries"]}
    assert not any(e.get("hidden") for e in watched.values())  # every phase has resolved
    # The archive replays, through the kernel, to the same end.
    record = watcher.get(f"/api/games/{gid}/record", params={"view": "archive"})["record"]
    rules = games.find("diplomacy")
    again = replay(rules, record)
    assert again.outcome() is not None and again.outcome().to_json() == game["outcome"]


def test_a_diplomacy_draw_needs_every_survivor(live: LiveServer, table: list[Socket]) -> None:
    gid, by_seat, watcher = _seated(live, "diplomacy", 7)
    rng = random.Random(3)
    for seat in _owed(watcher, gid):
        act_randomly(by_seat[seat], gid, rng)
    seats = sorted(by_seat)
    for seat in seats[:-1]:
        out = by_seat[seat].post(f"/api/games/{gid}/draw", {"accept": True})
        assert not out["decided"]
    spectator = watcher.ws(gid)
    table.append(spectator)
    last = by_seat[seats[-1]].post(f"/api/games/{gid}/draw", {"accept": True})
    assert last["decided"] and last["agreed"] and last["status"] == "finished"
    final = spectator.wait_for(lambda m: m["type"] == "game" and m["game"]["status"] == "finished")
    assert final["game"]["outcome"]["draw"] is True
    assert sorted(final["game"]["outcome"]["winners"]) == seats


def test_a_whole_so_long_sucker_game(live: LiveServer, table: list[Socket]) -> None:
    games.find("sucker")  # fails loudly if the game is not installed
    gid, by_seat, watcher = _seated(live, "sucker", 4, disorder_after=3)
    seats = sorted(by_seat)
    sockets = {s: by_seat[s].ws(gid) for s in seats}
    spectator = watcher.ws(gid)
    table += [*sockets.values(), spectator]
    rng = random.Random(11)
    moves = waits = 0
    host = by_seat[seats[0]]
    while host.get(f"/api/games/{gid}")["status"] == "active" and moves < 400:
        owed = _owed(host, gid)
        assert owed, "an active game owes a decision"
        seat = owed[0]
        if rng.random() < 0.1:
            live.advance(PERIOD)  # this player lets the clock run out: the default move
            waits += 1
        else:
            by_seat[seat].post(f"/api/games/{gid}/press", {"text": f"move {moves}"})
            assert act_randomly(by_seat[seat], gid, rng)
        moves += 1
    game = host.get(f"/api/games/{gid}")
    assert game["status"] == "finished" and game["outcome"]["winners"], game
    assert waits > 0
    history = watcher.get(f"/api/games/{gid}/history")["entries"]
    autos = [e for e in history if e.get("auto")]
    assert len(autos) >= waits
    spectator.wait_for(lambda m: m["type"] == "entries" and m["seq"] == game["seq"])
    assert spectator.entries() == {e["seq"]: e for e in history}
    for seat, ws in sockets.items():
        ws.wait_for(lambda m: m["type"] == "entries" and m["seq"] == game["seq"])
        mine = by_seat[seat].get(f"/api/games/{gid}/history")["entries"]
        assert ws.entries() == {e["seq"]: e for e in mine}
    record = watcher.get(f"/api/games/{gid}/record", params={"view": "archive"})["record"]
    again = replay(games.find("sucker"), record)
    assert again.outcome() is not None and again.outcome().to_json() == game["outcome"]


def test_the_host_closes_a_so_long_sucker_game(live: LiveServer, table: list[Socket]) -> None:
    gid, by_seat, watcher = _seated(live, "sucker", 3)
    rng = random.Random(5)
    for _ in range(6):
        seat = _owed(watcher, gid)[0]
        act_randomly(by_seat[seat], gid, rng)
    spectator = watcher.ws(gid)
    table.append(spectator)
    spectator.wait_for(lambda m: m["type"] == "state")
    host = next(c for c in by_seat.values() if c.username == "suc0")
    others = [c for c in by_seat.values() if c is not host]
    others[0].post(f"/api/games/{gid}/close", expect=403)
    closed = host.post(f"/api/games/{gid}/close")
    assert closed["status"] == "closed"
    spectator.wait_for(lambda m: m["type"] == "game" and m["game"]["status"] == "closed")
    for client in by_seat.values():
        if client.get(f"/api/games/{gid}/state")["can_act"]:
            raise AssertionError("a closed game offers no actions")
    record = watcher.get(f"/api/games/{gid}/record", params={"view": "archive"})["record"]
    assert len(record["entries"]) == closed["seq"] >= 6
