"""Two Parley hosts behind the shipped HAProxy configuration; one host is killed mid-run.

Each host is a network namespace of its own on this machine, running `parley serve
--workers 2` on its own loopback; the hosts share one PostgreSQL and one Redis (reached over
their Unix sockets, which every namespace sees) and are reached by HAProxy (`deploy/
haproxy.cfg`, unchanged) through a Unix socket bridged into each namespace. Nothing leaves
this machine's loopback and Unix sockets.

Players make moves over HTTP through the proxy at a fixed rate, and every player and a
spectator of each game watch it over a WebSocket through the proxy. Some games get a short
deadline and no moves, so deadlines keep falling due. Midway every process of host 1 gets
SIGKILL. The run reports moves per second, the p99 of a move's answer and of its delivery
to the watchers, how long the dropped sockets took to be back with the game's newest
state, whether any acknowledged move is missing from the record afterwards, and whether
any deadline fired twice.

Needs root (network namespaces), `ip`, `haproxy`, `socat`, `redis-server` and PostgreSQL on
its Unix socket (database `test`, trust auth):

    sudo .venv/bin/python benchmarks/cross_host.py --games 40 --rate 40 --seconds 40
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = 4
PG_SOCKET = "/var/run/postgresql"


@dataclass
class Game:
    id: str
    tokens: dict[int, str]  # seat → its player's token
    watcher_tokens: list[str]
    idle: bool = False  # deadlines only: nobody moves
    acked: dict[int, str] = field(default_factory=dict)  # seq → notation, as answered
    over: bool = False


@dataclass
class Watch:
    game: Game
    token: str
    seq: int = 0  # entries seen so far
    dropped_at: float | None = None
    drops: int = 0
    reconnects: list[float] = field(default_factory=list)


@dataclass
class Figures:
    submits: list[float] = field(default_factory=list)
    deliveries: list[float] = field(default_factory=list)
    sent_at: dict[tuple[str, int], float] = field(default_factory=dict)
    accepted: int = 0
    refused: int = 0
    unanswered: int = 0  # no answer (the host died under it, or the proxy had no host)
    first_accept_after_kill: float | None = None


def run(command: list[str], **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, check=True, capture_output=True, text=True, **kw)


def need(tool: str) -> str:
    found = shutil.which(tool) or next(
        (p for p in (f"/usr/sbin/{tool}", f"/sbin/{tool}") if Path(p).exists()), None
    )
    if found is None:
        raise SystemExit(f"{tool} is needed (Debian: apt-get install {tool})")
    return found


class Site:
    """The namespaces, the servers, Redis, the schema and the proxy; torn down on exit."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.tag = secrets.token_hex(3)
        self.namespaces = [f"parley-h{i}-{self.tag}" for i in (1, 2)]
        self.schema = f"parley_xh_{self.tag}"
        self.procs: list[subprocess.Popen[bytes]] = []
        self.redis_socket = folder / "redis.sock"
        self.proxy_port = 0

    @property
    def database_url(self) -> str:
        return (
            f"postgresql+psycopg://postgres@/test?host={PG_SOCKET}"
            f"&options=-csearch_path%3D{self.schema}"
        )

    def _spawn(self, command: list[str], log: str, env: dict[str, str] | None = None) -> Any:
        with (self.folder / log).open("ab") as out:
            proc = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True
            )
        self.procs.append(proc)
        return proc

    def start(self) -> None:
        import psycopg

        with psycopg.connect(f"host={PG_SOCKET} dbname=test user=postgres", autocommit=True) as pg:
            pg.execute(f'CREATE SCHEMA "{self.schema}"')
        self._spawn(
            [need("redis-server"), "--port", "0", "--unixsocket", str(self.redis_socket),
             "--unixsocketperm", "777", "--save", "", "--appendonly", "no"],
            "redis.log",
        )  # fmt: skip
        end = time.monotonic() + 10
        while not self.redis_socket.exists() and time.monotonic() < end:
            time.sleep(0.05)
        ip = need("ip")
        for index, ns in enumerate(self.namespaces, 1):
            run([ip, "netns", "add", ns])
            run([ip, "netns", "exec", ns, ip, "link", "set", "lo", "up"])
            env = {
                **os.environ,
                "PARLEY_TRUSTED_PROXIES": "127.0.0.1",
                "PARLEY_RATE": "100000",
                "PARLEY_SIGNUP_RATE": "100000",
                "PARLEY_READ_RATE_PER_SECOND": "100000",
                "PARLEY_READ_BURST": "100000",
                "PARLEY_WS_OPEN_RATE_PER_SECOND": "100000",
                "PARLEY_WS_OPEN_BURST": "100000",
                "PARLEY_SCHEDULER_POLL": "0.5",
                "PARLEY_DEADLINE_LEASE_SECONDS": "30",
            }
            self._spawn(
                [ip, "netns", "exec", ns, sys.executable, "-c",
                 "from parley.cli import main; main()", "serve", "--host", "127.0.0.1",
                 "--port", "8000", "--workers", "2", "--log-level", "warning",
                 "--database-url", self.database_url,
                 "--redis-url", f"unix://{self.redis_socket}"],
                f"host{index}.log",
                env,
            )  # fmt: skip
            bridge = self.folder / f"host{index}.sock"
            self._spawn(
                [ip, "netns", "exec", ns, need("socat"),
                 f"UNIX-LISTEN:{bridge},fork,mode=666,backlog=512", "TCP:127.0.0.1:8000"],
                f"bridge{index}.log",
            )  # fmt: skip
        for index in (1, 2):
            self._healthy(self.folder / f"host{index}.sock")
        self.proxy_port = _free_port()
        env = {
            **os.environ,
            "PARLEY_LISTEN": f"127.0.0.1:{self.proxy_port}",
            "PARLEY_HOST_1": str(self.folder / "host1.sock"),
            "PARLEY_HOST_2": str(self.folder / "host2.sock"),
        }
        self._spawn([need("haproxy"), "-db", "-f", str(ROOT / "deploy/haproxy.cfg")],
                    "haproxy.log", env)  # fmt: skip
        self._healthy_proxy()

    def _healthy(self, sock: Path, timeout: float = 90) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with contextlib.suppress(httpx.HTTPError):
                transport = httpx.HTTPTransport(uds=str(sock))
                with httpx.Client(transport=transport, timeout=2) as client:
                    if client.get("http://host/api/health").status_code == 200:
                        return
            time.sleep(0.2)
        raise SystemExit(f"the host behind {sock} did not start; see {self.folder}")

    def _healthy_proxy(self, timeout: float = 30) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            seen = set()
            with contextlib.suppress(httpx.HTTPError):
                for n in range(16):  # game paths: requests of no game hash by address
                    answer = httpx.get(f"{self.url}/api/games/probe{n}", timeout=2)
                    seen.add(answer.headers.get("x-parley-host"))
            if {"host1", "host2"} <= seen:
                return
            time.sleep(0.2)
        raise SystemExit(f"HAProxy did not see both hosts; see {self.folder}")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.proxy_port}"

    def kill_host(self, index: int) -> int:
        """SIGKILL every process in host `index`'s namespace; returns how many."""
        ns = self.namespaces[index - 1]
        pids = run([need("ip"), "netns", "pids", ns]).stdout.split()
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(pid), signal.SIGKILL)
        return len(pids)

    def stop(self) -> None:
        for proc in reversed(self.procs):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            with contextlib.suppress(Exception):
                proc.wait(timeout=10)
        for ns in self.namespaces:
            with contextlib.suppress(Exception):
                for pid in run([need("ip"), "netns", "pids", ns]).stdout.split():
                    os.kill(int(pid), signal.SIGKILL)
            subprocess.run([need("ip"), "netns", "del", ns], check=False, capture_output=True)
        with contextlib.suppress(Exception):
            import psycopg

            dsn = f"host={PG_SOCKET} dbname=test user=postgres"
            with psycopg.connect(dsn, autocommit=True) as pg:
                pg.execute(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def pick(node: dict[str, Any], rng: random.Random) -> str | None:
    """One legal action from an options tree (a leaf, or each part of an `each` group)."""
    if "action" in node:
        return str(node["action"])
    children = node.get("children", [])
    if not children:
        return None
    return pick(rng.choice(children), rng)


async def setup(http: httpx.AsyncClient, games: int, idle: int) -> list[Game]:
    sem = asyncio.Semaphore(16)

    async def sign_up(name: str) -> str:
        async with sem:
            answer = await http.post("/api/users", json={"username": name})
            answer.raise_for_status()
            return str(answer.json()["token"])

    async def make(g: int) -> Game:
        tokens = await asyncio.gather(*(sign_up(f"g{g}p{i}") for i in range(PLAYERS + 1)))
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        is_idle = g < idle
        async with sem:
            made = await http.post(
                "/api/games",
                json={"game": "sucker", "seats": PLAYERS, "seed": g,
                      "period_seconds": 3 if is_idle else 3600},
                headers=auth[0],
            )  # fmt: skip
            made.raise_for_status()
            gid = made.json()["id"]
            for i in range(1, PLAYERS + 1):
                role = "player" if i < PLAYERS else "spectator"
                joined = await http.post(
                    f"/api/games/{gid}/join", json={"role": role}, headers=auth[i]
                )
                joined.raise_for_status()
            started = await http.post(f"/api/games/{gid}/start", headers=auth[0])
            started.raise_for_status()
        seat_of = {s["user"]: s["seat"] for s in started.json()["seats"]}
        by_seat = {seat_of[f"g{g}p{i}"]: tokens[i] for i in range(PLAYERS)}
        return Game(gid, by_seat, list(tokens), idle=is_idle)

    return list(await asyncio.gather(*(make(g) for g in range(games))))


async def watch(url: str, w: Watch, figures: Figures, stop: asyncio.Event) -> None:
    """One client's socket, reconnected through the proxy whenever it drops."""
    ws_url = url.replace("http://", "ws://")
    while not stop.is_set():
        try:
            async with connect(
                f"{ws_url}/ws/games/{w.game.id}?since={w.seq}", open_timeout=10, max_queue=None
            ) as ws:
                await ws.send(json.dumps({"type": "auth", "token": w.token}))
                async for raw in ws:
                    now = time.perf_counter()
                    message = json.loads(raw)
                    kind = message.get("type")
                    if kind == "entries":
                        for entry in message["entries"]:
                            w.seq = max(w.seq, int(entry["seq"]) + 1)
                            t0 = figures.sent_at.get((w.game.id, int(entry["seq"])))
                            if t0 is not None:
                                figures.deliveries.append(now - t0)
                    elif kind == "state":
                        w.seq = max(w.seq, int(message["seq"]))
                        if w.dropped_at is not None:
                            w.reconnects.append(now - w.dropped_at)
                            w.dropped_at = None
                    if stop.is_set():
                        return
        except (OSError, ConnectionClosed, InvalidStatus, TimeoutError):
            pass
        if stop.is_set():
            return
        if w.dropped_at is None:
            w.dropped_at = time.perf_counter()
            w.drops += 1
        await asyncio.sleep(0.2)


async def play(
    http: httpx.AsyncClient,
    games: list[Game],
    rate: float,
    seconds: float,
    kill_at: float,
    site: Site,
    figures: Figures,
) -> float:
    """Moves at `rate` per second over HTTP; kills host 1 at `kill_at`; returns its time."""
    rng = random.Random(7)
    start = time.perf_counter()
    killed_at = 0.0
    tick = 0
    busy: set[str] = set()
    tasks: set[asyncio.Task[None]] = set()

    async def move(game: Game) -> None:
        try:
            state = (
                await http.get(
                    f"/api/games/{game.id}/state",
                    headers={"Authorization": f"Bearer {game.tokens[0]}"},
                )
            ).json()
            if state.get("status") != "active":
                game.over = state.get("status") is not None
                return
            owed = [o["seat"] for o in state["observation"]["turn"]["owed"]]
            if not owed:
                return
            token = game.tokens[owed[0]]
            auth = {"Authorization": f"Bearer {token}"}
            mine = (await http.get(f"/api/games/{game.id}/state", headers=auth)).json()
            action = pick(mine.get("options") or {}, rng)
            if action is None:
                return
            t0 = time.perf_counter()
            figures.sent_at[(game.id, int(mine["seq"]))] = t0
            answer = await http.post(
                f"/api/games/{game.id}/actions",
                json={"action": action, "state_id": mine["state_id"]},
                headers=auth,
            )
            figures.submits.append(time.perf_counter() - t0)
            if answer.status_code == 200:
                entry = answer.json()["entry"]
                game.acked[int(entry["seq"])] = str(entry["notation"])
                figures.accepted += 1
                if killed_at and figures.first_accept_after_kill is None:
                    figures.first_accept_after_kill = time.perf_counter() - killed_at
            elif answer.status_code < 500:
                figures.refused += 1
            else:
                figures.unanswered += 1
        except (httpx.HTTPError, KeyError, ValueError):
            figures.unanswered += 1
        finally:
            busy.discard(game.id)

    playing = [g for g in games if not g.idle]
    turn = 0
    while (now := time.perf_counter()) - start < seconds:
        if not killed_at and now - start >= kill_at:
            killed = site.kill_host(1)
            killed_at = time.perf_counter()
            print(f"  killed host 1 ({killed} processes) at {now - start:.1f} s", flush=True)
        due = start + tick / rate
        if due > now:
            await asyncio.sleep(due - now)
        tick += 1
        for _ in range(len(playing)):
            game = playing[turn % len(playing)]
            turn += 1
            if not game.over and game.id not in busy:
                busy.add(game.id)
                task = asyncio.create_task(move(game))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
                break
    if tasks:
        await asyncio.gather(*tasks)
    return killed_at


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def check(http: httpx.AsyncClient, games: list[Game]) -> dict[str, int]:
    """Acknowledged moves missing from the record, and deadlines fired twice."""
    lost = 0
    twice = 0
    fired = 0
    for game in games:
        auth = {"Authorization": f"Bearer {game.watcher_tokens[-1]}"}
        entries = (await http.get(f"/api/games/{game.id}/history", headers=auth)).json()["entries"]
        by_seq = {int(e["seq"]): e.get("notation") for e in entries}
        lost += sum(1 for seq, text in game.acked.items() if by_seq.get(seq) != text)
        events = (await http.get(f"/api/games/{game.id}/events", headers=auth)).json()["events"]
        states = [e["data"].get("state_id") for e in events if e["kind"] == "deadline"]
        fired += len(states)
        twice += len(states) - len(set(states))
    return {"moves_lost": lost, "deadlines_fired": fired, "deadlines_fired_twice": twice}


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="parley-xh-"))
    site = Site(folder)
    try:
        print(f"starting two hosts, Redis and HAProxy (logs in {folder})", flush=True)
        site.start()
        limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
        async with httpx.AsyncClient(base_url=site.url, timeout=10, limits=limits) as http:
            games = await setup(http, args.games, args.idle)
            hosts: dict[str, int] = {}
            for game in games:
                answer = await http.get(f"/api/games/{game.id}")
                name = answer.headers.get("x-parley-host", "?")
                hosts[name] = hosts.get(name, 0) + 1
            print(f"  {len(games)} games: {hosts}", flush=True)
            figures = Figures()
            stop = asyncio.Event()
            watches = [Watch(g, t) for g in games for t in g.watcher_tokens]
            watchers = [asyncio.create_task(watch(site.url, w, figures, stop)) for w in watches]
            await asyncio.sleep(1.0)
            begun = time.perf_counter()
            killed_at = await play(http, games, args.rate, args.seconds, args.kill_at, site,
                                   figures)  # fmt: skip
            elapsed = time.perf_counter() - begun
            await asyncio.sleep(3.0)  # the last frames and reconnections
            stop.set()
            for task in watchers:
                task.cancel()
            await asyncio.gather(*watchers, return_exceptions=True)
            found = await check(http, games)
            newest = {}
            for game in games:
                auth = {"Authorization": f"Bearer {game.watcher_tokens[-1]}"}
                newest[game.id] = (await http.get(f"/api/games/{game.id}", headers=auth)).json()[
                    "seq"
                ]
        dropped = [w for w in watches if w.drops]
        reconnects = [t for w in watches for t in w.reconnects]
        behind = sum(1 for w in watches if w.seq < newest[w.game.id])
        return {
            "games": len(games),
            "sockets": len(watches),
            "hosts": hosts,
            "seconds": round(elapsed, 1),
            "killed_at_s": round(killed_at - begun, 1) if killed_at else None,
            "moves_per_s": round(figures.accepted / elapsed, 1),
            "moves_accepted": figures.accepted,
            "moves_refused": figures.refused,
            "moves_unanswered": figures.unanswered,
            "submit_p99_ms": round(quantile(figures.submits, 0.99) * 1000, 1),
            "delivery_p99_ms": round(quantile(figures.deliveries, 0.99) * 1000, 1),
            "first_move_after_kill_s": (
                round(figures.first_accept_after_kill, 2)
                if figures.first_accept_after_kill is not None
                else None
            ),
            "sockets_dropped": len(dropped),
            "sockets_back": sum(1 for w in dropped if w.reconnects and w.dropped_at is None),
            "reconnect_p50_s": round(statistics.median(reconnects), 2) if reconnects else None,
            "reconnect_max_s": round(max(reconnects), 2) if reconnects else None,
            "sockets_behind_at_end": behind,
            **found,
        }
    finally:
        site.stop()
        if not args.keep_logs:
            shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games in all (5 sockets each)")
    parser.add_argument("--idle", type=int, default=6, help="of which: deadlines only")
    parser.add_argument("--rate", type=float, default=40.0, help="moves per second")
    parser.add_argument("--seconds", type=float, default=40.0, help="measured time (max 300)")
    parser.add_argument("--kill-at", type=float, default=15.0, help="seconds in: kill host 1")
    parser.add_argument("--keep-logs", action="store_true")
    args = parser.parse_args()
    if os.geteuid() != 0:
        raise SystemExit("network namespaces need root")
    args.seconds = min(args.seconds, 300.0)
    result = asyncio.run(main_async(args))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
