"""Running the insights statements and folding their rows: one trip per aggregate.

The database does the counting; only aggregate rows (a period's days x chapters x outcomes),
the newest rated-down answers and the gap questions `bookchat report gaps` groups come back.
"""

from __future__ import annotations

import math
from collections import defaultdict
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
Tally = defaultdict[Any, dict[str, int]]

# How much of each list comes back: more than a page shows, far less than the window holds.
MAX_CITED = 20
MAX_RATED_DOWN = 50
# As many gap questions as `bookchat report gaps` reads by default (the newest ones).
MAX_GAP_QUESTIONS = 1_000
_STATUS = {"grounded": "grounded", "abstained": "abstained", "related": "related"}
_RATING = {"up": "rated_up", "down": "rated_down"}


def nearest_rank(share: float, count: int) -> int:
    """The 1-based rank of the `share` percentile among `count` sorted values (nearest rank)."""
    return max(1, math.ceil(share * count))


def _tally() -> Tally:
    return defaultdict(lambda: dict.fromkeys(OUTCOME_FIELDS, 0))


def _outcomes(counts: dict[str, int]) -> Outcomes:
    return Outcomes(**counts)


def _day(value: Any) -> str:
    """A day as YYYY-MM-DD, from SQLite's text or Postgres's date."""
    return value if isinstance(value, str) else value.isoformat()


async def aggregate(
    fetch: Fetch, statements: InsightStatements, codec: sql.Codec, window: Window
) -> Aggregates:
    """The insights aggregates of `window`, computed by the database."""
    base = (codec.time_in(window.start), codec.time_in(window.end), window.version, window.locale)
    days, chapters = _tally(), _tally()
    timed = cache_known = cache_hits = 0
    for row in await fetch(statements.counts, base):
        n = int(row["asked"])
        for tally, key in ((days, _day(row["day"])), (chapters, row["chapter"])):
            tally[key]["asked"] += n
            if row["status"] in _STATUS:
                tally[key][_STATUS[row["status"]]] += n
        timed += int(row["timed"] or 0)
        cache_known += int(row["cache_known"] or 0)
        cache_hits += int(row["cache_hits"] or 0)
    for row in await fetch(statements.ratings, base):
        for tally, key in ((days, _day(row["day"])), (chapters, row["chapter"])):
            tally[key][_RATING[row["rating"]]] += int(row["n"])
    found_chapters = [ChapterCount(key, _outcomes(c)) for key, c in chapters.items()]
    found_chapters.sort(key=lambda c: (-c.outcomes.asked, c.chapter or ""))
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
    p50, p95 = await _percentiles(fetch, statements, base, timed)
    return Aggregates(
        days=[DayCount(day, _outcomes(days[day])) for day in sorted(days)],
        chapters=found_chapters,
        cited=cited,
        rated_down=rated_down,
        gaps=gaps,
        latency_p50_ms=p50,
        latency_p95_ms=p95,
        timed=timed,
        cache_known=cache_known,
        cache_hits=cache_hits,
    )


async def _percentiles(
    fetch: Fetch, statements: InsightStatements, base: tuple[Any, ...], timed: int
) -> tuple[float | None, float | None]:
    """The nearest-rank p50 and p95 of the window's latencies, to the millisecond (cut)."""
    if not timed:
        return None, None
    wanted = [nearest_rank(0.5, timed), nearest_rank(0.95, timed)]
    found: list[float] = []
    seen = 0
    for row in await fetch(statements.latencies, base):
        seen += int(row["n"])
        while wanted and seen >= wanted[0]:
            found.append(float(row["ms"]))
            wanted.pop(0)
    return (found[0], found[1]) if len(found) == 2 else (None, None)
