"""The shared answer cache in Redis: values live for the TTL, and an unreachable or dying Redis
costs a miss, never an error."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from bookchat.cache.redis_cache import PREFIX, RedisCache
from tests.cache.redis_servers import PrivateRedis
from tests.threaded_server import free_port


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    """A redis-server of this test's own."""
    server = PrivateRedis(tmp_path)
    yield server
    server.stop()


def test_values_round_trip_with_the_ttl(private_redis: PrivateRedis) -> None:
    cache = RedisCache(private_redis.url, ttl_s=120)

    async def run() -> tuple[bytes | None, bytes | None]:
        await cache.put("k", b"answer")
        found = await cache.get("k"), await cache.get("absent")
        await cache.close()
        return found

    assert asyncio.run(run()) == (b"answer", None)
    ttl = redis.Redis.from_url(private_redis.url).ttl(PREFIX + "k")
    assert 110 <= ttl <= 120
    assert cache.stats.errors == 0


def test_size_counts_only_the_caches_own_keys(private_redis: PrivateRedis) -> None:
    redis.Redis.from_url(private_redis.url).set("someone-else", b"x" * 50)
    cache = RedisCache(private_redis.url, ttl_s=60)

    async def run() -> tuple[int, int, bool]:
        await cache.put("a", b"123")
        await cache.put("b", b"4567")
        size = await cache.size()
        await cache.close()
        return size.entries, size.bytes, size.reachable

    assert asyncio.run(run()) == (2, 7, True)


def test_an_unreachable_redis_is_a_miss_counted_and_logged_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [0.0]
    cache = RedisCache(f"redis://127.0.0.1:{free_port()}/0", ttl_s=60, clock=lambda: now[0])

    async def run() -> list[bytes | None]:
        found = []
        for _ in range(3):
            await cache.put("k", b"v")
            found.append(await cache.get("k"))
            now[0] += 10  # past the rest period: each round tries Redis again
        size = await cache.size()
        assert not size.reachable
        await cache.close()
        return found

    with caplog.at_level(logging.WARNING, logger="bookchat.cache.redis_cache"):
        assert asyncio.run(run()) == [None, None, None]
    assert cache.stats.errors >= 3
    assert len([r for r in caplog.records if "unreachable" in r.getMessage()]) == 1


def test_after_a_failure_redis_is_left_alone_for_a_while(private_redis: PrivateRedis) -> None:
    now = [0.0]
    cache = RedisCache(private_redis.url, ttl_s=60, clock=lambda: now[0])

    async def run() -> list[bytes | None]:
        await cache.put("k", b"v")
        private_redis.stop()
        first = await cache.get("k")  # fails: Redis is gone
        errors = cache.stats.errors
        second = await cache.get("k")  # not even tried
        assert cache.stats.errors == errors + 1
        await cache.close()
        return [first, second]

    assert asyncio.run(run()) == [None, None]
