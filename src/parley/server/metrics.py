"""What the server counts for monitoring, served at `/metrics` in Prometheus's text format.

The figures are process-wide (one registry per process), incremented where things happen.
Under `parley serve --workers N` every worker writes them to `PROMETHEUS_MULTIPROC_DIR`
(set by the acceptor), and whichever worker answers `/metrics` reports the sum of all.
`/metrics` is off unless `PARLEY_METRICS_TOKEN` (a bearer token) or `PARLEY_METRICS=loopback`
(clients on this machine, by their own address, never a forwarded one) turns it on.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
import time
from collections.abc import Mapping

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client import multiprocess as _multiprocess
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# Seconds: answers and deliveries are expected in milliseconds, flushes in a few ms.
_LATENCY = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

ENTRIES = Counter(
    "parley_entries",
    "Record entries written, by game and kind (action, press, vote, draw).",
    ["game", "kind"],
)
SUBMIT = Histogram(
    "parley_submit_seconds",
    "Time from receiving a move to answering it, by transport (http, ws).",
    ["transport"],
    buckets=_LATENCY,
)
DELIVERY = Histogram(
    "parley_delivery_seconds",
    "Time from a committed change to its frames being queued on the game's sockets.",
    buckets=_LATENCY,
)
SOCKETS = Gauge(
    "parley_open_sockets", "WebSockets open in this server.", multiprocess_mode="livesum"
)
CACHED = Gauge(
    "parley_games_cached", "Games held in memory by this server.", multiprocess_mode="livesum"
)
DEADLINES = Counter("parley_deadlines_fired", "Deadlines fired.")
CLAIMS_LOST = Counter("parley_deadline_claims_lost", "Due deadlines another process claimed first.")
CONFLICTS = Counter(
    "parley_write_conflicts", "Writes that lost to another writer (or a busy file) and retried."
)
FLUSH = Histogram(
    "parley_flush_seconds", "Time one group flush of SQLite's log to disk took.", buckets=_LATENCY
)
FLUSH_QUEUE = Gauge(
    "parley_flush_queue",
    "Commits waiting for their flush to disk.",
    multiprocess_mode="livesum",
)
NOTIFICATIONS = Counter(
    "parley_notifications",
    "Notifications handed on (result=sent) or failed (result=failed), by channel.",
    ["channel", "result"],
)
RESPONSES = Counter(
    "parley_http_responses",
    "HTTP answers by status class (2xx, 3xx, 4xx, 5xx).",
    ["status"],
)


def _is_move(scope: Scope) -> bool:
    return scope.get("method") == "POST" and str(scope.get("path", "")).endswith("/actions")


class Measure:
    """ASGI middleware: counts answers by status class and times moves submitted by HTTP."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        move = _is_move(scope)
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            RESPONSES.labels(f"{status // 100}xx").inc()
            if move:
                SUBMIT.labels("http").observe(time.perf_counter() - started)


def share_between_processes() -> None:
    """Before starting worker processes: have them write their figures to one folder."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return
    import atexit
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="parley-metrics-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = folder
    atexit.register(shutil.rmtree, folder, True)


def count_entries(game: str, kinds: Mapping[str, int]) -> None:
    for kind, n in kinds.items():
        ENTRIES.labels(game, kind).inc(n)


def _registry() -> CollectorRegistry:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        _multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return registry
    return REGISTRY


def exposition() -> tuple[bytes, str]:
    """The current figures in Prometheus's text format, and their content type."""
    return generate_latest(_registry()), CONTENT_TYPE_LATEST


def allowed(
    token: str | None, loopback: bool, client: str | None, auth: str | None, forwarded: bool
) -> bool:
    """May this request read /metrics? (Off unless a token or loopback access is set.)

    Loopback access never holds for a forwarded request: a proxy on this machine connects
    from loopback on behalf of anyone.
    """
    if token:
        given = (auth or "").removeprefix("Bearer ").strip()
        if given and hmac.compare_digest(given.encode(), token.encode()):
            return True
    if loopback and client and not forwarded:
        try:
            return ipaddress.ip_address(client).is_loopback
        except ValueError:
            return False
    return False
