"""`parley serve --workers N`: each game's connections in one process, crashes survived.

The acceptor hands each connection to the worker its game maps to; behind it, answers name
their process in `X-Parley-Process` (the id /api/health reports), which is what these tests
read to see where a connection landed.
"""

from __future__ import annotations

import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import WAIT, Client, Socket, free_port, sign_up, wait_until
from websockets.exceptions import ConnectionClosed

from parley.server.workers import RESTARTS, Acceptor, WorkersFailed, bind, game_of, owner_of

WORKERS = 2
HEADER = "x-parley-process"


def test_a_request_line_names_its_game() -> None:
    assert game_of(b"GET /ws/games/Ab_9-x?since=3 HTTP/1.1") == "Ab_9-x"
    assert game_of(b"POST /api/games/Ab_9-x/actions HTTP/1.1") == "Ab_9-x"
    assert game_of(b"GET /api/games/Ab_9-x HTTP/1.1") == "Ab_9-x"
    assert game_of(b"GET /ws/agents/games/g1 HTTP/1.1") == "g1"
    assert game_of(b"GET /api/agents/games/g1/decision HTTP/1.1") == "g1"
    # The lobby, other paths and anything that is not a request line: round-robin.
    assert game_of(b"GET /api/games HTTP/1.1") is None
    assert game_of(b"GET /api/games?status=open HTTP/1.1") is None
    assert game_of(b"GET /static/games/x.js HTTP/1.1") is None
    assert game_of(b"\x16\x03\x01\x02\x00\x01") is None
    # The same game maps to the same worker in every process and run.
    assert owner_of("Ab_9-x", 4) == owner_of("Ab_9-x", 4) < 4


class Served:
    """`parley serve --workers N` in its own process (killed for sure by the fixture)."""

    def __init__(self, args: list[str], log: Path, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.log = log
        out = log.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from parley.cli import main; main()", "serve",
             "--port", str(self.port), *args],
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, **(env or {})},
        )  # fmt: skip
        out.close()
        self.url = f"http://127.0.0.1:{self.port}"

    def wait_up(self) -> None:
        def up() -> bool:
            assert self.proc.poll() is None, self.log.read_text()[-3000:]
            try:
                return httpx.get(self.url + "/api/health", timeout=1).status_code == 200
            except httpx.HTTPError:
                return False

        wait_until(up, timeout=60, what="parley serve --workers")

    def process_of(self, path: str) -> str:
        """The process that serves `path` on a new connection."""
        with httpx.Client(base_url=self.url, timeout=WAIT) as fresh:
            return str(fresh.get(path).headers[HEADER])

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=40)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=WAIT)


@pytest.fixture
def served(postgres_url: str, redis_url: str, tmp_path: Path) -> Iterator[Served]:
    env = {
        "PARLEY_REDIS_PREFIX": f"parley-test-{secrets.token_hex(4)}:",
        "PARLEY_RATE": "1000",
        "PARLEY_SIGNUP_RATE": "1000",
    }
    args = ["--workers", str(WORKERS), "--database-url", postgres_url, "--redis-url", redis_url]
    server = Served(args, tmp_path / "serve.log", env)
    try:
        server.wait_up()
        yield server
    finally:
        server.stop()
    # The workers went with the parent: nothing of the server is left running.
    assert server.proc.returncode == 0, server.log.read_text()[-3000:]


def _socket_process(sock: Socket) -> str:
    return str(sock.conn.response.headers[HEADER])


def _process_of_slow_request(port: int, path: str) -> str:
    """Send a GET in two pieces, the first ending mid-path; the process that answers."""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as conn:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        conn.sendall(f"GET {path[:-3]}".encode())
        time.sleep(0.2)  # the acceptor sees the partial line (the result holds either way)
        conn.sendall(f"{path[-3:]} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    head = answer.split(b"\r\n\r\n", 1)[0].decode().lower()
    assert head.startswith("http/1.1 "), head  # any answer (this one is unauthorised)
    return next(
        line.split(":", 1)[1].strip() for line in head.split("\r\n") if line.startswith(HEADER)
    )


def _new_game(amy: Client, others: list[Client]) -> str:
    gid = str(amy.post("/api/games", {"game": "sucker", "seats": 3}, expect=201)["id"])
    for other in others:
        other.post(f"/api/games/{gid}/join")
    amy.post(f"/api/games/{gid}/start")
    return gid


def _leaf(node: dict[str, Any]) -> str:
    while "action" not in node:
        node = node["children"][0]
    return str(node["action"])


def _move(players: list[Client], gid: str) -> int:
    """One legal move by whoever owes one; the seq of its entry."""
    for who in players:
        state = who.get(f"/api/games/{gid}/state")
        options = state.get("options") or {}
        if "action" in options or options.get("children"):
            body = {"action": _leaf(options), "state_id": state["state_id"]}
            return int(who.post(f"/api/games/{gid}/actions", body)["entry"]["seq"])
    raise AssertionError("nobody owes a move")


def test_a_games_connections_land_on_one_process(served: Served) -> None:
    amy, bob, cat = (sign_up(served.url, n) for n in ("amy", "bob", "cat"))
    health = {served.process_of("/api/health") for _ in range(4)}
    assert len(health) == WORKERS  # requests naming no game go round-robin
    # Games until each worker owns one (ids are random; the mapping is not).
    games: dict[int, str] = {}
    while len(games) < WORKERS:
        gid = _new_game(amy, [bob, cat])
        games.setdefault(owner_of(gid, WORKERS), gid)
    sockets: list[Socket] = []
    of_game: dict[str, list[Socket]] = {}
    try:
        where: dict[str, set[str]] = {}
        for gid in games.values():
            for who in (amy, bob, cat, amy):
                sock = who.ws(gid)
                sockets.append(sock)
                of_game.setdefault(gid, []).append(sock)
                sock.wait_for(lambda m: m["type"] == "state", what="the first state")
                where.setdefault(gid, set()).add(_socket_process(sock))
            # The game's HTTP requests go there too, whichever connection they come on.
            where[gid].add(served.process_of(f"/api/games/{gid}"))
            where[gid].add(served.process_of(f"/api/games/{gid}/state"))
        # A request line that arrives in pieces is routed once it is whole.
        for gid in games.values():
            where[gid].add(_process_of_slow_request(served.port, f"/api/games/{gid}"))
        assert all(len(found) == 1 for found in where.values()), where
        owners = {next(iter(found)) for found in where.values()}
        assert owners == health  # one game per worker: both workers hold sockets

        # A move sent over a connection that the other process serves (a keep-alive
        # connection first routed for another game) still commits, and reaches the owner's
        # sockets through Redis.
        first, second = games[0], games[1]
        players = [amy, bob, cat]
        with httpx.Client(base_url=served.url, timeout=WAIT) as shared:
            landed = shared.get(f"/api/games/{second}").headers[HEADER]
            assert landed != next(iter(where[first]))
            for who in players:
                who.http, kept = shared, who.http
                kept.close()
            seq = _move(players, first)
            assert shared.get(f"/api/games/{first}/state").headers[HEADER] == landed
            for sock in of_game[first]:  # all in the game's owner
                sock.wait_for(
                    lambda m: m["type"] == "entries" and any(e["seq"] == seq for e in m["entries"]),
                    what="the move made through the other process",
                )
    finally:
        for sock in sockets:
            sock.close()


def test_a_killed_worker_is_started_again_and_nothing_is_lost(served: Served) -> None:
    amy, bob, cat = (sign_up(served.url, n) for n in ("amy", "bob", "cat"))
    players = [amy, bob, cat]
    gid = _new_game(amy, [bob, cat])
    seq = _move(players, gid)
    sock = amy.ws(gid)
    try:
        sock.wait_for(lambda m: m["type"] == "state", what="the first state")
        owner = _socket_process(sock)
        os.kill(int(owner.split(":")[1]), signal.SIGKILL)
        with pytest.raises(ConnectionClosed):  # the connection died with its process
            sock.wait_for(lambda m: False, timeout=WAIT, what="the socket to close")
    finally:
        sock.close()

    # The game's connections go elsewhere while the worker starts again, then to it.
    def restarted() -> bool:
        seen = {served.process_of("/api/health") for _ in range(2 * WORKERS)}
        return len(seen) == WORKERS and owner not in seen

    wait_until(restarted, timeout=60, what="the killed worker replaced")
    assert served.process_of(f"/api/games/{gid}") != owner
    assert served.proc.poll() is None  # the server as a whole never stopped
    # Everything committed before the crash is there, and the game goes on.
    record = amy.get(f"/api/games/{gid}/record")["record"]["entries"]
    assert [e["seq"] for e in record] == list(range(seq + 1))
    again = amy.ws(gid)
    try:
        again.wait_for(lambda m: m["type"] == "state", what="the state after the restart")
        nxt = _move(players, gid)
        assert nxt == seq + 1
        again.wait_for(
            lambda m: m["type"] == "entries" and any(e["seq"] == nxt for e in m["entries"]),
            what="the move after the restart",
        )
    finally:
        again.close()


def test_the_address_is_announced_once_every_worker_serves(served: Served) -> None:
    lines = served.log.read_text().splitlines()
    announced = [i for i, line in enumerate(lines) if line.startswith("Parley on http://")]
    up = re.compile(r"worker \d+ \(pid \d+\) ready")
    ready = [i for i, line in enumerate(lines) if up.search(line)]
    assert len(announced) == 1 and len(ready) >= WORKERS, lines
    assert announced[0] > sorted(ready)[WORKERS - 1]  # after the last worker came up


def test_workers_that_cannot_start_stop_the_server_clearly(
    redis_url: str, postgres_url: str, tmp_path: Path
) -> None:
    port = free_port()
    # The database and Redis answer the command's own checks; each worker then fails to
    # build its app (a setting only the workers read), so none ever serves.
    done = subprocess.run(
        [sys.executable, "-c", "from parley.cli import main; main()", "serve",
         "--workers", "2", "--port", str(port), "--redis-url", redis_url,
         "--database-url", postgres_url],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PARLEY_SCHEDULER_POLL": "not-a-number"},
    )  # fmt: skip
    assert done.returncode == 1
    assert "exited with code" in done.stderr and "before serving anything" in done.stderr
    # Nothing listens any more: the port is free again.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", port))


def test_workers_with_an_unreachable_database_are_never_started(redis_url: str) -> None:
    port = free_port()
    done = subprocess.run(
        [sys.executable, "-c", "from parley.cli import main; main()", "serve",
         "--workers", "2", "--port", str(port), "--redis-url", redis_url,
         "--database-url", "postgresql+psycopg://postgres@127.0.0.1:1/nothing"],
        capture_output=True,
        text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    line = done.stderr.strip()
    assert "\n" not in line and line.startswith("error: cannot open the database"), line


def test_a_worker_that_keeps_dying_stops_the_server(tmp_path: Path) -> None:
    # Workers that report ready and die at once: restarted, until too many deaths.
    dies = (
        "import os, socket; "
        "socket.socket(fileno=int(os.environ['PARLEY_WORKER_FD'])).send(b'R'); os._exit(7)"
    )
    started = tmp_path / "started"
    command = [sys.executable, "-c", f"open({str(started)!r}, 'a').write('x'); {dies}"]
    acceptor = Acceptor(bind("127.0.0.1", 0), command, 2)
    with pytest.raises(WorkersFailed, match=r"died 5 times in 60 s \(last exit code 7\)"):
        acceptor.run()
    assert len(started.read_text()) >= RESTARTS  # it did start them again before giving up
    assert all(w.proc is not None and w.proc.poll() is not None for w in acceptor.workers)
