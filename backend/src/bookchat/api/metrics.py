"""Prometheus metrics: one registry per app (so tests and workers never share counters)."""

from __future__ import annotations

from dataclasses import dataclass, field

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

_LATENCY_BUCKETS = (0.005, 0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24)


@dataclass(slots=True)
class Metrics:
    """The counters and histograms bookchat exports at GET /metrics."""

    registry: CollectorRegistry = field(default_factory=CollectorRegistry)
    http_requests: Counter = field(init=False)
    http_seconds: Histogram = field(init=False)
    answers: Counter = field(init=False)
    abstentions: Counter = field(init=False)
    fallbacks: Counter = field(init=False)
    rate_limited: Counter = field(init=False)
    feedback: Counter = field(init=False)
    index_chunks: Gauge = field(init=False)

    def __post_init__(self) -> None:
        r = self.registry
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

    def render(self) -> bytes:
        """The Prometheus text exposition of every metric."""
        return generate_latest(self.registry)
