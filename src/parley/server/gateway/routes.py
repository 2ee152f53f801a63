"""The gateway's HTTP routes and WebSocket, and `install` to add them to a server app.

    POST /api/agents                                   register an agent (a user + profile)
    GET  /api/agents/me                                the caller's agent profile
    GET  /api/agents/games/{id}/decision               what the caller's seat owes now
    POST /api/agents/games/{id}/decision               answer it (notation or option ids)
    GET  /api/agents/games/{id}/reasoning              the caller's own private reasoning
    GET  /api/agents/games/{id}/research               archive record + all reasoning (game over)
    WS   /ws/agents/games/{id}                          decisions pushed, answers sent back
                                                       (first message: {"type": "auth", "token"})

Joining, starting and leaving games use the server's lobby routes, as for anyone.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from typing import Annotated, Any

import anyio.to_thread
from fastapi import APIRouter, Depends, FastAPI, Request, WebSocket, WebSocketDisconnect, status
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from parley.kernel import ParleyError
from parley.server.api.deps import GameId, LimitedUser, ReadingUser, errors, limited_address
from parley.server.db.syncer import track_tickets
from parley.server.durable import settled
from parley.server.errors import BadRequest, ServerError, status_and_body
from parley.server.hub import Conn
from parley.server.nesting import too_deep, too_deep_message
from parley.server.schemas import ErrorOut
from parley.server.services import Services
from parley.server.sockets import admitted, refuse
from parley.server.text import check_servable, unservable_field
from parley.server.vocab import UserRecord

from .schemas import (
    AgentOut,
    AnswerIn,
    AnswerOut,
    DiaryIn,
    DiaryOut,
    NotesOut,
    PendingOut,
    RegisterAgent,
    RegisteredOut,
    ResearchOut,
)
from .service import Gateway, GatewayConfig
from .sqlstore import SqlStore
from .store import GatewayStore

log = logging.getLogger(__name__)
router = APIRouter(prefix="/api/agents", tags=["agents"])
socket_router = APIRouter()


def gateway(request: Request) -> Gateway:
    found: Gateway = request.app.state.gateway
    return found


GatewayDep = Annotated[Gateway, Depends(gateway)]


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=RegisteredOut,
    responses=errors(400, 409, 422, 429),
    dependencies=[Depends(limited_address)],
)
def register_agent(req: RegisterAgent, gw: GatewayDep) -> RegisteredOut:
    """Register an external agent: a user for games, with its time budget per decision."""
    return gw.register(req)


@router.get("/me", response_model=AgentOut, responses=errors(401))
def me(gw: GatewayDep, user: ReadingUser) -> AgentOut:
    return gw.profile(user)


@router.get(
    "/games/{game_id}/decision", response_model=PendingOut, responses=errors(401, 403, 404, 409)
)
def get_decision(game_id: GameId, gw: GatewayDep, user: LimitedUser) -> PendingOut:
    """The decision your seat owes now, with the text, JSON observation and options."""
    return gw.pending(user, game_id)


@router.post(
    "/games/{game_id}/decision",
    response_model=AnswerOut,
    responses={**errors(400, 401, 403, 404, 409, 429), 422: {"model": AnswerOut | ErrorOut}},
)
def answer_decision(
    game_id: GameId, req: AnswerIn, gw: GatewayDep, user: LimitedUser
) -> AnswerOut | JSONResponse:
    """Answer a decision. A rejected answer (422) may be retried while attempts are left."""
    out = gw.answer(user, game_id, req)
    if out.status == "rejected":
        return JSONResponse(out.model_dump(mode="json"), status_code=422)
    return out


@router.post(
    "/games/{game_id}/diary",
    response_model=DiaryOut,
    status_code=status.HTTP_201_CREATED,
    responses=errors(400, 401, 403, 404, 409, 422, 429),
)
def write_diary(game_id: GameId, req: DiaryIn, gw: GatewayDep, user: LimitedUser) -> DiaryOut:
    """Add an entry to your seat's diary: shown in your later decisions, under `memory`."""
    return gw.write_diary(user, game_id, req)


@router.get("/games/{game_id}/reasoning", response_model=NotesOut, responses=errors(401, 403, 404))
def my_reasoning(game_id: GameId, gw: GatewayDep, user: ReadingUser) -> NotesOut:
    """Your own private reasoning in this game (nobody else's)."""
    return gw.my_notes(user, game_id)


@router.get(
    "/games/{game_id}/research", response_model=ResearchOut, responses=errors(401, 403, 404, 409)
)
def research_export(game_id: GameId, gw: GatewayDep, user: ReadingUser) -> ResearchOut:
    """The archive record with every agent's reasoning and decisions, once the game is over."""
    return gw.research(user, game_id)


# --- the WebSocket ------------------------------------------------------------------------


@socket_router.websocket("/ws/agents/games/{game_id}")
async def agent_socket(ws: WebSocket, game_id: str) -> None:
    """Pushes `{"type": "decision", ...}` whenever the seat owes one; takes `answer` messages.

    Client → server: first `{"type": "auth", "token": ...}`, then `{"type": "answer", "id":
    ..., <AnswerIn fields>}` or `{"type": "ping"}`.
    Server → client: `decision`, `result` (the AnswerOut, with the request's `id`), `over`
    (the game ended), `error`.
    """
    services: Services = ws.app.state.services
    async with admitted(ws, services) as user:
        if user is not None:
            await _serve(ws, services, user, game_id)


async def _serve(ws: WebSocket, services: Services, user: UserRecord, game_id: str) -> None:
    gw: Gateway = ws.app.state.gateway
    try:
        await anyio.to_thread.run_sync(gw.pending, user, game_id)  # checks membership
    except (ServerError, ParleyError) as err:
        await refuse(ws, err)
        return
    # The hub wakes this queue whenever the game changes; its messages are not forwarded.
    changes: asyncio.Queue[list[str] | None] = asyncio.Queue(maxsize=64)
    watcher = Conn(ws=ws, user=user, sent_seq=0, with_options=False, queue=changes)
    services.hub.attach(game_id, watcher)
    offered: set[str] = set()
    lock = asyncio.Lock()

    async def offer() -> bool:
        """Send the pending decision if it is new; False once the game is over."""
        async with lock:
            holder = track_tickets()  # nothing is offered before what it rests on is on disk
            pending = await anyio.to_thread.run_sync(gw.pending, user, game_id)
            failure = await settled(services.tables.syncer, holder)
            if failure is not None:
                raise failure
            if pending.decision is not None and pending.decision.decision not in offered:
                offered.add(pending.decision.decision)
                await ws.send_text(
                    json.dumps({"type": "decision", **pending.decision.model_dump(mode="json")})
                )
            if pending.status in ("finished", "closed"):
                await ws.send_text(
                    json.dumps(
                        {"type": "over", "status": pending.status, "outcome": pending.outcome}
                    )
                )
                return False
            return True

    async def watch() -> None:
        while await offer():
            message = await changes.get()
            if message is None:
                break
            while not changes.empty():  # one look covers every change queued so far
                if changes.get_nowait() is None:
                    return

    watching = asyncio.create_task(watch())
    try:
        while True:
            text = await ws.receive_text()
            holder = track_tickets()
            reply = await _handle(gw, user, game_id, text)
            failure = await settled(services.tables.syncer, holder)
            if failure is not None:  # the answer may never reach the disk: not sent
                reply = json.dumps({"type": "error", "id": None, **failure.to_json()})
            await ws.send_text(reply)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        services.hub.detach(game_id, watcher)
        watching.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await watching


async def _handle(gw: Gateway, user: Any, game_id: str, text: str) -> str:
    request_id: Any = None
    try:
        if too_deep(text):
            log.warning("refused a message on the agent socket of game %s: it nests too deeply",
                        game_id)  # fmt: skip
            raise BadRequest(too_deep_message("the message"))
        message = json.loads(text)
        if not isinstance(message, dict):
            raise ValueError("not an object")
        request_id = message.pop("id", None)
        if unservable_field(request_id) is not None:
            request_id = None  # it could not be echoed back
        check_servable(message)
        kind = message.pop("type", None)
        if kind == "ping":
            return json.dumps({"type": "pong", "id": request_id})
        if kind != "answer":
            return json.dumps(
                {"type": "error", "id": request_id, "error": "bad_request",
                 "message": f"unknown message type {kind!r}; use answer or ping"}
            )  # fmt: skip
        req = AnswerIn.model_validate(message)
        out = await anyio.to_thread.run_sync(gw.answer, user, game_id, req)
        return json.dumps({"type": "result", "id": request_id, **out.model_dump(mode="json")})
    except (ServerError, ParleyError) as err:
        _, body = status_and_body(err)
        return json.dumps({"type": "error", "id": request_id, **body})
    except (ValueError, ValidationError) as err:
        return json.dumps(
            {"type": "error", "id": request_id, "error": "invalid_request", "message": str(err)}
        )


def install(
    app: FastAPI,
    config: GatewayConfig | None = None,
    store: GatewayStore | None = None,
    tick_seconds: float | None = 1.0,
) -> Gateway:
    """Add the gateway to a server app made by `parley.server.create_app`.

    With `tick_seconds`, decisions whose budget ran out are expired that often while the
    app serves (they are expired on every gateway call anyway); None leaves it to the
    caller (tests move a manual clock and call `expire_due`).

    Without a `store`, the gateway keeps its records in the server's database
    (`SqlStore`), so they outlive the process and every server process sees them.
    """
    services: Services = app.state.services
    if store is None:
        store = SqlStore(services.tables.db.engine)
    found = Gateway(services, config, store)
    app.state.gateway = found
    app.include_router(router)
    app.include_router(socket_router)
    if tick_seconds is not None:
        inner = app.router.lifespan_context

        @contextlib.asynccontextmanager
        async def lifespan(app: FastAPI) -> AsyncIterator[Any]:
            async with inner(app) as state:
                found.start(tick_seconds)
                try:
                    yield state
                finally:
                    await found.stop()

        app.router.lifespan_context = lifespan
    return found
