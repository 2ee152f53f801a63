"""Standing answers: a seat's answers to recurring questions, given at once by the server."""

from __future__ import annotations

from fastapi import APIRouter

from ..standing import Standing, StandingIn, StandingOut
from .deps import GameId, LimitedUser, ReadingUser, ServicesDep, errors

router = APIRouter(prefix="/api/games", tags=["play"])


@router.get("/{game_id}/standing", response_model=StandingOut, responses=errors(401, 403, 404, 409))
async def get_standing(game_id: GameId, svc: ServicesDep, user: ReadingUser) -> StandingOut:
    """The standing answers the game offers your seat, and which of them you keep."""
    return await svc.run(Standing(svc.tables).get, user, game_id)


@router.post(
    "/{game_id}/standing",
    response_model=StandingOut,
    responses=errors(400, 401, 403, 404, 409, 429),
)
async def set_standing(
    game_id: GameId, req: StandingIn, svc: ServicesDep, user: LimitedUser
) -> StandingOut:
    """Keep a standing answer (it answers for your seat at once whenever it applies, a
    question open now included), or drop it and be asked again."""
    return await svc.run(Standing(svc.tables).set, user, game_id, req)
