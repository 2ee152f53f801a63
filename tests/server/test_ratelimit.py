"""Token buckets: in memory, and in Redis shared by every server process."""

from __future__ import annotations

import asyncio
import secrets

import pytest
from redis.asyncio import Redis

from parley.server.errors import RateLimited
from parley.server.ratelimit import MemoryLimiter, RedisLimiter


def test_memory_buckets_hold_a_burst_then_refuse() -> None:
    limiter = MemoryLimiter()

    async def run() -> None:
        for _ in range(3):
            await limiter.hit("user:1", rate=0.01, burst=3)
        with pytest.raises(RateLimited) as refused:
            await limiter.hit("user:1", rate=0.01, burst=3)
        assert refused.value.extra["retry_after"] > 0
        await limiter.hit("user:2", rate=0.01, burst=3)  # another user, another bucket

    asyncio.run(run())


def test_redis_buckets_are_shared_between_processes(redis_url: str) -> None:
    prefix = f"parley-test-{secrets.token_hex(4)}:rate:"

    async def run() -> None:
        one = RedisLimiter(Redis.from_url(redis_url), prefix)
        two = RedisLimiter(Redis.from_url(redis_url), prefix)  # as in a second process
        await one.hit("user:7", rate=0.01, burst=2)
        await two.hit("user:7", rate=0.01, burst=2)
        with pytest.raises(RateLimited):
            await one.hit("user:7", rate=0.01, burst=2)
        with pytest.raises(RateLimited):
            await two.hit("user:7", rate=0.01, burst=2)
        await two.hit("user:8", rate=0.01, burst=2)

    asyncio.run(run())


def test_redis_trouble_lets_requests_through() -> None:
    async def run() -> None:
        broken = RedisLimiter(Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.2))
        await broken.hit("user:1", rate=0.01, burst=1)
        await broken.hit("user:1", rate=0.01, burst=1)  # no Redis, no limit: served

    asyncio.run(run())
