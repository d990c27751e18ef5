"""The server conversation store: PostgreSQL (e.g. Neon) through an asyncpg pool."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import asyncpg

from bookchat.history.errors import HistoryUnavailable, UnknownConversation
from bookchat.history.ids import new_id
from bookchat.history.postgres_dsn import asyncpg_dsn
from bookchat.history.postgres_migrate import apply_postgres_migrations
from bookchat.history.records import (
    Conversation,
    GapRow,
    Message,
    MessageRecord,
    Rating,
    Turn,
    clip_selection,
)

# What the driver raises when the database is down, unreachable, misconfigured or broken.
DRIVER_ERRORS = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    # Raised, for one, by a pooled connection the server has just terminated.
    asyncpg.exceptions.InternalClientError,
    OSError,
    TimeoutError,
)
# Connecting can also fail on a malformed DATABASE_URL; later, a ValueError is our own bug.
CONNECT_ERRORS = (*DRIVER_ERRORS, ValueError)

_MESSAGE_COLUMNS = """m.id, m.created_at, m.question, m.mode, m.chapter, m.selection,
    m.selection_truncated, m.answer, m.status, m.citations, m.generator, m.latency_ms,
    m.corpus_version, m.suggested_chapter, r.rating"""


async def _json_codec(conn: Any) -> None:
    # A text codec is fine here: the store only uses plain inserts, never COPY (FACTS.md).
    await conn.set_type_codec("jsonb", encoder=json.dumps, decoder=json.loads, schema="pg_catalog")


class PostgresConversationStore:
    """ConversationStore over PostgreSQL; the pool is created on first use and recreated if lost."""

    def __init__(
        self,
        database_url: str,
        *,
        max_connections: int = 4,
        connect_timeout_s: float = 5.0,
        command_timeout_s: float = 10.0,
    ) -> None:
        self._database_url = database_url
        self._max_connections = max_connections
        self._connect_timeout_s = connect_timeout_s
        self._command_timeout_s = command_timeout_s
        self._pool: Any = None
        self._pool_lock = asyncio.Lock()
        self._migrated = False
        self._closed = False

    # -- plumbing ------------------------------------------------------------------------------

    async def _ready_pool(self, *, migrate: bool = False) -> Any:
        if self._closed:
            raise HistoryUnavailable("the conversation store is closed")
        if self._pool is not None and self._migrated and not migrate:
            return self._pool
        async with self._pool_lock:
            try:
                if self._pool is None:
                    self._pool = await asyncpg.create_pool(
                        asyncpg_dsn(self._database_url),
                        min_size=1,
                        max_size=self._max_connections,
                        timeout=self._connect_timeout_s,
                        command_timeout=self._command_timeout_s,
                        init=_json_codec,
                    )
                if migrate or not self._migrated:
                    async with self._pool.acquire(timeout=self._connect_timeout_s) as conn:
                        await apply_postgres_migrations(conn)
                    self._migrated = True
            except CONNECT_ERRORS as exc:
                raise HistoryUnavailable("the conversation database is unavailable") from exc
        return self._pool

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        pool = await self._ready_pool()
        try:
            async with pool.acquire(timeout=self._connect_timeout_s) as conn:
                yield conn
        except DRIVER_ERRORS as exc:
            raise HistoryUnavailable("the conversation database is unavailable") from exc

    # -- the interface -------------------------------------------------------------------------

    async def migrate(self) -> None:
        """Apply pending schema migrations (safe when several workers start at once)."""
        await self._ready_pool(migrate=True)

    async def ping(self) -> None:
        """Return when the database answers; raise HistoryUnavailable otherwise."""
        async with self._connection() as conn:
            await conn.fetchval("SELECT 1")

    async def create_conversation(self) -> str:
        """Start a conversation and return its new id."""
        conversation_id = new_id()
        async with self._connection() as conn:
            await conn.execute(
                "INSERT INTO conversations (id, created_at) VALUES ($1, $2)",
                conversation_id,
                datetime.now(UTC),
            )
        return conversation_id

    async def conversation_exists(self, conversation_id: str) -> bool:
        """Whether a conversation with this id exists."""
        async with self._connection() as conn:
            found = await conn.fetchval(
                "SELECT 1 FROM conversations WHERE id = $1", conversation_id
            )
        return found is not None

    async def add_message(self, conversation_id: str, record: MessageRecord) -> str:
        """Store a message; return its new id (UnknownConversation if there is no such one)."""
        message_id = new_id()
        selection, truncated = clip_selection(record.selection)
        async with self._connection() as conn:
            try:
                await conn.execute(
                    """INSERT INTO messages (id, conversation_id, created_at, question, mode,
                    chapter, selection, selection_truncated, answer, status, citations,
                    generator, latency_ms, corpus_version, suggested_chapter)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)""",
                    message_id, conversation_id, datetime.now(UTC), record.question,
                    record.mode, record.chapter, selection, truncated, record.answer,
                    record.status, record.citations, record.generator, record.latency_ms,
                    record.corpus_version, record.suggested_chapter,
                )  # fmt: skip
            except asyncpg.ForeignKeyViolationError as exc:
                raise UnknownConversation(conversation_id) from exc
        return message_id

    async def get_conversation(self, conversation_id: str) -> Conversation | None:
        """The conversation with its messages oldest first, or None when unknown."""
        async with self._connection() as conn:
            head = await conn.fetchrow(
                "SELECT id, created_at FROM conversations WHERE id = $1", conversation_id
            )
            if head is None:
                return None
            rows = await conn.fetch(
                f"""SELECT {_MESSAGE_COLUMNS} FROM messages m
                LEFT JOIN ratings r ON r.message_id = m.id
                WHERE m.conversation_id = $1 ORDER BY m.seq""",  # noqa: S608 (constant columns)
                conversation_id,
            )
        return Conversation(head["id"], head["created_at"], [_message(row) for row in rows])

    async def recent_turns(self, conversation_id: str, n: int) -> list[Turn]:
        """The last ``n`` exchanges of a conversation, oldest first (empty when unknown)."""
        if n <= 0:
            return []
        async with self._connection() as conn:
            rows = await conn.fetch(
                """SELECT question, answer, status, citations FROM messages
                WHERE conversation_id = $1 ORDER BY seq DESC LIMIT $2""",
                conversation_id,
                n,
            )
        return [
            Turn(row["question"], row["answer"], row["status"], row["citations"])
            for row in reversed(rows)
        ]

    async def delete_conversation(self, conversation_id: str) -> bool:
        """Delete a conversation, its messages and ratings; False when unknown."""
        async with self._connection() as conn:
            outcome = await conn.execute("DELETE FROM conversations WHERE id = $1", conversation_id)
        return cast(str, outcome) != "DELETE 0"

    async def rate(self, message_id: str, rating: Rating, comment: str | None = None) -> bool:
        """Record a reader's rating (the last one wins); False for an unknown message."""
        async with self._connection() as conn:
            outcome = await conn.execute(
                """INSERT INTO ratings (message_id, rating, comment, rated_at)
                SELECT id, $2, $3, $4 FROM messages WHERE id = $1
                ON CONFLICT (message_id) DO UPDATE SET rating = excluded.rating,
                    comment = excluded.comment, rated_at = excluded.rated_at""",
                message_id,
                rating,
                comment,
                datetime.now(UTC),
            )
        return cast(str, outcome) != "INSERT 0 0"

    async def gaps(
        self, since_days: float, *, until: datetime | None = None, limit: int = 1_000
    ) -> list[GapRow]:
        """Abstained or rated-down questions asked in (until - since_days, until], newest first."""
        end = until or datetime.now(UTC)
        async with self._connection() as conn:
            rows = await conn.fetch(
                """SELECT m.id, m.conversation_id, m.created_at, m.question, m.mode, m.chapter,
                    m.status, r.rating, r.comment
                FROM messages m LEFT JOIN ratings r ON r.message_id = m.id
                WHERE m.created_at > $1 AND m.created_at <= $2
                    AND (m.status = 'abstained' OR r.rating = 'down')
                ORDER BY m.created_at DESC, m.seq DESC LIMIT $3""",
                end - timedelta(days=since_days),
                end,
                limit,
            )
        return [
            GapRow(
                message_id=row["id"],
                conversation_id=row["conversation_id"],
                created_at=row["created_at"],
                question=row["question"],
                mode=row["mode"],
                chapter=row["chapter"],
                status=row["status"],
                rating=row["rating"],
                comment=row["comment"],
            )
            for row in rows
        ]

    async def close(self) -> None:
        """Release connections; the store must not be used afterwards."""
        self._closed = True
        async with self._pool_lock:
            pool, self._pool = self._pool, None
        if pool is None:
            return
        try:
            await asyncio.wait_for(pool.close(), timeout=self._command_timeout_s)
        except (TimeoutError, *DRIVER_ERRORS):
            pool.terminate()


def _message(row: Any) -> Message:
    return Message(
        id=row["id"],
        created_at=row["created_at"],
        question=row["question"],
        mode=row["mode"],
        chapter=row["chapter"],
        selection=row["selection"],
        selection_truncated=row["selection_truncated"],
        answer=row["answer"],
        status=row["status"],
        citations=row["citations"],
        generator=row["generator"],
        latency_ms=row["latency_ms"],
        corpus_version=row["corpus_version"],
        rating=row["rating"],
        suggested_chapter=row["suggested_chapter"],
    )
