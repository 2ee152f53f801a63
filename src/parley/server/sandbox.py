"""Sandboxes: one user sets up a position and plays every seat of it.

A sandbox is a server game like any other (the same rules, checks and record) with three
differences: it starts from a position its owner gave, at once, with its owner as the only
member; nobody acts for the seats its owner is not at (no bots, no civil disorder); and its
owner moves between seats (`switch`), so every page, socket and route that shows "your
seat" shows the seat they picked. It is private (never listed for others) and marked
`sandbox` in every game summary.

"Continue from here" (`position_for`) writes the position of a moment of any game the
asker may read, as that asker may see it: everything hidden from them is drawn anew
(`Rules.hidden_variant`), orders others have submitted but not yet revealed are replaced
by the game's default, and the random generator is reseeded, so that the position tells
nothing the asker could not see, not even the chance still to come.
"""

from __future__ import annotations

import secrets
from typing import Any

from pydantic import BaseModel, Field

from parley import games
from parley.kernel import SPECTATOR, Rng, Rules, Viewer

from .clock import Clock
from .errors import BadRequest, Forbidden, NotFound, WrongStatus
from .live import LiveGame, Tables, Txn
from .lobby import Lobby
from .record import new_match
from .schemas import MAX_PERIOD, CreateGame, GameOut, OneLine, Strict
from .views import game_out, seat_since, viewer_of
from .vocab import EventKind, GameStatus, Role, UserRecord


class SandboxIn(Strict):
    game: str = Field(min_length=1, max_length=64, description="game name or alias")
    position: dict[str, Any] = Field(
        description="the position to start from (the game's position format)"
    )
    name: OneLine | None = Field(default=None, min_length=1, max_length=100)


class SeatIn(Strict):
    seat: int = Field(ge=0, le=1000, description="the seat to play and see the game as")


class PositionOut(BaseModel):
    game_id: str
    game: str
    at: int = Field(description="the entries of the record before this moment")
    state_id: int
    viewer_seat: int | None = Field(description="whose view it was made from (null: outsider)")
    whole: bool = Field(
        description="the whole truth (your own sandbox); otherwise everything hidden from "
        "you was drawn anew"
    )
    position: dict[str, Any]


def conceal(rules: Rules[Any, Any], state: Any, viewer: Viewer, rng: Rng) -> Any:
    """A copy of `state` that `viewer` cannot tell from it and that holds nothing they
    cannot see: hidden parts redrawn, others' secret orders replaced, chance reseeded."""
    state = rules.clone(state)
    if not viewer.omniscient:
        variant = rules.hidden_variant(state, viewer, rng)
        if variant is not None:
            state = variant
        _withhold_secrets(rules, state, viewer)
    # The generator would foretell every die and shuffle still to come: a fresh one.
    rules.set_state_rng(state, Rng(rng.next64()))
    return state


def _withhold_secrets(rules: Rules[Any, Any], state: Any, viewer: Viewer) -> None:
    """Drop from `state` (a copy) what `hidden_variant` leaves: secrets of the games that
    have no hidden chance, which the viewer's observation does not show either."""
    from parley.games.diplomacy.rules import DiplomacyState
    from parley.games.sucker.state import SuckerState
    from parley.games.sucker.view import sees

    if isinstance(state, DiplomacyState):
        # Orders waiting for their phase to resolve: the viewer knows who submitted, never
        # what; the others' become the game's default (their units hold).
        for seat in list(state.submitted):
            if seat != viewer.seat:
                state.submitted[seat] = rules.default_action(state, seat)
    elif isinstance(state, SuckerState):
        # Private bargains (option private_channels) belong to their parties alone.
        state.bargains = {k: b for k, b in state.bargains.items() if sees(b, viewer)}
        state.agreed = [b for b in state.agreed if sees(b, viewer)]


def _fresh_rng() -> Rng:
    return Rng(secrets.randbits(64))


class Sandbox:
    """Creating sandboxes, moving between their seats, and positions to start them from."""

    def __init__(self, tables: Tables, clock: Clock, lobby: Lobby) -> None:
        self.tables = tables
        self.clock = clock
        self.lobby = lobby

    def create(
        self, user: UserRecord, game: str, position: dict[str, Any], name: str | None
    ) -> GameOut:
        """A sandbox of `game` from `position`, started, its owner at seat 0."""
        rules = games.find(game)
        req = CreateGame(
            game=rules.spec.name,
            name=name or f"Sandbox: {rules.spec.title}",
            position=position,
            private=True,
            period_seconds=MAX_PERIOD,
            host_role=Role.PLAYER,
        )
        created = self.lobby.create(user, req, sandbox=True)

        def start(txn: Txn) -> None:
            live, row = txn.live, txn.row
            member = live.member(user.id)
            assert member is not None
            names = [user.username] * row.seats
            txn.update_member(member, role=Role.PLAYER, seat=0, seat_since=0)
            txn.live.match = new_match(live.rules, names, row.options, row.seed, row.position)
            txn.set_game(status=GameStatus.ACTIVE, players=names, started_at=txn.now)
            txn.restart_clock = True
            txn.event(EventKind.STARTED, seats=names, sandbox=True)

        return self._change(user, created.id, start)

    def switch(self, user: UserRecord, game_id: str, seat: int) -> GameOut:
        """Move the sandbox's owner to `seat`: only in a sandbox may one user play every seat."""

        def fn(txn: Txn) -> None:
            row = txn.row
            member = txn.live.member(user.id)
            if member is None and row.private:
                raise NotFound(f"there is no game {game_id!r}")  # private games stay unseen
            if not row.sandbox:
                raise Forbidden("only in a sandbox may one user play every seat")
            if row.host_id != user.id or member is None:
                raise Forbidden("only the sandbox's owner plays its seats")
            if row.status is GameStatus.LOBBY:
                raise WrongStatus("the sandbox has not started")
            if not 0 <= seat < row.seats:
                raise BadRequest(f"there is no seat {seat}: seats are 0 to {row.seats - 1}")
            if member.seat != seat:
                txn.update_member(member, seat=seat, seat_since=0)

        return self._change(user, game_id, fn)

    def position_for(self, user: UserRecord, game_id: str, at: int | None) -> PositionOut:
        """The position of the game after its first `at` entries (now, without `at`), as
        `user` may see it; a sandbox's owner gets their sandbox's whole truth."""

        def render(live: LiveGame) -> PositionOut:
            viewer = viewer_of(live, user)
            match = live.match
            if match is None:
                raise WrongStatus("the game has not started: it has no position yet")
            source = match
            if at is not None and at < match.seq:
                if at < seat_since(live, user):
                    viewer = SPECTATOR  # before the viewer took their seat: an outsider's view
                source = self.tables.past(live, at)
            rules = live.rules
            own = live.row.sandbox and live.row.host_id == user.id
            state = (
                rules.clone(source.state)
                if own
                else conceal(rules, source.state, viewer, _fresh_rng())
            )
            return PositionOut(
                game_id=live.row.id,
                game=live.row.game,
                at=source.seq,
                state_id=source.state_id,
                viewer_seat=viewer.seat,
                whole=own,
                position=rules.write_position(state),
            )

        return self.tables.view(game_id, render)

    def _change(self, user: UserRecord, game_id: str, fn: Any) -> GameOut:
        _, out = self.tables.change_and_view(
            game_id, fn, f"user:{user.id}", lambda live: game_out(live, self.clock.now(), user)
        )
        return out
