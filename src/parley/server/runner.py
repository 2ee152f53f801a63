"""Where store-bound work runs: in the event loop, or in worker threads.

With SQLite there is no wait to overlap (at `FULL`, the default, commits are synced to disk
by the syncer's thread, `db/syncer.py`, not by the committing call), and Python runs one
thread at a time, so handing each call to a thread only adds switches: the work runs
inline. With PostgreSQL the calls wait on the network (and a SQLite `file:` URI at `FULL`
on the disk): worker threads let the loop serve others meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import anyio.to_thread

R = TypeVar("R")
THREADS = 40  # as many as anyio's default pool: store calls waiting at once


class Runner:
    def __init__(self, inline: bool) -> None:
        self.inline = inline
        self._pool: ThreadPoolExecutor | None = None

    async def __call__(self, fn: Callable[..., R], *args: Any) -> R:
        if self.inline:
            return fn(*args)
        # A plain thread pool: every move goes through here, and anyio's general-purpose
        # `to_thread` cost about twice the CPU per call. The caller's context variables
        # go along (see `errors.note_commit`), as with anyio.
        if self._pool is None:
            self._pool = ThreadPoolExecutor(THREADS, thread_name_prefix="parley-store")
        context = contextvars.copy_context()
        done = self._pool.submit(context.run, fn, *args)
        try:
            return await asyncio.wrap_future(done)
        except asyncio.CancelledError:
            # Work that has started runs to its end (a commit is not left half-known)
            # before the cancellation goes on; work that had not started never runs.
            if not done.cancelled():
                with contextlib.suppress(Exception):
                    await asyncio.shield(asyncio.wrap_future(done))
            raise

    def close(self) -> None:
        """Let the worker threads end once their calls return."""
        if self._pool is not None:
            self._pool.shutdown(wait=False)
            self._pool = None

    @staticmethod
    async def thread(fn: Callable[..., R], *args: Any) -> R:
        """Always in a worker thread: for slow work such as password hashing."""
        return await anyio.to_thread.run_sync(fn, *args)
