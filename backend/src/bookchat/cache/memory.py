"""The in-process answer cache: least recently used first out, bounded by entries and bytes."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

from bookchat.cache.store import CacheKind, CacheSize, CacheStats


class MemoryCache:
    """An LRU of answers kept for `ttl_s` seconds; one per process (workers do not share it)."""

    kind: CacheKind = "memory"

    def __init__(
        self,
        *,
        max_entries: int,
        max_bytes: int,
        ttl_s: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stats = CacheStats()
        self._max_entries = max_entries
        self._max_bytes = max_bytes
        self._ttl_s = ttl_s
        self._clock = clock
        self._entries: OrderedDict[str, tuple[float, bytes]] = OrderedDict()
        self._bytes = 0

    async def get(self, key: str) -> bytes | None:
        """The live value under `key` (an expired one is dropped), now the most recently used."""
        found = self._entries.get(key)
        if found is None:
            return None
        expires, value = found
        if expires <= self._clock():
            self._drop(key)
            return None
        self._entries.move_to_end(key)
        return value

    async def put(self, key: str, value: bytes) -> None:
        """Store `value`, evicting the least recently used entries beyond the bounds."""
        if len(value) > self._max_bytes:
            return  # would evict everything else and still not fit
        if key in self._entries:
            self._drop(key)
        self._entries[key] = (self._clock() + self._ttl_s, value)
        self._bytes += len(value)
        while len(self._entries) > self._max_entries or self._bytes > self._max_bytes:
            self._drop(next(iter(self._entries)))
            self.stats.evictions += 1

    async def size(self) -> CacheSize:
        """Entries and value bytes held (expired ones count until they are next looked up)."""
        return CacheSize(reachable=True, entries=len(self._entries), bytes=self._bytes)

    async def close(self) -> None:
        """Nothing to release: the entries go with the process."""

    def _drop(self, key: str) -> None:
        _, value = self._entries.pop(key)
        self._bytes -= len(value)
