"""The response of GET /api/admin/insights (history.insights_report's records, for OpenAPI)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class _Out(BaseModel):
    model_config = ConfigDict(from_attributes=True)


class Totals(_Out):
    """How the window's questions ended."""

    asked: int
    grounded: int
    abstained: int
    rated_up: int
    rated_down: int
    related: int


class InsightsDay(_Out):
    """One UTC day's questions by outcome (every day of the window, quiet ones as zeros)."""

    day: str
    asked: int
    grounded: int
    abstained: int
    rated_down: int
    related: int


class InsightsChapter(_Out):
    """One chapter: questions asked of it, or answered from it first (book mode)."""

    chapter: str | None
    title: str
    url: str | None
    asked: int
    grounded: int
    abstained: int
    rated_down: int
    related: int
    answered_share: float
    declined_share: float


class SectionLinkOut(_Out):
    """A section of the book (URL with its #anchor, relative to the book's address)."""

    section: str
    chapter_title: str
    url: str


class CitedSectionOut(_Out):
    """A section and how many answers cited it."""

    url: str
    section: str
    chapter_title: str
    answers: int


class InsightsGap(_Out):
    """Questions the book declined or answered badly, grouped by meaning."""

    question: str
    asked: int
    abstained: int
    rated_down: int
    examples: list[str]
    last_asked: str
    closest: SectionLinkOut | None


class RatedDownOut(_Out):
    """An answer a reader rated down."""

    asked_on: str
    question: str
    answer_start: str
    section: str | None
    url: str | None
    comment: str | None


class LatencyOut(_Out):
    """Answer times over the questions that recorded one (nearest-rank percentiles)."""

    p50_ms: float | None
    p95_ms: float | None
    measured: int


class CacheShareOut(_Out):
    """Answers the answer cache served, of those stored with that fact."""

    hits: int
    recorded: int
    hit_share: float | None


class InsightsOut(_Out):
    """What readers asked in a period, for the book's authors (no reader is identifiable)."""

    since: str
    until: str
    version: str | None
    locale: str | None
    book_url: str | None
    totals: Totals
    days: list[InsightsDay]
    chapters: list[InsightsChapter]
    cited_sections: list[CitedSectionOut]
    gaps: list[InsightsGap]
    rated_down: list[RatedDownOut]
    latency: LatencyOut
    answer_cache: CacheShareOut
