"""The seat lifecycle: active → missed turns → civil disorder → bot → back to its player.

Everything here runs inside a `Txn`, so a seat's change and the actions it causes are
written together. Bot seats run talking bots: each decision carries the seat's memory and
inbox, and a bot's `Reply` sends its press (within the game's press mode) and casts its
draw vote in the same change as its action. A draw another seat proposes is answered at once
by every seat nobody plays, each by its own judgement (`parley.agents.draws`).
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from parley.agents import bots
from parley.kernel import ActionEntry, Match, ParleyError, Rng, Rules, Viewer

from . import memory, talk
from .drafts import submit_saved
from .errors import ServerError
from .live import Txn
from .press import check_press
from .vocab import Controller, EventKind, GameStatus, MemberRecord, PressMode

log = logging.getLogger(__name__)

_BOT_SALT = 0xB07
_DRAW_SALT = 0xD5A
_ABSENT = bots.DefaultBot()


@dataclass(slots=True)
class SeatMind:
    """What a bot seat keeps between decisions in this process: the bot's memory, and how
    far the seat's inbox and out-of-turn questions have got (record sequence numbers)."""

    memory: dict[str, Any] = field(default_factory=dict)
    read: int = 0  # inbox shown up to here
    asked: int = -1  # the record's length when the seat was last asked out of turn
    talked: tuple[int, int] = (-1, 0)  # the (step, negotiation round) it last talked in
    restored: bool = False  # the saved parts of its memory were read from the database


class BotPool:
    """One bot object per (bot name, game), made on first use; one mind per bot seat.

    Minds live in this process (the least recently used are forgotten past `minds`); the
    parts of a memory its bot names in `remembers` (the negotiators' trust ledger) are kept
    in the database (`parley.server.memory`) and come back after a restart. Its inbox then
    starts after its last recorded action.
    """

    def __init__(self, minds: int = 4096) -> None:
        self._bots: dict[tuple[str, str], bots.Bot] = {}
        self._minds: OrderedDict[tuple[str, int, str], SeatMind] = OrderedDict()
        self._capacity = minds
        self._lock = threading.Lock()

    def mind(self, game_id: str, seat: int, bot: str) -> SeatMind:
        """The seat's mind in this game (a new bot at the seat starts a new one)."""
        key = (game_id, seat, bot)
        with self._lock:
            found = self._minds.get(key)
            if found is None:
                found = self._minds[key] = SeatMind()
                while len(self._minds) > self._capacity:
                    self._minds.popitem(last=False)
            else:
                self._minds.move_to_end(key)
            return found

    def get(self, name: str, rules: Rules[Any, Any]) -> bots.Bot:
        key = (name, rules.spec.name)
        with self._lock:
            bot = self._bots.get(key)
            if bot is None:
                bot = self._bots[key] = bots.make_bot(name, rules)
            return bot


class Automation:
    """Acts for seats nobody plays: bots choose, seats in civil disorder take the default."""

    def __init__(
        self,
        pool: BotPool,
        batch: int,
        max_press_chars: int = 2000,
        wake: Callable[[str, int, str, int], None] | None = None,
    ) -> None:
        self.pool = pool
        self.batch = batch
        self.max_press_chars = max_press_chars
        # Seats played by a chat model (`llm:` bots) are left to `parley.server.llm_seats`,
        # told here (game, seat, bot, state id) when one owes: a model call under the
        # game's lock would freeze the game.
        self.wake = wake

    def __call__(self, txn: Txn) -> None:
        match = txn.live.match
        if match is None or txn.status is not GameStatus.ACTIVE or txn.row.sandbox:
            return  # a sandbox's owner plays every seat: nobody acts for them
        self._answer_draws(txn)
        if talk.open_rounds(txn):
            self._negotiate(txn)  # press only: actions wait for the rounds to end
            txn.automation_pending = False
            return
        for _ in range(self.batch):
            if match.is_over:
                return
            seat = self._next_seat(txn)
            if seat is None:
                break
            member = txn.live.at_seat(seat)
            if member is None:
                txn.act_default(seat, actor="disorder")
            elif member.controller is Controller.BOT:
                self._bot_move(txn, member, seat)
            else:
                txn.act_default(seat, actor="disorder")
                note_missed(txn, member)
        if not match.is_over and self._next_seat(txn) is None:
            self._out_of_turn(txn)
        self._wake_models(txn)
        txn.automation_pending = self._next_seat(txn) is not None  # finish on a later tick

    def _answer_draws(self, txn: Txn) -> None:
        """Seats nobody plays answer an open draw proposal at once, each by its own rule.

        A bot seat asks its bot (`bots.draw_vote`: the heuristics accept only late enough
        and when not ahead); a seat in civil disorder answers as the `default` bot does,
        accepting only once the game is late enough for a draw (`parley.agents.draws`). A
        refusal decides the proposal.
        """
        match = txn.match
        while (voted := match.pending_draw_votes()) and not match.is_over:
            idle = [
                seat
                for seat in sorted(match.rules.alive(match.state) - voted)
                if (m := txn.live.at_seat(seat)) is None or m.controller is not Controller.HUMAN
            ]
            if not idle:
                return
            txn.vote(idle[0], self._draw_answer(txn, idle[0]))

    def _draw_answer(self, txn: Txn, seat: int) -> bool:
        match = txn.match
        member = txn.live.at_seat(seat)
        # A stream of its own per record length: asked again later, a bot may answer anew.
        rng = Rng(txn.row.seed ^ _BOT_SALT ^ _DRAW_SALT).fork(match.seq + 1)
        if member is None or member.controller is not Controller.BOT:
            # Civil disorder answers as the `default` bot, which plays like an absent player.
            absent = bots.Decision(match.rules, seat, match.state, rng, match=match, owed=False)
            return bots.draw_vote(_ABSENT, absent)
        name = member.bot or txn.row.takeover_bot
        if _model_seat(txn, member):
            return False  # a model is not asked about draws (as in the arena)
        try:
            bot = self.pool.get(name, txn.live.rules)
            mind = self.pool.mind(txn.row.id, seat, name)
            decision = bots.Decision(
                match.rules, seat, match.state, rng, match=match, owed=False, memory=mind.memory
            )
            return bots.draw_vote(bot, decision)
        except Exception:  # a bot's bug must not stall the game: it refuses
            log.exception("bot %s failed to answer a draw in game %s", name, txn.row.id)
            return False

    @staticmethod
    def _next_seat(txn: Txn) -> int | None:
        match = txn.match
        for seat in sorted(match.turn().owing):
            member = txn.live.at_seat(seat)
            if member is None or member.controller is not Controller.HUMAN:
                if _model_seat(txn, member):
                    continue  # played outside the lock (parley.server.llm_seats)
                return seat
        return None

    def _wake_models(self, txn: Txn) -> None:
        match = txn.match
        if match.is_over or self.wake is None or talk.open_rounds(txn):
            return
        for seat in sorted(match.turn().owing):
            member = txn.live.at_seat(seat)
            if member is not None and _model_seat(txn, member):
                name = member.bot or txn.row.takeover_bot
                self.wake(txn.row.id, seat, name, match.state_id)

    def _negotiate(self, txn: Txn) -> None:
        """Ask each bot seat once per negotiation round for its press (its action waits)."""
        match = txn.match
        key = (match.state_id, talk.txn_round(txn))
        for seat in sorted(match.rules.alive(match.state)):
            member = txn.live.at_seat(seat)
            if member is None or member.controller is not Controller.BOT:
                continue
            if _model_seat(txn, member):
                continue  # a model talks when it decides, outside the lock
            name = member.bot or txn.row.takeover_bot
            mind = self.pool.mind(txn.row.id, seat, name)
            if mind.talked == key:
                continue
            mind.talked = key
            try:
                bot = self.pool.get(name, txn.live.rules)
                self._ask(txn, bot, name, mind, seat, owed=False, vote=False)
            except Exception:  # a bot's bug must not stall the game
                log.exception("bot %s failed to negotiate in game %s", name, txn.row.id)

    def _out_of_turn(self, txn: Txn) -> None:
        """Ask bots that act anytime whether to act now, once per change of the game."""
        match = txn.match
        for seat in sorted(match.turn().anytime - match.turn().owing):
            member = txn.live.at_seat(seat)
            if member is None or member.controller is not Controller.BOT or match.is_over:
                continue
            if _model_seat(txn, member):
                continue
            name = member.bot or txn.row.takeover_bot
            mind = self.pool.mind(txn.row.id, seat, name)
            if mind.asked >= match.seq:
                continue  # nothing has happened since it was last asked
            try:
                bot = self.pool.get(name, txn.live.rules)
                if not bots.acts_anytime(bot):
                    continue
                action = self._ask(txn, bot, name, mind, seat, owed=False)
                if action is not None and not match.is_over and match.turn().can_act(seat):
                    txn.act(seat, action, actor=f"bot:{name}")
            except ParleyError as err:
                log.warning("bot %s failed out of turn in game %s: %s", name, txn.row.id, err)
            except Exception:  # a bot's bug must not stall the game
                log.exception("bot %s crashed out of turn in game %s", name, txn.row.id)
            mind.asked = match.seq

    def _bot_move(self, txn: Txn, member: MemberRecord, seat: int) -> None:
        match = txn.match
        name = member.bot or txn.row.takeover_bot
        try:
            bot = self.pool.get(name, txn.live.rules)
            mind = self.pool.mind(txn.row.id, seat, name)
            action = self._ask(txn, bot, name, mind, seat, owed=True)
            if match.is_over or seat not in match.turn().owing:
                return  # its draw vote ended the game
            if action is None:
                raise ParleyError("an owed decision was answered with no action")
            txn.act(seat, action, actor=f"bot:{name}")
            return
        except ParleyError as err:
            log.warning("bot %s failed in game %s: %s", name, txn.row.id, err.message)
        except Exception:  # a bot's bug must not stall the game
            log.exception("bot %s crashed in game %s", name, txn.row.id)
        if not match.is_over and seat in match.turn().owing:
            txn.act_default(seat, actor=f"bot:{name}")

    def _ask(
        self,
        txn: Txn,
        bot: bots.Bot,
        name: str,
        mind: SeatMind,
        seat: int,
        *,
        owed: bool,
        vote: bool = True,
    ) -> Any:
        """The bot's action for `seat` (None: none now); its press and vote are recorded."""
        match = txn.match
        mode = txn.row.press
        rng = Rng(txn.row.seed ^ _BOT_SALT).fork(match.seq + 1)
        keep: tuple[str, ...] = tuple(getattr(bot, "remembers", ()))
        if keep and not mind.restored:  # new to this process: what it kept before a restart
            saved = memory.load_bot(txn.session, txn.row.id, seat, name)
            memory.restore_bot(mind.memory, saved)
            mind.restored = True
        decision = bots.Decision(
            match.rules,
            seat,
            match.state,
            rng,
            match=match,
            inbox=self._inbox(match, mind, seat),
            owed=owed,
            press=mode is not PressMode.NONE,
            memory=mind.memory,
        )
        answer = bot.choose(decision)
        if keep:
            memory.save_bot(txn.session, txn.row.id, seat, name, mind.memory, keep, txn.now)
        if not isinstance(answer, bots.Reply):
            return answer
        for say in answer.press if mode is not PressMode.NONE else ():
            self._say(txn, name, seat, say)
        if vote and answer.draw is not None and not match.is_over:
            self._vote(txn, seat, answer.draw)
        return answer.action

    @staticmethod
    def _inbox(match: Match[Any, Any], mind: SeatMind, seat: int) -> list[dict[str, Any]]:
        """Press and draw decisions for the seat since it last decided."""
        since = mind.read
        if since == 0:  # a mind new to this process: start after the seat's last action
            since = next(
                (
                    e.seq + 1
                    for e in reversed(match.entries)
                    if isinstance(e, ActionEntry) and e.seat == seat
                ),
                0,
            )
        mind.read = match.seq
        return [
            e
            for e in match.history(Viewer.of(seat), since)
            if e.get("type") in ("press", "draw") and e.get("seat") != seat
        ]

    def _say(self, txn: Txn, name: str, seat: int, say: bots.Say) -> None:
        """Send one message through the press rules people follow; drop what they forbid."""
        try:
            talk.check_press(txn, seat)
            text, to, channel = check_press(
                txn.row.press,
                say.text,
                None if say.to is None else list(say.to),
                say.channel,
                self.max_press_chars,
            )
            txn.say(seat, text, to, channel)
        except (ServerError, ParleyError) as err:
            log.info("bot %s's message in game %s not sent: %s", name, txn.row.id, err)

    @staticmethod
    def _vote(txn: Txn, seat: int, accept: bool) -> None:
        match = txn.match
        voted = match.pending_draw_votes()
        if seat in voted or seat not in match.rules.alive(match.state):
            return
        if not accept and not voted:
            return  # no proposal to reject
        txn.vote(seat, accept)


def _model_seat(txn: Txn, member: MemberRecord | None) -> bool:
    """The seat is a bot seat played by a chat model (`llm:PROFILE`)."""
    if member is None or member.controller is not Controller.BOT:
        return False
    return (member.bot or txn.row.takeover_bot or "").startswith("llm:")


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
    if on := talk.txn_round(txn):
        talk.next_round(txn)  # a negotiation round ends: nobody owed anything in it
        txn.event(EventKind.DEADLINE, state_id=state_id, seats=[], by=owner, round=on)
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
        # Silence in a short window (`Rules.step_seconds`) is an answer, not an absence.
        window = txn.live.rules.step_seconds(match.state) is not None
        txn.act_default(seat, actor="deadline")
        defaulted.append(seat)
        if member is not None and member.controller is Controller.HUMAN and not window:
            note_missed(txn, member)
    txn.restart_clock = True
    txn.event(EventKind.DEADLINE, state_id=state_id, seats=defaulted, by=owner)
    return defaulted
