"""The SQL both conversation stores run, written once, and the mappers from rows to records.

Statements use Postgres's numbered placeholders (`$1`); the SQLite driver rewrites them to
SQLite's numbered form (`?1`), which binds the same positions. What the two databases store
differently (times, JSON) goes through a Codec, so one mapper reads rows of either.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol, cast

from bookchat.history.records import Conversation, GapRow, Message, MessageRecord, Rating, Turn


class Row(Protocol):
    """A result row by column name: sqlite3.Row and asyncpg.Record alike."""

    def __getitem__(self, key: str, /) -> Any:
        """The value of one column."""
        ...


def stamp(moment: datetime) -> str:
    """A time as SQLite stores it: fixed-width UTC ISO text, so text order is time order."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def _same(value: Any) -> Any:
    return value


@dataclass(frozen=True, slots=True)
class Codec:
    """How one database takes and gives back times and JSON."""

    time_in: Callable[[datetime], Any]
    time_out: Callable[[Any], datetime]
    json_in: Callable[[Any], Any]
    json_out: Callable[[Any], Any]


# SQLite keeps times and JSON as text; asyncpg converts timestamptz itself, and jsonb through the
# codec the Postgres store installs on every connection.
SQLITE = Codec(stamp, datetime.fromisoformat, json.dumps, json.loads)
POSTGRES = Codec(_same, _same, _same, _same)

PING = "SELECT 1"
INSERT_CONVERSATION = "INSERT INTO conversations (id, created_at) VALUES ($1, $2)"
CONVERSATION_EXISTS = "SELECT 1 FROM conversations WHERE id = $1"
DELETE_CONVERSATION = "DELETE FROM conversations WHERE id = $1"
INSERT_MESSAGE = """INSERT INTO messages (id, conversation_id, created_at, question, mode, chapter,
    selection, selection_truncated, answer, status, citations, generator, latency_ms,
    corpus_version, suggested_chapter, short_answer, related, version, locale, cached,
    cited_chapter)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18,
        $19, $20, $21)"""
# A message's cited sections as rows, for the insights (one per section URL).
INSERT_CITATION = """INSERT INTO citations (message_id, created_at, version, locale, url, section,
    chapter_title) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING"""
# One statement, so a conversation is never read half-deleted: one row per message, or a single
# row with empty message columns for a conversation without messages.
CONVERSATION = """SELECT c.id AS conversation_id, c.created_at AS conversation_created_at,
    m.id, m.created_at, m.question, m.mode, m.chapter, m.selection, m.selection_truncated,
    m.answer, m.status, m.citations, m.generator, m.latency_ms, m.corpus_version,
    m.suggested_chapter, m.short_answer, m.related, r.rating
    FROM conversations c
    LEFT JOIN messages m ON m.conversation_id = c.id
    LEFT JOIN ratings r ON r.message_id = m.id
    WHERE c.id = $1 ORDER BY m.seq"""
RECENT_TURNS = """SELECT question, answer, status, citations, related FROM messages
    WHERE conversation_id = $1 ORDER BY seq DESC LIMIT $2"""
# INSERT ... SELECT inserts nothing for an unknown message, so the count tells the caller.
RATE = """INSERT INTO ratings (message_id, rating, comment, rated_at)
    SELECT id, $2, $3, $4 FROM messages WHERE id = $1
    ON CONFLICT (message_id) DO UPDATE SET rating = excluded.rating,
        comment = excluded.comment, rated_at = excluded.rated_at"""
# What a gap question is, and what of it is read: shared by `bookchat report gaps` (GAPS) and the
# insights (insight_sql), so both always read the same questions. A question answered only with
# the closest places (`related`) is a gap too: the book covers it partly.
GAP_COLUMNS = """m.id, m.conversation_id, m.created_at, m.question, m.mode, m.chapter,
    m.status, m.related, r.rating, r.comment"""
IS_GAP = "(m.status IN ('abstained', 'related') OR r.rating = 'down')"
GAPS = f"""SELECT {GAP_COLUMNS}
    FROM messages m LEFT JOIN ratings r ON r.message_id = m.id
    WHERE m.created_at > $1 AND m.created_at <= $2 AND {IS_GAP}
    ORDER BY m.created_at DESC, m.seq DESC LIMIT $3"""  # noqa: S608 - constants only


def message_steps(
    codec: Codec,
    ids: tuple[str, str],
    record: MessageRecord,
    selection: tuple[str | None, bool],
    now: datetime,
) -> list[tuple[str, tuple[Any, ...]]]:
    """The statements that store one message: its row (the clipped selection and whether it
    was cut among its values), then a row per cited section URL."""
    at = codec.time_in(now)
    suggested = codec.json_in(record.suggested_chapter) if record.suggested_chapter else None
    first = record.citations[0].get("chapter") if record.citations else None
    values = (
        *ids, at, record.question, record.mode, record.chapter, *selection,
        record.answer, record.status, codec.json_in(record.citations), record.generator,
        record.latency_ms, record.corpus_version, suggested, record.short_answer,
        codec.json_in(record.related),
        record.version, record.locale, record.cached, str(first) if first else None,
    )  # fmt: skip
    steps: list[tuple[str, tuple[Any, ...]]] = [(INSERT_MESSAGE, values)]
    # One row per URL, with the first citation of it (dict keys keep the last one written).
    for url, cited in {str(c.get("url") or ""): c for c in reversed(record.citations)}.items():
        if url:
            titles = (str(cited.get("section") or ""), str(cited.get("chapter_title") or ""))
            steps.append(
                (INSERT_CITATION, (ids[0], at, record.version, record.locale, url, *titles))
            )
    return steps


def conversation_from(codec: Codec, rows: list[Row]) -> Conversation | None:
    """The conversation CONVERSATION's rows describe (None when there are none)."""
    if not rows:
        return None
    head = rows[0]
    messages = [_message(codec, row) for row in rows if row["id"] is not None]
    return Conversation(
        head["conversation_id"], codec.time_out(head["conversation_created_at"]), messages
    )


def _columns(row: Row, *names: str) -> dict[str, Any]:
    """The named columns of a row, as keyword arguments of the record they fill."""
    return {name: row[name] for name in names}


def _message(codec: Codec, row: Row) -> Message:
    suggested = row["suggested_chapter"]
    return Message(
        **_columns(row, "id", "question", "mode", "chapter", "selection", "answer", "status"),
        **_columns(row, "generator", "latency_ms", "corpus_version", "rating", "short_answer"),
        created_at=codec.time_out(row["created_at"]),
        selection_truncated=bool(row["selection_truncated"]),
        citations=codec.json_out(row["citations"]),
        suggested_chapter=codec.json_out(suggested) if suggested else None,
        related=codec.json_out(row["related"]),
    )


def turn_from(codec: Codec, row: Row) -> Turn:
    """A RECENT_TURNS row as a Turn."""
    return Turn(
        row["question"],
        row["answer"],
        row["status"],
        codec.json_out(row["citations"]),
        codec.json_out(row["related"]),
    )


def gap_from(codec: Codec, row: Row) -> GapRow:
    """A GAPS row as a GapRow."""
    return GapRow(
        message_id=row["id"],
        **_columns(row, "conversation_id", "question", "mode", "chapter", "status", "comment"),
        created_at=codec.time_out(row["created_at"]),
        rating=cast(Rating | None, row["rating"]),
        related_sections=tuple(str(p.get("section", "")) for p in codec.json_out(row["related"])),
    )
