"""What every answer cache offers, and the counters operators read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

CacheKind = Literal["memory", "redis"]


@dataclass(slots=True)
class CacheStats:
    """Monotonic counters since start-up (exported at GET /metrics)."""

    hits: int = 0
    misses: int = 0
    # Entries dropped to stay within the cache's bounds (in-process only: Redis reports its own).
    evictions: int = 0
    # Lookups and writes that failed because the shared cache was unreachable or slow.
    errors: int = 0


@dataclass(frozen=True, slots=True)
class CacheSize:
    """How much the cache holds right now, as far as it can tell."""

    reachable: bool
    entries: int
    bytes: int
    # False when a shared cache held more entries than one look counts (the figures are a floor).
    complete: bool = True


class AnswerCache(Protocol):
    """Bytes by key, with a time to live; never raises for the cache's own failures."""

    kind: CacheKind
    stats: CacheStats

    async def get(self, key: str) -> bytes | None:
        """The value stored under `key`, or None (absent, expired or unreachable)."""
        ...

    async def put(self, key: str, value: bytes) -> None:
        """Store `value` under `key` for the cache's TTL (silently dropped when unreachable)."""
        ...

    async def size(self) -> CacheSize:
        """Entries and bytes held now."""
        ...

    async def close(self) -> None:
        """Release connections."""
        ...
