"""Games in memory: a cache of matches kept in step with the store, and the write path.

Every change to a game runs as `Tables.change(game_id, fn)`: under the game's lock in this
process, on a match brought up to date with the store, in one database transaction that
appends the new entries with their sequence numbers and bumps the game's version only if
nobody else did. When another process wins the race, the change is re-run on the newer
state, so two submissions never both apply against the same state.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from parley import games
from parley.kernel import ARCHIVE, ActionEntry, DrawEntry, Match, PressEntry, Rules, TakebackEntry

from . import metrics, store
from .clock import Clock
from .db.models import Event, ReadyFlag
from .db.syncer import note_ticket
from .errors import Busy, NotFound, WrongStatus, note_commit
from .record import catch_up, dump_snapshot, load_snapshot, new_match, snapshot_format
from .store import EntryRow, StaleWrite, Store
from .text import check_servable, servable
from .vocab import (
    Controller,
    DeadlineRecord,
    EventKind,
    GameRecord,
    GameStatus,
    MemberRecord,
    Role,
)

log = logging.getLogger(__name__)
R = TypeVar("R")
V = TypeVar("V")


def _nothing(live: LiveGame) -> None:
    return None


@dataclass(frozen=True, slots=True)
class Notice:
    """Something changed in a game; subscribers re-read what they show."""

    game_id: str
    version: int


@dataclass(slots=True)
class LiveGame:
    """One game as this process knows it, at `row.version`."""

    row: GameRecord
    members: list[MemberRecord]
    deadline: DeadlineRecord | None
    rules: Rules[Any, Any]
    match: Match[Any, Any] | None = None
    checked_at: float = 0.0  # when the store last confirmed this version (monotonic)
    # When each message was recorded (seq -> epoch seconds): the kernel's record has no
    # clock, the store's rows do, and readers are shown both.
    said_at: dict[int, float] = field(default_factory=dict)
    _revisions: tuple[Match[Any, Any], int, list[int]] | None = None  # match, counted, counts
    # The ready flags of one step: (state_id, seat -> users who said they are done). Read
    # with the game and after every saved draft, so showing who is done costs no query.
    ready_flags: tuple[int, dict[int, frozenset[int]]] | None = None
    waiting_chat: int = 0  # messages in the waiting room (counted while in the lobby)

    def ready_seats(self) -> frozenset[int]:
        """Owed seats whose current player said they are done with the current step."""
        match, flags = self.match, self.ready_flags
        if match is None or flags is None or flags[0] != match.state_id:
            return frozenset()
        out = set()
        for seat in match.turn().owing:
            member = self.at_seat(seat)
            if member is not None and member.user_id in flags[1].get(seat, frozenset()):
                out.add(seat)
        return frozenset(out)

    def revision(self, seat: int) -> int:
        """How many actions `seat` has submitted so far: its current revision number.

        A client sends it back with its next action; a different number means the seat's
        submission changed meanwhile (another tab, another device), and the action is refused
        as stale. Counted from the record, so it needs no storage of its own.
        """
        match = self.match
        if match is None:
            return 0
        found = self._revisions
        if found is None or found[0] is not match or found[1] > match.seq:
            found = (match, 0, [0] * match.seats)
        counts = found[2]
        for entry in match.entries[found[1] :]:
            if isinstance(entry, ActionEntry):
                counts[entry.seat] += 1
        self._revisions = (match, match.seq, counts)
        return counts[seat]

    def member(self, user_id: int) -> MemberRecord | None:
        return next((m for m in self.members if m.user_id == user_id), None)

    def at_seat(self, seat: int) -> MemberRecord | None:
        return next((m for m in self.members if m.seat == seat), None)

    @property
    def players(self) -> list[MemberRecord]:
        return [m for m in self.members if m.role is Role.PLAYER]


@dataclass(slots=True)
class Txn:
    """One change to one game, collected and then written in a single transaction."""

    live: LiveGame
    session: Session
    now: float
    actor: str
    start_seq: int = 0
    start_state: int | None = None  # the match's state_id when the change began (None: no match)
    changes: dict[str, Any] = field(default_factory=dict)
    events: list[tuple[EventKind, dict[str, Any]]] = field(default_factory=list)
    restart_clock: bool = False  # give the current step a fresh deadline
    automation_pending: bool = False  # bots still have work: wake the scheduler now
    rewrite_deadline: bool = False  # write the deadline row again (ends a claim on it)
    period: float | None = None  # a fresh deadline this far ahead (None: the game's period)
    # The record's last change was one that can be taken back, or a takeback: the step
    # keeps the deadline it had, so stepping and taking back never buys time.
    hold_clock: bool = False
    _meta: dict[int, tuple[str, int]] = field(default_factory=dict)
    written: Counter[str] = field(default_factory=Counter)  # entries flushed, by kind

    @property
    def match(self) -> Match[Any, Any]:
        if self.live.match is None:
            raise WrongStatus("the game has not started")
        return self.live.match

    @property
    def row(self) -> GameRecord:
        return self.live.row

    @property
    def status(self) -> GameStatus:
        """The game's status as this transaction leaves it."""
        status: GameStatus = self.changes.get("status", self.live.row.status)
        return status

    # --- the record -----------------------------------------------------------------

    def _note(self, before: int, state_id: int, actor: str | None) -> None:
        for seq in range(before, self.match.seq):
            self._meta[seq] = (actor or self.actor, state_id)

    def act(
        self, seat: int, action: Any, *, actor: str | None = None, state_id: int | None = None
    ) -> ActionEntry[Any]:
        match = self.match
        before, sid = match.seq, match.state_id
        entry = match.act(seat, action, state_id=state_id)
        self._note(before, sid, actor)
        self.hold_clock = match.can_take_back(seat)
        return entry

    def take_back(self, seat: int) -> TakebackEntry:
        match = self.match
        before, sid = match.seq, match.state_id
        entry = match.take_back(seat)
        self._note(before, sid, None)
        self.hold_clock = True
        return entry

    def act_default(self, seat: int, actor: str) -> ActionEntry[Any]:
        match = self.match
        before, sid = match.seq, match.state_id
        entry = match.act_default(seat)
        self._note(before, sid, actor)
        self.hold_clock = False
        return entry

    def say(
        self, seat: int | None, text: str, to: Sequence[int] | None, channel: str
    ) -> PressEntry:
        match = self.match
        before, sid = match.seq, match.state_id
        entry = match.say(seat, text, to, channel)
        self._note(before, sid, None)
        self.live.said_at[entry.seq] = self.now  # the time flush writes with the row
        return entry

    def vote(self, seat: int, accept: bool) -> DrawEntry | None:
        match = self.match
        before, sid = match.seq, match.state_id
        decision = match.vote_draw(seat, accept)
        self._note(before, sid, None)
        return decision

    # --- the game and its members ---------------------------------------------------

    def set_game(self, **changes: Any) -> None:
        self.changes.update(changes)

    def event(self, kind: EventKind, **data: Any) -> None:
        self.events.append((kind, data))

    def add_member(
        self, *, user_id: int | None, role: Role, bot: str | None, controller: Controller
    ) -> None:
        store.insert_member(
            self.session,
            self.row.id,
            user_id=user_id,
            role=role,
            bot=bot,
            controller=controller,
            now=self.now,
        )
        self._reload_members()

    def update_member(self, member: MemberRecord, **changes: Any) -> MemberRecord:
        store.update_member(self.session, member.id, **changes)
        if "user_id" in changes:  # the username comes with the user: read the row back
            self._reload_members()
            found = next(m for m in self.live.members if m.id == member.id)
            return found
        updated = replace(member, **changes)
        self.live.members = [updated if m.id == member.id else m for m in self.live.members]
        return updated

    def remove_member(self, member: MemberRecord) -> None:
        store.delete_member(self.session, member.id)
        self.live.members = [m for m in self.live.members if m.id != member.id]

    def _reload_members(self) -> None:
        self.live.members = store.members(self.session, self.row.id)

    # --- writing --------------------------------------------------------------------

    def flush(self, every: int) -> tuple[GameRecord, DeadlineRecord | None]:
        """Write everything; raise StaleWrite/IntegrityError when another writer was first."""
        s, row, match = self.session, self.live.row, self.live.match
        changes = dict(self.changes)
        if match is not None and match.seq > self.start_seq:
            rows = []
            for entry in match.history(ARCHIVE, since=self.start_seq):
                seq = int(entry["seq"])
                actor, sid = self._meta.get(seq, (self.actor, match.state_id))
                text = json.dumps(entry, ensure_ascii=False)
                if not servable(text):  # never store what could not be served back
                    check_servable(entry)
                rows.append(EntryRow(seq, str(entry["type"]), text, actor, sid, self.now))
            store.insert_entries(s, row.id, rows)
            changes["seq"] = match.seq
            self.written = Counter(r.kind for r in rows)
        status = changes.get("status", row.status)
        if match is not None and status is GameStatus.ACTIVE and match.is_over:
            outcome = match.outcome()
            assert outcome is not None
            status = GameStatus.FINISHED
            changes.update(status=status, outcome=outcome.to_json(), ended_at=self.now)
            self.event(EventKind.FINISHED, reason=outcome.reason)
        store.bump_game(s, row.id, row.version, **changes)
        deadline = self.live.deadline
        if status is not GameStatus.ACTIVE or match is None:
            if deadline is not None:
                store.delete_deadline(s, row.id)
            deadline = None
        elif (
            deadline is None
            or self.restart_clock
            or self.automation_pending
            or self.rewrite_deadline
            or deadline.state_id != match.state_id
        ):
            keep = (
                deadline is not None
                and (deadline.state_id == match.state_id or self.hold_clock)
                and not self.restart_clock
            )
            period = self.period if self.period is not None else step_period(self.live, match)
            due = deadline.due_at if keep and deadline is not None else self.now + period
            wake = self.now if self.automation_pending else due
            deadline = store.set_deadline(s, row.id, match.state_id, due, wake)
        if match is not None and match.seq // every > self.start_seq // every:
            store.insert_snapshot(
                s,
                row.id,
                match.seq,
                snapshot_format(self.live.rules),
                dump_snapshot(match),
                self.now,
            )
        for kind, data in self.events:
            store.insert_event(s, row.id, kind.value, data, self.now)
        new_row = replace(row, version=row.version + 1, **_record_fields(changes))
        return new_row, deadline


def step_period(live: LiveGame, match: Match[Any, Any]) -> float:
    """The deadline of the match's current step: a short window's own (`Rules.step_seconds`),
    never longer than the game's period, or the game's period."""
    period = float(live.row.period_seconds)
    if match.is_over:
        return period
    short = live.rules.step_seconds(match.state)
    return period if short is None else min(period, float(short))


def read_ready_flags(s: Session, live: LiveGame) -> None:
    """Remember the ready flags of the game's current step (see `LiveGame.ready_flags`)."""
    match = live.match
    if match is None:
        live.ready_flags = None
        return
    rows = s.execute(
        select(ReadyFlag.seat, ReadyFlag.user_id).where(
            ReadyFlag.game_id == live.row.id, ReadyFlag.state_id == match.state_id
        )
    )
    flags: dict[int, set[int]] = {}
    for seat, user_id in rows:
        flags.setdefault(int(seat), set()).add(int(user_id))
    live.ready_flags = (match.state_id, {k: frozenset(v) for k, v in flags.items()})


def count_waiting_chat(s: Session, live: LiveGame) -> None:
    """Count the waiting room's messages (before the start only: later they are not shown)."""
    if live.row.status is not GameStatus.LOBBY:
        return
    found = s.execute(
        select(func.count())
        .select_from(Event)
        .where(Event.game_id == live.row.id, Event.kind == EventKind.CHAT.value)
    ).scalar()
    live.waiting_chat = int(found or 0)


def _record_fields(changes: dict[str, Any]) -> dict[str, Any]:
    out = dict(changes)
    if "players" in out:
        out["players"] = tuple(out["players"])
    return out


Automation = Callable[[Txn], None]


class Tables:
    """The games this process has in memory, and the one way to change a game."""

    def __init__(
        self,
        db: Store,
        clock: Clock,
        *,
        snapshot_every: int,
        capacity: int,
        notify: Callable[[Notice], None],
        freshness_seconds: float = 1.0,
        past_capacity: int = 64,
    ) -> None:
        self.db = db
        self.freshness = freshness_seconds
        self.clock = clock
        self.snapshot_every = snapshot_every
        self.capacity = capacity
        self.notify = notify
        self.automation: Automation | None = None
        self._cache: OrderedDict[str, LiveGame] = OrderedDict()
        self._past: OrderedDict[tuple[str, int], Match[Any, Any]] = OrderedDict()
        self.past_capacity = past_capacity
        self._locks: dict[str, threading.RLock] = {}
        self._guard = threading.Lock()
        self._stale: set[str] = set()  # games another process changed (told by the bus)
        # With group-synced commits (db/syncer.py): the ticket of each game's last change
        # that may not be on disk yet. Whoever reads such a game waits for it.
        self.syncer = db.syncer
        self._unsynced: dict[str, int] = {}
        self.conflicts = 0  # writes lost to another process and retried

    @property
    def cached(self) -> int:
        return len(self._cache)

    def lock(self, game_id: str) -> threading.RLock:
        with self._guard:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = self._locks[game_id] = threading.RLock()
            return lock

    # --- loading --------------------------------------------------------------------

    def _load(self, s: Session, game_id: str) -> LiveGame:
        row = store.game(s, game_id)
        if row is None:
            raise NotFound(f"there is no game {game_id!r}")
        live = LiveGame(
            row=row,
            members=store.members(s, game_id),
            deadline=store.deadline(s, game_id),
            rules=games.find(row.game),
        )
        if row.status is not GameStatus.LOBBY and row.players:
            live.match = self._load_match(s, live)
            live.said_at = store.press_times(s, game_id, until=live.match.seq)
            read_ready_flags(s, live)
        count_waiting_chat(s, live)
        return live

    def _load_match(self, s: Session, live: LiveGame, upto: int | None = None) -> Match[Any, Any]:
        """The match after the first `upto` entries (all of them by default)."""
        row, rules = live.row, live.rules
        end = row.seq if upto is None else min(upto, row.seq)
        match: Match[Any, Any] | None = None
        snap = store.latest_snapshot(s, row.id, snapshot_format(rules), at_most=end)
        if snap is not None:
            match = load_snapshot(snap[1], rules, snap[0])
        if match is None:
            match = new_match(rules, row.players, row.options, row.seed, row.position)
        catch_up(match, store.entries(s, row.id, since=match.seq, until=end))
        return match

    def past(self, live: LiveGame, upto: int) -> Match[Any, Any]:
        """A separate match as the game stood after its first `upto` entries (do not change it).

        Recent answers are kept: the past never changes, and a client stepping through a
        game's history asks for the same few points again and again.
        """
        key = (live.row.id, upto)
        with self._guard:
            found = self._past.get(key)
            if found is not None:
                self._past.move_to_end(key)
                return found
        with self.db.read() as s:
            match = self._load_match(s, live, upto)
        with self._guard:
            self._past[key] = match
            while len(self._past) > self.past_capacity:
                self._past.popitem(last=False)
        return match

    def _fresh(self, game_id: str) -> LiveGame:
        """The game at the store's current version (caller holds the game's lock).

        A game this process changed or confirmed within the freshness window is taken as
        it is, unless the bus said another process changed it: reads may trail another
        process by at most that window if a notice is lost, and writes never do (they are
        checked against the stored version).
        """
        live = self._cache.get(game_id)
        now = time.monotonic()
        with self._guard:
            stale = game_id in self._stale
            self._stale.discard(game_id)
        if live is not None and not stale and now - live.checked_at < self.freshness:
            self._touch(game_id)
            return live
        with self.db.read() as s:
            if live is not None:
                version = store.game_version(s, game_id)
                if version is None:
                    self.forget(game_id)
                    raise NotFound(f"there is no game {game_id!r}")
                if version == live.row.version:
                    live.checked_at = now
                    self._touch(game_id)
                    return live
                try:
                    live = self._refresh(s, live)
                    live.checked_at = now
                    return live
                except Exception:
                    log.exception("catching up game %s failed; loading it afresh", game_id)
            live = self._load(s, game_id)
        live.checked_at = now
        self._remember(live)
        return live

    def mark_stale(self, game_id: str, version: int | None = None) -> None:
        """Re-read the game from the store on next use (unless already at `version`)."""
        live = self._cache.get(game_id)
        if live is not None and version is not None and live.row.version >= version:
            return
        with self._guard:
            self._stale.add(game_id)

    def _refresh(self, s: Session, live: LiveGame) -> LiveGame:
        row = store.game(s, live.row.id)
        if row is None:
            raise NotFound(f"there is no game {live.row.id!r}")
        live.row = row
        live.members = store.members(s, row.id)
        live.deadline = store.deadline(s, row.id)
        if row.status is not GameStatus.LOBBY and row.players:
            if live.match is None or live.match.seq > row.seq:
                live.match = self._load_match(s, live)
                live.said_at = store.press_times(s, row.id, until=live.match.seq)
            else:
                rows = store.entries(s, row.id, since=live.match.seq, until=row.seq)
                catch_up(live.match, rows)
                live.said_at.update((r.seq, r.created_at) for r in rows if r.kind == "press")
            read_ready_flags(s, live)
        count_waiting_chat(s, live)
        return live

    def _remember(self, live: LiveGame) -> None:
        with self._guard:
            before = len(self._cache)
            self._cache[live.row.id] = live
            self._cache.move_to_end(live.row.id)
            while len(self._cache) > self.capacity:
                old, _ = self._cache.popitem(last=False)
                self._locks.pop(old, None)
                # Forgotten with the game once on disk (a change still in flight stays).
                ticket = self._unsynced.get(old)
                if ticket is not None and self.syncer is not None and self.syncer.is_synced(ticket):
                    del self._unsynced[old]
            metrics.CACHED.inc(len(self._cache) - before)

    def _touch(self, game_id: str) -> None:
        with self._guard:
            if game_id in self._cache:
                self._cache.move_to_end(game_id)

    def forget(self, game_id: str) -> None:
        with self._guard:
            if self._cache.pop(game_id, None) is not None:
                metrics.CACHED.dec()

    # --- reading and changing -------------------------------------------------------

    def _settle(self, game_id: str, wait: bool = True) -> bool:
        """Hold back what is read of the game until its last change is on disk.

        In a request (or anything with a holder of tickets) its answer waits, without
        blocking anyone; otherwise this waits here when `wait` (False when it would have to).
        """
        syncer = self.syncer
        if syncer is None:
            return True
        ticket = self._unsynced.get(game_id)
        if ticket is None:
            return True
        if syncer.is_synced(ticket):
            with self._guard:
                if self._unsynced.get(game_id) == ticket:
                    del self._unsynced[game_id]
            return True
        if note_ticket(ticket):
            return True
        if not wait:
            return False
        # A reader with no answer to hold back (a background task) waits for the flush.
        # In the event loop that blocks it for one flush at most, and only when such a
        # reader comes within a flush of the game's change, which is rare.
        syncer.wait(ticket)
        return True

    def view(self, game_id: str, fn: Callable[[LiveGame], R]) -> R:
        """Run `fn` on the current game under its lock; `fn` must not change it."""
        with self.lock(game_id):
            self._settle(game_id)
            return fn(self._fresh(game_id))

    def view_cached(self, game_id: str, fn: Callable[[LiveGame], R]) -> tuple[bool, R | None]:
        """`view`, only if it can run at once: `(True, result)`, else `(False, None)`.

        It runs when the game's lock is free and its cached copy needs no read from the
        store (confirmed within the freshness window, no notice from another process), so
        an event loop may call it without waiting on a worker thread or the database.
        """
        lock = self.lock(game_id)
        if not lock.acquire(blocking=False):
            return False, None
        try:
            live = self._cache.get(game_id)
            if live is None or time.monotonic() - live.checked_at >= self.freshness:
                return False, None
            if not self._settle(game_id, wait=False):
                return False, None
            with self._guard:
                if game_id in self._stale:
                    return False, None
            self._touch(game_id)
            return True, fn(live)
        finally:
            lock.release()

    def create(self, fn: Callable[[Session], R]) -> R:
        with self.db.write() as s:
            result = fn(s)
        note_commit("")
        return result

    def change(self, game_id: str, fn: Callable[[Txn], R], actor: str) -> R:
        """Run `fn` as one transaction on the current game, again if another writer won."""
        return self.change_and_view(game_id, fn, actor, _nothing)[0]

    def change_and_view(
        self,
        game_id: str,
        fn: Callable[[Txn], R],
        actor: str,
        then: Callable[[LiveGame], V],
        attempts: int = 4,
    ) -> tuple[R, V]:
        """`change`, then `then` on the game as it was left, under the same lock."""
        for _ in range(attempts):
            with self.lock(game_id):
                # An answer built on (or refused because of) the game's last change waits
                # for it; with nobody to answer there is no need to wait: a commit here
                # takes a later ticket, and its notice waits for that.
                self._settle(game_id, wait=False)
                live = self._fresh(game_id)
                try:
                    result, notice = self._attempt(live, fn, actor)
                except (StaleWrite, IntegrityError):
                    self.forget(game_id)
                    self.conflicts += 1
                    metrics.CONFLICTS.inc()
                    continue
                except OperationalError as err:
                    if "locked" not in str(err).lower():
                        self.forget(game_id)
                        raise
                    self.forget(game_id)  # SQLite busy past its timeout: try again
                    self.conflicts += 1
                    metrics.CONFLICTS.inc()
                    continue
                note_commit(game_id)
                ticket = self.db.last_ticket()
                if ticket:
                    with self._guard:
                        self._unsynced[game_id] = ticket
                shown = then(live)
            self._publish(notice, ticket)
            return result, shown
        raise Busy("the game changed under this request several times; try again")

    def _publish(self, notice: Notice, ticket: int) -> None:
        """Tell subscribers, once the change is on disk (never, if it cannot be)."""
        if self.syncer is not None and ticket:
            self.syncer.after(ticket, self.notify, notice)
        else:
            self.notify(notice)

    def _attempt(self, live: LiveGame, fn: Callable[[Txn], R], actor: str) -> tuple[R, Notice]:
        match_before = live.match
        seq_before = match_before.seq if match_before is not None else 0
        saved = (list(live.members), live.row, live.deadline)
        try:
            with self.db.write() as s:
                txn = Txn(
                    live=live,
                    session=s,
                    now=self.clock.now(),
                    actor=actor,
                    start_seq=seq_before,
                    start_state=match_before.state_id if match_before is not None else None,
                )
                result = fn(txn)
                if self.automation is not None and live.match is not None:
                    self.automation(txn)
                row, deadline = txn.flush(self.snapshot_every)
        except BaseException:
            # The match may now hold entries that were never written: load it afresh.
            if live.match is not match_before or (
                live.match is not None and live.match.seq != seq_before
            ):
                self.forget(live.row.id)
            live.members, live.row, live.deadline = saved
            raise
        live.row, live.deadline = row, deadline
        live.checked_at = time.monotonic()  # the conditional update just confirmed it
        if txn.written:
            metrics.count_entries(row.game, txn.written)
        return result, Notice(row.id, row.version)
