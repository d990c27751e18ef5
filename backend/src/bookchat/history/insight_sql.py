"""The insights aggregates in SQL, written once with the few fragments the two databases spell
differently (a UTC day, a field of the citations' JSON, the citations as rows).

Only this module's constants are formatted into the statements (never a value: values are bound
parameters), hence the file-wide exception to ruff's S608.

Every statement takes the window as $1 (start, inclusive), $2 (end, exclusive), $3 (version or
null) and $4 (locale or null); $5, when there is one, is a row limit or an offset.
"""

# ruff: noqa: S608
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Dialect:
    """How one database says what the statements need."""

    day: str  # the UTC calendar day of m.created_at, as YYYY-MM-DD text
    first: Callable[[str], str]  # a field of m's first citation, as text
    each_citation: str  # FROM clause: messages m with one row c per citation
    cited: Callable[[str], str]  # a field of that citation row c, as text


SQLITE = Dialect(
    day="substr(m.created_at, 1, 10)",
    first=lambda name: f"json_extract(m.citations, '$[0].{name}')",
    each_citation="messages m, json_each(m.citations) AS c",
    cited=lambda name: f"json_extract(c.value, '$.{name}')",
)
POSTGRES = Dialect(
    day="to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
    first=lambda name: f"(m.citations -> 0 ->> '{name}')",
    each_citation="messages m CROSS JOIN LATERAL jsonb_array_elements(m.citations) AS c(value)",
    cited=lambda name: f"(c.value ->> '{name}')",
)

# CAST, not Postgres's `::`: SQLite reads it too, and Postgres learns the parameter's type from it.
WINDOW = """m.created_at >= $1 AND m.created_at < $2
    AND (CAST($3 AS TEXT) IS NULL OR m.version = $3)
    AND (CAST($4 AS TEXT) IS NULL OR m.locale = $4)"""
OUTCOMES = """count(*) AS asked,
    sum(CASE WHEN m.status = 'grounded' THEN 1 ELSE 0 END) AS grounded,
    sum(CASE WHEN m.status = 'abstained' THEN 1 ELSE 0 END) AS abstained,
    sum(CASE WHEN r.rating = 'up' THEN 1 ELSE 0 END) AS rated_up,
    sum(CASE WHEN r.rating = 'down' THEN 1 ELSE 0 END) AS rated_down"""
WITH_RATINGS = "messages m LEFT JOIN ratings r ON r.message_id = m.id"


@dataclass(frozen=True, slots=True)
class InsightStatements:
    """The statements of one dialect."""

    days: str
    chapters: str
    cited: str
    rated_down: str
    gaps: str
    latency_at: str

    @classmethod
    def of(cls, d: Dialect) -> InsightStatements:
        """The statements spelled for dialect `d`."""
        return cls(
            # One pass gives the per-day outcomes and what latency and cache shares count.
            days=f"""SELECT {d.day} AS day, {OUTCOMES},
                count(m.latency_ms) AS timed, count(m.cached) AS cache_known,
                sum(CASE WHEN m.cached THEN 1 ELSE 0 END) AS cache_hits
                FROM {WITH_RATINGS} WHERE {WINDOW} GROUP BY 1 ORDER BY 1""",
            # A book-mode question counts for the chapter its answer cites first.
            chapters=f"""SELECT COALESCE(m.chapter, {d.first("chapter")}) AS chapter, {OUTCOMES}
                FROM {WITH_RATINGS} WHERE {WINDOW} GROUP BY 1 ORDER BY 2 DESC LIMIT $5""",
            cited=f"""SELECT {d.cited("url")} AS url, max({d.cited("section")}) AS section,
                max({d.cited("chapter_title")}) AS chapter_title,
                count(DISTINCT m.seq) AS answers
                FROM {d.each_citation}
                WHERE {WINDOW} AND {d.cited("url")} <> ''
                GROUP BY 1 ORDER BY 4 DESC LIMIT $5""",
            rated_down=f"""SELECT m.created_at, m.question, substr(m.answer, 1, 400) AS answer,
                {d.first("section")} AS section, {d.first("url")} AS url, r.comment
                FROM ratings r JOIN messages m ON m.id = r.message_id
                WHERE r.rating = 'down' AND {WINDOW}
                ORDER BY m.created_at DESC, m.seq DESC LIMIT $5""",
            # The rows `bookchat report gaps` reads (sql.GAPS), in its order, inside the window.
            gaps=f"""SELECT m.id, m.conversation_id, m.created_at, m.question, m.mode, m.chapter,
                m.status, r.rating, r.comment
                FROM {WITH_RATINGS}
                WHERE {WINDOW} AND (m.status = 'abstained' OR r.rating = 'down')
                ORDER BY m.created_at DESC, m.seq DESC LIMIT $5""",
            # The latency at a rank (an offset into the sorted latencies): one percentile.
            latency_at=f"""SELECT m.latency_ms FROM messages m
                WHERE {WINDOW} AND m.latency_ms IS NOT NULL
                ORDER BY m.latency_ms LIMIT 1 OFFSET $5""",
        )


SQLITE_STATEMENTS = InsightStatements.of(SQLITE)
POSTGRES_STATEMENTS = InsightStatements.of(POSTGRES)

# Retention: messages older than $1 go (their ratings with them, by cascade), then conversations
# older than $1 that no longer hold any message.
FORGET_MESSAGES = "DELETE FROM messages WHERE created_at < $1"
FORGET_CONVERSATIONS = """DELETE FROM conversations WHERE created_at < $1
    AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = conversations.id)"""
