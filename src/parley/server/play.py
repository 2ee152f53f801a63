"""Playing: actions, options, observations, history, press, draw votes, records."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from pydantic import JsonValue

from parley.kernel import (
    ARCHIVE,
    SPECTATOR,
    DrawEntry,
    InvalidAction,
    OutOfTurn,
    ParleyError,
    StaleState,
    Viewer,
)

from . import store, talk
from .clock import Clock
from .confirm import tag_confirms
from .errors import BadRequest, Conflict, Forbidden, NotFound, StaleRevision, WrongStatus
from .live import LiveGame, Tables, Txn
from .press import check_press
from .schemas import (
    ActionIn,
    ActionOut,
    DrawOut,
    HistoryOut,
    OptionsOut,
    PressIn,
    RecordOut,
    StateOut,
    StepOut,
    StepsOut,
)
from .settings import Limits
from .text import clean_text
from .views import history_for, past_state_out, record_for, seat_since, stamp, state_out, viewer_of
from .vocab import Controller, GameStatus, MemberRecord, Role, UserRecord

log = logging.getLogger(__name__)
MAX_ACTION_CHARS = 10_000


def seat_member(live: LiveGame, user: UserRecord) -> MemberRecord:
    """The user's seat in a running game, or why they may not act in it."""
    member = live.member(user.id)
    if member is None:
        if live.row.private:
            raise NotFound(f"there is no game {live.row.id!r}")  # private games stay unseen
        raise Forbidden("you are not a player in this game")
    if member.seat is None:
        raise Forbidden(
            "spectators cannot act"
            if member.role is Role.SPECTATOR
            else "the game has not started: seats are drawn at the start"
        )
    return member


def _guard_rules(what: str, fn: Any, *args: Any) -> Any:
    """Call into the game's parser; anything but a ParleyError is the input's fault too."""
    try:
        return fn(*args)
    except ParleyError:
        raise
    except Exception as err:  # a parser tripping over odd input must not become a 500
        log.warning("%s raised %s on %r", what, type(err).__name__, args[:1])
        raise InvalidAction(f"the game could not read this action ({type(err).__name__})") from err


class Play:
    def __init__(self, tables: Tables, clock: Clock, limits: Limits) -> None:
        self.tables = tables
        self.clock = clock
        self.limits = limits

    # --- acting ---------------------------------------------------------------------

    def act(
        self,
        user: UserRecord,
        game_id: str,
        req: ActionIn,
        press: Sequence[PressIn] = (),
    ) -> ActionOut:
        """Play `req` for the user's seat; `press` goes into the record just before it.

        The messages and the action are one change: if the action is refused, no message
        is sent either.
        """

        def fn(txn: Txn) -> ActionOut:
            for message in press:
                self._say(txn, user, message)
            live = txn.live
            member = seat_member(live, user)
            if txn.row.status is not GameStatus.ACTIVE:
                raise WrongStatus(f"the game is {txn.row.status.value}")
            if member.controller is not Controller.HUMAN:
                raise Conflict(
                    f"your seat is in {member.controller.value} control; "
                    "say you are back (POST .../back) to play it again"
                )
            seat = member.seat
            assert seat is not None
            match = txn.match
            if not match.turn().can_act(seat):
                raise OutOfTurn(
                    match.out_of_turn_message(
                        seat, req.action if isinstance(req.action, str) else None
                    ),
                    state_id=match.state_id,
                    reason="not_your_turn",
                )
            if req.state_id is not None and req.state_id != match.state_id:
                raise StaleState(
                    f"the action was aimed at state {req.state_id}, "
                    f"but the game is at {match.state_id}",
                    state_id=match.state_id,
                )
            if req.revision is not None and req.revision != live.revision(seat):
                raise StaleRevision(
                    f"the action revises revision {req.revision} of your seat's submission, "
                    f"but it is at revision {live.revision(seat)} (changed elsewhere, e.g. in "
                    "another tab): look at it again before sending",
                    state_id=match.state_id,
                    revision=live.revision(seat),
                )
            talk.check_action(txn)
            action = self._action(live, seat, req)
            entry = txn.act(seat, action, state_id=req.state_id)
            if member.missed:
                txn.update_member(member, missed=0)
            shown = match.history(Viewer.of(seat), since=entry.seq)[0]
            return ActionOut(
                entry=shown,
                state_id=match.state_id,
                seq=match.seq,
                status=txn.status,
                revision=live.revision(seat),
            )

        def after(live: LiveGame) -> tuple[int, int, GameStatus]:
            # Bots may have answered and the game may have ended within the same change.
            assert live.match is not None
            return live.match.state_id, live.row.seq, live.row.status

        out, (state_id, seq, status) = self.tables.change_and_view(
            game_id, fn, f"user:{user.id}", after
        )
        return out.model_copy(update={"state_id": state_id, "seq": seq, "status": status})

    def _action(self, live: LiveGame, seat: int, req: ActionIn) -> Any:
        rules, match = live.rules, live.match
        assert match is not None
        if req.parts is not None:
            if req.action is not None:
                raise BadRequest("send either 'action' or 'parts', not both")
            parts = [self._one(live, seat, part) for part in req.parts]
            return _guard_rules("combine", rules.combine, match.state, seat, parts)
        if req.action is None:
            raise BadRequest("an action is needed: 'action' (notation or JSON) or 'parts'")
        return self._one(live, seat, req.action)

    @staticmethod
    def _one(live: LiveGame, seat: int, value: JsonValue) -> Any:
        rules, match = live.rules, live.match
        assert match is not None
        if isinstance(value, str):
            clean_text(value, "action", MAX_ACTION_CHARS)
            return _guard_rules("parse", rules.parse, value, match.state, seat)
        return _guard_rules("action_from_json", rules.action_from_json, value, match.state, seat)

    # --- reading --------------------------------------------------------------------

    def state(
        self,
        user: UserRecord,
        game_id: str,
        *,
        with_options: bool,
        with_text: bool,
        at: int | None = None,
    ) -> StateOut:
        def render(live: LiveGame) -> StateOut:
            viewer = viewer_of(live, user)
            if at is not None and live.match is not None and at < live.match.seq:
                # An earlier point, seen as this viewer saw it then; a point before the
                # viewer took their seat over, as an outsider saw it.
                if at < seat_since(live, user):
                    viewer = SPECTATOR
                return past_state_out(live, self.tables.past(live, at), viewer, with_text)
            return state_out(
                live, viewer, self.clock.now(), with_options=with_options, with_text=with_text
            )

        return self.tables.view(game_id, render)

    def steps(self, user: UserRecord, game_id: str) -> StepsOut:
        def check(live: LiveGame) -> None:
            viewer_of(live, user)

        self.tables.view(game_id, check)
        with self.tables.db.read() as s:
            found = store.steps(s, game_id)
        return StepsOut(game_id=game_id, steps=[StepOut(state_id=i, seq=q) for i, q in found])

    def options(self, user: UserRecord, game_id: str) -> OptionsOut:
        def render(live: LiveGame) -> OptionsOut:
            member = seat_member(live, user)
            match = live.match
            assert match is not None and member.seat is not None
            seat = member.seat
            can_act = match.turn().can_act(seat) and live.row.status is GameStatus.ACTIVE
            tree = live.rules.options_tree(match.state, seat).to_json() if can_act else None
            if tree is not None:
                tag_confirms(live.rules, match.state, seat, tree)
            return OptionsOut(
                game_id=game_id,
                seat=seat,
                state_id=match.state_id,
                can_act=can_act,
                options=tree,
            )

        return self.tables.view(game_id, render)

    def history(self, user: UserRecord, game_id: str, since: int, limit: int) -> HistoryOut:
        def render(live: LiveGame) -> HistoryOut:
            viewer = viewer_of(live, user)
            match = live.match
            if match is None:
                return HistoryOut(game_id=game_id, since=since, seq=0, entries=[])
            entries = history_for(match, viewer, since, seat_since(live, user), live.said_at)
            entries = entries[:limit]
            return HistoryOut(game_id=game_id, since=since, seq=match.seq, entries=entries)

        return self.tables.view(game_id, render)

    # --- talking and drawing --------------------------------------------------------

    def press(self, user: UserRecord, game_id: str, req: PressIn) -> dict[str, Any]:
        def fn(txn: Txn) -> dict[str, Any]:
            return self._say(txn, user, req)

        return self.tables.change(game_id, fn, f"user:{user.id}")

    def _say(self, txn: Txn, user: UserRecord, req: PressIn) -> dict[str, Any]:
        member = txn.live.member(user.id)
        if member is None or member.seat is None:
            raise Forbidden(
                "only players with a seat send press; spectators read the public channel"
            )
        if txn.row.status is not GameStatus.ACTIVE:
            raise WrongStatus(f"the game is {txn.row.status.value}: press is closed")
        text, to, channel = check_press(
            txn.row.press, req.text, req.to, req.channel, self.limits.max_press_chars
        )
        talk.check_press(txn, member.seat)
        entry = txn.say(member.seat, text, to, channel)
        return stamp(txn.match.history(Viewer.of(member.seat), since=entry.seq), txn.live.said_at)[
            0
        ]

    def draw(self, user: UserRecord, game_id: str, accept: bool) -> DrawOut:
        vote_at: list[int] = []  # where this vote went in the record

        def fn(txn: Txn) -> None:
            member = seat_member(txn.live, user)
            if txn.row.status is not GameStatus.ACTIVE:
                raise WrongStatus(f"the game is {txn.row.status.value}")
            assert member.seat is not None
            vote_at[:] = [txn.match.seq]
            txn.vote(member.seat, accept)

        def decided(live: LiveGame) -> DrawOut:
            # Seats nobody plays may have completed the vote within the same change.
            assert live.match is not None
            for entry in live.match.entries[vote_at[0] :]:
                if isinstance(entry, DrawEntry):
                    return DrawOut(
                        decided=True,
                        agreed=entry.agreed,
                        votes={str(s): v for s, v in entry.votes},
                        status=live.row.status,
                    )
            return DrawOut(decided=False, status=live.row.status)

        _, out = self.tables.change_and_view(game_id, fn, f"user:{user.id}", decided)
        return out

    def record(self, user: UserRecord, game_id: str, archive: bool) -> RecordOut:
        def render(live: LiveGame) -> RecordOut:
            if archive:
                viewer_of(live, user)  # private games: members only
                return RecordOut(view="archive", record=record_for(live, ARCHIVE))
            viewer = viewer_of(live, user)
            if viewer.seat is None:
                return RecordOut(view="spectator", record=record_for(live, viewer))
            since = seat_since(live, user)
            return RecordOut(view="seat", record=record_for(live, viewer, since))

        return self.tables.view(game_id, render)
