"""Saved orders: a seat's decision saved part by part as it is entered, and a ready flag.

A seat that owes a decision saves its parts (one per `each` group of its options tree: one
order per unit) without submitting them; they are seen only by that seat's player (and by
the archive once the game is over). A separate ready flag says the player is done. The
step is submitted for everyone as soon as every owed seat is ready; when the deadline
passes, whatever each seat saved counts, ready or not. The parts become the seat's action
through the game's own `Rules.combine`: no rule lives here.

Drafts belong to the player who saved them: a newcomer taking the seat over starts empty.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table, and_, bindparam, delete, insert, select
from sqlalchemy.orm import Session

from parley.kernel import (
    IllegalAction,
    InvalidAction,
    OptionNode,
    OutOfTurn,
    ParleyError,
    StaleState,
)

from .db.models import Draft, ReadyFlag
from .errors import Conflict, Forbidden, WrongStatus
from .live import LiveGame, Tables, Txn, read_ready_flags
from .schemas import DraftIn, DraftOut, DraftPartOut
from .store import Prepared
from .text import clean_text
from .views import viewer_of
from .vocab import Controller, GameStatus, MemberRecord, UserRecord

log = logging.getLogger(__name__)
MAX_PART_CHARS = 2_000
MAX_ROUNDS = 64  # steps one change may submit from ready flags (bots may resolve more)


@dataclass(frozen=True, slots=True)
class Slot:
    """One part of a seat's decision: a child of an `each` node, or the whole tree."""

    key: str
    label: str
    node: OptionNode


def slots(tree: OptionNode) -> list[Slot]:
    """The parts a seat's decision is made of, in the tree's order."""
    if tree.each:
        return [Slot(c.key, c.label, c) for c in tree.children]
    return [Slot(tree.key, tree.label, tree)]


# --- the store ----------------------------------------------------------------------------


def saved_parts(s: Session, game_id: str, state_id: int, seat: int, user_id: int) -> dict[str, str]:
    rows = s.execute(
        select(Draft.slot, Draft.action).where(
            Draft.game_id == game_id,
            Draft.state_id == state_id,
            Draft.seat == seat,
            Draft.user_id == user_id,
        )
    )
    return {slot: action for slot, action in rows}


def _key(model: Any, game_id: str, state_id: int, seat: int, user_id: int) -> Any:
    return and_(
        model.game_id == game_id,
        model.state_id == state_id,
        model.seat == seat,
        model.user_id == user_id,
    )


def is_ready(s: Session, game_id: str, state_id: int, seat: int, user_id: int) -> bool:
    found = s.execute(
        select(ReadyFlag.seat).where(_key(ReadyFlag, game_id, state_id, seat, user_id))
    ).first()
    return found is not None


_READY = cast(Table, ReadyFlag.__table__)
# Asked on every change of a running game: compiled once (see `store.Prepared`).
_READY_SEATS = Prepared(
    select(_READY.c.seat, _READY.c.user_id).where(
        _READY.c.game_id == bindparam("game_id"), _READY.c.state_id == bindparam("state_id")
    )
)


def ready_seats(s: Session, game_id: str, state_id: int) -> dict[int, set[int]]:
    """Seat → the users who said they are ready in step `state_id`."""
    rows = _READY_SEATS.run(s.connection(), {"game_id": game_id, "state_id": state_id})
    out: dict[int, set[int]] = {}
    for seat, user_id in rows:
        out.setdefault(int(seat), set()).add(int(user_id))
    return out


# --- turning saved parts into the seat's action -------------------------------------------


def submit_saved(txn: Txn, seat: int, member: MemberRecord, actor: str) -> bool:
    """Submit what `member` saved for `seat` in the current step; False if nothing was saved.

    The parts are combined by the game. Should the whole refuse (two builds in one place,
    say), the largest prefix the game accepts is submitted, and failing that the default.
    """
    match = txn.match
    if member.user_id is None:
        return False
    saved = saved_parts(txn.session, txn.row.id, match.state_id, seat, member.user_id)
    ready = is_ready(txn.session, txn.row.id, match.state_id, seat, member.user_id)
    if not saved and not ready:
        return False
    rules, state = txn.live.rules, match.state
    if not saved:  # ready with nothing entered: what the game does for a silent seat
        txn.act(seat, rules.default_action(state, seat), actor=actor)
        return True
    parts: list[Any] = []
    for slot in slots(rules.options_tree(state, seat)):
        text = saved.get(slot.key)
        if text is None:
            continue
        try:
            parts.append(rules.parse(text, state, seat))
        except ParleyError as err:  # saved against this very step: should not happen
            log.warning("a saved part %r no longer reads: %s", text, err.message)
    for n in range(len(parts), 0, -1):
        try:
            txn.act(seat, rules.combine(state, seat, parts[:n]), actor=actor)
            return True
        except ParleyError as err:
            log.info("saved parts of seat %s refused (%s); trying fewer", seat, err.message)
    txn.act_default(seat, actor=actor)
    return True


def submit_when_ready(txn: Txn) -> bool:
    """Submit every owed seat's saved parts once all of them are ready; True if it did."""
    match = txn.match
    if match.is_over or txn.status is not GameStatus.ACTIVE:
        return False
    if match.state_id != txn.start_state:
        # A step begun within this change has no ready flags yet (a flag names the step it
        # was given in): nothing to read. This spares every ordinary move a query.
        return False
    owing = sorted(match.turn().owing)
    if not owing:
        return False
    members: list[MemberRecord] = []
    for seat in owing:
        member = txn.live.at_seat(seat)
        if member is None or member.controller is not Controller.HUMAN or member.user_id is None:
            return False  # automation acts for it
        members.append(member)
    flags = ready_seats(txn.session, txn.row.id, match.state_id)
    if any(m.user_id not in flags.get(seat, set()) for seat, m in zip(owing, members, strict=True)):
        return False
    state_id = match.state_id
    for seat, member in zip(owing, members, strict=True):
        if match.is_over or match.state_id != state_id:
            break
        if seat in match.turn().owing:
            submit_saved(txn, seat, member, actor=f"ready:user:{member.user_id}")
    return True


class Repeating:
    """Runs the seats' automation, then `step`, again and again while `step` acts (at most
    `rounds` times: each act may wake the automation, which may wake `step` once more)."""

    def __init__(
        self, inner: Callable[[Txn], None], step: Callable[[Txn], bool], rounds: int
    ) -> None:
        self.inner, self.step, self.rounds = inner, step, rounds

    def __call__(self, txn: Txn) -> None:
        self.inner(txn)
        for _ in range(self.rounds):
            if txn.live.match is None or not self.step(txn):
                return
            self.inner(txn)


class ReadyAutomation(Repeating):
    """Runs the seats' automation, then submits steps whose owed seats are all ready."""

    def __init__(self, inner: Callable[[Txn], None]) -> None:
        super().__init__(inner, submit_when_ready, MAX_ROUNDS)


# --- the service --------------------------------------------------------------------------


class Drafts:
    """Saving parts, the ready flag, and reading them back."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    def get(self, user: UserRecord, game_id: str) -> DraftOut:
        def read(live: LiveGame) -> DraftOut:
            member, seat = seat_of(live, user)
            with self.tables.db.read() as s:
                return _out(live, s, member, seat)

        return self.tables.view(game_id, read)

    def save(self, user: UserRecord, game_id: str, req: DraftIn) -> DraftOut:
        def fn(txn: Txn) -> None:
            live, match = txn.live, txn.match
            member, seat = seat_of(live, user)
            if txn.row.status is not GameStatus.ACTIVE:
                raise WrongStatus(f"the game is {txn.row.status.value}")
            if member.controller is not Controller.HUMAN:
                raise Conflict(
                    f"your seat is in {member.controller.value} control; "
                    "say you are back (POST .../back) to play it again"
                )
            if req.state_id is not None and req.state_id != match.state_id:
                raise StaleState(
                    f"the draft was meant for state {req.state_id}, "
                    f"but the game is at {match.state_id}",
                    state_id=match.state_id,
                )
            if seat not in match.turn().owing:
                raise OutOfTurn(
                    f"{match.seat_labels()[seat]} owes no decision now: nothing to save",
                    state_id=match.state_id,
                )
            assert member.user_id is not None
            where = (txn.row.id, match.state_id, seat, member.user_id)
            found = {slot.key: slot for slot in slots(live.rules.options_tree(match.state, seat))}
            checked: dict[str, str | None] = {}
            for key, text in req.parts.items():
                slot = found.get(key)
                if slot is None:
                    raise InvalidAction(
                        f"{key!r} is not a part of this decision; parts: {', '.join(found)}",
                        text=key,
                    )
                checked[key] = None if text is None else _canonical(live, seat, slot, text)
            s = txn.session
            for key, action in checked.items():
                s.execute(delete(Draft).where(_key(Draft, *where), Draft.slot == key))
                if action is not None:
                    s.execute(
                        insert(Draft).values(
                            game_id=where[0],
                            state_id=where[1],
                            seat=seat,
                            user_id=where[3],
                            slot=key,
                            action=action,
                            updated_at=txn.now,
                        )
                    )
            if req.ready is not None:
                s.execute(delete(ReadyFlag).where(_key(ReadyFlag, *where)))
                if req.ready:
                    s.execute(
                        insert(ReadyFlag).values(
                            game_id=where[0],
                            state_id=where[1],
                            seat=seat,
                            user_id=where[3],
                            updated_at=txn.now,
                        )
                    )
            if req.ready and txn.row.sandbox:
                # A sandbox's owner is ready one seat at a time (the others have nobody at
                # them until they switch): a ready seat's saved parts count at once.
                submit_saved(txn, seat, member, actor=f"ready:user:{member.user_id}")

        def after(live: LiveGame) -> DraftOut:
            member, seat = seat_of(live, user)
            with self.tables.db.read() as s:
                read_ready_flags(s, live)  # who is done shows in everyone's state
                return _out(live, s, member, seat)

        _, out = self.tables.change_and_view(game_id, fn, f"user:{user.id}", after)
        return out

    def archive(self, user: UserRecord, game_id: str) -> list[dict[str, Any]]:
        """Every part ever saved and every ready flag, once the game is over, for its members.

        Unlike the record, drafts hold what players typed but never sent (second thoughts,
        plans dropped) under their account ids: they stay with those who were at the table
        (its players, and spectators who joined before the end), in public games too. One
        joining a finished game to read it gets the record, not the drafts.
        """

        def check(live: LiveGame) -> None:
            viewer_of(live, user)  # private games: not even shown to exist for outsiders
            row = live.row
            if not row.status.over:
                raise Forbidden("saved orders are published with the archive, once the game ends")
            member = live.member(user.id)
            ended = row.ended_at if row.ended_at is not None else float("inf")
            if member is None or member.joined_at > ended:
                raise Forbidden(
                    "saved orders are shown only to the game's players and to the spectators "
                    "who joined before it ended"
                )

        self.tables.view(game_id, check)
        with self.tables.db.read() as s:
            parts = s.execute(
                select(Draft).where(Draft.game_id == game_id).order_by(Draft.updated_at)
            ).scalars()
            out: list[dict[str, Any]] = [
                {
                    "state_id": d.state_id,
                    "seat": d.seat,
                    "user_id": d.user_id,
                    "slot": d.slot,
                    "action": d.action,
                    "at": d.updated_at,
                }
                for d in parts
            ]
            flags = s.execute(select(ReadyFlag).where(ReadyFlag.game_id == game_id)).scalars()
            out += [
                {
                    "state_id": f.state_id,
                    "seat": f.seat,
                    "user_id": f.user_id,
                    "ready": True,
                    "at": f.updated_at,
                }
                for f in flags
            ]
        return out


def seat_of(live: LiveGame, user: UserRecord) -> tuple[MemberRecord, int]:
    """The user's member record and seat in a started game."""
    from .play import seat_member  # play imports the views this module builds on

    member = seat_member(live, user)
    assert member.seat is not None
    if live.match is None:
        raise WrongStatus("the game has not started")
    return member, member.seat


def _canonical(live: LiveGame, seat: int, slot: Slot, text: str) -> str:
    """The part in the game's notation, if it is one of the slot's choices."""
    clean_text(text, "action", MAX_PART_CHARS)
    leaves = slot.node.leaves()
    if text in leaves:
        return text
    match = live.match
    assert match is not None
    rules = live.rules
    try:
        canonical = rules.format(rules.parse(text, match.state, seat))
    except ParleyError:
        raise
    except Exception as err:  # a parser tripping over odd input must not become a 500
        raise InvalidAction(
            f"{text!r} could not be read ({type(err).__name__})", text=text
        ) from err
    if canonical not in leaves:
        raise IllegalAction(f"{text!r} is not a choice for {slot.label}", text=text)
    return canonical


def _out(live: LiveGame, s: Session, member: MemberRecord, seat: int) -> DraftOut:
    match = live.match
    assert match is not None and member.user_id is not None
    owes = seat in match.turn().owing and live.row.status is GameStatus.ACTIVE
    saved = saved_parts(s, live.row.id, match.state_id, seat, member.user_id) if owes else {}
    parts: list[DraftPartOut] = []
    if owes:
        for slot in slots(live.rules.options_tree(match.state, seat)):
            parts.append(DraftPartOut(slot=slot.key, label=slot.label, action=saved.get(slot.key)))
    ready = owes and is_ready(s, live.row.id, match.state_id, seat, member.user_id)
    return DraftOut(
        game_id=live.row.id,
        seat=seat,
        state_id=match.state_id,
        owes=owes,
        parts=parts,
        ready=ready,
    )
