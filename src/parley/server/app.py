"""The application: wiring, lifecycle, error answers, static client."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import secrets
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy import Engine
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp

import parley
from parley.kernel import ParleyError

from .api import account as account_api
from .api import docs as docs_api
from .api import drafts as drafts_api
from .api import games as games_api
from .api import meta as meta_api
from .api import metrics as metrics_api
from .api import notify as notify_api
from .api import play as play_api
from .api import sandbox as sandbox_api
from .api import standing as standing_api
from .api import undo as undo_api
from .api import users as users_api
from .api.hot import HotActions
from .auth import Accounts
from .bus import Bus, LocalBus, RedisBus
from .db.engine import checkpoint, is_sqlite, make_engine
from .db.migrate import upgrade
from .db.syncer import syncer_of
from .deadlines import Scheduler
from .drafts import ReadyAutomation
from .durable import DurableAnswers
from .errors import ServerError, failure_body, status_and_body
from .hub import Hub
from .live import Notice, Tables
from .llm_seats import LLMSeats
from .lobby import Lobby
from .logs import RequestIds
from .logs import configure as configure_logs
from .metrics import Measure
from .notify import Notices, Notifier, NotifySettings
from .play import Play
from .ratelimit import Limiter, MemoryLimiter, RedisLimiter
from .runner import Runner
from .seats import Automation, BotPool
from .security import BodyLimit, redact_tokens_in_logs
from .services import Services
from .settings import Settings
from .sockets import SocketCount
from .standing import StandingAutomation
from .store import Store
from .ws import router as ws_router

log = logging.getLogger(__name__)
PACKAGED_STATIC = Path(parley.__file__).parent / "web" / "static"

_STATUS_CODES = {
    400: "bad_request",
    401: "unauthorized",
    404: "not_found",
    405: "method_not_allowed",
}


def build_services(settings: Settings) -> Services:
    """Connect to the database (migrating it), and wire one process's parts."""
    engine = make_engine(
        settings.database_url,
        sqlite_synchronous=settings.sqlite_synchronous,
        background_checkpoints=True,
        group_sync=True,
    )
    inline = settings.inline_store
    if inline is None:
        # SQLite without a sync per commit never waits: inline. With FULL (the default) the
        # syncer flushes commits in its own thread (db/syncer.py), so they do not wait
        # either; a SQLite file that syncs each commit itself (in memory, or a URI) or
        # PostgreSQL waits on the disk or the network, which must not hold up the event loop.
        lazy = settings.sqlite_synchronous.upper() in ("OFF", "NORMAL")
        inline = is_sqlite(settings.database_url) and (lazy or syncer_of(engine) is not None)
    runner = Runner(inline)
    if settings.migrate:
        upgrade(engine)
        syncer = syncer_of(engine)
        if syncer is not None:
            syncer.flush()  # the migration committed without a ticket
    db = Store(engine)
    process_id = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
    bus: Bus = (
        RedisBus(settings.redis_url, process_id, settings.redis_prefix)
        if settings.redis_url
        else LocalBus()
    )
    tables = Tables(
        db,
        settings.clock,
        snapshot_every=settings.snapshot_every,
        capacity=settings.cache_games,
        notify=bus.publish,
        freshness_seconds=settings.cache_freshness_seconds,
        past_capacity=settings.cache_past,
    )
    models = LLMSeats(tables, settings.limits.max_press_chars)  # `llm:` seats, off the lock
    tables.automation = Automation(
        BotPool(), settings.automation_batch, settings.limits.max_press_chars, models.wake
    )
    tables.automation = ReadyAutomation(tables.automation)  # saved orders, once all ready
    tables.automation = StandingAutomation(tables.automation)  # standing answers, at once
    limiter: Limiter = MemoryLimiter()
    if settings.redis_url:
        from redis.asyncio import Redis

        limiter = RedisLimiter(Redis.from_url(settings.redis_url), settings.redis_prefix + "rate:")
    return Services(
        settings=settings,
        process_id=process_id,
        accounts=Accounts(db, settings.clock),
        tables=tables,
        lobby=Lobby(tables, settings.clock, settings.limits, fixed_seeds=settings.fixed_seeds),
        play=Play(tables, settings.clock, settings.limits),
        hub=Hub(tables, settings.clock, runner),
        bus=bus,
        scheduler=Scheduler(
            tables, db, settings.clock, process_id, settings.deadline_lease_seconds
        ),
        limiter=limiter,
        run=runner,
        sockets=SocketCount(),
        models=models,
    )


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    services = build_services(settings)
    notifier = Notifier(
        services.tables.db,
        services.tables,
        settings.clock,
        services.process_id,
        NotifySettings.from_env(),
    )
    services.tables.automation = Notices(services.tables.automation or _idle, notifier.settings)

    def deliver(notice: Notice) -> None:
        services.tables.mark_stale(notice.game_id, notice.version)
        services.hub.deliver(notice)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        syncer = services.tables.syncer
        if syncer is not None:
            syncer.start()
        await services.bus.start(deliver)
        if settings.scheduler_poll_seconds:
            services.scheduler.start(settings.scheduler_poll_seconds)
        upkeep = asyncio.create_task(_checkpoints(services.tables.db.engine))
        if services.models is not None:
            services.models.start()
        notifier.start()  # e-mail and webhooks, off the games' path
        try:
            yield
        finally:
            upkeep.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await upkeep
            if services.models is not None:
                await services.models.stop()
            await notifier.stop()
            await services.scheduler.stop()
            await services.hub.close()
            await services.bus.stop()
            services.run.close()
            if syncer is not None:
                syncer.stop()  # flushes what was committed last
            services.tables.db.dispose()

    app = ParleyApp(
        title="Parley",
        version=parley.__version__,
        summary="Multiplayer games of conquest and negotiation: lobby, seats, deadlines, press.",
        lifespan=lifespan,
        docs_url=None,  # served by docs_api, with Swagger UI's files from this server
        redoc_url=None,  # ReDoc would load from a CDN
    )
    docs_api.install(app)
    app.state.services = services
    app.state.notifier = notifier
    for router in (meta_api.router, users_api.router, games_api.router, play_api.router):
        app.include_router(router)
    app.include_router(ws_router)
    app.include_router(drafts_api.router)
    app.include_router(standing_api.router)
    app.include_router(undo_api.router)
    app.include_router(account_api.router)
    app.include_router(notify_api.router)
    app.include_router(metrics_api.router)
    app.include_router(sandbox_api.router)
    _add_error_handlers(app)
    _add_static(app, settings.static_dir or PACKAGED_STATIC)
    app.add_middleware(HotActions, error_response=known_error_response)  # inside BodyLimit
    app.add_middleware(BodyLimit, max_bytes=settings.limits.max_body_bytes)
    redact_tokens_in_logs()
    return app


class ParleyApp(FastAPI):
    """The application, with `DurableAnswers` outside everything (error answers included),
    the metrics' timing outside that (an answer's time includes its flush), and request ids
    outermost (every answer carries one)."""

    def build_middleware_stack(self) -> ASGIApp:
        stack = super().build_middleware_stack()
        syncer = self.state.services.tables.syncer
        return RequestIds(Measure(stack if syncer is None else DurableAnswers(stack, syncer)))


def _idle(txn: Any) -> None:
    return None


async def _checkpoints(engine: Engine, every_seconds: float = 2.0) -> None:
    """Keep the SQLite WAL short, off the request path (see `make_engine`)."""
    if engine.dialect.name != "sqlite":
        return
    while True:
        await asyncio.sleep(every_seconds)
        try:
            await anyio.to_thread.run_sync(checkpoint, engine)
        except Exception:
            log.exception("checkpointing the SQLite WAL failed")


def create_app_from_env() -> FastAPI:
    """The factory `parley serve` hands to uvicorn (settings from PARLEY_* variables)."""
    configure_logs()  # PARLEY_LOG_LEVEL and PARLEY_LOG_FORMAT, as `parley serve` set them
    app = create_app(Settings.from_env())
    # The served app also carries the agent gateway; it builds on the server (not the other
    # way round), so it is composed here rather than inside `create_app`.
    from parley.server.gateway import install

    install(app)
    tune_gc()
    return app


def tune_gc() -> None:
    """Keep full garbage-collection passes, which pause every request, rare.

    A server holds many long-lived objects (games, connections) and makes many short-lived
    ones per request; with the default thresholds full passes over the former came every
    few seconds under load and paused the process for 100+ ms. Reference counting still
    frees almost everything at once; the collector only has cycles left to find.
    """
    gc.freeze()  # what exists after start-up (modules, the app) is never scanned again
    gc.set_threshold(50_000, 20, 20)


def _error_response(status: int, body: dict[str, Any]) -> JSONResponse:
    headers = {}
    if status == 429 and "retry_after" in body:
        headers["Retry-After"] = str(max(1, round(float(body["retry_after"]))))
    return JSONResponse(body, status_code=status, headers=headers)


def known_error_response(exc: Exception) -> Response:
    """The answer to an error raised on purpose (a ServerError or a ParleyError)."""
    status, body = status_and_body(exc)
    return _error_response(status, body)


def _add_error_handlers(app: FastAPI) -> None:
    async def on_known(request: Request, exc: Exception) -> Response:
        return known_error_response(exc)

    async def on_validation(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        if any(e.get("type") == "json_invalid" for e in exc.errors()):
            # Not understood at all (400), rather than understood and not fitting (422).
            bad = {"error": "bad_request", "message": "the request body is not valid JSON"}
            return JSONResponse(bad, status_code=400)
        problems = [
            {
                "where": ".".join(str(p) for p in e.get("loc", ())),
                "problem": str(e.get("msg", "")),
            }
            for e in exc.errors()[:20]
        ]
        first = problems[0] if problems else {"where": "", "problem": "invalid request"}
        message = f"{first['where']}: {first['problem']}" if first["where"] else first["problem"]
        body = {"error": "invalid_request", "message": message, "problems": problems}
        return JSONResponse(body, status_code=422)

    async def on_http(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        code = _STATUS_CODES.get(exc.status_code, "http_error")
        body = {"error": code, "message": str(exc.detail)}
        return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)

    async def on_unexpected(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return JSONResponse(failure_body(), status_code=500)

    app.add_exception_handler(ServerError, on_known)
    app.add_exception_handler(ParleyError, on_known)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
    app.add_exception_handler(Exception, on_unexpected)


_NO_CLIENT = """<!doctype html><meta charset="utf-8"><title>Parley</title>
<h1>Parley server</h1><p>The web client is not installed. The API is described at
<a href="/docs">/docs</a> (OpenAPI: <a href="/openapi.json">/openapi.json</a>).</p>"""


def _add_static(app: FastAPI, folder: Path) -> None:
    """The web client, when its files are there: index.html at /, the rest under /static."""

    @app.get("/", include_in_schema=False)
    def index() -> Response:
        page = folder / "index.html"
        if page.is_file():
            return FileResponse(page)
        return HTMLResponse(_NO_CLIENT)

    app.mount("/static", StaticFiles(directory=folder, check_dir=False), name="static")
