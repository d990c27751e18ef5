"""The insights aggregates, computed by each database (SQLite and Postgres) from the same rows."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from bookchat.history import ConversationStore
from bookchat.history.errors import BadWindow
from bookchat.history.insight_records import ChapterCount, Outcomes, Window
from tests.insights_data import CREATE, MERGE, RESET, SCRIPT, Asked, seed

NEWEST = datetime.now(UTC).date() - timedelta(days=2)
WEEK = Window.of_days(NEWEST - timedelta(days=6), NEWEST)


@pytest.fixture
async def seeded(store: ConversationStore) -> ConversationStore:
    """The store holding tests/insights_data.py's questions, day 0 two days ago."""
    await seed(store, NEWEST)
    return store


async def test_days_count_each_outcome(seeded: ConversationStore) -> None:
    found = await seeded.insights(WEEK)
    assert [(d.day, d.outcomes) for d in found.days] == [
        ((NEWEST - timedelta(days=1)).isoformat(), Outcomes(4, 2, 2, 1, 0)),
        (NEWEST.isoformat(), Outcomes(3, 2, 1, 0, 1)),
    ]
    assert found.totals == Outcomes(asked=7, grounded=4, abstained=3, rated_up=1, rated_down=1)


async def test_a_book_question_counts_for_the_chapter_it_cites_first(
    seeded: ConversationStore,
) -> None:
    found = await seeded.insights(WEEK)
    assert found.chapters == [
        ChapterCount("branching", Outcomes(3, 3, 0, 1, 0)),
        ChapterCount(None, Outcomes(2, 0, 2, 0, 0)),  # declined book questions cite nothing
        ChapterCount("everyday-git", Outcomes(2, 1, 1, 0, 1)),
    ]


async def test_sections_are_ranked_by_the_answers_citing_them(seeded: ConversationStore) -> None:
    found = await seeded.insights(WEEK)
    assert [(c.url, c.section, c.chapter_title, c.answers) for c in found.cited] == [
        (CREATE["url"], "Creating a branch", "Branching", 3),
        (MERGE["url"], "Fast-forward merges", "Branching", 1),
        (RESET["url"], RESET["section"], "Everyday Git", 1),
    ]


async def test_rated_down_answers_come_with_their_first_citation_and_comment(
    seeded: ConversationStore,
) -> None:
    [down] = (await seeded.insights(WEEK)).rated_down
    assert (down.question, down.section, down.url, down.comment) == (
        "What does git reset --hard do?", RESET["section"], RESET["url"], "too vague",
    )  # fmt: skip
    assert down.asked_at.date() == NEWEST
    assert down.answer.startswith("A seeded answer")


async def test_gap_questions_are_the_ones_report_gaps_reads(seeded: ConversationStore) -> None:
    found = await seeded.insights(WEEK)
    assert [g.question for g in found.gaps] == [
        SCRIPT,
        "What does git reset --hard do?",
        "How can I GPG-sign my commits?",
        "How do I sign commits with GPG?",
    ]
    # The same rows, in the same order, as `bookchat report gaps` reads over the same days.
    days = (WEEK.end - WEEK.start).total_seconds() / 86_400
    reported = await seeded.gaps(days, until=WEEK.end)
    assert [g.message_id for g in reported] == [g.message_id for g in found.gaps]


async def test_latency_percentiles_and_cache_share(seeded: ConversationStore) -> None:
    found = await seeded.insights(WEEK)
    # Latencies 2, 10, 15, 20, 30, 40, 50: nearest-rank p50 is the 4th, p95 the 7th.
    assert (found.latency_p50_ms, found.latency_p95_ms, found.timed) == (20.0, 50.0, 7)
    # One answer came from the cache; one message was stored without saying.
    assert (found.cache_hits, found.cache_known) == (1, 6)


async def test_version_and_locale_filter_the_questions(seeded: ConversationStore) -> None:
    for window in (
        Window(WEEK.start, WEEK.end, version="1.0"),
        Window(WEEK.start, WEEK.end, locale="fr"),
        Window(WEEK.start, WEEK.end, version="1.0", locale="fr"),
    ):
        found = await seeded.insights(window)
        assert found.totals == Outcomes(2, 1, 1, 0, 0)
        assert [g.question for g in found.gaps] == [SCRIPT]
    assert (await seeded.insights(Window(WEEK.start, WEEK.end, version="9.9"))).totals.asked == 0
    assert (await seeded.insights(Window(WEEK.start, WEEK.end, version="current"))).timed == 5


async def test_the_window_bounds_every_aggregate(seeded: ConversationStore) -> None:
    eight = await seeded.insights(Window.of_days(NEWEST - timedelta(days=7), NEWEST))
    assert eight.totals.asked == 8
    assert eight.latency_p95_ms == 60.0
    older = await seeded.insights(Window.of_days(NEWEST - timedelta(days=7), NEWEST - timedelta(2)))
    assert older.totals == Outcomes(1, 0, 1, 0, 0)
    assert older.chapters == [ChapterCount(None, Outcomes(1, 0, 1, 0, 0))]
    assert (older.cited, older.rated_down) == ([], [])
    assert [g.question for g in older.gaps] == ["How do I push a tag?"]


async def test_an_empty_window_has_no_counts(store: ConversationStore) -> None:
    found = await store.insights(WEEK)
    assert (found.days, found.chapters, found.cited, found.gaps) == ([], [], [], [])
    assert (found.latency_p50_ms, found.timed, found.cache_known) == (None, 0, 0)


def test_a_window_is_whole_utc_days_and_refuses_nonsense() -> None:
    window = Window.of_days(date(2026, 3, 1), date(2026, 3, 2))
    assert (window.start, window.end) == (
        datetime(2026, 3, 1, tzinfo=UTC), datetime(2026, 3, 3, tzinfo=UTC),
    )  # fmt: skip
    default = Window.of_days(today=date(2026, 3, 31))
    assert default.start == datetime(2026, 3, 2, tzinfo=UTC)  # 30 days, today included
    for since, until in [(date(2026, 3, 2), date(2026, 3, 1)), (date(2024, 1, 1), date(2026, 1, 1)),
                         (None, date.max)]:  # fmt: skip
        with pytest.raises(BadWindow):
            Window.of_days(since, until)


async def test_latencies_are_counted_to_the_millisecond_alike_in_both_databases(
    store: ConversationStore,
) -> None:
    seeded = [Asked(0, f"Question {ms}?", latency_ms=ms) for ms in (1.9, 2.2, 7.99)]
    await seed(store, NEWEST, seeded)
    found = await store.insights(WEEK)
    # Nearest rank: the 2nd of 3 for p50, the 3rd for p95; fractions of a millisecond are cut.
    assert (found.latency_p50_ms, found.latency_p95_ms, found.timed) == (2.0, 7.0, 3)


async def test_a_third_status_is_counted_as_such(store: ConversationStore) -> None:
    # `related`: the book's closest places shown instead of an answer.
    await seed(store, NEWEST, [Asked(0, "Is Git a database?", "related", "internals")])
    found = await store.insights(WEEK)
    expected = Outcomes(asked=1, related=1)
    assert [(d.day, d.outcomes) for d in found.days] == [(NEWEST.isoformat(), expected)]
    assert found.chapters == [ChapterCount("internals", expected)]
