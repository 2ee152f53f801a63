"""The WebSocket endpoint: `/ws/games/{id}?since=SEQ`, the token in the first message.

Server → client: hello, game, timer, entries (with `revealed` entries when a step
resolves), state, ack, error. Client → server (optional): act, say, draw, ping, each with
an `id` echoed in the ack or error.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from starlette.websockets import WebSocketState

from parley.kernel import ParleyError

from . import metrics
from .db.syncer import track_tickets
from .durable import settled
from .errors import BadRequest, PayloadTooLarge, ServerError, failure_body, status_and_body
from .hub import Conn
from .nesting import too_deep, too_deep_message
from .schemas import ActionIn, PressIn
from .services import Services
from .sockets import admitted, refuse
from .text import check_servable, unservable_field
from .views import viewer_of
from .vocab import UserRecord
from .wire import compact

log = logging.getLogger(__name__)
router = APIRouter()
CLOSE_GRACE_SECONDS = 2.0


@router.websocket("/ws/games/{game_id}")
async def game_socket(ws: WebSocket, game_id: str, since: int = 0, options: bool = True) -> None:
    services: Services = ws.app.state.services
    async with admitted(ws, services) as user:
        if user is not None:
            await _serve(ws, services, user, game_id, since, options)


async def _serve(
    ws: WebSocket, services: Services, user: UserRecord, game_id: str, since: int, options: bool
) -> None:
    try:
        if not 0 <= since <= 10**9:
            raise BadRequest("since is a sequence number, 0 or more")
        holder = track_tickets()  # whether one may watch may rest on a change not yet on disk
        await services.run(services.tables.view, game_id, lambda live: viewer_of(live, user))
        failure = await settled(services.tables.syncer, holder)
        if failure is not None:
            raise failure
    except (ServerError, ParleyError) as err:
        await refuse(ws, err)
        return
    limits = services.settings.limits
    conn = Conn(
        ws=ws,
        user=user,
        sent_seq=since,
        with_options=options,
        queue=asyncio.Queue(maxsize=limits.ws_queue),
    )
    writer = asyncio.create_task(_write(conn))
    services.hub.attach(game_id, conn)
    try:
        while not conn.closing:
            text = await ws.receive_text()
            reply = await _handle(services, user, game_id, text)
            if not conn.push(reply):
                break
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        services.hub.detach(game_id, conn)
        conn.hang_up()
        # A client that stopped reading must not hold this handler: give the writer a moment.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, timeout=CLOSE_GRACE_SECONDS)
        if ws.application_state is WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()


async def _write(conn: Conn) -> None:
    try:
        while True:
            batch = await conn.queue.get()
            if batch is None:
                break
            for message in batch:
                await conn.ws.send_text(message)
            if conn.closing and conn.queue.empty():
                break
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        conn.closing = True
        with contextlib.suppress(Exception):
            await conn.ws.close(code=1000 if conn.queue.empty() else 1013)


async def _handle(services: Services, user: UserRecord, game_id: str, text: str) -> str:
    """The reply to one message, sent only once what it reports is on disk."""
    started = time.perf_counter()
    holder = track_tickets()
    reply, request_id = await _reply(services, user, game_id, text)
    failure = await settled(services.tables.syncer, holder)
    if '"act"' in text:  # a move (or, rarely, press that says just "act": cheap to tell)
        metrics.SUBMIT.labels("ws").observe(time.perf_counter() - started)
    if failure is not None:
        return compact({"type": "error", "id": request_id, **failure.to_json()})
    return reply


async def _reply(services: Services, user: UserRecord, game_id: str, text: str) -> tuple[str, Any]:
    request_id: Any = None
    try:
        if len(text) > services.settings.limits.max_ws_message_bytes:
            raise PayloadTooLarge("the message is too large")
        if too_deep(text):
            log.warning("refused a message on the socket of game %s: it nests too deeply", game_id)
            raise BadRequest(too_deep_message("the message"))
        try:
            message = json.loads(text)
        except ValueError:
            raise BadRequest("messages are JSON objects") from None
        if not isinstance(message, dict):
            raise BadRequest("messages are JSON objects")
        request_id = message.pop("id", None)
        if unservable_field(request_id) is not None:
            request_id = None  # it could not be echoed back
        check_servable(message)
        kind = message.pop("type", None)
        limits = services.settings.limits
        await services.limiter.hit(f"user:{user.id}", limits.rate_per_second, limits.rate_burst)
        result = await _command(services, user, game_id, kind, message)
        return compact({"type": "ack", "id": request_id, "result": result}), request_id
    except (ServerError, ParleyError) as err:
        _, body = status_and_body(err)
        return compact({"type": "error", "id": request_id, **body}), request_id
    except ValidationError as err:
        body = {"error": "invalid_request", "message": _first_problem(err)}
        return compact({"type": "error", "id": request_id, **body}), request_id
    except Exception:  # answered like HTTP's 500: honest about what was saved
        log.exception("unexpected error on a WebSocket command in game %s", game_id)
        return compact({"type": "error", "id": request_id, **failure_body()}), request_id


async def _command(
    services: Services, user: UserRecord, game_id: str, kind: Any, body: dict[str, Any]
) -> Any:
    if kind == "ping":
        return "pong"
    if kind == "act":
        req = ActionIn.model_validate(body)
        out = await services.run(services.play.act, user, game_id, req)
        return out.model_dump(mode="json")
    if kind == "say":
        press = PressIn.model_validate(body)
        return await services.run(services.play.press, user, game_id, press)
    if kind == "draw":
        accept = body.get("accept", True)
        if not isinstance(accept, bool):
            raise BadRequest("accept is true or false")
        draw = await services.run(services.play.draw, user, game_id, accept)
        return draw.model_dump(mode="json")
    raise BadRequest(f"unknown message type {kind!r}; use act, say, draw or ping")


def _first_problem(err: ValidationError) -> str:
    problem = err.errors()[0]
    where = ".".join(str(p) for p in problem.get("loc", ()))
    return f"{where}: {problem.get('msg', 'invalid')}" if where else str(problem.get("msg"))
