"""Load on the Parley server: many WebSocket clients, paced actions, submit→broadcast latency.

Loopback only and bounded: it starts its own server process on 127.0.0.1 with a fresh SQLite
file, seats N clients in M games of So Long Sucker (players plus spectators), submits
actions at a fixed total rate for a fixed time, and reports actions per second and the
latency from the start of each submission to its arrival at every client of that game.

    .venv/bin/python benchmarks/server_load.py --clients 1000 --games 100 --rate 200 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

PLAYERS = 4


@dataclass
class Seat:
    token: str
    seat: int | None = None  # None: a spectator
    latest: dict[str, Any] | None = None  # the last state message this client received


@dataclass
class Game:
    id: str
    seats: dict[int, Seat] = field(default_factory=dict)
    clients: list[Seat] = field(default_factory=list)
    over: bool = False
    turn: list[int] = field(default_factory=list)  # seats owing, from the latest state
    state_id: int = 0
    seq: int = 0


@dataclass
class Stats:
    sent: dict[tuple[str, int], float] = field(default_factory=dict)  # (game, seq) → t0
    deliveries: list[float] = field(default_factory=list)
    submits: list[float] = field(default_factory=list)
    accepted: int = 0
    refused: int = 0
    errors: int = 0
    messages: int = 0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(port: int, database: Path, log: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "PARLEY_DATABASE_URL": f"sqlite:///{database}",
        "PARLEY_RATE": "100000",
        "PARLEY_SIGNUP_RATE": "100000",
        "PARLEY_SCHEDULER_POLL": "1",
    }
    command = [
        sys.executable, "-m", "uvicorn", "parley.server.app:create_app_from_env", "--factory",
        "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
        "--ws", "websockets-sansio", "--loop", "uvloop", "--http", "httptools",
        "--backlog", "4096",
    ]
    with log.open("wb") as out:
        return subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)


async def wait_healthy(url: str, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    async with httpx.AsyncClient() as client:
        while time.monotonic() < end:
            if proc.poll() is not None:
                raise SystemExit("the server exited during start-up")
            with contextlib.suppress(httpx.HTTPError):
                if (await client.get(url + "/api/health")).status_code == 200:
                    return
            await asyncio.sleep(0.1)
    raise SystemExit("the server did not start in time")


async def setup(http: httpx.AsyncClient, games: int, clients: int) -> list[Game]:
    """Users, games, joins and starts; seats are read back from the started games."""
    per_game = clients // games
    if per_game < PLAYERS:
        raise SystemExit(f"{clients} clients in {games} games leaves fewer than {PLAYERS} each")
    sem = asyncio.Semaphore(32)

    async def sign_up(name: str) -> str:
        async with sem:
            r = await http.post("/api/users", json={"username": name})
            r.raise_for_status()
            return str(r.json()["token"])

    tokens = await asyncio.gather(*(sign_up(f"u{i}") for i in range(per_game * games)))
    out: list[Game] = []

    async def make_game(g: int) -> Game:
        mine = tokens[g * per_game : (g + 1) * per_game]
        auth = [{"Authorization": f"Bearer {t}"} for t in mine]
        async with sem:
            r = await http.post(
                "/api/games",
                json={"game": "sucker", "seats": PLAYERS, "period_seconds": 3600, "seed": g},
                headers=auth[0],
            )
            r.raise_for_status()
            gid = r.json()["id"]
            for i in range(1, per_game):
                role = "player" if i < PLAYERS else "spectator"
                r = await http.post(f"/api/games/{gid}/join", json={"role": role}, headers=auth[i])
                r.raise_for_status()
            r = await http.post(f"/api/games/{gid}/start", headers=auth[0])
            r.raise_for_status()
            game = Game(gid)
            for i, token in enumerate(mine):
                me = (await http.get(f"/api/games/{gid}", headers=auth[i])).json()["you"]
                seat = Seat(token, me["seat"] if me["role"] == "player" else None)
                game.clients.append(seat)
                if seat.seat is not None:
                    game.seats[seat.seat] = seat
            return game

    out = list(await asyncio.gather(*(make_game(g) for g in range(games))))
    return out


async def listen(ws: ClientConnection, game: Game, seat: Seat, stats: Stats) -> None:
    async for raw in ws:
        now = time.perf_counter()
        stats.messages += 1
        message = json.loads(raw)
        kind = message.get("type")
        if kind == "entries":
            for entry in message["entries"]:
                t0 = stats.sent.get((game.id, entry["seq"]))
                if t0 is not None:
                    stats.deliveries.append(now - t0)
        elif kind == "state":
            seat.latest = message
            if message["seq"] >= game.seq:
                game.seq = message["seq"]
                game.state_id = message["state_id"]
                game.turn = sorted({o["seat"] for o in message["observation"]["turn"]["owed"]})
                game.over = message["status"] != "active"


def pick(node: dict[str, Any], rng: random.Random) -> list[str]:
    if "action" in node:
        return [node["action"]]
    children = node.get("children", [])
    if not children:
        return []
    if node.get("each"):
        return [leaf for child in children for leaf in pick(child, rng)]
    return pick(rng.choice(children), rng)


async def drive(
    http: httpx.AsyncClient, games: list[Game], rate: float, seconds: float, stats: Stats
) -> None:
    """Open-loop pacing: one submission every 1/rate s, to the games in turn."""
    rng = random.Random(1)
    interval = 1.0 / rate
    start = time.perf_counter()
    tick = 0
    pending: set[asyncio.Task[None]] = set()
    busy: set[str] = set()

    async def submit(game: Game) -> None:
        busy.add(game.id)
        try:
            mover = game.seats.get(game.turn[0]) if game.turn else None
            latest = mover.latest if mover else None
            if mover is None or latest is None or not latest.get("options"):
                return
            if latest["state_id"] != game.state_id:
                return  # this client has not seen the newest state yet
            leaves = pick(latest["options"], rng)
            if not leaves:
                return
            body = {"action": leaves[0], "state_id": game.state_id}
            t0 = time.perf_counter()
            stats.sent[(game.id, game.seq)] = t0
            r = await http.post(
                f"/api/games/{game.id}/actions",
                json=body,
                headers={"Authorization": f"Bearer {mover.token}"},
            )
            stats.submits.append(time.perf_counter() - t0)
            if r.status_code == 200:
                stats.accepted += 1
            elif r.status_code < 500:
                stats.refused += 1
                stats.sent.pop((game.id, game.seq), None)
            else:
                stats.errors += 1
        finally:
            busy.discard(game.id)

    while (now := time.perf_counter()) - start < seconds:
        due = start + tick * interval
        if due > now:
            await asyncio.sleep(due - now)
        tick += 1
        for _ in range(len(games)):
            game = games[tick % len(games)]
            tick += 0
            if not game.over and game.id not in busy and game.turn:
                task = asyncio.create_task(submit(game))
                pending.add(task)
                task.add_done_callback(pending.discard)
                break
            tick += 1
    if pending:
        await asyncio.gather(*pending)


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        proc = start_server(port, Path(tmp) / "load.sqlite3", Path(tmp) / "server.log")
        sockets: list[ClientConnection] = []
        listeners: list[asyncio.Task[None]] = []
        try:
            await wait_healthy(url, proc)
            limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
            async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as http:
                t = time.perf_counter()
                games = await setup(http, args.games, args.clients)
                setup_s = time.perf_counter() - t
                stats = Stats()
                t = time.perf_counter()
                sem = asyncio.Semaphore(64)

                async def open_one(game: Game, seat: Seat) -> None:
                    async with sem:
                        ws = await connect(
                            f"ws://127.0.0.1:{port}/ws/games/{game.id}?token={seat.token}",
                            max_queue=None,
                            open_timeout=30,
                        )
                    sockets.append(ws)
                    listeners.append(asyncio.create_task(listen(ws, game, seat, stats)))

                await asyncio.gather(*(open_one(g, s) for g in games for s in g.clients))
                connect_s = time.perf_counter() - t
                await asyncio.sleep(2.0)  # initial states arrive
                health = (await http.get("/api/health")).json()
                stats.deliveries.clear()
                t = time.perf_counter()
                await drive(http, games, args.rate, args.seconds, stats)
                await asyncio.sleep(1.0)  # the last broadcasts land
                elapsed = time.perf_counter() - t - 1.0
        finally:
            for task in listeners:
                task.cancel()
            for ws in sockets:
                with contextlib.suppress(Exception):
                    await ws.close()
            proc.terminate()
            with contextlib.suppress(Exception):
                proc.wait(timeout=10)
    ms = 1000.0
    return {
        "clients": len(sockets),
        "connected_on_server": health["connections"],
        "games": len(games),
        "target_rate": args.rate,
        "seconds": round(elapsed, 1),
        "setup_seconds": round(setup_s, 1),
        "connect_seconds": round(connect_s, 1),
        "accepted": stats.accepted,
        "refused": stats.refused,
        "server_errors": stats.errors,
        "actions_per_second": round(stats.accepted / elapsed, 1),
        "deliveries": len(stats.deliveries),
        "latency_ms": {
            "p50": round(quantile(stats.deliveries, 0.50) * ms, 1),
            "p90": round(quantile(stats.deliveries, 0.90) * ms, 1),
            "p99": round(quantile(stats.deliveries, 0.99) * ms, 1),
            "max": round(max(stats.deliveries, default=float("nan")) * ms, 1),
            "mean": round(statistics.fmean(stats.deliveries) * ms, 1) if stats.deliveries else None,
        },
        "submit_ms": {
            "p50": round(quantile(stats.submits, 0.50) * ms, 1),
            "p99": round(quantile(stats.submits, 0.99) * ms, 1),
        },
        "messages_received": stats.messages,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=1000, help="WebSocket clients in all")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rate", type=float, default=200.0, help="actions per second in all")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time (max 120)")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args()
    if args.clients > 5000 or args.seconds > 120 or args.rate > 2000:
        raise SystemExit("bounded: at most 5000 clients, 120 s and 2000 actions/s")
    result = asyncio.run(run(args))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
