"""The shared answer cache in Redis: every worker behind REDIS_URL sees every other's answers.

Redis is a convenience here, never a dependency: when it is down or slow, questions are answered
without it. The first failure is logged once (and recovery once); while it is down, lookups are
skipped for a few seconds so each question does not wait on a dead connection.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from bookchat.cache.store import CacheKind, CacheSize, CacheStats

log = logging.getLogger(__name__)

PREFIX = "bookchat:answer:"
# A cache lookup must cost far less than the answer it saves: slower is "down".
TIMEOUT_S = 0.25
# After a failure, answer without Redis this long before trying it again.
REST_S = 5.0
# /health and /metrics count entries with SCAN: at most this many keys per look.
COUNT_LIMIT = 20_000


class RedisCache:
    """Answers in Redis under PREFIX, each with the TTL; failures are counted, never raised."""

    kind: CacheKind = "redis"

    def __init__(
        self, url: str, *, ttl_s: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.stats = CacheStats()
        self._ttl_s = ttl_s
        self._clock = clock
        self._redis = aioredis.Redis.from_url(
            url, socket_timeout=TIMEOUT_S, socket_connect_timeout=TIMEOUT_S
        )
        self._resting_until = 0.0
        self._down = False

    async def get(self, key: str) -> bytes | None:
        """The value under `key`; None when absent or when Redis cannot be reached."""
        if self._resting():
            return None
        try:
            value = await self._redis.get(PREFIX + key)
        except (RedisError, OSError):
            self._failed()
            return None
        self._reached()
        return value if isinstance(value, bytes) else None

    async def put(self, key: str, value: bytes) -> None:
        """Store `value` for the TTL; dropped (and counted) when Redis cannot be reached."""
        if self._resting():
            return
        try:
            await self._redis.set(PREFIX + key, value, ex=self._ttl_s)
        except (RedisError, OSError):
            self._failed()
            return
        self._reached()

    async def size(self) -> CacheSize:
        """Entries under PREFIX and their bytes, counted up to COUNT_LIMIT keys."""
        names: list[bytes] = []
        try:
            async for name in self._redis.scan_iter(match=PREFIX + "*", count=1000):
                names.append(name)
                if len(names) >= COUNT_LIMIT:
                    break
            total = 0
            for start in range(0, len(names), 1000):  # one round trip per thousand keys
                pipe = self._redis.pipeline(transaction=False)
                for name in names[start : start + 1000]:
                    pipe.strlen(name)
                total += sum(int(n) for n in await pipe.execute())
        except (RedisError, OSError):
            return CacheSize(reachable=False, entries=0, bytes=0)
        return CacheSize(True, len(names), total, complete=len(names) < COUNT_LIMIT)

    async def close(self) -> None:
        """Close the connection pool."""
        await self._redis.aclose()

    def _resting(self) -> bool:
        if self._clock() < self._resting_until:
            self.stats.errors += 1
            return True
        return False

    def _failed(self) -> None:
        self.stats.errors += 1
        self._resting_until = self._clock() + REST_S
        if not self._down:
            self._down = True
            log.warning("answer cache: Redis unreachable or slow; answering without the cache")

    def _reached(self) -> None:
        if self._down:
            self._down = False
            log.info("answer cache: Redis reachable again")
