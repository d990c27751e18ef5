"""The answer cache: repeated questions on the same edition are answered once."""

from bookchat.cache.answers import CachedAnswers
from bookchat.cache.factory import answer_cache_for
from bookchat.cache.store import AnswerCache, CacheSize, CacheStats

__all__ = ["AnswerCache", "CacheSize", "CacheStats", "CachedAnswers", "answer_cache_for"]
