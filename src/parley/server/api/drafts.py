"""Saved orders: a seat's parts saved as they are entered, and its ready flag."""

from __future__ import annotations

from fastapi import APIRouter

from ..drafts import Drafts
from ..schemas import DraftArchiveOut, DraftIn, DraftOut
from .deps import GameId, LimitedUser, ReadingUser, ServicesDep, errors

router = APIRouter(prefix="/api/games", tags=["play"])


@router.get("/{game_id}/draft", response_model=DraftOut, responses=errors(401, 403, 404, 409))
async def get_draft(game_id: GameId, svc: ServicesDep, user: ReadingUser) -> DraftOut:
    """What your seat has saved for the current step, part by part, and whether it is ready."""
    return await svc.run(Drafts(svc.tables).get, user, game_id)


@router.post(
    "/{game_id}/draft",
    response_model=DraftOut,
    responses=errors(400, 401, 403, 404, 409, 413, 429),
)
async def save_draft(
    game_id: GameId, req: DraftIn, svc: ServicesDep, user: LimitedUser
) -> DraftOut:
    """Save or clear parts of your seat's decision, and say whether you are ready."""
    return await svc.run(Drafts(svc.tables).save, user, game_id, req)


@router.get("/{game_id}/drafts", response_model=DraftArchiveOut, responses=errors(401, 403, 404))
async def get_drafts_archive(
    game_id: GameId, svc: ServicesDep, user: ReadingUser
) -> DraftArchiveOut:
    """Every part each seat saved and every ready flag: published once the game is over."""
    drafts = await svc.run(Drafts(svc.tables).archive, user, game_id)
    return DraftArchiveOut(game_id=game_id, drafts=drafts)
