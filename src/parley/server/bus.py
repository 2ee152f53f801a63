"""Fan-out of "game X changed" notices: in this process, or through Redis pub/sub.

A notice carries no game content, only the game id and its new version; whoever shows the
game re-reads it through the store, so nothing hidden travels on the bus.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any, Protocol

from .live import Notice

log = logging.getLogger(__name__)
CHANNEL = "notices"  # after the deployment's Redis prefix

Deliver = Callable[[Notice], None]


class Bus(Protocol):
    async def start(self, deliver: Deliver) -> None: ...

    def publish(self, notice: Notice) -> None:
        """Send a notice; callable from any thread, never blocks."""

    async def stop(self) -> None: ...


class LocalBus:
    """Notices stay in this process."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._deliver: Deliver | None = None

    async def start(self, deliver: Deliver) -> None:
        self._loop = asyncio.get_running_loop()
        self._deliver = deliver

    def publish(self, notice: Notice) -> None:
        if self._loop is None or self._deliver is None or self._loop.is_closed():
            return
        self._loop.call_soon_threadsafe(self._deliver, notice)

    async def stop(self) -> None:
        self._loop = None


class RedisBus:
    """Notices go to every server process subscribed to one Redis channel."""

    def __init__(self, url: str, origin: str, prefix: str = "parley:") -> None:
        self.url = url
        self.origin = origin
        self.channel = prefix + CHANNEL
        self._loop: asyncio.AbstractEventLoop | None = None
        self._deliver: Deliver | None = None
        self._client: Any = None
        self._listener: asyncio.Task[None] | None = None
        self._pending: set[asyncio.Task[Any]] = set()
        self.received = 0

    async def start(self, deliver: Deliver) -> None:
        from redis.asyncio import Redis

        self._loop = asyncio.get_running_loop()
        self._deliver = deliver
        self._client = Redis.from_url(self.url)
        await self._client.ping()
        pubsub = self._client.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self.channel)
        self._listener = asyncio.create_task(self._listen(pubsub), name="parley-redis-bus")

    async def _listen(self, pubsub: Any) -> None:
        while True:
            try:
                message = await pubsub.get_message(timeout=5.0)
            except asyncio.CancelledError:
                await pubsub.aclose()
                raise
            except Exception:
                log.exception("reading the Redis bus failed; retrying")
                await asyncio.sleep(0.5)
                continue
            if message is None:
                continue
            try:
                data = json.loads(message["data"])
                if data.get("origin") == self.origin:
                    continue  # delivered locally when it was published
                self.received += 1
                if self._deliver is not None:
                    self._deliver(Notice(str(data["game"]), int(data["version"])))
            except (ValueError, KeyError, TypeError):
                log.warning("ignoring a malformed bus message %r", message.get("data"))

    def publish(self, notice: Notice) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        loop.call_soon_threadsafe(self._publish_here, notice)

    def _publish_here(self, notice: Notice) -> None:
        if self._deliver is not None:
            self._deliver(notice)
        payload = json.dumps(
            {"game": notice.game_id, "version": notice.version, "origin": self.origin}
        )
        task = asyncio.ensure_future(self._client.publish(self.channel, payload))
        self._pending.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._pending.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("publishing on the Redis bus failed: %s", task.exception())

    async def stop(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
        if self._pending:
            await asyncio.gather(*self._pending, return_exceptions=True)
        if self._client is not None:
            await self._client.aclose()
        self._loop = None
