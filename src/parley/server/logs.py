"""Log lines as text or JSON, each tagged with its request's id, game and user where known.

`RequestIds` gives every HTTP request and WebSocket an id (a well-formed `X-Request-ID` from
the client or proxy, else a fresh one), answers it in the `X-Request-ID` header, and keeps
it with the game id from the path and the user once signed in, for every line logged while
the request runs. Tokens and passwords never reach a line: the access log's token filter
(`security.RedactTokens`) stays on in both formats, and nothing here logs a header or body.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import time
from contextvars import ContextVar
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

FORMATS = ("text", "json")
_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
_GAME = re.compile(r"^/(?:api|api/agents|ws|ws/agents)/games/([A-Za-z0-9_-]{1,32})(?:/|$)")

# One mutable dict per request: the user is learnt deep inside (maybe in a worker thread,
# which runs in a copy of the context), so the request's dict is filled in, never replaced.
_request: ContextVar[dict[str, Any] | None] = ContextVar("parley_request", default=None)


def note_user(user_id: int) -> None:
    """The request being served is this user's (for its log lines)."""
    found = _request.get()
    if found is not None:
        found["user_id"] = user_id


def current() -> dict[str, Any]:
    """The running request's id, game and user (empty outside a request)."""
    return dict(_request.get() or {})


class RequestIds:
    """ASGI middleware: a request id for every request and socket, logged and answered."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = ""
        for name, value in scope.get("headers", ()):
            if name == b"x-request-id":
                given = value.decode("latin-1")
                break
        request_id = given if _ID.fullmatch(given) else secrets.token_hex(8)
        info: dict[str, Any] = {"request_id": request_id}
        if found := _GAME.match(str(scope.get("path", ""))):
            info["game_id"] = found.group(1)
        token = _request.set(info)
        header = (b"x-request-id", request_id.encode())

        async def tagged(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.accept"):
                message = {**message, "headers": [*message.get("headers", ()), header]}
            await send(message)

        try:
            await self.app(scope, receive, tagged)
        finally:
            _request.reset(token)


class Tagged(logging.Filter):
    """Puts the request's id, game and user on every record logged while it runs."""

    def filter(self, record: logging.LogRecord) -> bool:
        info = _request.get()
        record.request_id = info.get("request_id") if info else None
        record.game_id = info.get("game_id") if info else None
        record.user_id = info.get("user_id") if info else None
        return True


class JsonLines(logging.Formatter):
    """One JSON object a line: time, level, logger, message, request, game, user, error."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in ("request_id", "game_id", "user_id"):
            value = getattr(record, key, None)
            if value is not None:
                line[key] = value
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


class Text(logging.Formatter):
    """uvicorn's plain look, with the request id when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        request_id = getattr(record, "request_id", None)
        return f"{text} [{request_id}]" if request_id else text


def log_config(level: str, fmt: str) -> dict[str, Any]:
    """A `logging.config.dictConfig` for the server, uvicorn and Alembic alike."""
    if fmt not in FORMATS:
        raise ValueError(f"the log format is text or json, not {fmt!r}")
    formatter: dict[str, Any] = (
        {"()": JsonLines}
        if fmt == "json"
        else {"()": Text, "format": "%(levelname)s:     %(message)s"}
    )
    handler = {
        "class": "logging.StreamHandler",
        "formatter": "parley",
        "filters": ["tagged"],
        "stream": "ext://sys.stderr",
    }
    level = level.upper()
    if level == "TRACE":
        level = "DEBUG"
    named = ("uvicorn", "uvicorn.error", "uvicorn.access", "alembic", "parley")
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"tagged": {"()": Tagged}},
        "formatters": {"parley": formatter},
        "handlers": {"parley": handler},
        "root": {"handlers": ["parley"], "level": level},
        "loggers": {name: {"handlers": [], "level": level, "propagate": True} for name in named},
    }


def configure(level: str | None = None, fmt: str | None = None) -> dict[str, Any]:
    """Set up this process's logging (default: PARLEY_LOG_LEVEL, PARLEY_LOG_FORMAT)."""
    import logging.config
    import os

    config = log_config(
        level or os.environ.get("PARLEY_LOG_LEVEL", "info"),
        fmt or os.environ.get("PARLEY_LOG_FORMAT", "text"),
    )
    logging.config.dictConfig(config)
    return config
