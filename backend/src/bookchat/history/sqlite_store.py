"""The embedded conversation store: one SQLite file, used from a worker thread."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar, cast

from bookchat.history.errors import HistoryUnavailable, UnknownConversation
from bookchat.history.ids import new_id
from bookchat.history.records import (
    Conversation,
    GapRow,
    Message,
    MessageRecord,
    Rating,
    Turn,
    clip_selection,
)
from bookchat.history.sqlite_migrate import apply_sqlite_migrations, stamp

T = TypeVar("T")

FILE_NAME = "conversations.sqlite3"

_MESSAGE_COLUMNS = """m.id, m.created_at, m.question, m.mode, m.chapter, m.selection,
    m.selection_truncated, m.answer, m.status, m.citations, m.generator, m.latency_ms,
    m.corpus_version, m.suggested_chapter, r.rating"""


class SQLiteConversationStore:
    """ConversationStore over a SQLite file (WAL), one connection guarded by a lock."""

    def __init__(self, path: Path, *, busy_timeout_s: float = 10.0) -> None:
        self._path = path
        self._busy_timeout_s = busy_timeout_s
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._migrated = False
        self._closed = False

    @classmethod
    def in_data_dir(cls, data_dir: Path) -> SQLiteConversationStore:
        """The store kept at ``<data_dir>/conversations.sqlite3`` (nothing opened yet)."""
        return cls(data_dir / FILE_NAME)

    # -- plumbing ------------------------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(
                self._path,
                timeout=self._busy_timeout_s,
                isolation_level=None,  # we open transactions ourselves
                check_same_thread=False,  # used from worker threads, one at a time (the lock)
            )
            try:
                conn.row_factory = sqlite3.Row
                conn.execute("PRAGMA foreign_keys = ON")
                _enable_wal(conn, self._busy_timeout_s)
                conn.execute("PRAGMA synchronous = NORMAL")
            except BaseException:
                conn.close()
                raise
            self._conn = conn
        return self._conn

    def _run(self, work: Callable[[sqlite3.Connection], T], *, migrate: bool = False) -> T:
        with self._lock:
            if self._closed:
                raise HistoryUnavailable("the conversation store is closed")
            try:
                conn = self._connection()
                if migrate or not self._migrated:
                    apply_sqlite_migrations(conn)
                    self._migrated = True
                return work(conn)
            except (sqlite3.Error, OSError) as exc:
                raise HistoryUnavailable("the conversation database is unavailable") from exc

    async def _call(self, work: Callable[[sqlite3.Connection], T]) -> T:
        return await asyncio.to_thread(self._run, work)

    # -- the interface -------------------------------------------------------------------------

    async def migrate(self) -> None:
        """Apply pending schema migrations (safe when several workers start at once)."""
        await asyncio.to_thread(self._run, lambda conn: None, migrate=True)

    async def ping(self) -> None:
        """Return when the database answers; raise HistoryUnavailable otherwise."""
        await self._call(lambda conn: conn.execute("SELECT 1").fetchone())

    async def create_conversation(self) -> str:
        """Start a conversation and return its new id."""
        conversation_id = new_id()
        await self._call(
            lambda conn: conn.execute(
                "INSERT INTO conversations (id, created_at) VALUES (?, ?)",
                (conversation_id, stamp(datetime.now(UTC))),
            )
        )
        return conversation_id

    async def conversation_exists(self, conversation_id: str) -> bool:
        """Whether a conversation with this id exists."""
        row = await self._call(
            lambda conn: conn.execute(
                "SELECT 1 FROM conversations WHERE id = ?", (conversation_id,)
            ).fetchone()
        )
        return row is not None

    async def add_message(self, conversation_id: str, record: MessageRecord) -> str:
        """Store a message; return its new id (UnknownConversation if there is no such one)."""
        message_id = new_id()
        selection, truncated = clip_selection(record.selection)
        values = (
            message_id, conversation_id, stamp(datetime.now(UTC)), record.question, record.mode,
            record.chapter, selection, int(truncated), record.answer, record.status,
            json.dumps(record.citations), record.generator, record.latency_ms,
            record.corpus_version,
            json.dumps(record.suggested_chapter) if record.suggested_chapter else None,
        )  # fmt: skip

        def insert(conn: sqlite3.Connection) -> None:
            try:
                conn.execute(
                    """INSERT INTO messages (id, conversation_id, created_at, question, mode,
                    chapter, selection, selection_truncated, answer, status, citations,
                    generator, latency_ms, corpus_version, suggested_chapter)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                    values,
                )
            except sqlite3.IntegrityError as exc:
                raise UnknownConversation(conversation_id) from exc

        await self._call(insert)
        return message_id

    async def get_conversation(self, conversation_id: str) -> Conversation | None:
        """The conversation with its messages oldest first, or None when unknown."""

        def read(conn: sqlite3.Connection) -> Conversation | None:
            head = conn.execute(
                "SELECT id, created_at FROM conversations WHERE id = ?", (conversation_id,)
            ).fetchone()
            if head is None:
                return None
            rows = conn.execute(
                f"""SELECT {_MESSAGE_COLUMNS} FROM messages m
                LEFT JOIN ratings r ON r.message_id = m.id
                WHERE m.conversation_id = ? ORDER BY m.seq""",  # noqa: S608 (constant columns)
                (conversation_id,),
            ).fetchall()
            messages = [_message(row) for row in rows]
            return Conversation(head["id"], datetime.fromisoformat(head["created_at"]), messages)

        return await self._call(read)

    async def recent_turns(self, conversation_id: str, n: int) -> list[Turn]:
        """The last ``n`` exchanges of a conversation, oldest first (empty when unknown)."""
        if n <= 0:
            return []
        rows = await self._call(
            lambda conn: conn.execute(
                """SELECT question, answer, status, citations FROM messages
                WHERE conversation_id = ? ORDER BY seq DESC LIMIT ?""",
                (conversation_id, n),
            ).fetchall()
        )
        return [
            Turn(row["question"], row["answer"], row["status"], json.loads(row["citations"]))
            for row in reversed(rows)
        ]

    async def delete_conversation(self, conversation_id: str) -> bool:
        """Delete a conversation, its messages and ratings; False when unknown."""
        cursor = await self._call(
            lambda conn: conn.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))
        )
        return cursor.rowcount > 0

    async def rate(self, message_id: str, rating: Rating, comment: str | None = None) -> bool:
        """Record a reader's rating (the last one wins); False for an unknown message."""
        cursor = await self._call(
            lambda conn: conn.execute(
                """INSERT INTO ratings (message_id, rating, comment, rated_at)
                SELECT id, ?, ?, ? FROM messages WHERE id = ?
                ON CONFLICT (message_id) DO UPDATE SET rating = excluded.rating,
                    comment = excluded.comment, rated_at = excluded.rated_at""",
                (rating, comment, stamp(datetime.now(UTC)), message_id),
            )
        )
        return cursor.rowcount > 0

    async def gaps(
        self, since_days: float, *, until: datetime | None = None, limit: int = 1_000
    ) -> list[GapRow]:
        """Abstained or rated-down questions asked in (until - since_days, until], newest first."""
        end = until or datetime.now(UTC)
        start = end - timedelta(days=since_days)
        rows = await self._call(
            lambda conn: conn.execute(
                """SELECT m.id, m.conversation_id, m.created_at, m.question, m.mode, m.chapter,
                    m.status, r.rating, r.comment
                FROM messages m LEFT JOIN ratings r ON r.message_id = m.id
                WHERE m.created_at > ? AND m.created_at <= ?
                    AND (m.status = 'abstained' OR r.rating = 'down')
                ORDER BY m.created_at DESC, m.seq DESC LIMIT ?""",
                (stamp(start), stamp(end), limit),
            ).fetchall()
        )
        return [
            GapRow(
                message_id=row["id"],
                conversation_id=row["conversation_id"],
                created_at=datetime.fromisoformat(row["created_at"]),
                question=row["question"],
                mode=row["mode"],
                chapter=row["chapter"],
                status=row["status"],
                rating=cast(Rating | None, row["rating"]),
                comment=row["comment"],
            )
            for row in rows
        ]

    async def close(self) -> None:
        """Release connections; the store must not be used afterwards."""
        await asyncio.to_thread(self._close)

    def _close(self) -> None:
        with self._lock:
            self._closed = True
            if self._conn is not None:
                self._conn.close()
                self._conn = None


def _enable_wal(conn: sqlite3.Connection, timeout_s: float) -> None:
    """Switch to WAL, waiting while another worker holds the database.

    Changing the journal mode needs an exclusive lock, and SQLite does not apply the busy
    timeout to it: a worker starting while another migrates would fail at once without this.
    """
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(0.02)


def _message(row: Any) -> Message:
    return Message(
        id=row["id"],
        created_at=datetime.fromisoformat(row["created_at"]),
        question=row["question"],
        mode=row["mode"],
        chapter=row["chapter"],
        selection=row["selection"],
        selection_truncated=bool(row["selection_truncated"]),
        answer=row["answer"],
        status=row["status"],
        citations=json.loads(row["citations"]),
        generator=row["generator"],
        latency_ms=row["latency_ms"],
        corpus_version=row["corpus_version"],
        rating=row["rating"],
        suggested_chapter=json.loads(row["suggested_chapter"])
        if row["suggested_chapter"]
        else None,
    )
