"""Taking one's last action back, while the game allows it."""

from __future__ import annotations

from fastapi import APIRouter

from ..undo import Undo, UndoOut
from .deps import GameId, LimitedUser, ServicesDep, errors

router = APIRouter(prefix="/api/games", tags=["play"])


@router.post(
    "/{game_id}/undo", response_model=UndoOut, responses=errors(401, 403, 404, 409, 422, 429)
)
async def undo(game_id: GameId, svc: ServicesDep, user: LimitedUser) -> UndoOut:
    """Take back your seat's last action: only while nobody has acted since and it revealed
    nothing (the state says `can_undo`). The record keeps the action and the takeback."""
    return await svc.run(Undo(svc.tables).undo, user, game_id)
