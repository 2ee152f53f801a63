"""Press rules the server adds to the kernel's: who may talk, on which channels, how much.

Before the start, the game's members talk in its waiting room: messages kept as the game's
server events (kind "chat"), read by members only; the game's summary carries their count,
so open waiting rooms know to read them again.
"""

from __future__ import annotations

from typing import Any

from . import store
from .errors import BadRequest, Forbidden, PressDisabled, WrongStatus
from .live import LiveGame, Tables, Txn
from .text import clean_text
from .vocab import EventKind, GameStatus, MemberRecord, PressMode, UserRecord


def check_press(
    mode: PressMode, text: str, to: list[int] | None, channel: str, max_chars: int
) -> tuple[str, list[int] | None, str]:
    """The message as the kernel should record it, or the reason it may not be sent."""
    if mode is PressMode.NONE:
        raise PressDisabled("this game is played without press (gunboat)")
    if mode is PressMode.PUBLIC and to is not None:
        raise PressDisabled("this game allows public press only")
    if channel and to is None:
        raise BadRequest("a named channel needs its recipients ('to')", field="channel")
    clean_text(text, "text", max_chars)
    if not text.strip():
        raise BadRequest("a message needs some text", field="text")
    recipients = None if to is None else sorted(set(to))
    return text, recipients, channel


# --- the waiting room: a table chat before the game starts ---------------------------------

WAITING_ROOM_KEPT = 200  # the newest messages served (all stay in the game's events)


def _waiting_out(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {"id": e["id"], "by": e["data"].get("by"), "text": e["data"].get("text"), "at": e["at"]}
        for e in events[-WAITING_ROOM_KEPT:]
    ]


def _member_of(live: LiveGame, user: UserRecord) -> MemberRecord:
    member = live.member(user.id)
    if member is None:
        raise Forbidden("only the game's players and spectators read and write its waiting room")
    return member


def waiting_room(tables: Tables, user: UserRecord, game_id: str) -> list[dict[str, Any]]:
    """The waiting room's messages, oldest first; members of the game only."""
    tables.view(game_id, lambda live: _member_of(live, user))
    with tables.db.read() as s:
        return _waiting_out(store.events(s, game_id, kind=EventKind.CHAT.value))


def waiting_room_say(
    tables: Tables, user: UserRecord, game_id: str, text: str, max_chars: int
) -> list[dict[str, Any]]:
    """Say something in the waiting room (before the start); returns the messages."""

    def fn(txn: Txn) -> None:
        _member_of(txn.live, user)
        if txn.row.status is not GameStatus.LOBBY:
            raise WrongStatus("the game has started: talk in its chat instead")
        if txn.row.press is PressMode.NONE:
            raise PressDisabled(
                "this game is played without press (gunboat), before and after the start"
            )
        clean_text(text, "text", max_chars)
        if not text.strip():
            raise BadRequest("a message needs some text", field="text")
        txn.event(EventKind.CHAT, by=user.username, text=text)

    def then(live: LiveGame) -> list[dict[str, Any]]:
        with tables.db.read() as s:
            found = store.events(s, game_id, kind=EventKind.CHAT.value)
        live.waiting_chat = len(found)  # the summary's count: everyone re-reads the room
        return _waiting_out(found)

    return tables.change_and_view(game_id, fn, f"user:{user.id}", then)[1]
