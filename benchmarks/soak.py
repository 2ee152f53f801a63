"""Soak: many concurrent games of every game, played to their end on a real `parley serve`.

Each game has scripted people at some seats and bots at the others. A person follows its
game over a WebSocket, reads its state over HTTP whenever something happened, and answers
what it owes with a random legal choice, alternately by HTTP and by an `act` command on the
socket; now and then it sends press, by HTTP or by a `say` command. The script starts its
own server (`parley serve`, one process, a fresh SQLite file or PostgreSQL schema, rate
limits lifted) on a free loopback port, and reports the games finished, server errors
(5xx answers, `internal` errors on sockets, errors and tracebacks in the server's log: all
must be 0), actions per second, and the server's resident memory at the start and end.

    .venv/bin/python benchmarks/soak.py --per-game 8 --people 2 --max-seconds 300

Bounded: at most 40 games of each kind, 600 s; loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
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

# (game, seats, options): Diplomacy with a year limit, the others as they come.
GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("diplomacy", 7, {"year_limit": 1906}),
    ("sucker", 4, {}),
    ("campus", 4, {}),
    ("illuminati", 4, {}),
    ("planets", 3, {}),
]
ENDED = ("finished", "closed")
MAX_PER_GAME = 40
MAX_SECONDS = 600.0
SAFETY_POLL = 2.0  # a person looks at its state at least this often, pushes or not


@dataclass
class Counts:
    requests: int = 0
    server_errors: int = 0  # 5xx, or an `internal` error on a socket
    refused: dict[str, int] = field(default_factory=dict)  # 4xx by error code (stale etc.)
    samples: dict[str, str] = field(default_factory=dict)  # a refusal's message, by code
    transport_errors: int = 0
    people_actions: int = 0
    press: int = 0
    messages: int = 0

    def refuse(self, code: str, where: str, message: Any) -> None:
        self.refused[code] = self.refused.get(code, 0) + 1
        self.samples.setdefault(code, f"{where}: {message}")


@dataclass
class Person:
    name: str
    token: str
    game: str
    gid: str = ""
    ws: ClientConnection | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    done: bool = False
    next_id: int = 0
    acks: dict[int, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)


class Api:
    def __init__(self, url: str, counts: Counts) -> None:
        self.http = httpx.AsyncClient(base_url=url, timeout=60)
        self.counts = counts

    async def call(
        self, method: str, path: str, token: str = "", body: Any = None, tag: str = ""
    ) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.counts.requests += 1
        try:
            answer = await self.http.request(method, path, headers=headers, json=body)
        except httpx.HTTPError as err:
            self.counts.transport_errors += 1
            print(f"no answer to {method} {path}: {type(err).__name__}: {err}", file=sys.stderr)
            return None
        if answer.status_code >= 500:
            self.counts.server_errors += 1
            print(f"server error on {method} {path}: {answer.text[:300]}", file=sys.stderr)
            return None
        if answer.status_code >= 400:
            refusal = answer.json()
            where = f"{tag} {method} {path.rsplit('/', 1)[-1]}"
            self.counts.refuse(str(refusal.get("error")), where, refusal.get("message"))
            return None
        return answer.json() if answer.content else {}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def rss_kib(pid: int) -> dict[str, int]:
    """The process's resident memory now and at its peak (KiB), from /proc."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            found[key] = int(value.split()[0])
    return found


def cpu_seconds(pid: int) -> float:
    """User + system CPU the process has used so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def pick(node: dict[str, Any], rng: random.Random) -> list[str]:
    """One choice from an options tree: one leaf per child of an `each` node."""
    if "action" in node:
        return [str(node["action"])]
    children = node.get("children", [])
    if not children:
        return []
    if node.get("each"):
        return [leaf for child in children for leaf in pick(child, rng)]
    return pick(rng.choice(children), rng)


async def listen(person: Person, counts: Counts) -> None:
    assert person.ws is not None
    with contextlib.suppress(ConnectionClosed):
        async for raw in person.ws:
            message = json.loads(raw)
            counts.messages += 1
            kind = message.get("type")
            if kind in ("ack", "error") and message.get("id") in person.acks:
                person.acks.pop(message["id"]).set_result(message)
                continue
            if kind == "error":
                print(f"socket error in {person.gid}: {message}", file=sys.stderr)
                if message.get("error") == "internal":
                    counts.server_errors += 1
            if kind == "game" and message["game"]["status"] in ENDED:
                person.done = True
            person.wake.set()


async def command(person: Person, counts: Counts, kind: str, body: dict[str, Any]) -> None:
    """A command on the person's socket; its answer is counted like an HTTP one."""
    assert person.ws is not None
    person.next_id += 1
    ident = person.next_id
    answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    person.acks[ident] = answer
    counts.requests += 1
    await person.ws.send(json.dumps({"type": kind, "id": ident, **body}))
    try:
        message = await asyncio.wait_for(answer, 60)
    except TimeoutError:
        counts.transport_errors += 1
        print(f"no answer to {kind} on the socket of {person.gid} in 60 s", file=sys.stderr)
        return
    if message["type"] == "error":
        code = str(message.get("error"))
        if code == "internal":
            counts.server_errors += 1
        else:
            counts.refuse(code, f"{person.game} {kind}", message.get("message"))


async def play(api: Api, person: Person, rng: random.Random, deadline: float) -> None:
    """Answer whatever the person owes until its game ends (or the run's time is up)."""
    counts = api.counts
    turns = 0
    while not person.done and time.monotonic() < deadline:
        person.wake.clear()
        state = await api.call("GET", f"/api/games/{person.gid}/state", person.token)
        if state is not None and state["status"] in ENDED:
            break
        leaves = pick(state["options"], rng) if state and state["options"] else []
        # What it owes, always; what it may do at any time (an offer, a transfer), sometimes.
        if leaves and state and state["can_act"] and (state["owes"] or rng.random() < 0.2):
            body: dict[str, Any] = {"action": leaves[0]} if len(leaves) == 1 else {"parts": leaves}
            body["state_id"] = state["state_id"]
            turns += 1
            if turns % 5 == 0:
                text = {"text": f"{person.name}: turn {turns}, shall we work together?"}
                if turns % 10 == 0:
                    await command(person, counts, "say", text)
                else:
                    path = f"/api/games/{person.gid}/press"
                    await api.call("POST", path, person.token, text, tag=person.game)
                counts.press += 1
            if turns % 2:
                await command(person, counts, "act", body)
            else:
                path = f"/api/games/{person.gid}/actions"
                await api.call("POST", path, person.token, body, tag=person.game)
            counts.people_actions += 1
            continue  # look again at once: the same person may owe the next decision too
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(person.wake.wait(), SAFETY_POLL)


async def sign_up(api: Api, name: str) -> str:
    out = await api.call("POST", "/api/users", body={"username": name})
    if out is None:
        raise SystemExit(f"could not sign up {name}")
    return str(out["token"])


async def make_game(
    api: Api, kind: tuple[str, int, dict[str, Any]], index: int, people: int, rng: random.Random
) -> list[Person]:
    game, seats, options = kind
    people = min(people, seats)
    names = [f"{game[:4]}{index}p{i}" for i in range(people)]
    tokens = [await sign_up(api, n) for n in names]
    crew = [Person(n, t, game) for n, t in zip(names, tokens, strict=True)]
    body = {"game": game, "seats": seats, "options": options, "period_seconds": 600}
    created = await api.call("POST", "/api/games", crew[0].token, body)
    if created is None:
        raise SystemExit(f"could not create a game of {game}")
    gid = created["id"]
    for person in crew[1:]:
        await api.call("POST", f"/api/games/{gid}/join", person.token, {"role": "player"})
    if seats - people >= 2:  # one random bot; `heuristic` bots fill the rest at the start
        await api.call("POST", f"/api/games/{gid}/bots", crew[0].token, {"bot": "random"})
    for person in crew:
        person.gid = gid
    return crew


async def open_socket(url: str, person: Person) -> None:
    ws_url = url.replace("http://", "ws://") + f"/ws/games/{person.gid}?since=0"
    person.ws = await connect(ws_url, max_size=None, open_timeout=60)
    await person.ws.send(json.dumps({"type": "auth", "token": person.token}))


def start_server(port: int, database_url: str, log: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "PARLEY_RATE": "100000",
        "PARLEY_SIGNUP_RATE": "100000",
        "PARLEY_READ_RATE_PER_SECOND": "100000",
        "PARLEY_READ_BURST": "100000",
        "PARLEY_WS_OPEN_RATE_PER_SECOND": "100000",
        "PARLEY_WS_OPEN_BURST": "100000",
        "PARLEY_SCHEDULER_POLL": "0.2",
    }
    command = [
        sys.executable, "-c", "from parley.cli import main; main()", "serve",
        "--port", str(port), "--database-url", database_url, "--log-level", "warning",
    ]  # fmt: skip
    with log.open("wb") as out:
        return subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)


async def wait_healthy(url: str, proc: subprocess.Popen[bytes]) -> None:
    end = time.monotonic() + 60
    async with httpx.AsyncClient() as client:
        while time.monotonic() < end:
            if proc.poll() is not None:
                raise SystemExit("the server exited during start-up")
            with contextlib.suppress(httpx.HTTPError):
                if (await client.get(url + "/api/health")).status_code == 200:
                    return
            await asyncio.sleep(0.1)
    raise SystemExit("the server did not start in time")


def log_problems(log: Path) -> list[str]:
    marks = ("Traceback", "ERROR", "CRITICAL")
    return [line for line in log.read_text().splitlines() if any(m in line for m in marks)]


async def run(args: argparse.Namespace, database_url: str, folder: Path) -> dict[str, Any]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = folder / "server.log"
    proc = start_server(port, database_url, log)
    counts = Counts()
    api = Api(url, counts)
    rng = random.Random(args.seed)
    try:
        await wait_healthy(url, proc)
        memory_start = rss_kib(proc.pid)
        load_start = load_average()
        crews = []
        for index in range(args.per_game):
            for kind in GAMES:
                crews.append(await make_game(api, kind, index, args.people, rng))
        people = [p for crew in crews for p in crew]
        for person in people:
            await open_socket(url, person)
        listeners = [asyncio.create_task(listen(p, counts)) for p in people]
        began = time.monotonic()
        cpu_start = cpu_seconds(proc.pid)
        deadline = began + args.max_seconds
        for crew in crews:  # the host starts each game; bots then play at once
            body = {"fill_with": "heuristic"}
            await api.call("POST", f"/api/games/{crew[0].gid}/start", crew[0].token, body)
        await asyncio.gather(*(play(api, p, random.Random(rng.random()), deadline) for p in people))
        elapsed = time.monotonic() - began
        server_cpu = cpu_seconds(proc.pid) - cpu_start
        memory_end = rss_kib(proc.pid)
        load_end = load_average()
        finished, actions, entries, unfinished = 0, 0, 0, []
        for crew in crews:
            host = crew[0]
            game = await api.call("GET", f"/api/games/{host.gid}", host.token)
            if game is not None and game["status"] == "finished":
                finished += 1
            else:
                unfinished.append((host.game, host.gid, game and game["status"]))
            record = await api.call("GET", f"/api/games/{host.gid}/record", host.token)
            if record is not None:
                got = record["record"]["entries"]
                entries += len(got)
                actions += sum(1 for e in got if e["type"] == "action")
        for person in people:
            if person.ws is not None:
                await person.ws.close()
        for task in listeners:
            task.cancel()
        problems = log_problems(log)
        return {
            "games": len(crews),
            "finished": finished,
            "unfinished": unfinished,
            "people": len(people),
            "server_errors": counts.server_errors + len(problems),
            "server_log_problems": problems[:10],
            "transport_errors": counts.transport_errors,
            "refused": counts.refused,
            "refusal_samples": counts.samples,
            "requests": counts.requests,
            "socket_messages": counts.messages,
            "people_actions": counts.people_actions,
            "press_sent": counts.press,
            "actions": actions,
            "entries": entries,
            "seconds": round(elapsed, 1),
            "actions_per_second": round(actions / elapsed, 1) if elapsed else 0.0,
            "server_cpu_seconds": round(server_cpu, 1),
            "server_cpu_ms_per_action": round(1000 * server_cpu / actions, 2) if actions else 0.0,
            "rss_mib_start": round(memory_start["VmRSS"] / 1024, 1),
            "rss_mib_end": round(memory_end["VmRSS"] / 1024, 1),
            "rss_mib_peak": round(memory_end["VmHWM"] / 1024, 1),
            "load_average_start": load_start,
            "load_average_end": load_end,
            "cpus": os.cpu_count(),
        }
    finally:
        await api.http.aclose()
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def postgres_schema(base: str) -> tuple[str, Any]:
    """A fresh schema on `base` and a function that drops it."""
    import secrets

    import psycopg

    schema = f"parley_soak_{secrets.token_hex(4)}"
    dsn = base.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')

    def drop() -> None:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')

    sep = "&" if "?" in base else "?"
    return f"{base}{sep}options=-csearch_path%3D{schema}", drop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-game", type=int, default=6, help="games of each kind at once")
    parser.add_argument("--people", type=int, default=2, help="scripted people per game")
    parser.add_argument("--max-seconds", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--postgres-url", help="play on a fresh schema of this PostgreSQL (default: SQLite)"
    )
    args = parser.parse_args()
    if not 1 <= args.per_game <= MAX_PER_GAME:
        raise SystemExit(f"--per-game is 1 to {MAX_PER_GAME}")
    if not 1 <= args.people <= 3:
        raise SystemExit("--people is 1 to 3")
    if not 0 < args.max_seconds <= MAX_SECONDS:
        raise SystemExit(f"--max-seconds is at most {MAX_SECONDS:.0f}")
    drop = None
    with tempfile.TemporaryDirectory(prefix="parley-soak-") as folder:
        if args.postgres_url:
            database_url, drop = postgres_schema(args.postgres_url)
        else:
            database_url = f"sqlite:///{Path(folder) / 'soak.sqlite3'}"
        try:
            report = asyncio.run(run(args, database_url, Path(folder)))
        finally:
            if drop is not None:
                drop()
    print(json.dumps(report, indent=1))
    if report["server_errors"] or report["finished"] != report["games"]:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
