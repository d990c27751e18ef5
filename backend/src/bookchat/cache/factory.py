"""The answer cache the settings ask for."""

from __future__ import annotations

from bookchat.cache.memory import MemoryCache
from bookchat.cache.redis_cache import RedisCache
from bookchat.cache.store import AnswerCache
from bookchat.config import Settings

MB = 1024 * 1024


def answer_cache_for(settings: Settings) -> AnswerCache | None:
    """Redis, in-process memory, or None when BOOKCHAT_ANSWER_CACHE=off; connects lazily."""
    kind = settings.answer_cache_kind
    if kind == "off":
        return None
    if kind == "redis":
        assert settings.redis_url is not None  # Settings refuses redis without REDIS_URL
        return RedisCache(settings.redis_url.get_secret_value(), ttl_s=settings.answer_cache_ttl_s)
    return MemoryCache(
        max_entries=settings.answer_cache_entries,
        max_bytes=int(settings.answer_cache_mb * MB),
        ttl_s=settings.answer_cache_ttl_s,
    )
