"""Playing a running game: state, options, actions, history, press, draws, records."""

from __future__ import annotations

from functools import partial
from typing import Annotated, Literal

from fastapi import APIRouter, Query

from ..press import waiting_room, waiting_room_say
from ..schemas import (
    ActionIn,
    ActionOut,
    DrawIn,
    DrawOut,
    HistoryOut,
    OptionsOut,
    PressIn,
    PressOut,
    RecordOut,
    StateOut,
    StepsOut,
    WaitingRoomIn,
    WaitingRoomOut,
)
from .deps import GameId, LimitedUser, ReadingUser, ServicesDep, errors

router = APIRouter(prefix="/api/games", tags=["play"])


@router.get("/{game_id}/state", response_model=StateOut, responses=errors(401, 403, 404, 409))
async def get_state(
    game_id: GameId,
    svc: ServicesDep,
    user: ReadingUser,
    options: bool = True,
    text: bool = False,
    at: Annotated[int | None, Query(ge=0, le=10**9)] = None,
) -> StateOut:
    """Your observation (your seat's, or a spectator's), your options when you may act.

    With `at`, the observation after the first `at` entries of the record, as you could
    see it then (see `/steps` for where each step of the game begins).
    """
    if at is not None:  # an earlier point may need replaying: it takes more of the budget
        limits = svc.settings.limits
        extra = max(0.0, limits.past_read_cost - 1)
        await svc.limiter.hit(
            f"read:{user.id}", limits.read_rate_per_second, limits.read_burst, extra
        )
    state = partial(svc.play.state, with_options=options, with_text=text, at=at)
    return await svc.run(state, user, game_id)


@router.get("/{game_id}/steps", response_model=StepsOut, responses=errors(401, 403, 404))
async def get_steps(game_id: GameId, svc: ServicesDep, user: ReadingUser) -> StepsOut:
    """Where each step (phase, turn) of the record begins: its state id and first seq."""
    return await svc.run(svc.play.steps, user, game_id)


@router.get("/{game_id}/options", response_model=OptionsOut, responses=errors(401, 403, 404, 409))
async def get_options(game_id: GameId, svc: ServicesDep, user: ReadingUser) -> OptionsOut:
    """The legal-options tree of your seat (leaves are actions in notation)."""
    return await svc.run(svc.play.options, user, game_id)


@router.post(
    "/{game_id}/actions",
    response_model=ActionOut,
    responses=errors(400, 401, 403, 404, 409, 413, 429),
)
async def submit_action(
    game_id: GameId, req: ActionIn, svc: ServicesDep, user: LimitedUser
) -> ActionOut:
    """Act for your seat: notation text, the action's JSON form, or the parts of a composite."""
    return await svc.run(svc.play.act, user, game_id, req)


@router.get("/{game_id}/history", response_model=HistoryOut, responses=errors(401, 403, 404))
async def get_history(
    game_id: GameId,
    svc: ServicesDep,
    user: ReadingUser,
    since: Annotated[int, Query(ge=0, le=10**9)] = 0,
    limit: Annotated[int, Query(ge=1, le=10_000)] = 1000,
) -> HistoryOut:
    """The record from `since` on, as you may see it (others' hidden actions stay hidden)."""
    return await svc.run(svc.play.history, user, game_id, since, limit)


@router.post(
    "/{game_id}/press",
    response_model=PressOut,
    responses=errors(400, 401, 403, 404, 409, 413, 429),
)
async def send_press(
    game_id: GameId, req: PressIn, svc: ServicesDep, user: LimitedUser
) -> PressOut:
    """Send a message: public (no `to`), one-to-one or to a group (`to`: seats, `channel`)."""
    return PressOut(entry=await svc.run(svc.play.press, user, game_id, req))


@router.get(
    "/{game_id}/waiting-room", response_model=WaitingRoomOut, responses=errors(401, 403, 404)
)
async def read_waiting_room(game_id: GameId, svc: ServicesDep, user: ReadingUser) -> WaitingRoomOut:
    """The messages of the game's waiting room (members only), oldest first."""
    return WaitingRoomOut(messages=await svc.run(waiting_room, svc.tables, user, game_id))


@router.post(
    "/{game_id}/waiting-room",
    response_model=WaitingRoomOut,
    responses=errors(400, 401, 403, 404, 409, 413, 429),
)
async def say_in_waiting_room(
    game_id: GameId, req: WaitingRoomIn, svc: ServicesDep, user: LimitedUser
) -> WaitingRoomOut:
    """Talk to the game's players and spectators before it starts (not in gunboat games)."""
    limit = svc.settings.limits.max_press_chars
    said = await svc.run(waiting_room_say, svc.tables, user, game_id, req.text, limit)
    return WaitingRoomOut(messages=said)


@router.post("/{game_id}/draw", response_model=DrawOut, responses=errors(401, 403, 404, 409))
async def vote_draw(game_id: GameId, req: DrawIn, svc: ServicesDep, user: LimitedUser) -> DrawOut:
    """Propose or accept a draw (UC 58/61), or reject one; votes stay secret until decided."""
    return await svc.run(svc.play.draw, user, game_id, req.accept)


@router.get("/{game_id}/record", response_model=RecordOut, responses=errors(401, 403, 404, 409))
async def get_record(
    game_id: GameId,
    svc: ServicesDep,
    user: ReadingUser,
    view: Literal["me", "archive"] = "me",
) -> RecordOut:
    """The game record as you may see it; `view=archive` (everything) once the game is over."""
    return await svc.run(svc.play.record, user, game_id, view == "archive")
