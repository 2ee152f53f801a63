"""Every message carries the time it was recorded (`at`, ISO 8601 UTC) on every path: the
answer to sending it, the live feed, the history over HTTP, a reconnecting socket's replay,
the records, and after the server has forgotten the game and read it back from the store."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from tests.server.conftest import Client, LiveServer, make_settings, sign_up, start_live_server
from tests.server.test_play import mover, start_game

Users = Callable[..., Client]


def iso(epoch: float) -> str:
    return (
        datetime.fromtimestamp(epoch, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    )


def press_times(entries: list[dict[str, object]]) -> dict[str, object]:
    return {str(e["text"]): e.get("at") for e in entries if e["type"] == "press"}


def test_messages_carry_their_time_on_every_path(live: LiveServer, users: Users) -> None:
    amy, bob = users("amy"), users("bob")
    gid, seats = start_game(amy, [bob], "countdown", options={"start": 4})
    socket = bob.ws(gid)
    socket.wait_for(lambda m: m["type"] == "state")
    t0 = live.clock.now()
    sent = amy.post(f"/api/games/{gid}/press", {"text": "hello"})["entry"]
    assert sent["at"] == iso(t0) and sent["at"].endswith("Z")
    live.clock.advance(125.5)
    bob.post(f"/api/games/{gid}/press", {"text": "psst", "to": [seats["amy"]]})
    expected = {"hello": iso(t0), "psst": iso(t0 + 125.5)}

    pushed = socket.wait_for(
        lambda m: m["type"] == "entries" and any(e.get("text") == "psst" for e in m["entries"])
    )
    live_times = press_times(pushed["entries"])  # the live event (may carry both)
    assert live_times == {k: expected[k] for k in live_times} and "psst" in live_times
    socket.close()
    for who in (amy, bob):
        assert press_times(who.get(f"/api/games/{gid}/history")["entries"]) == expected
        assert press_times(who.get(f"/api/games/{gid}/record")["record"]["entries"]) == expected

    replay = amy.ws(gid, since=1)  # a reconnect that had the first entry already
    replay.wait_for(lambda m: m["type"] == "state")
    assert press_times(list(replay.entries().values())) == {"psst": expected["psst"]}
    replay.close()
    fresh = amy.ws(gid)
    fresh.wait_for(lambda m: m["type"] == "state")
    assert press_times(list(fresh.entries().values())) == expected
    fresh.close()

    # Read back from the store, not from what this process remembered.
    live.services.tables.forget(gid)
    assert press_times(amy.get(f"/api/games/{gid}/history")["entries"]) == expected

    while amy.get(f"/api/games/{gid}")["status"] == "active":
        mover([amy, bob], gid).post(f"/api/games/{gid}/actions", {"action": "take 1"})
    archive = amy.get(f"/api/games/{gid}/record?view=archive")["record"]["entries"]
    assert press_times(archive) == expected
    assert all("at" not in e for e in archive if e["type"] != "press")


def test_times_survive_a_snapshot_and_a_restart(sqlite_url: str) -> None:
    """Messages before the match's latest snapshot are not replayed on loading: their
    times come from the store all the same."""
    server = start_live_server(make_settings(sqlite_url, snapshot_every=2))
    try:
        amy, bob = sign_up(server.url, "amy2"), sign_up(server.url, "bob2")
        gid, _ = start_game(amy, [bob], "countdown", options={"start": 9})
        t0 = server.clock.now()
        for n in range(3):
            amy.post(f"/api/games/{gid}/press", {"text": f"m{n}"})
            server.clock.advance(60)
        mover([amy, bob], gid).post(f"/api/games/{gid}/actions", {"action": "take 1"})
        expected = {f"m{n}": iso(t0 + 60 * n) for n in range(3)}
    finally:
        server.stop()
    again = start_live_server(make_settings(sqlite_url, snapshot_every=2))
    try:
        bob = sign_up(again.url, "bob3")
        bob.post(f"/api/games/{gid}/join", {"role": "spectator"})
        assert press_times(bob.get(f"/api/games/{gid}/history")["entries"]) == expected
    finally:
        again.stop()
