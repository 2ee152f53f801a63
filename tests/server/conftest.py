"""Harness for the server tests: toy games, backends, a live server in a thread, clients."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from tests.kernel.toygames import Countdown, SealedBids
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from parley import games
from parley.kernel import Rules
from parley.server import Limits, Settings, create_app
from parley.server.clock import ManualClock
from parley.server.services import Services

POSTGRES_URL = os.environ.get(
    "PARLEY_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("PARLEY_TEST_REDIS", "redis://127.0.0.1:6379/0")
IN_CI = os.environ.get("CI", "").lower() == "true"
WAIT = 10.0  # seconds any bounded wait may take before the test fails


def require_service(name: str, probe: Callable[[], None]) -> None:
    """Use a real service, or fail (under CI=true) or skip (elsewhere) when it is missing."""
    try:
        probe()
    except Exception as err:
        reason = f"{name} is not reachable: {type(err).__name__}: {err}"
        if IN_CI:
            pytest.fail(f"{reason} (CI=true: the real service is required)")
        pytest.skip(reason)


# --- games ------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def toy_games() -> Iterator[dict[str, Rules[Any, Any]]]:
    """Countdown (sequential) and Sealed bids (simultaneous, hidden), registered per test."""
    added = []
    found: dict[str, Rules[Any, Any]] = {}
    for rules in (Countdown(), SealedBids()):
        if rules.spec.name in games.names():
            found[rules.spec.name] = games.find(rules.spec.name)
        else:
            games.register(rules)
            added.append(rules.spec.name)
            found[rules.spec.name] = rules
    yield found
    for name in added:
        games.unregister(name)


# --- databases --------------------------------------------------------------------------


def _postgres_probe() -> None:
    import psycopg

    dsn = POSTGRES_URL.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, connect_timeout=3) as conn:
        conn.execute("SELECT 1")


@contextlib.contextmanager
def postgres_schema() -> Iterator[str]:
    """A fresh, empty schema on the test PostgreSQL; the URL selects it."""
    import psycopg

    require_service(f"PostgreSQL at {POSTGRES_URL}", _postgres_probe)
    schema = f"parley_t_{secrets.token_hex(6)}"
    dsn = POSTGRES_URL.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    sep = "&" if "?" in POSTGRES_URL else "?"
    try:
        yield f"{POSTGRES_URL}{sep}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each persistence test runs on a SQLite file and on a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'parley.sqlite3'}"
    else:
        with postgres_schema() as url:
            yield url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'parley.sqlite3'}"


@pytest.fixture
def postgres_url() -> Iterator[str]:
    with postgres_schema() as url:
        yield url


@pytest.fixture
def redis_url() -> str:
    def probe() -> None:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3).ping()

    require_service(f"Redis at {REDIS_URL}", probe)
    return REDIS_URL


# --- a live server ----------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until(check: Callable[[], bool], timeout: float = WAIT, what: str = "condition") -> None:
    """Poll `check` until it holds; fail after `timeout` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


@dataclass
class LiveServer:
    """A real uvicorn server in a thread of the test process, with a manual clock."""

    url: str
    services: Services
    clock: ManualClock
    server: uvicorn.Server
    thread: threading.Thread

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://")

    def fire_deadlines(self) -> int:
        return self.services.scheduler.fire_due()

    def advance(self, seconds: float) -> int:
        """Move the clock on and fire what fell due."""
        self.clock.advance(seconds)
        return self.fire_deadlines()

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=WAIT)


def start_live_server(settings: Settings, *, gateway: bool = False) -> LiveServer:
    """A live server; with `gateway`, carrying the agent gateway as `parley serve` does."""
    app = create_app(settings)
    if gateway:
        from parley.server.gateway import install

        install(app, tick_seconds=None)
    port = free_port()
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws="websockets-sansio",
        lifespan="on",
        proxy_headers=False,  # as `parley serve` runs it: the app decides whom to believe
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_until(lambda: server.started, what="the server to start")
    assert isinstance(settings.clock, ManualClock)
    return LiveServer(
        f"http://127.0.0.1:{port}", app.state.services, settings.clock, server, thread
    )


def make_settings(database_url: str, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "database_url": database_url,
        "clock": ManualClock(),
        "scheduler_poll_seconds": None,
        "fixed_seeds": True,  # tests mirror a game from its seed (test_seeds.py: mixed ones)
        "limits": Limits(
            rate_per_second=1000.0,
            rate_burst=1000.0,
            signup_burst=1000.0,
            read_rate_per_second=1000.0,
            read_burst=1000.0,
        ),
    }
    values.update(overrides)
    return Settings(**values)


@pytest.fixture
def live(sqlite_url: str) -> Iterator[LiveServer]:
    server = start_live_server(make_settings(sqlite_url))
    yield server
    server.stop()


@pytest.fixture
def live_on(database_url: str) -> Iterator[LiveServer]:
    """The same live server, on each database backend."""
    server = start_live_server(make_settings(database_url))
    yield server
    server.stop()


# --- clients ----------------------------------------------------------------------------


class ApiError(AssertionError):
    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Client:
    """One user of the API."""

    base: str
    username: str
    token: str = ""
    http: httpx.Client = field(init=False)

    def __post_init__(self) -> None:
        self.http = httpx.Client(base_url=self.base, timeout=WAIT)

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def call(self, method: str, path: str, expect: int | None = None, **kw: Any) -> Any:
        response = self.http.request(method, path, headers=self.headers, **kw)
        if expect is not None and response.status_code != expect:
            raise ApiError(
                f"{method} {path}: expected {expect}, got {response.status_code}: {response.text}",
                response.status_code,
            )
        if expect is None and response.status_code >= 400:
            raise ApiError(
                f"{method} {path}: {response.status_code}: {response.text}", response.status_code
            )
        return response.json() if response.content else None

    def get(self, path: str, expect: int | None = None, **kw: Any) -> Any:
        return self.call("GET", path, expect, **kw)

    def post(self, path: str, body: Any = None, expect: int | None = None, **kw: Any) -> Any:
        return self.call("POST", path, expect, json=body, **kw)

    def ws(self, game_id: str, since: int = 0, **params: Any) -> Socket:
        """A live connection to the game; the token goes in the first message."""
        query = "&".join(f"{k}={v}" for k, v in {"since": since, **params}.items())
        url = self.base.replace("http://", "ws://") + f"/ws/games/{game_id}?{query}"
        socket = Socket(connect(url, open_timeout=WAIT, max_queue=None, legacy=True))
        with contextlib.suppress(ConnectionClosed):  # refused at once (a full server)
            socket.send({"type": "auth", "token": self.token})
        return socket

    def close(self) -> None:
        self.http.close()


def sign_up(base: str, username: str, password: str | None = None) -> Client:
    client = Client(base, username)
    body: dict[str, Any] = {"username": username}
    if password:
        body["password"] = password
    client.token = client.post("/api/users", body, expect=201)["token"]
    return client


@dataclass
class Socket:
    """A WebSocket client that keeps every message and waits with timeouts."""

    conn: ClientConnection
    messages: list[dict[str, Any]] = field(default_factory=list)

    def recv(self, timeout: float = WAIT) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.conn.recv(timeout=timeout))
        self.messages.append(message)
        return message

    def wait_for(
        self, check: Callable[[dict[str, Any]], bool], timeout: float = WAIT, what: str = ""
    ) -> dict[str, Any]:
        """Read until a message satisfies `check`; fail after `timeout` seconds."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no message {what or 'matching'} within {timeout} s")
            try:
                message = self.recv(timeout=left)
            except TimeoutError:
                continue
            if check(message):
                return message

    def drain(self, quiet: float = 0.2) -> list[dict[str, Any]]:
        """Everything that arrives until the socket has been quiet for `quiet` seconds."""
        got = []
        while True:
            try:
                got.append(self.recv(timeout=quiet))
            except TimeoutError:
                return got

    def send(self, message: dict[str, Any]) -> None:
        self.conn.send(json.dumps(message))

    def entries(self) -> dict[int, dict[str, Any]]:
        """Every history entry received so far by seq (revealed ones replace hidden ones)."""
        out: dict[int, dict[str, Any]] = {}
        for m in self.messages:
            if m.get("type") == "entries":
                for e in m["entries"] + m.get("revealed", []):
                    out[e["seq"]] = e
        return out

    def close(self) -> None:
        self.conn.close()


@pytest.fixture
def users(live: LiveServer) -> Iterator[Callable[..., Client]]:
    made: list[Client] = []

    def make(name: str, password: str | None = None) -> Client:
        client = sign_up(live.url, name, password)
        made.append(client)
        return client

    yield make
    for c in made:
        c.close()


# --- server subprocesses ----------------------------------------------------------------


@dataclass
class ServerProcess:
    """A server in its own process (killed for sure by the test's `finally`)."""

    args: list[str]
    log: Path
    port: int = field(default_factory=free_port)
    proc: Any = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        import subprocess
        import sys

        root = Path(__file__).resolve().parents[2]
        out = self.log.open("ab")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.server.serve_helper",
                "--port",
                str(self.port),
                *self.args,
            ],
            cwd=root,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        out.close()

        def healthy() -> bool:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                return httpx.get(self.url + "/api/health", timeout=1).status_code == 200
            except httpx.HTTPError:
                return False

        wait_until(healthy, timeout=30, what=f"a server process on port {self.port}")
        return self

    def health(self) -> dict[str, Any]:
        data: dict[str, Any] = httpx.get(self.url + "/api/health", timeout=WAIT).json()
        return data

    def kill(self) -> None:
        """SIGKILL: no cleanup, no flush, like a crash."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=WAIT)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=WAIT)
            except Exception:
                self.proc.kill()
                self.proc.wait(timeout=WAIT)
