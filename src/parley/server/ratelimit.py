"""Per-user rate limits: token buckets in memory, or in Redis when processes share limits."""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import OrderedDict
from typing import Protocol

from .errors import RateLimited

log = logging.getLogger(__name__)


class Limiter(Protocol):
    async def hit(self, key: str, rate: float, burst: float, cost: float = 1.0) -> None:
        """Take `cost` tokens from `key`'s bucket or raise RateLimited."""


class MemoryLimiter:
    """Token buckets in this process (a bounded number of keys, least recent dropped)."""

    def __init__(self, max_keys: int = 100_000) -> None:
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()
        self._max = max_keys

    async def hit(self, key: str, rate: float, burst: float, cost: float = 1.0) -> None:
        now = time.monotonic()
        with self._lock:
            tokens, last = self._buckets.pop(key, (burst, now))
            tokens = min(burst, tokens + (now - last) * rate)
            if tokens < cost:
                self._buckets[key] = (tokens, now)
                raise _limited(rate, tokens, cost)
            self._buckets[key] = (tokens - cost, now)
            while len(self._buckets) > self._max:
                self._buckets.popitem(last=False)


# KEYS[1] bucket; ARGV rate, burst, now (seconds), cost. Returns -1 when allowed, else tokens
# left.
_BUCKET_SCRIPT = """
local b = redis.call('HMGET', KEYS[1], 't', 'at')
local rate, burst, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local cost = tonumber(ARGV[4]) or 1
local tokens = tonumber(b[1]) or burst
local at = tonumber(b[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local allowed = tokens >= cost
if allowed then tokens = tokens - cost end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'at', tostring(now))
redis.call('EXPIRE', KEYS[1], math.ceil(burst / rate) + 1)
if allowed then return -1 end
return tostring(tokens)
"""


class RedisLimiter:
    """The same buckets kept in Redis, so a user's limit holds across server processes."""

    def __init__(self, client: object, prefix: str = "parley:rate:") -> None:
        from redis.asyncio import Redis

        assert isinstance(client, Redis)
        self._client = client
        self._script = client.register_script(_BUCKET_SCRIPT)
        self._prefix = prefix

    async def hit(self, key: str, rate: float, burst: float, cost: float = 1.0) -> None:
        try:
            args = [rate, burst, time.time(), cost]
            result = await self._script(keys=[self._prefix + key], args=args)
        except Exception as err:  # Redis away: serve the request rather than fail it
            log.warning("rate limiting skipped, Redis failed: %s", err)
            return
        if isinstance(result, int) and result == -1:
            return
        raise _limited(rate, float(result), cost)


def _limited(rate: float, tokens: float, cost: float = 1.0) -> RateLimited:
    wait = max(0.0, (cost - tokens) / rate) if rate > 0 else 60.0
    return RateLimited(
        f"too many requests; try again in {wait:.1f} s", retry_after=math.ceil(wait * 10) / 10
    )
