"""The authors' insights over a window: the store's aggregates, the gaps grouped by meaning as
`bookchat report gaps` groups them, and each gap's closest section of the book.

Nothing here tells readers apart: counts, shares, the questions' own words and days, never an id
or a time of day.
"""

from __future__ import annotations

from datetime import date, timedelta

from bookchat.history.book_sections import BookSections
from bookchat.history.gap_report import Gap, group_gaps
from bookchat.history.insight_records import Aggregates, Outcomes, Window
from bookchat.history.insight_rows import (
    CacheShare,
    InsightsChapter,
    InsightsDay,
    InsightsGap,
    InsightsReport,
    Latency,
    RatedDownAnswer,
)
from bookchat.history.question_vectors import QuestionVectors
from bookchat.history.store import ConversationStore

# The gaps shown (biggest first), and the words kept of a rated-down answer.
MAX_GAPS = 30
ANSWER_WORDS = 30


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def _days(window: Window, found: Aggregates) -> list[InsightsDay]:
    """Every day of the window, the quiet ones as zeros (a chart shows them as such)."""
    by_day = {d.day: d.outcomes for d in found.days}
    first: date = window.start.date()
    last: date = (window.end - timedelta(microseconds=1)).date()
    rows = []
    for n in range((last - first).days + 1):
        day = (first + timedelta(days=n)).isoformat()
        o = by_day.get(day, Outcomes())
        rows.append(InsightsDay(day, o.asked, o.grounded, o.abstained, o.rated_down, o.related))
    return rows


def _chapters(found: Aggregates, book: BookSections) -> list[InsightsChapter]:
    rows = []
    for c in found.chapters:
        name = book.chapter(c.chapter) if c.chapter else None
        title = name.title if name else (c.chapter or "(no chapter: declined book questions)")
        o = c.outcomes
        rows.append(InsightsChapter(
            c.chapter, title, name.url if name else None, o.asked, o.grounded, o.abstained,
            o.rated_down, o.related, _share(o.grounded, o.asked), _share(o.abstained, o.asked),
        ))  # fmt: skip
    return rows


def _first_words(text: str, words: int = ANSWER_WORDS) -> str:
    kept = text.split()
    return " ".join(kept[:words]) + (" …" if len(kept) > words else "")


async def _gaps(
    found: Aggregates, vectors: QuestionVectors, book: BookSections
) -> list[InsightsGap]:
    if not found.gaps:
        return []
    groups: list[Gap] = group_gaps(found.gaps, await vectors.of([r.question for r in found.gaps]))
    shown = groups[:MAX_GAPS]
    questions = [g.representative for g in shown]
    closest = await book.closest(questions, await vectors.of(questions))
    out = []
    for gap, section in zip(shown, closest, strict=True):
        # The report's own figures for the group, so the page and `report gaps` say the same.
        data = gap.to_json()
        examples = data["examples"]
        assert isinstance(examples, list)
        out.append(
            InsightsGap(
                gap.representative, len(gap.rows), _int(data["abstained"]),
                _int(data["rated_down"]), [str(e) for e in examples],
                max(r.created_at for r in gap.rows).date().isoformat(), section,
            )
        )  # fmt: skip
    return out


def _int(value: object) -> int:
    assert isinstance(value, int)
    return value


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
            RatedDownAnswer(
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
