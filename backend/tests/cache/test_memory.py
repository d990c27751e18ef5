"""The in-process answer cache: LRU within entry and byte bounds, entries expire after the TTL."""

from __future__ import annotations

import asyncio

from bookchat.cache.memory import MemoryCache


class Clock:
    """A clock the test moves by hand (the cache's only outside input)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _cache(**bounds: float) -> MemoryCache:
    values = {"max_entries": 3, "max_bytes": 1000, "ttl_s": 60.0} | bounds
    return MemoryCache(
        max_entries=int(values["max_entries"]),
        max_bytes=int(values["max_bytes"]),
        ttl_s=values["ttl_s"],
        clock=Clock(),
    )


def test_a_stored_value_comes_back() -> None:
    cache = _cache()
    asyncio.run(cache.put("a", b"answer"))
    assert asyncio.run(cache.get("a")) == b"answer"
    assert asyncio.run(cache.get("b")) is None


def test_the_least_recently_used_entry_goes_first_beyond_the_entry_bound() -> None:
    cache = _cache(max_entries=2)

    async def run() -> list[bytes | None]:
        await cache.put("a", b"1")
        await cache.put("b", b"2")
        await cache.get("a")  # "b" is now the least recently used
        await cache.put("c", b"3")
        return [await cache.get(k) for k in ("a", "b", "c")]

    assert asyncio.run(run()) == [b"1", None, b"3"]
    assert cache.stats.evictions == 1


def test_bytes_are_bounded_and_counted() -> None:
    cache = _cache(max_entries=100, max_bytes=10)

    async def run() -> None:
        await cache.put("a", b"xxxx")
        await cache.put("b", b"yyyy")
        await cache.put("c", b"zzzz")  # 12 bytes: "a" must go

    asyncio.run(run())
    size = asyncio.run(cache.size())
    assert (size.entries, size.bytes) == (2, 8)
    assert asyncio.run(cache.get("a")) is None
    assert cache.stats.evictions == 1


def test_a_value_larger_than_the_whole_cache_is_not_kept_and_evicts_nothing() -> None:
    cache = _cache(max_bytes=10)
    asyncio.run(cache.put("small", b"ok"))
    asyncio.run(cache.put("huge", b"x" * 11))
    assert asyncio.run(cache.get("huge")) is None
    assert asyncio.run(cache.get("small")) == b"ok"
    assert cache.stats.evictions == 0


def test_entries_expire_after_the_ttl() -> None:
    clock = Clock()
    cache = MemoryCache(max_entries=10, max_bytes=1000, ttl_s=60.0, clock=clock)
    asyncio.run(cache.put("a", b"answer"))
    clock.now += 59
    assert asyncio.run(cache.get("a")) == b"answer"
    clock.now += 2
    assert asyncio.run(cache.get("a")) is None
    assert asyncio.run(cache.size()).entries == 0


def test_replacing_a_key_keeps_the_byte_count_true() -> None:
    cache = _cache()
    asyncio.run(cache.put("a", b"12345"))
    asyncio.run(cache.put("a", b"12"))
    size = asyncio.run(cache.size())
    assert (size.entries, size.bytes) == (1, 2)
