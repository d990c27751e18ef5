"""Prometheus metrics: one registry per app (so tests and workers never share counters)."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily
from prometheus_client.registry import Collector

from bookchat.cache import CacheStats

_LATENCY_BUCKETS = (0.005, 0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24)


class Metrics:
    """The counters and histograms bookchat exports at GET /metrics."""

    def __init__(self) -> None:
        r = self.registry = CollectorRegistry()
        self.http_requests = Counter(
            "bookchat_http_requests", "HTTP requests", ["endpoint", "method", "code"], registry=r
        )
        self.http_seconds = Histogram(
            "bookchat_http_request_seconds",
            "Time to the response's first byte",
            ["endpoint"],
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        self.answers = Counter(
            "bookchat_answers",
            "Answers given",
            ["endpoint", "mode", "status", "generator"],
            registry=r,
        )
        self.abstentions = Counter(
            "bookchat_abstentions", "Questions the book did not cover", ["mode"], registry=r
        )
        self.fallbacks = Counter(
            "bookchat_generator_fallbacks", "LLM failures answered extractively", registry=r
        )
        self.rate_limited = Counter(
            "bookchat_rate_limited", "Requests refused by the rate limit", ["endpoint"], registry=r
        )
        self.feedback = Counter("bookchat_feedback", "Reader ratings", ["rating"], registry=r)
        self.index_chunks = Gauge("bookchat_index_chunks", "Chunks in the index", registry=r)
        self.answer_cache_entries = Gauge(
            "bookchat_answer_cache_entries", "Answers held by the answer cache", registry=r
        )
        self.answer_cache_bytes = Gauge(
            "bookchat_answer_cache_bytes",
            "Bytes of the answers held by the answer cache",
            registry=r,
        )
        self.answer_cache = AnswerCacheCounters()
        r.register(self.answer_cache)

    def render(self) -> bytes:
        """The Prometheus text exposition of every metric."""
        return generate_latest(self.registry)


class AnswerCacheCounters(Collector):
    """The answer cache's own counters (hits, misses, evictions, errors), read at each scrape."""

    def __init__(self) -> None:
        self.stats: CacheStats | None = None  # set by the lifespan once the cache exists

    def collect(self) -> Iterator[CounterMetricFamily]:
        """One counter per CacheStats field; zeros while there is no cache."""
        stats = self.stats or CacheStats()
        described = {
            "hits": "Questions answered from the answer cache",
            "misses": "Cacheable questions the answer cache did not hold",
            "evictions": "Answers dropped to keep the in-process cache within its bounds",
            "errors": "Answer-cache lookups and writes lost to an unreachable or slow Redis",
        }
        for name, help_text in described.items():
            yield CounterMetricFamily(
                f"bookchat_answer_cache_{name}", help_text, value=getattr(stats, name)
            )
