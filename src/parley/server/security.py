"""Request-level protections, enforced before any route runs: body size, nesting, Unicode."""

from __future__ import annotations

import json
import logging
import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import track_commits
from .nesting import too_deep, too_deep_message
from .text import SURROGATE_HINT, unservable_field, unservable_message

log = logging.getLogger(__name__)


class BodyLimit:
    """Refuse request bodies over `max_bytes` with 413, reading at most that much.

    A JSON body holding text that is not valid Unicode (a lone surrogate, in any field) is
    refused here with 400 naming the field, so no route ever stores what it could not serve.
    So is a body nested too deeply to parse safely (see `nesting`), with one line in the log.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        track_commits()
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", ())).get(b"content-length")
        if declared is not None:
            try:
                size = int(declared)
            except ValueError:
                await _answer(send, 400, "bad_request", "Content-Length is not a number")
                return
            if size > self.max_bytes:
                await _answer(send, 413, "too_large", self._message())
                return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > self.max_bytes:
                await _answer(send, 413, "too_large", self._message())
                return
            if not message.get("more_body", False):
                break
        if too_deep(body):
            method, path = scope.get("method", "?"), scope.get("path", "?")
            log.warning("refused %s %s: the body nests too deeply", method, path)
            await _answer(send, 400, "bad_request", too_deep_message("the body"))
            return
        if SURROGATE_HINT.search(body):
            try:
                parsed = json.loads(body)
            except ValueError:
                parsed = None  # not JSON: the route answers that
            field = unservable_field(parsed)
            if field is not None:
                await _answer(send, 400, "bad_request", unservable_message(field), field=field)
                return
        pending: list[Message] = [{"type": "http.request", "body": bytes(body), "more_body": False}]

        async def replay() -> Message:
            if pending:
                return pending.pop()
            return await receive()

        await self.app(scope, replay, send)

    def _message(self) -> str:
        return f"request bodies may be at most {self.max_bytes} bytes"


async def _answer(send: Send, status: int, code: str, message: str, **extra: str) -> None:
    body = json.dumps({"error": code, "message": message, **extra}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


_TOKEN_IN_URL = re.compile(r"(?i)(token=)[^&\s\"]+")


class RedactTokens(logging.Filter):
    """Blank out `token=...` in log lines: an old client may still put its token in a URL."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                _TOKEN_IN_URL.sub(r"\1***", a) if isinstance(a, str) else a for a in record.args
            )
        if isinstance(record.msg, str) and "token=" in record.msg.lower():
            record.msg = _TOKEN_IN_URL.sub(r"\1***", record.msg)
        return True


def redact_tokens_in_logs() -> None:
    """Install `RedactTokens` on the access and error logs of uvicorn (once)."""
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
