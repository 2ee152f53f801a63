"""Group-synced commits for SQLite: commit without a sync, acknowledge after a shared one.

With `synchronous=FULL` every commit syncs the write-ahead log itself, holding SQLite's
write lock for the whole `fsync`, so commits queue one disk flush each. Here connections
commit at `synchronous=NORMAL` (appended to the WAL, not synced) and a background thread,
the syncer, flushes the WAL file: one flush makes every commit that finished before it
started durable, however many there were (SQLite's own account of NORMAL in WAL mode:
committed transactions become durable once the WAL is flushed or checkpointed). What
shows a change (an answer, a frame, a notice) waits for the flush covering it.

Each commit through `Store.write()` takes a ticket, a number from a counter, reserved
before COMMIT and completed after it; the syncer records the highest ticket whose commit,
and every one before it, was complete when a flush started. A request keeps the highest
ticket it committed or read (`note_ticket`) and its answer waits for it.

Why the WAL file alone is enough: SQLite checkpoints (ours run in the background) sync the
WAL before copying it into the database file and sync the database file after, and the WAL
file is deleted only when the last connection closes after a complete checkpoint; so a
commit is either still in the WAL file flushed here or already synced into the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
import time
import weakref
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from .. import metrics
from ..errors import ServerError

log = logging.getLogger(__name__)
IDLE_SECONDS = 30.0  # the thread ends after this long without commits


class SyncFailed(ServerError):
    """The write-ahead log could not be flushed: changes since the last flush may be lost."""

    status, code = 503, "not_durable"


class Syncer:
    """Flushes `<database>-wal` in a background thread, covering many commits per flush."""

    def __init__(self, database: str, fsync: Callable[[int], None] | None = None) -> None:
        path = os.path.abspath(database)  # as SQLite opened it, whatever the cwd later
        self.wal = path + "-wal"
        self.folder = os.path.dirname(path)
        self.fsync = fsync or _flush  # replaceable: tests hold or fail it
        self._cond = threading.Condition(threading.Lock())
        self._reserved = 0  # the highest ticket handed out
        self._open: set[int] = set()  # tickets whose COMMIT has not returned yet
        self.synced = 0  # every ticket up to here is durable
        self.failed: SyncFailed | None = None
        self.flushes = 0
        self._waiters: list[tuple[int, asyncio.AbstractEventLoop, asyncio.Future[None]]] = []
        self._after: list[tuple[int, Callable[..., None], tuple[Any, ...]]] = []
        self._wal_inode: int | None = None
        self._thread: threading.Thread | None = None
        self._stopping = False

    # --- tickets (any thread) ---------------------------------------------------------

    def reserve(self) -> int:
        """A ticket for a commit about to be sent; `complete` it once COMMIT returns."""
        with self._cond:
            if self.failed is not None:
                raise SyncFailed(self.failed.message)
            self._reserved += 1
            self._open.add(self._reserved)
            if self._thread is None:
                self._launch()
            return self._reserved

    def complete(self, ticket: int) -> None:
        with self._cond:
            self._open.discard(ticket)
            self._cond.notify_all()

    @property
    def reserved(self) -> int:
        return self._reserved

    def _target(self) -> int:
        """The highest ticket a flush starting now covers (caller holds the lock)."""
        return min(self._open) - 1 if self._open else self._reserved

    def committed(self) -> int:
        """The highest ticket whose commit (and every earlier one) has returned."""
        with self._cond:
            return self._target()

    def is_synced(self, ticket: int) -> bool:
        return ticket <= self.synced

    def check(self) -> None:
        """Raise if durability was lost."""
        if self.failed is not None:
            raise SyncFailed(self.failed.message)

    def flush(self, timeout: float | None = None) -> None:
        """Make everything committed so far durable, commits made without a ticket too."""
        ticket = self.reserve()
        self.complete(ticket)
        self.wait(ticket, timeout)

    # --- waiting --------------------------------------------------------------------

    def wait(self, ticket: int, timeout: float | None = None) -> None:
        """Block until `ticket` is durable (raise SyncFailed if it cannot be)."""
        with self._cond:
            ok = self._cond.wait_for(
                lambda: self.synced >= ticket or self.failed is not None, timeout
            )
            if self.failed is not None and self.synced < ticket:
                raise SyncFailed(self.failed.message)
            if not ok:
                raise TimeoutError(f"ticket {ticket} was not synced in time")

    async def wait_async(self, ticket: int) -> None:
        """Await `ticket` without blocking the event loop."""
        if ticket <= self.synced:
            return
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._cond:
            if self.failed is not None and self.synced < ticket:
                raise SyncFailed(self.failed.message)
            if ticket <= self.synced:
                return
            self._waiters.append((ticket, loop, future))
            self._cond.notify_all()
        await future

    def after(self, ticket: int, fn: Callable[..., None], *args: Any) -> None:
        """Call `fn(*args)` once `ticket` is durable (from the syncer's thread), or never."""
        with self._cond:
            if self.synced < ticket:
                if self.failed is None:
                    self._after.append((ticket, fn, args))
                return
        fn(*args)

    # --- the thread -----------------------------------------------------------------

    def start(self) -> None:
        with self._cond:
            self._stopping = False
            if self._thread is None:
                self._launch()

    def _launch(self) -> None:
        """Start the thread (caller holds the lock); it ends itself when idle a while."""
        self._thread = threading.Thread(target=self._run, name="parley-syncer", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        """Flush what is committed, then end the thread."""
        with self._cond:
            thread, self._thread = self._thread, None
            self._stopping = True
            self._cond.notify_all()
        if thread is not None:
            thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                busy = self._cond.wait_for(
                    lambda: (
                        self.failed is not None or self._target() > self.synced or self._stopping
                    ),
                    IDLE_SECONDS,
                )
                done = self._target() <= self.synced
                if self.failed is not None or (done and (self._stopping or not busy)):
                    if self._thread is threading.current_thread():
                        self._thread = None  # the next commit starts another
                    return
                target = self._target()
                metrics.FLUSH_QUEUE.set(self._reserved - self.synced)
            started = time.perf_counter()
            try:
                self._flush_wal()
            except OSError as err:
                self._fail(err)
                return
            metrics.FLUSH.observe(time.perf_counter() - started)
            self._covered(target)
            metrics.FLUSH_QUEUE.set(max(0, self._reserved - self.synced))

    def _flush_wal(self) -> None:
        try:
            fd = os.open(self.wal, os.O_RDONLY)
        except FileNotFoundError:
            # No WAL: the last connection closed after a complete checkpoint, which synced
            # the database file. Everything committed is there.
            return
        try:
            inode = os.fstat(fd).st_ino
            self.fsync(fd)
        finally:
            os.close(fd)
        if inode != self._wal_inode:
            # A WAL file created since the last flush: its name must survive a power cut too.
            folder = os.open(self.folder, os.O_RDONLY)
            try:
                self.fsync(folder)
            finally:
                os.close(folder)
            self._wal_inode = inode

    def _covered(self, target: int) -> None:
        with self._cond:
            self.synced = max(self.synced, target)
            self.flushes += 1
            synced = self.synced
            ready = [w for w in self._waiters if w[0] <= synced]
            self._waiters = [w for w in self._waiters if w[0] > synced]
            calls = [a for a in self._after if a[0] <= synced]
            self._after = [a for a in self._after if a[0] > synced]
            self._cond.notify_all()
        _wake(ready, None)
        for _, fn, args in calls:
            try:
                fn(*args)
            except Exception:
                log.exception("a call waiting for a sync failed")

    def _fail(self, err: OSError) -> None:
        log.critical(
            "flushing the SQLite write-ahead log %s failed (%s): changes since the last "
            "flush may not be on disk; this process accepts no more changes",
            self.wal,
            err,
        )
        failure = SyncFailed(
            "the server could not write to its disk: recent changes may be lost and it "
            "accepts no more; try again later"
        )
        with self._cond:
            self.failed = failure
            waiters, self._waiters = self._waiters, []
            dropped, self._after = self._after, []
            self._cond.notify_all()
        if dropped:
            log.error("%d notices of unsynced changes were not sent", len(dropped))
        _wake(waiters, failure)


def _flush(fd: int) -> None:
    # fdatasync, as SQLite itself uses on Linux: the WAL's data and its size, not its times.
    sync = getattr(os, "fdatasync", os.fsync)
    sync(fd)


def _wake(
    waiters: list[tuple[int, asyncio.AbstractEventLoop, asyncio.Future[None]]],
    error: BaseException | None,
) -> None:
    """Resolve futures from another thread: one call into each event loop."""
    by_loop: dict[asyncio.AbstractEventLoop, list[asyncio.Future[None]]] = {}
    for _, loop, future in waiters:
        by_loop.setdefault(loop, []).append(future)
    for loop, futures in by_loop.items():
        if not loop.is_closed():
            # A loop closed meanwhile has nobody waiting any more.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_resolve, futures, error)


def _resolve(futures: list[asyncio.Future[None]], error: BaseException | None) -> None:
    for future in futures:
        if future.done():
            continue
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(SyncFailed(str(error)))


# --- what a request must wait for ---------------------------------------------------------
#
# Each HTTP request, WebSocket command and live-update render holds the highest ticket it
# committed or read; its answer waits until the syncer covers it. Shared with the worker
# threads it runs store work in (they copy the context and so share the holder).


class Tickets:
    __slots__ = ("ticket",)

    def __init__(self) -> None:
        self.ticket = 0


_TICKETS: ContextVar[Tickets | None] = ContextVar("parley_tickets", default=None)


def track_tickets() -> Tickets:
    """Start a new holder of tickets for the current task (and what it calls)."""
    holder = Tickets()
    _TICKETS.set(holder)
    return holder


def stop_tracking() -> None:
    _TICKETS.set(None)


def note_ticket(ticket: int) -> bool:
    """Make the current answer wait for `ticket`; False when nothing would wait."""
    holder = _TICKETS.get()
    if holder is None:
        return False
    if ticket > holder.ticket:
        holder.ticket = ticket
    return True


_SYNCERS: dict[int, Syncer] = {}  # id(engine) → its syncer, while the engine lives


def register(engine: Any, syncer: Syncer) -> None:
    key = id(engine)
    _SYNCERS[key] = syncer
    weakref.finalize(engine, _SYNCERS.pop, key, None)


def syncer_of(engine: Any) -> Syncer | None:
    """The syncer of an engine whose commits it makes durable (None: commits sync)."""
    return _SYNCERS.get(id(engine))
