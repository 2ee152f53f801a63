"""Where store-bound work runs: in the event loop, or in worker threads.

With SQLite at `synchronous=NORMAL` there is no wait to overlap, and Python runs one thread
at a time, so handing each call to a thread only adds switches: the work runs inline. With
SQLite at `FULL` (the default) every commit waits for the disk (milliseconds), and with
PostgreSQL the calls wait on the network: worker threads let the loop serve others
meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import anyio.to_thread

R = TypeVar("R")


class Runner:
    def __init__(self, inline: bool) -> None:
        self.inline = inline

    async def __call__(self, fn: Callable[..., R], *args: Any) -> R:
        if self.inline:
            return fn(*args)
        return await anyio.to_thread.run_sync(fn, *args)

    @staticmethod
    async def thread(fn: Callable[..., R], *args: Any) -> R:
        """Always in a worker thread: for slow work such as password hashing."""
        return await anyio.to_thread.run_sync(fn, *args)
