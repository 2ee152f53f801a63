"""Resource caps: sockets per user and per process, opening rates, socket sign-in, reads,
forwarded addresses, log-in timing, and tokens kept out of logs."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator

import httpx
import pytest
from tests.server.conftest import (
    WAIT,
    Client,
    LiveServer,
    Socket,
    make_settings,
    sign_up,
    start_live_server,
)
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from parley.server import Limits
from parley.server.net import UNVERIFIED, client_address
from parley.server.security import RedactTokens

OPEN = {
    "rate_per_second": 1000.0,
    "rate_burst": 1000.0,
    "signup_burst": 1000.0,
    "read_rate_per_second": 1000.0,
    "read_burst": 1000.0,
}


@pytest.fixture
def server_with(sqlite_url: str) -> Iterator[Callable[..., LiveServer]]:
    started: list[LiveServer] = []

    def start(limits: dict[str, float] | None = None, **settings: object) -> LiveServer:
        server = start_live_server(
            make_settings(sqlite_url, limits=Limits(**{**OPEN, **(limits or {})}), **settings)
        )
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def _closed_with(socket: Socket) -> tuple[str, int]:
    """The refusal's error code and the socket's close code."""
    error = socket.recv()
    with pytest.raises(ConnectionClosed) as closed:
        socket.recv()
    assert closed.value.rcvd is not None
    return error["error"], closed.value.rcvd.code


def _lobby(client: Client) -> str:
    gid: str = client.post("/api/games", {"game": "countdown"}, expect=201)["id"]
    return gid


def test_sockets_per_user_are_capped(server_with: Callable[..., LiveServer]) -> None:
    live = server_with({"ws_per_user": 2})
    amy, bob = sign_up(live.url, "amy"), sign_up(live.url, "bob")
    gid = _lobby(amy)
    first, second = amy.ws(gid), amy.ws(gid)
    for s in (first, second):
        assert s.recv()["type"] == "hello"
    assert _closed_with(amy.ws(gid)) == ("too_many_sockets", 4429)
    assert bob.ws(gid).recv()["type"] == "hello"  # another user has their own allowance
    first.close()
    live_count = live.services.sockets
    assert _eventually(lambda: live_count.of(1) == 1)
    assert amy.ws(gid).recv()["type"] == "hello"


def test_sockets_per_process_are_capped(server_with: Callable[..., LiveServer]) -> None:
    live = server_with({"ws_per_process": 2})
    users = [sign_up(live.url, f"u{i}") for i in range(3)]
    gid = _lobby(users[0])
    held = [users[0].ws(gid), users[1].ws(gid)]
    for s in held:
        assert s.recv()["type"] == "hello"
    assert _closed_with(users[2].ws(gid)) == ("server_full", 4503)


def test_opening_sockets_is_rate_limited(server_with: Callable[..., LiveServer]) -> None:
    live = server_with({"ws_open_rate_per_second": 0.001, "ws_open_burst": 3})
    amy = sign_up(live.url, "amy")
    gid = _lobby(amy)
    for _ in range(3):
        s = amy.ws(gid)
        assert s.recv()["type"] == "hello"
        s.close()
    assert _closed_with(amy.ws(gid)) == ("too_many_sockets", 4429)


def test_sockets_sign_in_by_first_message_never_by_address(
    server_with: Callable[..., LiveServer],
) -> None:
    live = server_with({"ws_auth_seconds": 0.3})
    amy = sign_up(live.url, "amy")
    gid = _lobby(amy)
    in_url = Socket(
        connect(f"{live.ws_url}/ws/games/{gid}?token={amy.token}", open_timeout=WAIT, legacy=True)
    )
    assert _closed_with(in_url) == ("bad_request", 4400)
    silent = Socket(connect(f"{live.ws_url}/ws/games/{gid}", open_timeout=WAIT, legacy=True))
    assert _closed_with(silent) == ("unauthorized", 4401)
    assert live.services.sockets.total == 0 or _eventually(lambda: live.services.sockets.total == 0)


def test_tokens_in_urls_are_blanked_in_logs() -> None:
    record = logging.LogRecord(
        "uvicorn.access", logging.INFO, "", 0, '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5", "GET", "/ws/games/x?since=0&token=SECRET&a=1", "1.1", 101), None,
    )  # fmt: skip
    RedactTokens().filter(record)
    assert "SECRET" not in record.getMessage() and "token=***&a=1" in record.getMessage()


def test_forwarded_addresses_count_only_from_trusted_proxies(
    server_with: Callable[..., LiveServer],
) -> None:
    limits = {"signup_rate_per_second": 0.001, "signup_burst": 2}
    direct = server_with(limits)

    def sign_ups(server: LiveServer, prefix: str) -> list[int]:
        return [
            httpx.post(
                server.url + "/api/users",
                json={"username": f"{prefix}{i}"},
                headers={"X-Forwarded-For": f"10.0.0.{i}"},
                timeout=WAIT,
            ).status_code
            for i in range(4)
        ]

    # Spoofed addresses from an untrusted peer (even loopback) share the peer's bucket.
    assert sign_ups(direct, "a") == [201, 201, 429, 429]
    behind = server_with(limits, trusted_proxies=("127.0.0.1",))
    assert sign_ups(behind, "b") == [201, 201, 201, 201]  # the proxy's clients, one by one


def test_an_address_rewritten_from_an_unvouched_header_is_not_believed() -> None:
    spoofed = {"client": ("10.9.9.9", 0), "headers": [(b"x-forwarded-for", b"10.9.9.9")]}
    assert client_address(spoofed, ()) == UNVERIFIED  # uvicorn's own proxy handling did this
    plain = {"client": ("10.1.1.1", 5000), "headers": []}
    assert client_address(plain, ()) == "10.1.1.1"
    chain = {"client": ("10.0.0.2", 5000), "headers": [(b"x-forwarded-for", b"1.1.1.1, 2.2.2.2")]}
    assert client_address(chain, ("10.0.0.0/8",)) == "2.2.2.2"
    assert client_address(chain, ("10.0.0.0/8", "2.2.2.2")) == "1.1.1.1"


def _eventually(check: Callable[[], bool]) -> bool:
    from tests.server.conftest import wait_until

    wait_until(check, what="the server to notice")
    return True


def test_reads_have_a_budget_and_past_points_cost_more(
    server_with: Callable[..., LiveServer],
) -> None:
    live = server_with({"read_rate_per_second": 0.001, "read_burst": 8, "past_read_cost": 5})
    amy, bob = sign_up(live.url, "amy"), sign_up(live.url, "bob")
    gid = amy.post("/api/games", {"game": "countdown", "seats": 2}, expect=201)["id"]
    bob.post(f"/api/games/{gid}/join", {"role": "player"})
    amy.post(f"/api/games/{gid}/start")
    for _ in range(3):
        amy.get(f"/api/games/{gid}")
    amy.get(f"/api/games/{gid}/state", params={"at": 0})  # 5 of the 8
    refused = amy.http.get(f"/api/games/{gid}/state", headers=amy.headers)
    assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
    bob.get(f"/api/games/{gid}/state")  # each user has their own budget


def test_an_earlier_point_is_replayed_once_then_served_from_memory(
    live: LiveServer, users: Callable[..., Client]
) -> None:
    amy, bob = users("amy"), users("bob")
    gid = amy.post("/api/games", {"game": "countdown", "seats": 2}, expect=201)["id"]
    bob.post(f"/api/games/{gid}/join", {"role": "player"})
    amy.post(f"/api/games/{gid}/start")
    for _ in range(4):
        for who in (amy, bob):
            if who.get(f"/api/games/{gid}/state")["can_act"]:
                who.post(f"/api/games/{gid}/actions", {"action": "take 1"})
    tables = live.services.tables
    loads: list[int | None] = []
    original = tables._load_match

    def counting(s: object, game: object, upto: int | None = None) -> object:
        loads.append(upto)
        return original(s, game, upto)  # type: ignore[arg-type]

    tables._load_match = counting  # type: ignore[assignment,method-assign]
    try:
        first = amy.get(f"/api/games/{gid}/state", params={"at": 2})
        again = amy.get(f"/api/games/{gid}/state", params={"at": 2})
    finally:
        tables._load_match = original  # type: ignore[method-assign]
    assert first == again and first["at"] == 2
    assert loads == [2]


def test_logging_in_costs_one_scrypt_whatever_the_account(
    live: LiveServer, users: Callable[..., Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    import hashlib

    users("keyed", password="correct horse")
    users("keyless")
    anon = Client(live.url, "anon")
    anon.post("/api/sessions", {"username": "nobody", "password": "x"}, expect=401)  # warm-up
    calls: list[int] = []
    real = hashlib.scrypt

    def counted(*args: object, **kwargs: object) -> bytes:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(hashlib, "scrypt", counted)
    for name, password, status in [
        ("nobody", "whatever1", 401),
        ("keyless", "whatever1", 401),
        ("keyed", "wrong one", 401),
        ("keyed", "correct horse", 200),
    ]:
        calls.clear()
        anon.post("/api/sessions", {"username": name, "password": password}, expect=status)
        assert len(calls) == 1, name


def test_sqlite_commits_survive_a_power_cut_by_default(live: LiveServer) -> None:
    from parley.server import Settings

    assert Settings().sqlite_synchronous == "FULL"
    # FULL is kept by group-synced commits: each connection commits without a sync
    # (NORMAL) and the syncer flushes the log before anything shows the commit.
    db = live.services.tables.db
    assert db.syncer is not None
    with db.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
    flushes = db.syncer.flushes
    with db.write() as s:
        s.connection().exec_driver_sql("SELECT 1")
    db.syncer.wait(db.last_ticket(), timeout=10)
    assert db.syncer.flushes > flushes
