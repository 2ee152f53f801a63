"""Deadlines: stored with each running game, fired by whichever process claims them first."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from functools import partial

import anyio.to_thread

from . import metrics, store
from .clock import Clock
from .live import Tables, Txn
from .seats import fire_deadline
from .store import Store
from .vocab import DeadlineRecord, GameStatus

log = logging.getLogger(__name__)


class Scheduler:
    """Finds due deadlines, claims each with a conditional UPDATE, and fires the claimed ones.

    Claims are leases: a process that dies holding one delays that deadline by at most the
    lease, then another process takes it. Firing is a normal change of the game, so the
    version check also stops a deadline from applying to a state it was not set for.
    """

    def __init__(
        self, tables: Tables, db: Store, clock: Clock, owner: str, lease_seconds: float
    ) -> None:
        self.tables = tables
        self.db = db
        self.clock = clock
        self.owner = owner
        self.lease = lease_seconds
        self.fired = 0  # deadlines this process fired
        self.lost = 0  # due deadlines another process claimed first
        self._task: asyncio.Task[None] | None = None

    def start(self, poll_seconds: float) -> None:
        self._task = asyncio.create_task(self._loop(poll_seconds), name="parley-deadlines")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _loop(self, poll_seconds: float) -> None:
        while True:
            try:
                await self.run_due()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("firing deadlines failed")
            await asyncio.sleep(poll_seconds)

    async def run_due(self) -> int:
        """Fire every deadline due now that this process can claim; returns how many."""
        return await anyio.to_thread.run_sync(self.fire_due)

    def fire_due(self, limit: int = 100) -> int:
        now = self.clock.now()
        with self.db.read() as s:
            due = store.due_deadlines(s, now, limit)
        fired = 0
        for dl in due:
            with self.db.write() as s:
                claimed = store.claim_deadline(s, dl, self.owner, now, self.lease)
            if not claimed:
                self.lost += 1
                metrics.CLAIMS_LOST.inc()
                continue
            self.tables.mark_stale(dl.game_id)  # act on the stored state, not a cached one
            try:
                if self.tables.change(dl.game_id, partial(self._fire, claimed=dl), "deadline"):
                    fired += 1
            except Exception:
                log.exception("firing the deadline of game %s failed", dl.game_id)
                with self.db.write() as s:
                    store.release_deadline(s, dl.game_id, self.owner)
        self.fired += fired
        metrics.DEADLINES.inc(fired)
        return fired

    def _fire(self, txn: Txn, claimed: DeadlineRecord) -> bool:
        current = txn.live.deadline
        if txn.row.status is not GameStatus.ACTIVE or current is None:
            return False
        if current.state_id != claimed.state_id or current.wake_at != claimed.wake_at:
            return False  # the game moved on after the claim; its new deadline stands
        txn.rewrite_deadline = True  # clears the claim, whatever happens below
        if current.due_at <= txn.now:
            fire_deadline(txn, current.state_id, self.owner)
            return True
        return False  # an early wake-up so bots finish their work; automation runs anyway
