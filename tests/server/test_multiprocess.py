"""Two server processes on one PostgreSQL and one Redis: deadlines fire once, updates fan out."""

from __future__ import annotations

import secrets
from pathlib import Path

from tests.server.conftest import Client, ServerProcess, Socket, sign_up

GAMES = 6
PERIOD = 5  # seconds: every game's first deadline falls due at about the same moment (long
# enough for each bid, sent right after its start, to arrive first on a loaded machine)


def test_two_processes_share_deadlines_and_live_updates(
    postgres_url: str, redis_url: str, tmp_path: Path
) -> None:
    prefix = f"parley-test-{secrets.token_hex(4)}:"
    args = ["--database-url", postgres_url, "--redis-url", redis_url, "--redis-prefix", prefix]
    a = ServerProcess(args, tmp_path / "a.log")
    b = ServerProcess(args, tmp_path / "b.log")
    sockets: list[Socket] = []
    try:
        a.start()
        b.start()
        amy = sign_up(a.url, "amy")
        bob = sign_up(b.url, "bob")  # accounts are shared: one database
        bob_on_a = Client(a.url, "bob", token=bob.token)
        gids = []
        for _ in range(GAMES):
            gid = amy.post(
                "/api/games", {"game": "sealed-bids", "period_seconds": PERIOD}, expect=201
            )["id"]
            bob_on_a.post(f"/api/games/{gid}/join")
            gids.append(gid)
        # Clients of both processes watch every game.
        watch_a = {gid: amy.ws(gid) for gid in gids}
        watch_b = {gid: bob.ws(gid) for gid in gids}
        sockets = [*watch_a.values(), *watch_b.values()]
        for ws in sockets:
            ws.wait_for(lambda m: m["type"] == "game", what="the game summary")
        # Start with a short period; amy bids on process B, so A learns it from Redis.
        amy_on_b = Client(b.url, "amy", token=amy.token)
        for gid in gids:
            amy.post(f"/api/games/{gid}/start")
            amy_on_b.post(f"/api/games/{gid}/actions", {"action": "bid 3"})
        for gid in gids:
            for ws in (watch_a[gid], watch_b[gid]):
                ws.wait_for(
                    lambda m: m["type"] == "state" and m["state_id"] >= 1,
                    timeout=20,
                    what=f"game {gid} past its first deadline",
                )
        # Each game's first deadline fired exactly once, in one of the two processes.
        owners = []
        for gid in gids:
            events = amy.get(f"/api/games/{gid}/events")["events"]
            first = [e for e in events if e["kind"] == "deadline" and e["data"]["state_id"] == 0]
            assert len(first) == 1, first
            assert first[0]["data"]["seats"] == [_bob_seat(amy, gid)]
            owners.append(first[0]["data"]["by"])
            entries = amy.get(f"/api/games/{gid}/history")["entries"]
            round0 = [e for e in entries if e["seq"] < 2]
            assert [e.get("auto", False) for e in round0] == [False, True]
        processes = {a.health()["process"], b.health()["process"]}
        assert set(owners) <= processes
        for gid in gids:  # both processes' clients saw the defaulted bid revealed
            for ws in (watch_a[gid], watch_b[gid]):
                seen = ws.entries()
                assert seen[1].get("auto") is True and seen[1]["notation"] == "bid 0"
        health = [a.health(), b.health()]
        assert sum(h["deadlines_fired"] for h in health) >= GAMES
    finally:
        for ws in sockets:
            ws.close()
        a.kill()
        b.kill()


def _bob_seat(client: Client, gid: str) -> int:
    seats = client.get(f"/api/games/{gid}")["seats"]
    return int(next(s["seat"] for s in seats if s["player"] == "bob"))
