"""The insights as the page shows them: a row per day, chapter, gap and rated-down answer.

Nothing here tells readers apart: counts, shares, the questions' own words and days, never an id
or a time of day.
"""

from __future__ import annotations

from dataclasses import dataclass

from bookchat.history.book_sections import SectionLink
from bookchat.history.insight_records import CitedSection, Outcomes


@dataclass(frozen=True, slots=True)
class InsightsDay:
    """One UTC day's questions by outcome."""

    day: str
    asked: int
    grounded: int
    abstained: int
    rated_down: int
    related: int


@dataclass(frozen=True, slots=True)
class InsightsChapter:
    """One chapter's questions; `chapter` None gathers book questions that cited nothing."""

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


@dataclass(frozen=True, slots=True)
class InsightsGap:
    """One group of questions the book did not answer, and where an answer would go."""

    question: str
    asked: int
    abstained: int
    rated_down: int
    examples: list[str]
    last_asked: str
    closest: SectionLink | None


@dataclass(frozen=True, slots=True)
class RatedDownAnswer:
    """An answer a reader rated down: the day, the question, the answer's first words."""

    asked_on: str
    question: str
    answer_start: str
    section: str | None
    url: str | None
    comment: str | None


@dataclass(frozen=True, slots=True)
class Latency:
    """Answer times (nearest-rank percentiles) over the questions that recorded one."""

    p50_ms: float | None
    p95_ms: float | None
    measured: int


@dataclass(frozen=True, slots=True)
class CacheShare:
    """How many answers the answer cache served, of those stored with that fact."""

    hits: int
    recorded: int
    hit_share: float | None


@dataclass(frozen=True, slots=True)
class InsightsReport:
    """Everything the insights page shows for one window."""

    since: str
    until: str
    version: str | None
    locale: str | None
    book_url: str | None
    totals: Outcomes
    days: list[InsightsDay]
    chapters: list[InsightsChapter]
    cited_sections: list[CitedSection]
    gaps: list[InsightsGap]
    rated_down: list[RatedDownAnswer]
    latency: Latency
    answer_cache: CacheShare
