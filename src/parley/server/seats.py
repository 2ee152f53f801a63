"""The seat lifecycle: active → missed turns → civil disorder → bot → back to its player.

Everything here runs inside a `Txn`, so a seat's change and the actions it causes are
written together.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from parley.agents import bots
from parley.kernel import ParleyError, Rng, Rules

from .drafts import submit_saved
from .live import Txn
from .vocab import Controller, EventKind, GameStatus, MemberRecord

log = logging.getLogger(__name__)

_BOT_SALT = 0xB07


class BotPool:
    """One bot object per (bot name, game), made on first use."""

    def __init__(self) -> None:
        self._bots: dict[tuple[str, str], bots.Bot] = {}
        self._lock = threading.Lock()

    def get(self, name: str, rules: Rules[Any, Any]) -> bots.Bot:
        key = (name, rules.spec.name)
        with self._lock:
            bot = self._bots.get(key)
            if bot is None:
                bot = self._bots[key] = bots.make_bot(name, rules)
            return bot


class Automation:
    """Acts for seats nobody plays: bots choose, seats in civil disorder take the default."""

    def __init__(self, pool: BotPool, batch: int) -> None:
        self.pool = pool
        self.batch = batch

    def __call__(self, txn: Txn) -> None:
        match = txn.live.match
        if match is None or txn.status is not GameStatus.ACTIVE:
            return
        self._accept_draws(txn)
        for _ in range(self.batch):
            if match.is_over:
                return
            seat = self._next_seat(txn)
            if seat is None:
                return
            member = txn.live.at_seat(seat)
            if member is None:
                txn.act_default(seat, actor="disorder")
            elif member.controller is Controller.BOT:
                self._bot_move(txn, member, seat)
            else:
                txn.act_default(seat, actor="disorder")
                note_missed(txn, member)
        txn.automation_pending = self._next_seat(txn) is not None  # finish on a later tick

    @staticmethod
    def _accept_draws(txn: Txn) -> None:
        """Seats nobody plays never block a draw the players propose."""
        match = txn.match
        while (voted := match.pending_draw_votes()) and not match.is_over:
            idle = [
                seat
                for seat in sorted(match.rules.alive(match.state) - voted)
                if (m := txn.live.at_seat(seat)) is None or m.controller is not Controller.HUMAN
            ]
            if not idle:
                return
            txn.vote(idle[0], True)

    @staticmethod
    def _next_seat(txn: Txn) -> int | None:
        match = txn.match
        for seat in sorted(match.turn().owing):
            member = txn.live.at_seat(seat)
            if member is None or member.controller is not Controller.HUMAN:
                return seat
        return None

    def _bot_move(self, txn: Txn, member: MemberRecord, seat: int) -> None:
        match = txn.match
        name = member.bot or txn.row.takeover_bot
        rng = Rng(txn.row.seed ^ _BOT_SALT).fork(match.seq + 1)
        try:
            bot = self.pool.get(name, txn.live.rules)
            action = bots.decide(bot, match, seat, rng)
            txn.act(seat, action, actor=f"bot:{name}")
            return
        except ParleyError as err:
            log.warning("bot %s failed in game %s: %s", name, txn.row.id, err.message)
        except Exception:  # a bot's bug must not stall the game
            log.exception("bot %s crashed in game %s", name, txn.row.id)
        txn.act_default(seat, actor=f"bot:{name}")


def note_missed(txn: Txn, member: MemberRecord) -> MemberRecord:
    """Count a decision the seat's player did not make; hand the seat on when it adds up."""
    row = txn.row
    missed = member.missed + 1
    member = txn.update_member(member, missed=missed)
    if (
        member.controller is Controller.HUMAN
        and row.disorder_after > 0
        and missed >= row.disorder_after
    ):
        member = txn.update_member(member, controller=Controller.DISORDER)
        txn.event(EventKind.DISORDER, seat=member.seat, missed=missed)
    if member.controller is Controller.DISORDER and row.bot_after > 0 and missed >= row.bot_after:
        member = txn.update_member(member, controller=Controller.BOT, bot=row.takeover_bot)
        txn.event(EventKind.TAKEOVER, seat=member.seat, bot=row.takeover_bot, by="server")
    return member


def fire_deadline(txn: Txn, state_id: int, owner: str) -> list[int]:
    """The step `state_id` timed out: every seat still owing takes the game's default.

    Returns the seats that were defaulted (empty when the game has moved on since).
    """
    match = txn.match
    if match.is_over or match.state_id != state_id:
        return []
    defaulted: list[int] = []
    for seat in sorted(match.turn().owing):
        if match.is_over or match.state_id != state_id:
            break
        if seat not in match.turn().owing:
            continue  # resolved by an earlier default of this same deadline
        member = txn.live.at_seat(seat)
        if (
            member is not None
            and member.controller is Controller.HUMAN
            and submit_saved(txn, seat, member, actor="deadline:saved")
        ):
            continue  # the seat's saved orders count, ready or not
        txn.act_default(seat, actor="deadline")
        defaulted.append(seat)
        if member is not None and member.controller is Controller.HUMAN:
            note_missed(txn, member)
    txn.restart_clock = True
    txn.event(EventKind.DEADLINE, state_id=state_id, seats=defaulted, by=owner)
    return defaulted
