"""Several server processes behind one port, each game's connections in one process.

`parley serve --workers N` runs an acceptor (this module's `Acceptor`, in the parent
process) and N worker processes. The acceptor owns the listening socket; for each new
connection it peeks (MSG_PEEK, nothing consumed) at the request line, and if the path names a
game (`/ws/games/{id}`, `/api/games/{id}/...`) hands the connection to the worker
`crc32(id) % N`; other connections go round-robin. The connection's file descriptor travels
over a Unix socket (SCM_RIGHTS) and the worker's uvicorn serves it as if it had accepted it:
no byte of the connection passes through the acceptor afterwards.

Why: every process that holds a socket of a game re-reads and re-renders each of its moves.
With the kernel spreading connections over processes, a game's viewers end up in every
process, and the CPU per move grows with the number of processes. Routed by game, a move is
rendered in one process whatever their number. Routing is an optimisation only: any worker
serves any request correctly (PostgreSQL holds the games, Redis carries each move's notice to
the other processes), so a connection that lands elsewhere (an HTTP keep-alive connection
reused for another game, a worker restarting) costs CPU, never correctness.

A worker that dies is started again (the same index, so routing is unchanged); its
connections drop and clients reconnect. If workers keep dying, or one cannot start at all,
the parent stops the others and exits with a message.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import selectors
import signal
import socket
import subprocess
import sys
import time
import zlib
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from signal import SIGINT, SIGTERM
from typing import Any

import uvicorn

from .logs import configure as configure_logs
from .logs import log_config
from .serving import uvicorn_options

log = logging.getLogger("parley.workers")

READY = b"R"  # a worker's message to the acceptor once it serves requests
PEEK_BYTES = 2048  # a request line longer than this is routed round-robin
PEEK_SECONDS = 2.0  # a client that sends no request line in this time goes round-robin
RESTARTS = 5  # this many deaths of one worker ...
RESTART_WINDOW = 60.0  # ... within this many seconds: the parent gives up
STOP_SECONDS = 30.0  # graceful shutdown of workers before they are killed
_GAME_PATH = re.compile(
    rb"^[A-Z]+ (?:/api|/api/agents|/ws|/ws/agents)?/games/([A-Za-z0-9_-]{1,64})(?:[/?# ]|$)"
)


def game_of(request_head: bytes) -> str | None:
    """The game id a request's first line names, if any ('GET /ws/games/abc HTTP/1.1')."""
    match = _GAME_PATH.match(request_head)
    return match.group(1).decode() if match else None


def owner_of(game_id: str, workers: int) -> int:
    """The worker that serves a game's connections: the same in every process and run."""
    return zlib.crc32(game_id.encode()) % workers


class WorkersFailed(Exception):
    """The workers could not be kept running; the message says why."""


@dataclass
class _Worker:
    index: int
    command: list[str]
    env: dict[str, str]
    proc: subprocess.Popen[bytes] | None = None
    channel: socket.socket | None = None
    ready: bool = False
    ever_ready: bool = False
    deaths: list[float] = field(default_factory=list)

    def start(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        env = {**self.env, "PARLEY_WORKER_FD": str(theirs.fileno())}
        env["PARLEY_WORKER_INDEX"] = str(self.index)
        # Its own session: a Ctrl-C reaches the parent only, which stops the workers in order.
        self.proc = subprocess.Popen(
            self.command, env=env, pass_fds=(theirs.fileno(),), start_new_session=True
        )
        theirs.close()
        ours.setblocking(False)
        self.channel = ours
        self.ready = False

    def hand(self, conn: socket.socket) -> bool:
        """Pass a connection to this worker; False if it cannot take it now."""
        if not self.ready or self.channel is None:
            return False
        try:
            return socket.send_fds(self.channel, [b"c"], [conn.fileno()]) == 1
        except OSError:  # its queue is full (BlockingIOError), or it is gone
            return False


@dataclass
class _Pending:
    conn: socket.socket
    deadline: float
    retry_at: float = 0.0


class Acceptor:
    """Accepts connections on one socket and hands each to the worker its game maps to."""

    def __init__(
        self,
        listener: socket.socket,
        command: list[str],
        workers: int,
        on_open: Callable[[], None] | None = None,
    ) -> None:
        self.on_open = on_open  # called once, when every worker is up and connections flow
        self.listener = listener
        self.listener.setblocking(False)
        env = dict(os.environ)
        self.workers = [_Worker(i, command, env) for i in range(workers)]
        self.selector = selectors.DefaultSelector()
        self.pending: dict[int, _Pending] = {}
        self.waiting: list[_Pending] = []  # request lines still arriving: peeked again later
        self.next = 0
        self.stopping = False
        self.accepting = False
        self.opened = False
        self.resume_at = 0.0  # after a failed accept, a pause before the next
        self.routed = [0] * workers  # connections handed to each worker, for the log

    def run(self) -> None:
        """Start the workers and route connections until a signal or a failure."""
        previous = {sig: signal.signal(sig, self._on_signal) for sig in (SIGINT, SIGTERM)}
        try:
            for worker in self.workers:
                self._start(worker)
            while not self.stopping:
                self._step()
        finally:
            self._stop_all()
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def _on_signal(self, signum: int, frame: object) -> None:
        self.stopping = True

    def _start(self, worker: _Worker) -> None:
        worker.start()
        assert worker.channel is not None
        self.selector.register(worker.channel, selectors.EVENT_READ, ("worker", worker))

    def _step(self) -> None:
        now = time.monotonic()
        timeout = 0.1
        for p in self.waiting:
            timeout = min(timeout, max(0.0, p.retry_at - now))
        for key, _ in self.selector.select(timeout):
            kind, what = key.data
            if kind == "listen":
                self._accept()
            elif kind == "worker":
                self._from_worker(what)
            else:
                self._peek(what)
        now = time.monotonic()
        for p in [p for p in self.waiting if p.retry_at <= now]:
            self.waiting.remove(p)
            self._peek(p)
        for p in [p for p in self.pending.values() if p.deadline <= now]:
            self._route(p, None)  # it sent no request line in time: any worker
        self._check_workers()
        # At start, connections wait in the backlog until every worker is up, so that each
        # lands on its game's owner from the first; later, while one worker starts again,
        # the others take its connections.
        if not self.opened:
            self.opened = all(w.ready for w in self.workers)
            if self.opened and self.on_open is not None:
                self.on_open()
        rested = time.monotonic() >= self.resume_at
        self._listen(self.opened and rested and any(w.ready for w in self.workers))

    def _listen(self, on: bool) -> None:
        """Accept only while some worker can take connections; else they wait in the backlog."""
        if on and not self.accepting:
            self.selector.register(self.listener, selectors.EVENT_READ, ("listen", None))
        elif not on and self.accepting:
            self.selector.unregister(self.listener)
        self.accepting = on

    def _accept(self) -> None:
        for _ in range(64):  # a burst at a time, then the workers' messages get a turn
            try:
                conn, _addr = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as err:  # e.g. out of file descriptors: wait, don't spin
                log.warning("accept failed: %s", err)
                self.resume_at = time.monotonic() + 0.1
                self._listen(False)
                return
            conn.setblocking(False)
            p = _Pending(conn, time.monotonic() + PEEK_SECONDS)
            self.pending[conn.fileno()] = p
            self.selector.register(conn, selectors.EVENT_READ, ("peek", p))

    def _peek(self, p: _Pending) -> None:
        try:
            head = p.conn.recv(PEEK_BYTES, socket.MSG_PEEK)
        except BlockingIOError:
            return
        except OSError:
            head = b""
        if not head:  # closed before asking anything
            self._forget(p)
            p.conn.close()
            return
        if b"\n" not in head and len(head) < PEEK_BYTES:
            # Part of the request line: look again shortly (the data stays readable, so
            # waiting on readability would spin).
            self._unwatch(p)
            p.retry_at = time.monotonic() + 0.005
            if p not in self.waiting:
                self.waiting.append(p)
            return
        self._route(p, game_of(head.split(b"\n", 1)[0]))

    def _route(self, p: _Pending, game_id: str | None) -> None:
        self._forget(p)
        count = len(self.workers)
        if game_id is not None:
            first = owner_of(game_id, count)
        else:
            first = self.next
            self.next = (self.next + 1) % count
        # The owner if it can take it, else the next worker that can: any worker serves any
        # game correctly, only less cheaply.
        for i in range(count):
            worker = self.workers[(first + i) % count]
            if worker.hand(p.conn):
                self.routed[worker.index] += 1
                break
        p.conn.close()  # the worker holds its own descriptor now (or none could: dropped)

    def _unwatch(self, p: _Pending) -> None:
        with contextlib.suppress(KeyError, ValueError):
            self.selector.unregister(p.conn)

    def _forget(self, p: _Pending) -> None:
        self._unwatch(p)
        self.pending.pop(p.conn.fileno(), None)
        if p in self.waiting:
            self.waiting.remove(p)

    def _from_worker(self, worker: _Worker) -> None:
        assert worker.channel is not None
        try:
            message = worker.channel.recv(16)
        except BlockingIOError:
            return
        except OSError:
            message = b""
        if message == READY:
            worker.ready = worker.ever_ready = True
            log.info(
                "worker %d (pid %d) ready", worker.index, worker.proc.pid if worker.proc else 0
            )
        elif not message:  # the worker's end closed: it is exiting
            worker.ready = False
            self.selector.unregister(worker.channel)
            worker.channel.close()
            worker.channel = None

    def _check_workers(self) -> None:
        for worker in self.workers:
            if worker.proc is None or worker.proc.poll() is None:
                continue
            code = worker.proc.returncode
            if worker.channel is not None:
                self._from_worker(worker)  # a last message (its READY) may still be unread
            worker.ready = False
            if worker.channel is not None:
                self.selector.unregister(worker.channel)
                worker.channel.close()
                worker.channel = None
            if self.stopping:
                continue
            if not worker.ever_ready:
                raise WorkersFailed(
                    f"worker {worker.index} exited with code {code} before serving anything; "
                    "its log above says why"
                )
            now = time.monotonic()
            worker.deaths = [t for t in worker.deaths if now - t < RESTART_WINDOW] + [now]
            if len(worker.deaths) >= RESTARTS:
                raise WorkersFailed(
                    f"worker {worker.index} died {len(worker.deaths)} times in "
                    f"{RESTART_WINDOW:.0f} s (last exit code {code}); stopping"
                )
            log.warning(
                "worker %d (pid %d) exited with code %s; starting it again",
                worker.index,
                worker.proc.pid,
                code,
            )
            worker.ever_ready = True  # it served before: a slow restart is not a failed start
            self._start(worker)

    def _stop_all(self) -> None:
        self.stopping = True
        log.info("connections handed to each worker: %s", self.routed)
        self._listen(False)
        self.listener.close()
        for p in list(self.pending.values()):
            self._forget(p)
            p.conn.close()
        for worker in self.workers:
            if worker.proc is not None and worker.proc.poll() is None:
                worker.proc.send_signal(signal.SIGTERM)
        end = time.monotonic() + STOP_SECONDS
        for worker in self.workers:
            if worker.proc is None:
                continue
            try:
                worker.proc.wait(timeout=max(0.1, end - time.monotonic()))
            except subprocess.TimeoutExpired:
                worker.proc.kill()
                worker.proc.wait()
            if worker.channel is not None:
                worker.channel.close()
                worker.channel = None


def bind(host: str, port: int, backlog: int = 2048) -> socket.socket:
    """The listening socket the acceptor owns (IPv4 or IPv6 by the host's form)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(backlog)
    return sock


def serve_routed(
    listener: socket.socket, workers: int, on_open: Callable[[], None] | None = None
) -> None:
    """Run `workers` worker processes behind an acceptor on `listener`, until stopped;
    `on_open` is called once every worker serves."""
    command = [sys.executable, "-m", "parley.server.workers"]
    Acceptor(listener, command, workers, on_open).run()


# --- the worker side -------------------------------------------------------------------


class ProcessHeader:
    """Names the serving process in each answer (`X-Parley-Process`, as in /api/health).

    Only behind the acceptor, where a client (or a test) may want to know which process a
    connection was routed to.
    """

    def __init__(self, app: Any, process_id: str) -> None:
        self.app = app
        self.header = (b"x-parley-process", process_id.encode())

    async def __call__(
        self,
        scope: MutableMapping[str, Any],
        receive: Callable[[], Awaitable[Any]],
        send: Callable[[Any], Awaitable[None]],
    ) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return

        async def tagged(message: MutableMapping[str, Any]) -> None:
            if message["type"] in ("http.response.start", "websocket.accept"):
                message = {**message, "headers": [*message.get("headers", []), self.header]}
            await send(message)

        await self.app(scope, receive, tagged)


def worker_app() -> Any:
    """The app a worker serves: the usual one, naming its process in each answer."""
    from .app import create_app_from_env

    app = create_app_from_env()
    return ProcessHeader(app, app.state.services.process_id)


def run_worker(channel_fd: int, log_level: str = "info") -> None:
    """Serve the connections the acceptor hands over `channel_fd` until told to stop."""
    channel = socket.socket(fileno=channel_fd)
    channel.setblocking(False)
    config = uvicorn.Config(
        "parley.server.workers:worker_app",
        factory=True,
        log_level=log_level,
        log_config=log_config(log_level, os.environ.get("PARLEY_LOG_FORMAT", "text")),
        **uvicorn_options(),  # as one process runs: uvloop, httptools, WebSocket limits
    )
    _HandedServer(config, channel).run()


class _HandedServer(uvicorn.Server):
    """A uvicorn server whose connections arrive from the acceptor rather than a listener."""

    def __init__(self, config: uvicorn.Config, channel: socket.socket) -> None:
        super().__init__(config)
        self.channel = channel
        self.adopting: set[asyncio.Task[None]] = set()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await self.lifespan.startup()
        if self.lifespan.should_exit:
            sys.exit(3)
        loop = asyncio.get_running_loop()
        config = self.config

        def protocol() -> asyncio.Protocol:
            # As uvicorn builds it for the connections of its own listeners.
            made: asyncio.Protocol = config.http_protocol_class(  # type: ignore[call-arg]
                config=config,
                server_state=self.server_state,
                app_state=self.lifespan.state,
                _loop=loop,
            )
            return made

        def receive() -> None:
            while True:
                try:
                    message, fds, _flags, _addr = socket.recv_fds(self.channel, 16, 8)
                except BlockingIOError:
                    return
                except OSError:
                    message, fds = b"", []
                if not message and not fds:  # the acceptor is gone: stop too
                    loop.remove_reader(self.channel.fileno())
                    self.should_exit = True
                    return
                for fd in fds:
                    conn = socket.socket(fileno=fd)
                    conn.setblocking(False)
                    task = loop.create_task(_adopt(loop, protocol, conn))
                    self.adopting.add(task)
                    task.add_done_callback(self.adopting.discard)

        self.servers = []
        loop.add_reader(self.channel.fileno(), receive)
        self.started = True
        self.channel.send(READY)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        asyncio.get_running_loop().remove_reader(self.channel.fileno())
        await super().shutdown(sockets)


async def _adopt(
    loop: asyncio.AbstractEventLoop, protocol: Callable[[], asyncio.Protocol], conn: socket.socket
) -> None:
    try:
        await loop.connect_accepted_socket(protocol, conn)
    except OSError:
        conn.close()  # the client left while in hand-over


def main() -> None:
    configure_logs()
    fd = int(os.environ["PARLEY_WORKER_FD"])
    run_worker(fd, os.environ.get("PARLEY_WORKER_LOG_LEVEL", "info"))


if __name__ == "__main__":
    main()
