"""Load on the Parley server: many WebSocket clients, paced actions, submit→broadcast latency.

Loopback only and bounded: it starts its own server process on 127.0.0.1 with a fresh SQLite
file (or PostgreSQL schema), seats N clients in M games of So Long Sucker (players plus
spectators), submits actions at a fixed total rate for a fixed time, and reports actions per
second and the latency from the start of each submission to its arrival at every client
of that game.

    .venv/bin/python benchmarks/server_load.py --clients 1000 --games 100 --rate 200 --seconds 20

Several processes, side by side: each count runs as `parley serve --workers N` on
PostgreSQL + Redis, and the rate is raised (--ramp) until delivery p99 is over --p99-bound;
it reports the best rate within the bound and the CPU per move of each server process,
PostgreSQL, Redis and the load generator, from /proc.

    .venv/bin/python benchmarks/server_load.py --workers 1,2,4 --seconds 10 \\
        --postgres-url postgresql+psycopg://postgres@127.0.0.1:5432/test \\
        --redis-url redis://127.0.0.1:6379/0
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
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
from websockets.exceptions import ConnectionClosed

from parley.server.serving import uvicorn_args

PLAYERS = 4
SATURATED = 0.85  # server CPU share above which the server, not the load, sets the pace
DEFAULT_RAMP = "100,200,300,400,500,600,700,800"  # moves/s, for several processes


@dataclass
class Seat:
    token: str
    seat: int | None = None  # None: a spectator
    latest: dict[str, Any] | None = None  # the last state message this client received
    ws: ClientConnection | None = None
    acks: dict[int, asyncio.Future[tuple[int, dict[str, Any]]]] = field(default_factory=dict)


class Poster:
    """Bare HTTP/1.1 keep-alive POSTs, so that the load generator's own cost stays small.

    (A general-purpose async HTTP client spent more CPU per request than the server did.)
    """

    def __init__(self, port: int) -> None:
        self.port = port
        self.idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []

    async def post(self, path: str, token: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """One request; a connection that fails or ends early is closed and the error raised.

        A kept-alive connection the server closed while idle (it ends before any byte of
        an answer) is replaced by a fresh one once, as HTTP clients do.
        """
        data = json.dumps(body).encode()
        request = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n".encode()
            + data
        )
        while self.idle:
            reader, writer = self.idle.pop()
            try:
                return await self._exchange(reader, writer, request)
            except asyncio.IncompleteReadError as err:
                if err.partial:
                    raise  # the answer was cut off: an error, not a stale connection
            except ConnectionResetError:
                pass
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        return await self._exchange(reader, writer, request)

    async def _exchange(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes
    ) -> tuple[int, dict[str, Any]]:
        try:
            writer.write(request)
            status, payload = await self._answer(reader)
        except BaseException:
            writer.close()
            raise
        self.idle.append((reader, writer))
        return status, json.loads(payload) if payload else {}

    @staticmethod
    async def _answer(reader: asyncio.StreamReader) -> tuple[int, bytes]:
        head = await reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        return status, await reader.readexactly(length)

    def close(self) -> None:
        for _, writer in self.idle:
            writer.close()


@dataclass
class Game:
    id: str
    seats: dict[int, Seat] = field(default_factory=dict)
    clients: list[Seat] = field(default_factory=list)
    over: bool = False
    turn: list[int] = field(default_factory=list)  # seats owing, from the latest state
    state_id: int = 0
    seq: int = 0
    wait_for_seq: int = 0  # after a move: the state that shows it must arrive first


@dataclass
class Stats:
    sent: dict[tuple[str, int], float] = field(default_factory=dict)  # (game, seq) → t0
    deliveries: list[float] = field(default_factory=list)
    submits: list[float] = field(default_factory=list)
    accepted: int = 0
    refused: int = 0
    errors: int = 0
    transport_errors: dict[str, int] = field(default_factory=dict)  # no answer: why
    messages: int = 0
    reasons: dict[str, int] = field(default_factory=dict)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(
    port: int, database_url: str, log: Path, workers: int = 1, redis_url: str | None = None
) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "PARLEY_DATABASE_URL": database_url,
        "PARLEY_RATE": "100000",
        "PARLEY_SIGNUP_RATE": "100000",
        "PARLEY_READ_RATE_PER_SECOND": "100000",
        "PARLEY_WS_OPEN_RATE_PER_SECOND": "100000",
        "PARLEY_WS_OPEN_BURST": "100000",
        "PARLEY_SCHEDULER_POLL": "1",
    }
    if redis_url:
        env["PARLEY_REDIS_URL"] = redis_url
        env["PARLEY_REDIS_PREFIX"] = f"parley-load-{port}:"
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        "parley.server.app:create_app_from_env",
        "--factory",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--log-level",
        "warning",
        *uvicorn_args(),  # as `parley serve` runs it: uvloop, httptools, no proxy headers
        "--backlog",
        "4096",
        "--workers",
        str(workers),
    ]
    if os.environ.get("PARLEY_LOAD_SERVER_CMD"):  # e.g. a profiling wrapper
        command = [*os.environ["PARLEY_LOAD_SERVER_CMD"].split(), str(port)]
    with log.open("wb") as out:
        return subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)


def start_parley_serve(
    port: int, database_url: str, log: Path, workers: int, redis_url: str
) -> subprocess.Popen[bytes]:
    """`parley serve --workers N`, as a user runs it (the acceptor routes games to workers)."""
    env = {
        **os.environ,
        "PARLEY_RATE": "100000",
        "PARLEY_SIGNUP_RATE": "100000",
        "PARLEY_READ_RATE_PER_SECOND": "100000",
        "PARLEY_WS_OPEN_RATE_PER_SECOND": "100000",
        "PARLEY_WS_OPEN_BURST": "100000",
        "PARLEY_SCHEDULER_POLL": "1",
        "PARLEY_REDIS_PREFIX": f"parley-load-{port}:",
    }
    command = [
        sys.executable, "-c", "from parley.cli import main; main()", "serve",
        "--port", str(port), "--workers", str(workers), "--log-level", "warning",
        "--database-url", database_url, "--redis-url", redis_url,
    ]  # fmt: skip
    with log.open("wb") as out:
        return subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)


class PerGamePoster:
    """Each game's moves on that game's own keep-alive connection, as a browser playing one
    game sends them; behind `parley serve --workers N` that connection is routed to the
    game's process. (A pool shared by all games would send moves through whichever process
    the connection was first routed to: still correct, but the owner then re-reads them.)
    """

    IDLE_SECONDS = 2.0  # well under uvicorn's 5 s keep-alive: never reuse what it may close

    def __init__(self, port: int) -> None:
        self.port = port
        self.posters: dict[str, tuple[Poster, float]] = {}

    async def post(self, path: str, token: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        game = path.split("/")[3]
        now = time.monotonic()
        poster, used = self.posters.get(game, (None, now))
        if poster is None or now - used > self.IDLE_SECONDS:
            if poster is not None:
                poster.close()
            poster = Poster(self.port)
        self.posters[game] = (poster, now)
        return await poster.post(path, token, body)

    def close(self) -> None:
        for poster, _used in self.posters.values():
            poster.close()


def _stat(pid: int) -> tuple[str, int, float] | None:
    """(command name, parent pid, user + system CPU seconds) of a process, if it exists."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    name = raw[raw.index("(") + 1 : raw.rindex(")")]
    fields = raw.rsplit(")", 1)[1].split()
    return name, int(fields[1]), (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def process_cpu() -> dict[int, tuple[str, int, float]]:
    """Every visible process: pid → (name, parent pid, CPU seconds so far)."""
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (st := _stat(int(entry.name))) is not None:
            out[int(entry.name)] = st
    return out


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far, from /proc/stat."""
    first = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    ticks = [int(x) for x in first]
    idle = ticks[3] + ticks[4]  # idle + iowait
    hz = os.sysconf("SC_CLK_TCK")
    return (sum(ticks) - idle) / hz, sum(ticks) / hz


@dataclass
class CpuShot:
    """CPU counters at one moment: per process of the server, PostgreSQL, Redis, machine."""

    at: float
    procs: dict[int, tuple[str, int, float]]
    machine: tuple[float, float]
    client: float

    @staticmethod
    def take() -> CpuShot:
        return CpuShot(time.perf_counter(), process_cpu(), machine_busy(), time.process_time())


def cpu_between(a: CpuShot, b: CpuShot, server_pid: int) -> dict[str, Any]:
    """CPU seconds spent between two shots, by the server's processes and the services."""

    def spent(pid: int) -> float:
        before = a.procs.get(pid)
        return b.procs[pid][2] - (before[2] if before else 0.0)

    workers = sorted(pid for pid, (_n, ppid, _c) in b.procs.items() if ppid == server_pid)
    acceptor = spent(server_pid) if server_pid in b.procs else 0.0
    if not workers:  # `parley serve --workers 1`: the one process serves, no acceptor
        workers, acceptor = [server_pid], 0.0
    busy = b.machine[0] - a.machine[0]
    total = b.machine[1] - a.machine[1]
    return {
        "acceptor": acceptor,
        "workers": {pid: spent(pid) for pid in workers},
        # Every PostgreSQL and Redis process on the machine: other users of the same
        # services (other work on a shared machine) are counted too.
        "postgres": sum(spent(p) for p, (n, _pp, _c) in b.procs.items() if n == "postgres"),
        "redis": sum(spent(p) for p, (n, _pp, _c) in b.procs.items() if n == "redis-server"),
        "client": b.client - a.client,
        "machine_busy_cores": busy / (total / (os.cpu_count() or 1)) if total else 0.0,
        "seconds": b.at - a.at,
    }


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
            seat_of = {s["user"]: s["seat"] for s in r.json()["seats"]}
            game = Game(gid)
            for i, token in enumerate(mine):
                seat = Seat(token, seat_of.get(f"u{g * per_game + i}"))
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
        assert isinstance(raw, str)
        if seat.acks and (raw.startswith('{"type":"ack"') or raw.startswith('{"type":"error"')):
            answer = json.loads(raw)
            future = seat.acks.pop(answer.get("id"), None)
            if future is not None and not future.done():
                future.set_result((200 if answer["type"] == "ack" else 409, answer))
        elif raw.startswith('{"type":"entries"'):
            for entry in json.loads(raw)["entries"]:
                t0 = stats.sent.get((game.id, entry["seq"]))
                if t0 is not None:
                    stats.deliveries.append(now - t0)
        elif raw.startswith('{"type":"state"') and seat.seat is not None:
            # Only players read their states (spectators' are counted, not parsed).
            message = json.loads(raw)
            seat.latest = message
            if message["seq"] >= game.seq:
                game.seq = message["seq"]
                game.state_id = message["state_id"]
                game.turn = sorted({o["seat"] for o in message["observation"]["turn"]["owed"]})
                game.over = message["status"] != "active"


async def open_sockets(
    port: int,
    games: list[Game],
    stats: Stats,
    sockets: list[ClientConnection],
    listeners: list[asyncio.Task[None]],
) -> None:
    """Every client's socket, 64 opening at a time, each signed in and listened to."""
    sem = asyncio.Semaphore(64)

    async def open_one(game: Game, seat: Seat) -> None:
        async with sem:
            ws = await connect(
                f"ws://127.0.0.1:{port}/ws/games/{game.id}",
                max_queue=None,
                open_timeout=30,
                compression=None,
            )
            await ws.send(json.dumps({"type": "auth", "token": seat.token}))
        sockets.append(ws)
        seat.ws = ws
        listeners.append(asyncio.create_task(listen(ws, game, seat, stats)))

    await asyncio.gather(*(open_one(g, s) for g in games for s in g.clients))


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
    poster: Poster | None, games: list[Game], rate: float, seconds: float, stats: Stats
) -> None:
    """Open-loop pacing: one submission every 1/rate s, to the games in turn.

    With a `poster` moves go over HTTP, else as `act` commands on the mover's WebSocket.
    """
    rng = random.Random(1)
    counter = iter(range(1, 1 << 62))
    interval = 1.0 / rate
    start = time.perf_counter()
    tick = 0
    pending: set[asyncio.Task[None]] = set()
    busy: set[str] = set()

    def mover_of(game: Game) -> Seat | None:
        """The seat that owes the next move, if its client has seen the newest state."""
        if game.over or game.id in busy or not game.turn:
            return None
        mover = game.seats.get(game.turn[0])
        latest = mover.latest if mover else None
        if mover is None or latest is None or not latest.get("options"):
            return None
        if latest["state_id"] != game.state_id or game.seq < game.wait_for_seq:
            return None
        return mover

    async def submit(game: Game, mover: Seat) -> None:
        try:
            assert mover.latest is not None
            leaves = pick(mover.latest["options"], rng)
            body = {"action": leaves[0], "state_id": game.state_id}
            t0 = time.perf_counter()
            stats.sent[(game.id, game.seq)] = t0
            if poster is not None:
                status, answer = await poster.post(
                    f"/api/games/{game.id}/actions", mover.token, body
                )
            else:
                assert mover.ws is not None
                request_id = next(counter)
                future: asyncio.Future[tuple[int, dict[str, Any]]] = (
                    asyncio.get_running_loop().create_future()
                )
                mover.acks[request_id] = future
                await mover.ws.send(json.dumps({"type": "act", "id": request_id, **body}))
                status, answer = await asyncio.wait_for(future, 30)
                answer = answer.get("result", answer)
            stats.submits.append(time.perf_counter() - t0)
            if status == 200:
                stats.accepted += 1
                game.wait_for_seq = answer["seq"]
            elif status < 500:
                stats.refused += 1
                reason = str(answer.get("error", "?"))
                stats.reasons[reason] = stats.reasons.get(reason, 0) + 1
                stats.sent.pop((game.id, game.seq), None)
            else:
                stats.errors += 1
        except (OSError, EOFError, TimeoutError, ConnectionClosed) as err:
            # No answer (a connection reset or cut short, a timeout): counted, and the run
            # goes on; a saturated server shows up in these figures, not as a crash.
            kind = type(err).__name__
            stats.transport_errors[kind] = stats.transport_errors.get(kind, 0) + 1
            stats.sent.pop((game.id, game.seq), None)
        finally:
            busy.discard(game.id)

    turn = 0
    while (now := time.perf_counter()) - start < seconds:
        due = start + tick * interval
        if due > now:
            await asyncio.sleep(due - now)
        tick += 1
        for _ in range(len(games)):  # the next game, in turn, that can take an action now
            game = games[turn % len(games)]
            turn += 1
            mover = mover_of(game)
            if mover is not None:
                busy.add(game.id)  # before the task starts: one move in flight per game
                task = asyncio.create_task(submit(game, mover))
                pending.add(task)
                task.add_done_callback(pending.discard)
                break
    if pending:
        await asyncio.gather(*pending)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its children (worker processes) so far."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # a process that just ended
        if stat.parent.name == str(pid) or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


@contextlib.contextmanager
def database(args: argparse.Namespace, folder: str) -> Any:
    """A fresh database for one run: a SQLite file, or a new PostgreSQL schema."""
    if not args.postgres_url:
        yield f"sqlite:///{Path(folder) / 'load.sqlite3'}"
        return
    import psycopg

    schema = f"parley_load_{os.getpid()}_{random.randrange(1 << 30)}"
    dsn = args.postgres_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    sep = "&" if "?" in args.postgres_url else "?"
    try:
        yield f"{args.postgres_url}{sep}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp, database(args, tmp) as database_url:
        proc = start_server(
            port, database_url, Path(tmp) / "server.log", args.workers, args.redis_url
        )
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
                await open_sockets(port, games, stats, sockets, listeners)
                connect_s = time.perf_counter() - t
                await asyncio.sleep(2.0)  # initial states arrive
                health = (await http.get("/api/health")).json()
                stats.deliveries.clear()
                t = time.perf_counter()
                server_cpu = cpu_seconds(proc.pid)
                client_cpu = time.process_time()
                poster = Poster(port) if args.submit == "http" else None
                await drive(poster, games, args.rate, args.seconds, stats)
                await asyncio.sleep(1.0)  # the last broadcasts land
                elapsed = time.perf_counter() - t - 1.0
                server_cpu = cpu_seconds(proc.pid) - server_cpu
                client_cpu = time.process_time() - client_cpu
                if poster is not None:
                    poster.close()
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
        "submit": args.submit,
        "workers": args.workers,
        "database": "postgresql" if args.postgres_url else "sqlite",
        "seconds": round(elapsed, 1),
        "setup_seconds": round(setup_s, 1),
        "connect_seconds": round(connect_s, 1),
        "accepted": stats.accepted,
        "refused": stats.refused,
        "server_errors": stats.errors,  # answers 500 and up
        "transport_errors": stats.transport_errors,  # no answer at all, by kind
        "refusals": stats.reasons,
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
        "server_cpu_ms_per_action": round(server_cpu / max(1, stats.accepted) * ms, 2),
        "server_cpu_share": round(server_cpu / (elapsed + 1.0), 2),
        "client_cpu_share": round(client_cpu / (elapsed + 1.0), 2),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "cores": os.cpu_count(),
        "sqlite_synchronous": None
        if args.postgres_url
        else os.environ.get("PARLEY_SQLITE_SYNCHRONOUS", "FULL"),
    }


async def ramp(args: argparse.Namespace, workers: int, rates: list[float]) -> dict[str, Any]:
    """One `parley serve --workers N`: the same clients at rising rates, one phase each.

    The ramp stops at the first rate that is not kept up with (under 90% of the rate asked)
    or whose delivery p99 reaches ten times the bound; the results are the best rate
    reached within the bound, and the most sustained at any latency.
    """
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    load_before = os.getloadavg()
    phases: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp, database(args, tmp) as database_url:
        log = Path(tmp) / "server.log"
        if args.spread:  # uvicorn's own workers: the kernel spreads connections over them
            proc = start_server(port, database_url, log, workers, args.redis_url)
        else:
            proc = start_parley_serve(port, database_url, log, workers, args.redis_url)
        sockets: list[ClientConnection] = []
        listeners: list[asyncio.Task[None]] = []
        try:
            await wait_healthy(url, proc)
            # Idle connections are dropped well before uvicorn's 5 s keep-alive timeout: at
            # the same 5 s a request could meet the server's close (a ReadError).
            limits = httpx.Limits(
                max_connections=64, max_keepalive_connections=64, keepalive_expiry=1.0
            )
            async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as http:
                games = await setup(http, args.games, args.clients)
                stats = Stats()
                shot = CpuShot.take()
                await open_sockets(port, games, stats, sockets, listeners)
                connecting = cpu_between(shot, CpuShot.take(), proc.pid)
                await asyncio.sleep(2.0)  # initial states arrive
                # What the server costs with every socket open and no move: each process's
                # timers, deadline polls and Redis subscription, whatever the rate.
                shot = CpuShot.take()
                await asyncio.sleep(5.0)
                idle = cpu_between(shot, CpuShot.take(), proc.pid)
                # Which process holds how many sockets (/api/health goes round-robin).
                held: dict[str, int] = {}
                fresh = httpx.Limits(max_keepalive_connections=0)  # a new connection each
                async with httpx.AsyncClient(base_url=url, limits=fresh, timeout=30) as probe:
                    for _ in range(4 * workers):
                        h = (await probe.get("/api/health")).json()
                        held[h["process"]] = h["connections"]
                for rate in rates:
                    stats.deliveries.clear()
                    stats.submits.clear()
                    stats.accepted = stats.refused = stats.errors = 0
                    stats.transport_errors.clear()
                    live_games = [g for g in games if not g.over]
                    before = CpuShot.take()
                    poster = PerGamePoster(port) if args.submit == "http" else None
                    t = time.perf_counter()
                    await drive(poster, live_games, rate, args.seconds, stats)
                    await asyncio.sleep(1.0)  # the last broadcasts land
                    elapsed = time.perf_counter() - t - 1.0
                    after = CpuShot.take()
                    if poster is not None:
                        poster.close()
                    phase = _phase(rate, elapsed, stats, cpu_between(before, after, proc.pid))
                    phase["games_over"] = sum(g.over for g in games)
                    phases.append(phase)
                    print(json.dumps({"workers": workers, **phase}), flush=True)
                    # Past the bound the ramp goes on while the rate is kept up with, for
                    # the most the server sustains at any latency (a busy machine's other
                    # work may push p99 over the bound at every rate); it stops once
                    # latencies reach seconds, where queues only grow.
                    kept_up = phase["moves_per_second"] >= 0.9 * rate
                    if not kept_up or phase["p99_ms"] >= 10 * args.p99_bound:
                        break
                    await asyncio.sleep(1.0)
        finally:
            for task in listeners:
                task.cancel()
            for ws in sockets:
                with contextlib.suppress(Exception):
                    await ws.close()
            proc.terminate()
            with contextlib.suppress(Exception):
                proc.wait(timeout=30)
    within = [p for p in phases if p["p99_ms"] < args.p99_bound]
    best = max(within, key=lambda p: p["moves_per_second"], default=None)
    sustained = [p for p in phases if p["moves_per_second"] >= 0.9 * p["rate"]]
    most = max(sustained, key=lambda p: p["moves_per_second"], default=None)
    return {
        "workers": workers,
        "routed": not args.spread,
        "submit": args.submit,
        "clients": len(sockets),
        "games": len(games),
        "sockets_per_process": sorted(held.values(), reverse=True),
        # What routing costs: the acceptor's CPU while the sockets were opened.
        "acceptor_cpu_us_per_socket": round(connecting["acceptor"] / max(1, len(sockets)) * 1e6),
        "idle_worker_cores": [round(c / idle["seconds"], 3) for c in idle["workers"].values()],
        "p99_bound_ms": args.p99_bound,
        "best": best,
        "most_sustained": most,
        "phases": phases,
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "cores": os.cpu_count(),
    }


def _phase(rate: float, elapsed: float, stats: Stats, cpu: dict[str, Any]) -> dict[str, Any]:
    ms = 1000.0
    moves = max(1, stats.accepted)
    worker_cpu = list(cpu["workers"].values())
    server = cpu["acceptor"] + sum(worker_cpu)
    wall = cpu["seconds"]
    return {
        "rate": rate,
        "moves_per_second": round(stats.accepted / elapsed, 1),
        "refused": stats.refused,
        "server_errors": stats.errors,
        "transport_errors": dict(stats.transport_errors),
        "p50_ms": round(quantile(stats.deliveries, 0.50) * ms, 1),
        "p99_ms": round(quantile(stats.deliveries, 0.99) * ms, 1),
        "submit_p99_ms": round(quantile(stats.submits, 0.99) * ms, 1),
        # CPU per move: all server processes together, then each worker and the acceptor.
        "server_cpu_ms_per_move": round(server / moves * ms, 2),
        "worker_cpu_ms_per_move": [round(c / moves * ms, 2) for c in worker_cpu],
        "acceptor_cpu_ms_per_move": round(cpu["acceptor"] / moves * ms, 3),
        "postgres_cpu_ms_per_move": round(cpu["postgres"] / moves * ms, 2),
        "redis_cpu_ms_per_move": round(cpu["redis"] / moves * ms, 2),
        "client_cpu_ms_per_move": round(cpu["client"] / moves * ms, 2),
        "server_cores": round(server / wall, 2),
        "worker_cores": [round(c / wall, 2) for c in worker_cpu],
        "postgres_cores": round(cpu["postgres"] / wall, 2),
        "redis_cores": round(cpu["redis"] / wall, 2),
        "client_cores": round(cpu["client"] / wall, 2),
        "machine_busy_cores": round(cpu["machine_busy_cores"], 2),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def print_scaling(rows: list[dict[str, Any]]) -> None:
    """The side-by-side table of a --ramp run, and how two processes compare with one."""
    how = "routed by game" if rows[0]["routed"] else "spread by the kernel"
    print(
        f"\nBest rate with delivery p99 < {rows[0]['p99_bound_ms']:g} ms, {how} "
        f"(submit {rows[0]['submit']}, {rows[0]['clients']} clients, {rows[0]['games']} games)"
    )
    print(
        "procs  rate  moves/s  p99 ms  server ms/move  per worker ms/move  PG ms/move  "
        "Redis  client  cores: server PG client machine  load"
    )
    for r in rows:
        for p in r["phases"]:
            mark = "*" if p is r["best"] else "+" if p is r["most_sustained"] else " "
            print(
                f"{r['workers']:>5}{mark} {p['rate']:>4.0f}  {p['moves_per_second']:>7}  "
                f"{p['p99_ms']:>6}  {p['server_cpu_ms_per_move']:>14}  "
                f"{' '.join(map(str, p['worker_cpu_ms_per_move'])):>18}  "
                f"{p['postgres_cpu_ms_per_move']:>10}  {p['redis_cpu_ms_per_move']:>5}  "
                f"{p['client_cpu_ms_per_move']:>6}  {p['server_cores']:>13} "
                f"{p['postgres_cores']:>3} {p['client_cores']:>6} {p['machine_busy_cores']:>7}  "
                f"{p['load_average'][0]}"
            )
        if r["best"] is None:
            print(f"{r['workers']:>5}  no rate within the bound")
        before, after = r["load_average_before"], r["load_average_after"]
        print(f"{r['workers']:>5}  load average before {before}, after {after}")
    print("(* the best rate within the p99 bound; + the most sustained, past the bound)")
    for key, what in (("best", "within the p99 bound"), ("most_sustained", "sustained")):
        one = next((r[key] for r in rows if r["workers"] == 1 and r[key]), None)
        for r in rows:
            if one and r[key] and r["workers"] > 1:
                ratio = r[key]["moves_per_second"] / one["moves_per_second"]
                print(f"{r['workers']} processes / 1 process, {what}: {ratio:.2f}x the moves/s")
    for r in rows:
        cores = r["cores"] or 1
        busy = max((p["machine_busy_cores"] for p in r["phases"]), default=0.0)
        load = max(r["load_average_before"][0], r["load_average_after"][0])
        if busy > SATURATED * cores or load > cores:
            print(
                f"WARNING: with {r['workers']} process(es) the machine was up to {busy:.2f} "
                f"of {cores} cores busy (load average up to {load:.2f}): server, PostgreSQL, "
                "Redis, the load generator and any other work share them, so rates and "
                "latencies are the machine's, not the server's; compare CPU per move",
                file=sys.stderr,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=1000, help="WebSocket clients in all")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rate", type=float, default=200.0, help="actions per second in all")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time (max 120)")
    parser.add_argument(
        "--submit", choices=["http", "ws"], default="http", help="how moves are sent"
    )
    parser.add_argument(
        "--workers",
        default="1",
        help="server processes; more than one, or a list (1,2,4), runs `parley serve "
        "--workers N` for each, side by side, with a ramp of rates (--ramp)",
    )
    parser.add_argument("--postgres-url", help="PostgreSQL (a fresh schema per run) for workers")
    parser.add_argument("--redis-url", help="Redis, needed by several workers")
    parser.add_argument(
        "--ramp",
        help=f"rates (default {DEFAULT_RAMP}): for each process count run `parley serve "
        "--workers N` and raise the rate, --seconds at each, until delivery p99 is over "
        "--p99-bound or the rate is not kept up with",
    )
    parser.add_argument(
        "--p99-bound", type=float, default=100.0, help="delivery p99 bound of --ramp, ms"
    )
    parser.add_argument(
        "--spread",
        action="store_true",
        help="for comparison: uvicorn's own workers, among which the kernel spreads each "
        "game's connections, instead of `parley serve --workers N`'s routing by game",
    )
    args = parser.parse_args()
    if args.clients > 5000 or args.seconds > 120 or args.rate > 2000:
        raise SystemExit("bounded: at most 5000 clients, 120 s and 2000 actions/s")
    counts = [int(n) for n in str(args.workers).split(",")]
    if max(counts) > 1 and not (args.postgres_url and args.redis_url):
        raise SystemExit("several workers need --postgres-url and --redis-url")
    if args.ramp or len(counts) > 1 or counts[0] > 1:
        # Several processes, or a list: each count as `parley serve --workers N`, ramped.
        if not (args.postgres_url and args.redis_url):
            raise SystemExit("--ramp runs `parley serve` on --postgres-url and --redis-url")
        rates = [float(r) for r in (args.ramp or DEFAULT_RAMP).split(",")]
        if max(rates) > 2000:
            raise SystemExit("bounded: at most 2000 actions/s")
        gc.freeze()
        gc.set_threshold(50_000, 20, 20)
        ramped = []
        for n in counts:
            ramped.append(asyncio.run(ramp(args, n, rates)))
            print(json.dumps(ramped[-1]), flush=True)
        print_scaling(ramped)
        return
    args.workers = counts[0]
    # The load generator holds a thousand connections: keep the cycle collector's full
    # passes out of the measured latencies (the server process does the same).
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
    result = asyncio.run(run(args))
    print(json.dumps(result, indent=2))
    before, after = result["load_average_before"], result["load_average_after"]
    print(
        f"load average before {before[0]} {before[1]} {before[2]}, after {after[0]} {after[1]} "
        f"{after[2]}; server {result['server_cpu_share']} of a core, "
        f"{result['server_cpu_ms_per_action']} ms of CPU per move",
        file=sys.stderr,
    )
    # The figures of an overloaded server or machine describe the overload, not the server.
    if result["server_cpu_share"] > SATURATED * result["workers"]:
        print(
            f"WARNING: the server used {result['server_cpu_share']:.2f} cores with "
            f"{result['workers']} process(es): it was "
            "saturated, and its latency figures are those of an overloaded process",
            file=sys.stderr,
        )
    busy = max(result["load_average_before"][0], result["load_average_after"][0])
    if result["cores"] and busy > result["cores"]:
        print(
            f"WARNING: load average {busy:.2f} on {result['cores']} cores: the machine was "
            "busy with other work, so every figure here is pessimistic",
            file=sys.stderr,
        )


if __name__ == "__main__":
    main()
