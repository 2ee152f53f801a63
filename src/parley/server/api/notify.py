"""Notification preferences: for all your games, and for one game."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field, StrictBool

from ..errors import NotFound
from ..notify import (
    Notifier,
    NotifySettings,
    Prefs,
    check_email,
    check_webhook,
    read_prefs,
    write_prefs,
)
from ..services import Services
from ..vocab import UserRecord
from .deps import GameId, LimitedUser, ReadingUser, ServicesDep, errors

router = APIRouter(prefix="/api", tags=["notifications"])
Event = Literal["turn", "press", "deadline"]
EVENTS_ALL: tuple[Event, ...] = ("turn", "press", "deadline")


class PrefsIn(BaseModel):
    model_config = {"extra": "forbid"}
    enabled: StrictBool = True
    email: Annotated[str, Field(max_length=254)] | None = None
    webhook_url: Annotated[str, Field(max_length=2000)] | None = None
    events: Annotated[list[Event], Field(max_length=3)] = Field(
        default_factory=lambda: list(EVENTS_ALL),
        description="turn: a new step owes your decision; press: a message addressed to "
        "you; deadline: a deadline draws near and you are not ready",
    )


class PrefsOut(BaseModel):
    game_id: str | None
    source: Literal["game", "default", "none"] = Field(
        description="where these come from: this game's own, your default, or nothing set"
    )
    enabled: bool
    email: str | None
    webhook_url: str | None
    events: list[str]


def _settings(request: Request) -> NotifySettings:
    found = getattr(request.app.state, "notifier", None)
    return found.settings if isinstance(found, Notifier) else NotifySettings()


def _check(req: PrefsIn, settings: NotifySettings) -> Prefs:
    email = check_email(req.email) if req.email else None
    url = check_webhook(req.webhook_url, settings) if req.webhook_url else None
    return Prefs(req.enabled, email, url, tuple(dict.fromkeys(req.events)))


def _member_of(svc: Services, user: UserRecord, game_id: str) -> None:
    def check(live: object) -> None:
        from ..live import LiveGame

        assert isinstance(live, LiveGame)
        if live.member(user.id) is None:
            raise NotFound(f"you are not in game {game_id!r}")

    svc.tables.view(game_id, check)


def _read(svc: Services, user: UserRecord, game_id: str) -> PrefsOut:
    with svc.tables.db.read() as s:
        prefs, source = read_prefs(s, user.id, game_id)
    return PrefsOut(game_id=game_id or None, source=source, **prefs.to_json())


def _write(svc: Services, user: UserRecord, game_id: str, prefs: Prefs | None) -> PrefsOut:
    if game_id:
        _member_of(svc, user, game_id)
    with svc.tables.db.write() as s:
        write_prefs(s, user.id, game_id, prefs, svc.settings.clock.now())
    return _read(svc, user, game_id)


@router.get("/me/notifications", response_model=PrefsOut, responses=errors(401))
async def get_default(svc: ServicesDep, user: ReadingUser) -> PrefsOut:
    """How you are told about your games (those without settings of their own)."""
    return await svc.run(_read, svc, user, "")


@router.put("/me/notifications", response_model=PrefsOut, responses=errors(400, 401, 429))
async def put_default(
    req: PrefsIn, request: Request, svc: ServicesDep, user: LimitedUser
) -> PrefsOut:
    """Be told by e-mail and/or webhook about every game of yours."""
    prefs = await svc.run.thread(_check, req, _settings(request))  # may resolve a host name
    return await svc.run(_write, svc, user, "", prefs)


@router.get("/games/{game_id}/notifications", response_model=PrefsOut, responses=errors(401, 404))
async def get_for_game(game_id: GameId, svc: ServicesDep, user: ReadingUser) -> PrefsOut:
    """The settings that apply to this game (its own, else your default)."""
    await svc.run(_member_of, svc, user, game_id)
    return await svc.run(_read, svc, user, game_id)


@router.put(
    "/games/{game_id}/notifications",
    response_model=PrefsOut,
    responses=errors(400, 401, 404, 429),
)
async def put_for_game(
    game_id: GameId, req: PrefsIn, request: Request, svc: ServicesDep, user: LimitedUser
) -> PrefsOut:
    """Settings for this game alone (`enabled: false` silences it)."""
    prefs = await svc.run.thread(_check, req, _settings(request))
    return await svc.run(_write, svc, user, game_id, prefs)


@router.delete(
    "/games/{game_id}/notifications", response_model=PrefsOut, responses=errors(401, 404, 429)
)
async def delete_for_game(game_id: GameId, svc: ServicesDep, user: LimitedUser) -> PrefsOut:
    """Forget this game's own settings: your default applies again."""
    return await svc.run(_write, svc, user, game_id, None)
