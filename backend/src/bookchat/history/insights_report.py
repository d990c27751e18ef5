"""The authors' insights over a window: the store's aggregates, the gaps grouped by meaning as
`bookchat report gaps` groups them, and each gap's closest section of the book.

Nothing here tells readers apart: counts, shares, the questions' own words and days, never an id
or a time of day.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from bookchat.history.book_sections import BookSections, SectionLink
from bookchat.history.gap_report import Gap, group_gaps
from bookchat.history.insight_records import Aggregates, CitedSection, Outcomes, Window
from bookchat.history.question_vectors import QuestionVectors
from bookchat.history.store import ConversationStore

# The gaps shown (biggest first), and the words kept of a rated-down answer.
MAX_GAPS = 30
ANSWER_WORDS = 30


@dataclass(frozen=True, slots=True)
class DayRow:
    """One UTC day's questions by outcome."""

    day: str
    asked: int
    grounded: int
    abstained: int
    rated_down: int


@dataclass(frozen=True, slots=True)
class ChapterRow:
    """One chapter's questions; `chapter` None gathers book questions that cited nothing."""

    chapter: str | None
    title: str
    url: str | None
    asked: int
    grounded: int
    abstained: int
    rated_down: int
    answered_share: float
    declined_share: float


@dataclass(frozen=True, slots=True)
class GapRowOut:
    """One group of questions the book did not answer, and where an answer would go."""

    question: str
    asked: int
    abstained: int
    rated_down: int
    examples: list[str]
    last_asked: str
    closest: SectionLink | None


@dataclass(frozen=True, slots=True)
class RatedDownRow:
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
    days: list[DayRow]
    chapters: list[ChapterRow]
    cited_sections: list[CitedSection]
    gaps: list[GapRowOut]
    rated_down: list[RatedDownRow]
    latency: Latency
    answer_cache: CacheShare


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def _days(window: Window, found: Aggregates) -> list[DayRow]:
    """Every day of the window, the quiet ones as zeros (a chart shows them as such)."""
    by_day = {d.day: d.outcomes for d in found.days}
    first: date = window.start.date()
    last: date = (window.end - timedelta(microseconds=1)).date()
    rows = []
    for n in range((last - first).days + 1):
        day = (first + timedelta(days=n)).isoformat()
        o = by_day.get(day, Outcomes())
        rows.append(DayRow(day, o.asked, o.grounded, o.abstained, o.rated_down))
    return rows


def _chapters(found: Aggregates, book: BookSections) -> list[ChapterRow]:
    rows = []
    for c in found.chapters:
        name = book.chapter(c.chapter) if c.chapter else None
        title = name.title if name else (c.chapter or "(no chapter: declined book questions)")
        o = c.outcomes
        rows.append(ChapterRow(
            c.chapter, title, name.url if name else None, o.asked, o.grounded, o.abstained,
            o.rated_down, _share(o.grounded, o.asked), _share(o.abstained, o.asked),
        ))  # fmt: skip
    return rows


def _first_words(text: str, words: int = ANSWER_WORDS) -> str:
    kept = text.split()
    return " ".join(kept[:words]) + (" …" if len(kept) > words else "")


async def _gaps(found: Aggregates, vectors: QuestionVectors, book: BookSections) -> list[GapRowOut]:
    if not found.gaps:
        return []
    groups: list[Gap] = group_gaps(found.gaps, await vectors.of([r.question for r in found.gaps]))
    shown = groups[:MAX_GAPS]
    questions = [g.representative for g in shown]
    closest = await book.closest(questions, await vectors.of(questions))
    return [
        GapRowOut(gap.representative, len(gap.rows), gap.abstained, gap.rated_down, gap.examples,
                  max(r.created_at for r in gap.rows).date().isoformat(), section)
        for gap, section in zip(shown, closest, strict=True)
    ]  # fmt: skip


async def build_report(
    store: ConversationStore,
    window: Window,
    vectors: QuestionVectors,
    book: BookSections,
    book_url: str | None = None,
) -> InsightsReport:
    """The insights of `window` (the store's aggregates, gaps grouped and placed in the book)."""
    found = await store.insights(window)
    hits, recorded = found.cache_hits, found.cache_known
    return InsightsReport(
        since=window.start.date().isoformat(),
        until=(window.end - timedelta(microseconds=1)).date().isoformat(),
        version=window.version,
        locale=window.locale,
        book_url=book_url,
        totals=found.totals,
        days=_days(window, found),
        chapters=_chapters(found, book),
        cited_sections=found.cited,
        gaps=await _gaps(found, vectors, book),
        rated_down=[
            RatedDownRow(
                r.asked_at.date().isoformat(),
                r.question,
                _first_words(r.answer),
                r.section,
                r.url,
                r.comment,
            )
            for r in found.rated_down
        ],
        latency=Latency(found.latency_p50_ms, found.latency_p95_ms, found.timed),
        answer_cache=CacheShare(hits, recorded, _share(hits, recorded) if recorded else None),
    )
