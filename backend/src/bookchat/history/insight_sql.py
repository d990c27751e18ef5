"""The insights aggregates in SQL, written once with the one fragment the two databases spell
differently (a UTC day) and the first citation's fields of the few rated-down answers listed.

Counting reads the covering indexes of migration 0004: a period's questions by day, chapter and
status, its ratings, latencies and cited sections, without reading the messages' rows. Only this
module's constants are formatted into the statements (never a value: values are bound
parameters), hence the file-wide exception to ruff's S608.

Every statement takes the window as $1 (start, inclusive), $2 (end, exclusive), $3 (version or
null) and $4 (locale or null); $5, when there is one, is a row limit.
"""

# ruff: noqa: S608
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bookchat.history.sql import GAP_COLUMNS, IS_GAP


@dataclass(frozen=True, slots=True)
class Dialect:
    """How one database says what the statements need."""

    day: str  # the UTC calendar day of m.created_at (YYYY-MM-DD text, or a date)
    whole_ms: str  # m.latency_ms cut to whole milliseconds
    first: Callable[[str], str]  # a field of m's first citation, as text


SQLITE = Dialect(
    day="substr(m.created_at, 1, 10)",
    whole_ms="CAST(m.latency_ms AS INTEGER)",
    first=lambda name: f"json_extract(m.citations, '$[0].{name}')",
)
POSTGRES = Dialect(
    # A date, not to_char's text: formatting every row costs more than the counting.
    day="CAST(m.created_at AT TIME ZONE 'UTC' AS date)",
    whole_ms="CAST(trunc(m.latency_ms) AS bigint)",
    first=lambda name: f"(m.citations -> 0 ->> '{name}')",
)


def window(alias: str) -> str:
    """The WHERE clause of the window on table `alias` (messages or citations)."""
    # CAST, not Postgres's `::`: SQLite reads it too, and Postgres learns the parameter's type.
    return f"""{alias}.created_at >= $1 AND {alias}.created_at < $2
    AND (CAST($3 AS TEXT) IS NULL OR {alias}.version = $3)
    AND (CAST($4 AS TEXT) IS NULL OR {alias}.locale = $4)"""


WINDOW = window("m")
# A book-mode question counts for the chapter its answer cites first.
CHAPTER = "COALESCE(m.chapter, m.cited_chapter)"


@dataclass(frozen=True, slots=True)
class InsightStatements:
    """The statements of one dialect."""

    counts: str
    ratings: str
    cited: str
    rated_down: str
    gaps: str
    latencies: str

    @classmethod
    def of(cls, d: Dialect) -> InsightStatements:
        """The statements spelled for dialect `d`."""
        return cls(
            # One pass over the covering index: questions by day, chapter and status, with what
            # latency and cache shares count.
            counts=f"""SELECT {d.day} AS day, {CHAPTER} AS chapter, m.status,
                count(*) AS asked, count(m.latency_ms) AS timed, count(m.cached) AS cache_known,
                sum(CASE WHEN m.cached THEN 1 ELSE 0 END) AS cache_hits
                FROM messages m WHERE {WINDOW} GROUP BY 1, 2, 3""",
            # From the few ratings to their questions: CROSS JOIN keeps SQLite's planner from
            # looking up a rating for every question of the period (Postgres plans it freely).
            ratings=f"""SELECT {d.day} AS day, {CHAPTER} AS chapter, r.rating, count(*) AS n
                FROM ratings r CROSS JOIN messages m
                WHERE m.id = r.message_id AND {WINDOW} GROUP BY 1, 2, 3""",
            cited=f"""SELECT c.url, max(c.section) AS section,
                max(c.chapter_title) AS chapter_title, count(*) AS answers
                FROM citations c WHERE {window("c")}
                GROUP BY c.url ORDER BY 4 DESC LIMIT $5""",
            rated_down=f"""SELECT m.created_at, m.question, substr(m.answer, 1, 400) AS answer,
                {d.first("section")} AS section, {d.first("url")} AS url, r.comment
                FROM ratings r CROSS JOIN messages m
                WHERE m.id = r.message_id AND r.rating = 'down' AND {WINDOW}
                ORDER BY m.created_at DESC, m.seq DESC LIMIT $5""",
            # The rows `bookchat report gaps` reads (sql.GAPS), in its order, inside the window.
            gaps=f"""SELECT {GAP_COLUMNS}
                FROM messages m LEFT JOIN ratings r ON r.message_id = m.id
                WHERE {WINDOW} AND {IS_GAP}
                ORDER BY m.created_at DESC, m.seq DESC LIMIT $5""",
            # The latencies to the millisecond, counted: their percentiles without a sort of
            # every latency.
            latencies=f"""SELECT {d.whole_ms} AS ms, count(*) AS n FROM messages m
                WHERE {WINDOW} AND m.latency_ms IS NOT NULL GROUP BY 1 ORDER BY 1""",
        )


SQLITE_STATEMENTS = InsightStatements.of(SQLITE)
POSTGRES_STATEMENTS = InsightStatements.of(POSTGRES)

# Retention: messages older than $1 go (their ratings and citation rows with them, by cascade),
# then conversations older than $1 that no longer hold any message.
FORGET_MESSAGES = "DELETE FROM messages WHERE created_at < $1"
FORGET_CONVERSATIONS = """DELETE FROM conversations WHERE created_at < $1
    AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = conversations.id)"""
