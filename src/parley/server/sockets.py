"""Admitting WebSockets: the token in the first message, caps per user and process, rates.

A socket carries no token in its address (addresses end up in access logs): the client
sends `{"type": "auth", "token": "..."}` first, within `ws_auth_seconds`. Refusals send an
`error` message and close with `4000 + HTTP status` (4401 bad token, 4429 too many sockets or
opened too fast, 4503 the process holds as many sockets as it may).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from fastapi import WebSocket, WebSocketDisconnect

from parley.kernel import ParleyError

from . import metrics
from .errors import (
    BadRequest,
    RateLimited,
    ServerError,
    ServerFull,
    TooManySockets,
    Unauthorized,
    status_and_body,
)
from .logs import note_user
from .nesting import too_deep, too_deep_message
from .net import client_address
from .vocab import UserRecord

if TYPE_CHECKING:
    from .services import Services

log = logging.getLogger(__name__)


class SocketCount:
    """Open sockets in this process: in all, and per signed-in user."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.total = 0
        self._per_user: dict[int, int] = {}

    def open(self, cap: int) -> bool:
        with self._lock:
            if self.total >= cap:
                return False
            self.total += 1
        metrics.SOCKETS.inc()
        return True

    def close(self) -> None:
        with self._lock:
            self.total -= 1
        metrics.SOCKETS.dec()

    def sign_in(self, user_id: int, cap: int) -> bool:
        with self._lock:
            held = self._per_user.get(user_id, 0)
            if held >= cap:
                return False
            self._per_user[user_id] = held + 1
            return True

    def sign_out(self, user_id: int) -> None:
        with self._lock:
            held = self._per_user.get(user_id, 0) - 1
            if held > 0:
                self._per_user[user_id] = held
            else:
                self._per_user.pop(user_id, None)

    def of(self, user_id: int) -> int:
        with self._lock:
            return self._per_user.get(user_id, 0)


async def refuse(ws: WebSocket, err: ServerError | ParleyError) -> None:
    status, body = status_and_body(err)
    with contextlib.suppress(Exception):
        await ws.send_text(json.dumps({"type": "error", **body}, separators=(",", ":")))
        await ws.close(code=4000 + status, reason=body["error"])


@asynccontextmanager
async def admitted(ws: WebSocket, services: Services) -> AsyncIterator[UserRecord | None]:
    """Accept the socket and find its user; None (the socket refused and closed) if not.

    The socket counts against the caps for as long as the block runs.
    """
    limits = services.settings.limits
    count = services.sockets
    await ws.accept()
    if not count.open(limits.ws_per_process):
        await refuse(ws, ServerFull("this server holds as many live connections as it may"))
        yield None
        return
    try:
        user: UserRecord | None = None
        try:
            user = await _sign_in(ws, services)
        except (ServerError, ParleyError) as err:
            await refuse(ws, err)
        except WebSocketDisconnect:
            pass
        if user is not None and not count.sign_in(user.id, limits.ws_per_user):
            message = f"you have {limits.ws_per_user} live connections open already; close one"
            await refuse(ws, TooManySockets(message))
            user = None
        if user is None:
            yield None
            return
        try:
            yield user
        finally:
            count.sign_out(user.id)
    finally:
        count.close()


async def _sign_in(ws: WebSocket, services: Services) -> UserRecord:
    limits = services.settings.limits
    if "token" in ws.query_params:
        raise BadRequest(
            'send the token in the first message ({"type": "auth", "token": ...}), '
            "never in the address: addresses are logged"
        )
    address = client_address(ws.scope, services.settings.trusted_proxies)
    # An address may hold many users (a household, a school): its allowance is ten users'.
    rate, burst = limits.ws_open_rate_per_second * 10, limits.ws_open_burst * 10
    await _hit(services, f"wsaddr:{address}", rate, burst)
    try:
        async with asyncio.timeout(limits.ws_auth_seconds):
            text = await ws.receive_text()
    except TimeoutError:
        raise Unauthorized(
            f"no token within {limits.ws_auth_seconds:g} s: send "
            '{"type": "auth", "token": ...} first'
        ) from None
    token = _token_of(text)
    user = await services.run(services.accounts.user_for, token)
    note_user(user.id)
    await _hit(services, f"ws:{user.id}", limits.ws_open_rate_per_second, limits.ws_open_burst)
    return user


async def _hit(services: Services, key: str, rate: float, burst: float) -> None:
    try:
        await services.limiter.hit(key, rate, burst)
    except RateLimited as err:
        raise TooManySockets(f"live connections are opened too fast: {err.message}") from None


def _token_of(text: str) -> str | None:
    if len(text) > 1024:
        return None
    if too_deep(text):
        log.warning("refused a socket's first message: it nests too deeply")
        raise BadRequest(too_deep_message("the auth message"))
    try:
        message: Any = json.loads(text)
    except ValueError:
        return None
    if not isinstance(message, dict) or message.get("type") != "auth":
        return None
    token = message.get("token")
    return token if isinstance(token, str) else None
