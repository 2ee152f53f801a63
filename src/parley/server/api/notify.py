"""Notification preferences: for all your games, and for one game; confirming an e-mail
address and unsubscribing one, from the links in the messages."""

from __future__ import annotations

import html
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field, StrictBool

from ..errors import NotFound
from ..notify import (
    Notifier,
    NotifySettings,
    Prefs,
    check_email,
    check_webhook,
    confirm_address,
    email_confirmed,
    read_prefs,
    request_confirmation,
    unsubscribe,
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
    email_confirmed: bool = Field(
        default=False,
        description="the address's owner followed the link in its confirmation message; "
        "until then nothing else is sent to it",
    )
    webhook_url: str | None
    events: list[str]


class AddressOut(BaseModel):
    address: str
    done: Literal["confirmed", "unsubscribed"]


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
        confirmed = prefs.email is not None and email_confirmed(s, user.id, prefs.email)
    return PrefsOut(
        game_id=game_id or None, source=source, email_confirmed=confirmed, **prefs.to_json()
    )


def _write(
    svc: Services, user: UserRecord, game_id: str, prefs: Prefs | None, settings: NotifySettings
) -> PrefsOut:
    if game_id:
        _member_of(svc, user, game_id)
    now = svc.settings.clock.now()
    with svc.tables.db.write() as s:
        write_prefs(s, user.id, game_id, prefs, now)
        if prefs is not None and prefs.email:
            request_confirmation(s, user.id, prefs.email, now, settings)
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
    return await svc.run(_write, svc, user, "", prefs, _settings(request))


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
    return await svc.run(_write, svc, user, game_id, prefs, _settings(request))


@router.delete(
    "/games/{game_id}/notifications", response_model=PrefsOut, responses=errors(401, 404, 429)
)
async def delete_for_game(
    game_id: GameId, request: Request, svc: ServicesDep, user: LimitedUser
) -> PrefsOut:
    """Forget this game's own settings: your default applies again."""
    return await svc.run(_write, svc, user, game_id, None, _settings(request))


# --- the links in messages: a GET shows a page with a button, the POST acts -----------------
# A GET never changes anything, since mail scanners open links on their own; the POST is
# also what a mail program's one-click unsubscribe (RFC 8058) sends.

Token = Annotated[str, Query(min_length=20, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Parley: {title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><main><h1>{title}</h1><p>{text}</p>
<form method="post" action="{action}"><button type="submit">{button}</button></form>
</main></body></html>
"""


def _page(title: str, text: str, action: str, button: str) -> HTMLResponse:
    body = _PAGE.format(
        title=html.escape(title),
        text=html.escape(text),
        action=html.escape(action, quote=True),
        button=html.escape(button),
    )
    return HTMLResponse(
        body, headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
    )


@router.get("/notifications/confirm", response_class=HTMLResponse, include_in_schema=False)
async def confirm_page(token: Token) -> HTMLResponse:
    return _page(
        "confirm your address",
        "Press the button to receive notifications from this Parley server at the address "
        "this link was sent to.",
        f"/api/notifications/confirm?token={token}",
        "Confirm",
    )


@router.post("/notifications/confirm", response_model=AddressOut, responses=errors(404))
async def confirm(token: Token, svc: ServicesDep) -> AddressOut:
    """Confirm an e-mail address with the token from its confirmation message."""

    def act() -> str:
        with svc.tables.db.write() as s:
            return confirm_address(s, token, svc.settings.clock.now())

    return AddressOut(address=await svc.run(act), done="confirmed")


@router.get("/notifications/unsubscribe", response_class=HTMLResponse, include_in_schema=False)
async def unsubscribe_page(token: Token) -> HTMLResponse:
    return _page(
        "unsubscribe",
        "Press the button to stop every notification from this Parley server to the "
        "address this message was sent to.",
        f"/api/notifications/unsubscribe?token={token}",
        "Unsubscribe",
    )


@router.post("/notifications/unsubscribe", response_model=AddressOut, responses=errors(404))
async def unsubscribe_address(token: Token, svc: ServicesDep) -> AddressOut:
    """Stop notifications to an address, with the token from the link in any message to it
    (no sign-in: the token is the proof). Its owner's settings forget the address."""

    def act() -> str:
        with svc.tables.db.write() as s:
            return unsubscribe(s, token)

    return AddressOut(address=await svc.run(act), done="unsubscribed")
