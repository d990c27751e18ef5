"""What the insights aggregates are: counts over a window of stored questions, nothing per reader.

Every record here is a count, a share or a question's own text: no conversation or message id,
no time finer than a day except when a rated-down answer was asked, nothing that tells readers
apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta

from bookchat.history.errors import BadWindow
from bookchat.history.records import GapRow

OUTCOME_FIELDS = ("asked", "grounded", "abstained", "rated_up", "rated_down", "related")
# The period shown when none is asked for, and the longest one that may be asked for.
DEFAULT_DAYS = 30
MAX_DAYS = 366


@dataclass(frozen=True, slots=True)
class Window:
    """The questions asked in [start, end), optionally of one docs version and/or locale."""

    start: datetime
    end: datetime
    version: str | None = None
    locale: str | None = None

    @classmethod
    def of_days(
        cls,
        since: date | None = None,
        until: date | None = None,
        *,
        version: str | None = None,
        locale: str | None = None,
        today: date | None = None,
    ) -> Window:
        """The UTC days `since` to `until`, both included (defaults: the DEFAULT_DAYS days up to
        today, or up to `until`); BadWindow when they are reversed or too far apart."""
        try:
            last = until or today or datetime.now(UTC).date()
            first = since or last - timedelta(days=DEFAULT_DAYS - 1)
            end = datetime.combine(last + timedelta(days=1), time(), UTC)
        except OverflowError as exc:
            raise BadWindow("`since` and `until` must be real calendar days.") from exc
        if first > last:
            raise BadWindow("`since` is after `until`.")
        if (last - first).days >= MAX_DAYS:
            raise BadWindow(f"At most {MAX_DAYS} days at once: move `since` or `until`.")
        return cls(datetime.combine(first, time(), UTC), end, version, locale)


@dataclass(frozen=True, slots=True)
class Outcomes:
    """How the questions of one day, one chapter or the whole window ended."""

    asked: int = 0
    grounded: int = 0
    abstained: int = 0
    rated_up: int = 0
    rated_down: int = 0
    # Any status besides answered and declined: `related`, the book's closest places shown
    # instead of an answer (the API's third status).
    related: int = 0


@dataclass(frozen=True, slots=True)
class DayCount:
    """The questions of one UTC day (YYYY-MM-DD)."""

    day: str
    outcomes: Outcomes


@dataclass(frozen=True, slots=True)
class ChapterCount:
    """The questions of one chapter: asked of it (chapter mode) or answered from it first.

    `chapter` is None for book-mode questions answered with no citation (declined ones).
    """

    chapter: str | None
    outcomes: Outcomes


@dataclass(frozen=True, slots=True)
class CitedSection:
    """A section of the book and how many answers cited it."""

    url: str
    section: str
    chapter_title: str
    answers: int


@dataclass(frozen=True, slots=True)
class RatedDown:
    """An answer a reader rated down, with the section it cited first (if any)."""

    asked_at: datetime
    question: str
    answer: str
    section: str | None
    url: str | None
    comment: str | None


@dataclass(frozen=True, slots=True)
class Aggregates:
    """Everything the store computes for the insights page over one window."""

    days: list[DayCount] = field(default_factory=list)
    chapters: list[ChapterCount] = field(default_factory=list)
    cited: list[CitedSection] = field(default_factory=list)
    rated_down: list[RatedDown] = field(default_factory=list)
    gaps: list[GapRow] = field(default_factory=list)  # newest first, as `report gaps` reads them
    latency_p50_ms: float | None = None
    latency_p95_ms: float | None = None
    timed: int = 0  # questions with a recorded latency
    cache_known: int = 0  # questions stored with whether the answer cache served them
    cache_hits: int = 0

    @property
    def totals(self) -> Outcomes:
        """The window's outcomes, summed over its days."""
        return Outcomes(
            *(sum(getattr(d.outcomes, name) for d in self.days) for name in OUTCOME_FIELDS)
        )
