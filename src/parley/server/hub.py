"""Live updates: each game with watchers here has a feed that renders and pushes changes.

A notice wakes the game's feed; the feed renders, under the game's lock (through the
store runner: inline with SQLite, in a worker thread with PostgreSQL), what changed for
each distinct viewer (new history entries, entries revealed by the step that just
resolved, the viewer's observation, the game summary, the timer) and queues it on each
connection. Every viewer's messages come from the kernel's redaction, computed once per
viewer and shared by that viewer's connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from starlette.websockets import WebSocket

from parley.kernel import JSON, Match, Viewer

from . import metrics
from .clock import Clock
from .db.syncer import track_tickets
from .durable import settled
from .errors import ServerError
from .live import LiveGame, Notice, Tables
from .runner import Runner
from .talk import round_on
from .views import deadline_dict, game_out, history_for, seat_since, state_dict, viewer_of
from .vocab import GameStatus, UserRecord
from .wire import compact

log = logging.getLogger(__name__)
PROTOCOL = 1
_STATE = '{"type":"state"'


@dataclass(eq=False)
class Conn:
    """One WebSocket client of one game."""

    ws: WebSocket
    user: UserRecord
    sent_seq: int
    with_options: bool
    queue: asyncio.Queue[list[str] | None]  # batches of messages; None: hang up
    viewer: Viewer | None = None
    synced: bool = False
    closing: bool = False

    def push(self, *messages: str) -> bool:
        """Queue messages; False (and the connection is to be dropped) when it is full."""
        if self.closing:
            return False
        try:
            self.queue.put_nowait(list(messages))
            return True
        except asyncio.QueueFull:
            self.closing = True
            return False

    def hang_up(self) -> None:
        """Ask the connection's writer to close it after what is queued."""
        self.closing = True
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)


@dataclass(eq=False)
class Feed:
    game_id: str
    conns: set[Conn] = field(default_factory=set)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    noticed: float | None = None  # when the first change not yet rendered was announced
    game_key: tuple[Any, ...] | None = None  # what the last summary sent was made of
    timer_key: tuple[int, float] | None = None
    seq: int = 0  # the record length at the last render
    state_id: int | None = None
    epoch_seq: int = 0  # no entry before this one can still be hidden from anyone
    talk_round: int = 0  # the negotiation round on at the last render (0: none)
    ready: tuple[int, frozenset[int]] | None = None  # the step's ready seats at the last render


@dataclass(slots=True)
class _Plan:
    conn: Conn
    viewer: Viewer | None
    sent_seq: int
    synced: bool


@dataclass(slots=True)
class _Result:
    conn: Conn
    messages: list[str]
    viewer: Viewer | None
    sent_seq: int
    drop: ServerError | None = None


class Hub:
    def __init__(
        self, tables: Tables, clock: Clock, run: Runner, resync_seconds: float = 5.0
    ) -> None:
        self.tables = tables
        self.clock = clock
        self.run = run
        self.resync_seconds = resync_seconds
        self.feeds: dict[str, Feed] = {}
        self.sent = 0

    @property
    def connections(self) -> int:
        return sum(len(f.conns) for f in self.feeds.values())

    def deliver(self, notice: Notice) -> None:
        feed = self.feeds.get(notice.game_id)
        if feed is not None:
            if feed.noticed is None:
                feed.noticed = time.perf_counter()
            feed.wake.set()

    def attach(self, game_id: str, conn: Conn) -> None:
        feed = self.feeds.get(game_id)
        if feed is None:
            feed = self.feeds[game_id] = Feed(game_id)
            feed.task = asyncio.create_task(self._run(feed), name=f"parley-feed-{game_id}")
        feed.conns.add(conn)
        feed.wake.set()

    def detach(self, game_id: str, conn: Conn) -> None:
        feed = self.feeds.get(game_id)
        if feed is None:
            return
        feed.conns.discard(conn)
        if not feed.conns:
            self.feeds.pop(game_id, None)
            if feed.task is not None:
                feed.task.cancel()

    async def close(self) -> None:
        for feed in list(self.feeds.values()):
            if feed.task is not None:
                feed.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await feed.task
        self.feeds.clear()

    # --- the feed loop --------------------------------------------------------------

    async def _run(self, feed: Feed) -> None:
        while feed.conns:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.resync_seconds):
                    await feed.wake.wait()
            feed.wake.clear()
            noticed, feed.noticed = feed.noticed, None
            plans = [_Plan(c, c.viewer, c.sent_seq, c.synced) for c in feed.conns]
            holder = track_tickets()  # what the render read; its frames wait for the disk
            try:
                # A game this process has fresh and nobody is changing renders right here;
                # otherwise in the store's runner, which may wait for the lock or a read.
                done, rendered = self.tables.view_cached(
                    feed.game_id, partial(self._render, feed, plans)
                )
                if done and rendered is not None:
                    results = rendered
                else:
                    results = await self.run(self._render_locked, feed, plans)
            except ServerError as err:  # the game is gone
                results = [_Result(p.conn, [], None, p.sent_seq, err) for p in plans]
            except Exception:
                log.exception("rendering updates of game %s failed", feed.game_id)
                await asyncio.sleep(0.5)
                continue
            failure = await settled(self.tables.syncer, holder)
            if failure is not None:  # what was rendered may never reach the disk: not shown
                results = [_Result(p.conn, [], None, p.sent_seq, failure) for p in plans]
            for result in results:
                conn = result.conn
                if result.drop is not None:
                    conn.push(compact({"type": "error", **result.drop.to_json()}))
                    conn.hang_up()
                    continue
                conn.viewer, conn.sent_seq, conn.synced = result.viewer, result.sent_seq, True
                if not result.messages:
                    continue
                if not conn.push(*result.messages):
                    conn.hang_up()  # too slow: it reconnects with `since` and catches up
                    continue
                self.sent += len(result.messages)
            if noticed is not None and any(r.messages for r in results):
                metrics.DELIVERY.observe(time.perf_counter() - noticed)

    def _render_locked(self, feed: Feed, plans: list[_Plan]) -> list[_Result]:
        return self.tables.view(feed.game_id, lambda live: self._render(feed, plans, live))

    def _render(self, feed: Feed, plans: list[_Plan], live: LiveGame) -> list[_Result]:
        now = self.clock.now()
        row = live.row
        # The summary (seats, status, outcome) is rebuilt only when one of those changed;
        # moves alone reach clients as entries, state and timer messages.
        talk_round = round_on(live)
        game_key = (
            row.status,
            row.started_at,
            row.ended_at,
            tuple(live.members),
            talk_round,
            live.waiting_chat,
        )
        game_changed = game_key != feed.game_key
        deadline = live.deadline if row.status is GameStatus.ACTIVE else None
        timer_key = (deadline.state_id, deadline.due_at) if deadline is not None else None
        timer_changed = timer_key != feed.timer_key
        built: dict[str, str] = {}
        timer = deadline_dict(live, now)

        def game_json() -> str:
            if "game" not in built:
                summary = game_out(live, now).model_dump(mode="json")
                built["game"] = compact({"type": "game", "game": summary})
            return built["game"]

        def timer_json() -> str:
            if "timer" not in built:
                built["timer"] = compact({"type": "timer", "deadline": timer})
            return built["timer"]

        match = live.match
        epoch_changed = (
            match is not None and feed.state_id is not None and match.state_id != feed.state_id
        )
        # A negotiation round opening or closing changes every state (who may act, the
        # quota) without a new step: the states go out then too.
        # So does a seat saying it is ready (or not yet): everyone sees who is done.
        ready = (match.state_id, live.ready_seats()) if match is not None else None
        talk_changed = talk_round != feed.talk_round or (
            ready != feed.ready and feed.ready is not None and ready is not None
        )
        cache: dict[tuple[Viewer, int, bool, bool, int], list[str]] = {}
        results: list[_Result] = []
        for plan in plans:
            try:
                viewer = viewer_of(live, plan.conn.user)
            except ServerError as err:
                results.append(_Result(plan.conn, [], None, plan.sent_seq, err))
                continue
            synced, sent_seq = plan.synced, plan.sent_seq
            if synced and plan.viewer is not None and viewer != plan.viewer:
                synced, sent_seq = False, 0  # a new seat: its view of the past differs
            hide_before = seat_since(live, plan.conn.user)
            key = (viewer, sent_seq, synced, plan.conn.with_options, hide_before)
            messages = cache.get(key)
            if messages is None:
                messages = []
                if not synced:
                    hello = {
                        "type": "hello",
                        "protocol": PROTOCOL,
                        "game_id": live.row.id,
                        "viewer": viewer.to_json(),
                    }
                    messages += [compact(hello), game_json(), timer_json()]
                elif game_changed:
                    messages.append(game_json())
                record: list[str] = []
                if match is not None:
                    record = self._record_messages(
                        live,
                        match,
                        viewer,
                        feed,
                        sent_seq,
                        synced,
                        epoch_changed,
                        plan.conn.with_options,
                        now,
                        timer,
                        hide_before,
                        talk_changed,
                    )
                # A state message carries the deadline: a separate timer is then redundant.
                if synced and timer_changed and not any(m.startswith(_STATE) for m in record):
                    messages.append(timer_json())
                messages += record
                cache[key] = messages
            results.append(
                _Result(plan.conn, messages, viewer, match.seq if match is not None else 0)
            )
        feed.game_key, feed.timer_key, feed.talk_round = game_key, timer_key, talk_round
        feed.ready = ready
        if match is not None:
            if epoch_changed:
                feed.epoch_seq = feed.seq
            feed.seq, feed.state_id = match.seq, match.state_id
        return results

    @staticmethod
    def _record_messages(
        live: LiveGame,
        match: Match[Any, Any],
        viewer: Viewer,
        feed: Feed,
        sent_seq: int,
        synced: bool,
        epoch_changed: bool,
        with_options: bool,
        now: float,
        deadline: dict[str, Any] | None,
        hide_before: int = 0,
        talk_changed: bool = False,
    ) -> list[str]:
        out: list[str] = []
        said_at = live.said_at
        entries = (
            history_for(match, viewer, sent_seq, hide_before, said_at)
            if sent_seq < match.seq
            else []
        )
        revealed: list[dict[str, JSON]] = []
        if not synced and sent_seq > 0:
            revealed = _revealed(
                history_for(match, viewer, 0, hide_before), viewer, 0, sent_seq, hide_before
            )
        elif epoch_changed and feed.epoch_seq < sent_seq:
            revealed = _revealed(
                history_for(match, viewer, feed.epoch_seq, hide_before),
                viewer,
                feed.epoch_seq,
                sent_seq,
                hide_before,
            )
        if entries or revealed:
            message: dict[str, Any] = {"type": "entries", "seq": match.seq, "entries": entries}
            if revealed:
                message["revealed"] = revealed
            out.append(compact(message))
        # A message of the viewer's own in a negotiation round changes what its state says
        # (the messages it has left), so the state goes out then too.
        own_quota = (
            viewer.seat is not None
            and any(e["type"] == "press" and e.get("seat") == viewer.seat for e in entries)
            and round_on(live) > 0
        )
        if (
            not synced
            or epoch_changed
            or talk_changed
            or own_quota
            or any(e["type"] != "press" for e in entries)
        ):
            state = state_dict(
                live, viewer, now, with_options=with_options, with_text=False, deadline=deadline
            )
            out.append(compact({"type": "state", **state}))
        return out


def _revealed(
    history: list[dict[str, JSON]], viewer: Viewer, lo: int, hi: int, hide_before: int = 0
) -> list[dict[str, JSON]]:
    """Actions in [lo, hi) that were hidden from `viewer` when recorded and are shown now.

    Before `hide_before` (when the viewer took their seat over) the seat's own actions
    were hidden from them too.
    """
    return [
        e
        for e in history
        if lo <= e["seq"] < hi
        and e["type"] == "action"
        and "audience" in e
        and "notation" in e
        and (viewer.seat not in e["audience"] or e["seq"] < hide_before)
    ]
