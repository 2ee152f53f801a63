"""Standing answers: a player's answer to a recurring question, given by the server at once.

A game names the standing answers it offers (`Rules.standing_settings`) and says when one
applies and what it answers (`Rules.standing_answer`); Illuminati's standing pass answers
the start-of-turn window. The server keeps which ones a seat's player has turned on and,
whenever that seat owes a decision one of them answers, submits the answer in the same
change. No rule lives here.

The settings are stored as saved parts (the drafts table) of no step: state id
`STANDING_STATE`, slot `standing:<name>`. Like drafts they belong to the player who set
them (a newcomer taking the seat over starts with none), are seen only by that player, and
are published with the drafts archive once the game is over.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from pydantic import BaseModel, Field, StrictBool
from sqlalchemy import delete, insert, select
from sqlalchemy.orm import Session

from parley.kernel import InvalidAction, ParleyError

from .db.models import Draft
from .drafts import Repeating, seat_of
from .errors import Conflict, WrongStatus
from .live import LiveGame, Tables, Txn
from .schemas import Strict
from .vocab import Controller, GameStatus, MemberRecord, UserRecord

log = logging.getLogger(__name__)

STANDING_STATE = -1  # no step has this id: the rows stand for every step
PREFIX = "standing:"
MAX_ANSWERS = 64  # standing answers one change may give (a window asks each seat once)


class StandingIn(Strict):
    name: str = Field(max_length=64, description="the standing answer (see the GET route)")
    on: StrictBool = Field(description="keep it (true) or be asked again (false)")


class StandingSettingOut(BaseModel):
    name: str
    label: str
    on: bool


class StandingOut(BaseModel):
    game_id: str
    seat: int
    settings: list[StandingSettingOut]


def kept(s: Session, game_id: str, seat: int, user_id: int) -> set[str]:
    """The standing answers `user_id` keeps for `seat`."""
    rows = s.execute(
        select(Draft.slot).where(
            Draft.game_id == game_id,
            Draft.state_id == STANDING_STATE,
            Draft.seat == seat,
            Draft.user_id == user_id,
        )
    )
    return {str(slot)[len(PREFIX) :] for (slot,) in rows if str(slot).startswith(PREFIX)}


def answer_one(txn: Txn) -> bool:
    """Give one owed seat's standing answer, if one applies; True if it did."""
    match = txn.match
    if match.is_over or txn.status is not GameStatus.ACTIVE:
        return False
    rules = txn.live.rules
    names = list(rules.standing_settings())
    if not names:
        return False
    for seat in sorted(match.turn().owing):
        member = txn.live.at_seat(seat)
        if member is None or member.controller is not Controller.HUMAN or member.user_id is None:
            continue  # automation acts for it
        # Ask the rules first: the store is read only when an answer could apply.
        could = {n: a for n in names if (a := rules.standing_answer(match.state, seat, n))}
        if not could:
            continue
        for name in sorted(kept(txn.session, txn.row.id, seat, member.user_id)):
            action = could.get(name)
            if action is None:
                continue
            try:
                txn.act(seat, action, actor=f"standing:user:{member.user_id}")
            except ParleyError as err:  # the rules offered an answer they refuse: a bug
                log.warning("standing answer %s of seat %s refused: %s", name, seat, err.message)
                return False
            return True
    return False


class StandingAutomation(Repeating):
    """Runs the seats' automation, then the standing answers, as long as either acts."""

    def __init__(self, inner: Callable[[Txn], None]) -> None:
        super().__init__(inner, answer_one, MAX_ANSWERS)


class Standing:
    """Reading and changing a seat's standing answers."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    def get(self, user: UserRecord, game_id: str) -> StandingOut:
        def read(live: LiveGame) -> StandingOut:
            member, seat = seat_of(live, user)
            with self.tables.db.read() as s:
                return _out(live, s, member, seat)

        return self.tables.view(game_id, read)

    def set(self, user: UserRecord, game_id: str, req: StandingIn) -> StandingOut:
        def fn(txn: Txn) -> None:
            live = txn.live
            member, seat = seat_of(live, user)
            if txn.row.status is not GameStatus.ACTIVE:
                raise WrongStatus(f"the game is {txn.row.status.value}")
            if member.controller is not Controller.HUMAN:
                raise Conflict(
                    f"your seat is in {member.controller.value} control; "
                    "say you are back (POST .../back) to play it again"
                )
            offered = live.rules.standing_settings()
            if req.name not in offered:
                known = ", ".join(offered) or "none"
                raise InvalidAction(
                    f"{req.name!r} is not a standing answer of this game; it has: {known}",
                    text=req.name,
                )
            assert member.user_id is not None
            where = (
                Draft.game_id == txn.row.id,
                Draft.state_id == STANDING_STATE,
                Draft.seat == seat,
                Draft.user_id == member.user_id,
                Draft.slot == PREFIX + req.name,
            )
            txn.session.execute(delete(Draft).where(*where))
            if req.on:
                txn.session.execute(
                    insert(Draft).values(
                        game_id=txn.row.id,
                        state_id=STANDING_STATE,
                        seat=seat,
                        user_id=member.user_id,
                        slot=PREFIX + req.name,
                        action="on",
                        updated_at=txn.now,
                    )
                )
            # The automation that runs after this change answers a window open now.

        def after(live: LiveGame) -> StandingOut:
            member, seat = seat_of(live, user)
            with self.tables.db.read() as s:
                return _out(live, s, member, seat)

        _, out = self.tables.change_and_view(game_id, fn, f"user:{user.id}", after)
        return out


def _out(live: LiveGame, s: Session, member: MemberRecord, seat: int) -> StandingOut:
    assert member.user_id is not None
    on = kept(s, live.row.id, seat, member.user_id)
    return StandingOut(
        game_id=live.row.id,
        seat=seat,
        settings=[
            StandingSettingOut(name=name, label=label, on=name in on)
            for name, label in live.rules.standing_settings().items()
        ],
    )
