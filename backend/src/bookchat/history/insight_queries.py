"""Running the insights statements and reading their rows: one trip per aggregate.

The database does the counting; only aggregate rows, the newest rated-down answers and the gap
questions `bookchat report gaps` groups come back to Python.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bookchat.history import sql
from bookchat.history.insight_records import (
    OUTCOME_FIELDS,
    Aggregates,
    ChapterCount,
    CitedSection,
    DayCount,
    Outcomes,
    RatedDown,
    Window,
)
from bookchat.history.insight_sql import InsightStatements

Fetch = Callable[[str, Sequence[Any]], Awaitable[list[sql.Row]]]

# How much of each list comes back: more than a page shows, far less than the window holds.
MAX_CHAPTERS = 500
MAX_CITED = 20
MAX_RATED_DOWN = 50
# As many gap questions as `bookchat report gaps` reads by default (the newest ones).
MAX_GAP_QUESTIONS = 1_000


def _outcomes(row: sql.Row) -> Outcomes:
    return Outcomes(**{name: int(row[name] or 0) for name in OUTCOME_FIELDS})


def nearest_rank(share: float, count: int) -> int:
    """The 0-based offset of the `share` percentile among `count` sorted values (nearest rank)."""
    return max(0, math.ceil(share * count) - 1)


async def aggregate(
    fetch: Fetch, statements: InsightStatements, codec: sql.Codec, window: Window
) -> Aggregates:
    """The insights aggregates of `window`, computed by the database."""
    base = (codec.time_in(window.start), codec.time_in(window.end), window.version, window.locale)
    day_rows = await fetch(statements.days, base)
    days = [DayCount(str(row["day"]), _outcomes(row)) for row in day_rows]
    timed = sum(int(row["timed"] or 0) for row in day_rows)
    chapters = [
        ChapterCount(row["chapter"], _outcomes(row))
        for row in await fetch(statements.chapters, (*base, MAX_CHAPTERS))
    ]
    chapters.sort(key=lambda c: (-c.outcomes.asked, c.chapter or ""))
    cited = [
        CitedSection(str(row["url"]), row["section"] or "", row["chapter_title"] or "",
                     int(row["answers"]))
        for row in await fetch(statements.cited, (*base, MAX_CITED))
    ]  # fmt: skip
    cited.sort(key=lambda c: (-c.answers, c.url))
    rated_down = [
        RatedDown(codec.time_out(row["created_at"]), row["question"], row["answer"],
                  row["section"], row["url"], row["comment"])
        for row in await fetch(statements.rated_down, (*base, MAX_RATED_DOWN))
    ]  # fmt: skip
    gaps = [
        sql.gap_from(codec, row) for row in await fetch(statements.gaps, (*base, MAX_GAP_QUESTIONS))
    ]
    p50, p95 = None, None
    if timed:
        p50 = await _latency_at(fetch, statements, base, nearest_rank(0.5, timed))
        p95 = await _latency_at(fetch, statements, base, nearest_rank(0.95, timed))
    return Aggregates(
        days=days,
        chapters=chapters,
        cited=cited,
        rated_down=rated_down,
        gaps=gaps,
        latency_p50_ms=p50,
        latency_p95_ms=p95,
        timed=timed,
        cache_known=sum(int(row["cache_known"] or 0) for row in day_rows),
        cache_hits=sum(int(row["cache_hits"] or 0) for row in day_rows),
    )


async def _latency_at(
    fetch: Fetch, statements: InsightStatements, base: tuple[Any, ...], offset: int
) -> float | None:
    rows = await fetch(statements.latency_at, (*base, offset))
    return float(rows[0]["latency_ms"]) if rows else None
