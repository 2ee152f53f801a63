"""Sandboxes: set up a position, play every seat; positions of any moment to start one from."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, status

from ..sandbox import PositionOut, Sandbox, SandboxIn, SeatIn
from ..schemas import GameOut
from .deps import GameId, LimitedUser, ReadingUser, ServicesDep, errors

router = APIRouter(tags=["sandbox"])


def _sandbox(svc: ServicesDep) -> Sandbox:
    return Sandbox(svc.tables, svc.lobby.clock, svc.lobby)


@router.post(
    "/api/sandbox",
    status_code=status.HTTP_201_CREATED,
    response_model=GameOut,
    responses=errors(400, 401, 409, 413, 429),
)
async def create_sandbox(req: SandboxIn, svc: ServicesDep, user: LimitedUser) -> GameOut:
    """A sandbox from a position, started at once: you play every seat (seat 0 first)."""
    return await svc.run(_sandbox(svc).create, user, req.game, req.position, req.name)


@router.post(
    "/api/sandbox/{game_id}/seat",
    response_model=GameOut,
    responses=errors(400, 401, 403, 404, 409, 429),
)
async def switch_seat(game_id: GameId, req: SeatIn, svc: ServicesDep, user: LimitedUser) -> GameOut:
    """Play and see your sandbox as another seat (refused in any game but a sandbox)."""
    return await svc.run(_sandbox(svc).switch, user, game_id, req.seat)


@router.get(
    "/api/games/{game_id}/position",
    response_model=PositionOut,
    responses=errors(401, 403, 404, 409),
)
async def get_position(
    game_id: GameId,
    svc: ServicesDep,
    user: ReadingUser,
    at: Annotated[int | None, Query(ge=0, le=10**9)] = None,
) -> PositionOut:
    """The position of the game now, or after its first `at` entries, as you may see it:
    everything hidden from you drawn anew ("continue from here" in a sandbox)."""
    if at is not None:  # an earlier point may need replaying: it costs as a past state does
        limits = svc.settings.limits
        extra = max(0.0, limits.past_read_cost - 1)
        await svc.limiter.hit(
            f"read:{user.id}", limits.read_rate_per_second, limits.read_burst, extra
        )
    return await svc.run(_sandbox(svc).position_for, user, game_id, at)
