"""The ConversationStore both databases share, built on two primitives each driver supplies.

A driver (sqlite_store, postgres_store) keeps what truly differs: connecting, placeholders,
migrations, how it counts affected rows and how it reports a missing foreign key. Everything a
store method means is written here once, in terms of the statements in sql.py.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from bookchat.history import insight_sql, sql
from bookchat.history.errors import UnknownConversation
from bookchat.history.ids import new_id
from bookchat.history.insight_queries import aggregate
from bookchat.history.insight_records import Aggregates, Window
from bookchat.history.records import (
    Conversation,
    GapRow,
    MessageRecord,
    Rating,
    Turn,
    clip_selection,
)


class MissingReference(Exception):
    """A row named a parent that does not exist (a foreign key failed)."""


class SQLConversationStore(ABC):
    """ConversationStore over any SQL database, given `_execute`, `_fetch`, a Codec and the
    insights statements of its dialect."""

    codec: sql.Codec
    insight_statements: insight_sql.InsightStatements

    @abstractmethod
    async def _execute(self, statement: str, args: Sequence[Any]) -> int:
        """Run a statement; the number of rows it changed (MissingReference on a foreign key)."""

    @abstractmethod
    async def _execute_together(self, steps: Sequence[tuple[str, Sequence[Any]]]) -> None:
        """Run statements in one transaction (and, for SQLite, one trip to its thread);
        MissingReference on a foreign key."""

    @abstractmethod
    async def _fetch(self, statement: str, args: Sequence[Any]) -> list[sql.Row]:
        """Run a query; its rows."""

    @abstractmethod
    async def migrate(self) -> None:
        """Apply pending schema migrations (safe when several workers start at once)."""

    @abstractmethod
    async def close(self) -> None:
        """Release connections; the store must not be used afterwards."""

    async def ping(self) -> None:
        """Return when the database answers; raise HistoryUnavailable otherwise."""
        await self._fetch(sql.PING, ())

    async def create_conversation(self) -> str:
        """Start a conversation and return its new id."""
        conversation_id = new_id()
        now = self.codec.time_in(datetime.now(UTC))
        await self._execute(sql.INSERT_CONVERSATION, (conversation_id, now))
        return conversation_id

    async def start_conversation(self, record: MessageRecord) -> tuple[str, str]:
        """Start a conversation with its first message: (conversation id, message id)."""
        conversation_id, message_id = new_id(), new_id()
        created = datetime.now(UTC)
        await self._execute_together(
            [
                (sql.INSERT_CONVERSATION, (conversation_id, self.codec.time_in(created))),
                *self._message(message_id, conversation_id, record, created),
            ]
        )
        return conversation_id, message_id

    async def conversation_exists(self, conversation_id: str) -> bool:
        """Whether a conversation with this id exists."""
        return bool(await self._fetch(sql.CONVERSATION_EXISTS, (conversation_id,)))

    async def add_message(self, conversation_id: str, record: MessageRecord) -> str:
        """Store a message; return its new id (UnknownConversation if there is no such one)."""
        message_id = new_id()
        steps = self._message(message_id, conversation_id, record, datetime.now(UTC))
        try:
            await self._execute_together(steps)
        except MissingReference as exc:
            raise UnknownConversation(conversation_id) from exc
        return message_id

    def _message(
        self, message_id: str, conversation_id: str, record: MessageRecord, at: datetime
    ) -> list[tuple[str, Sequence[Any]]]:
        """The statements storing `record` (its selection clipped), in one transaction."""
        return list(
            sql.message_steps(
                self.codec,
                (message_id, conversation_id),
                record,
                clip_selection(record.selection),
                at,
            )
        )

    async def get_conversation(self, conversation_id: str) -> Conversation | None:
        """The conversation with its messages oldest first, or None when unknown."""
        rows = await self._fetch(sql.CONVERSATION, (conversation_id,))
        return sql.conversation_from(self.codec, rows)

    async def recent_turns(self, conversation_id: str, n: int) -> list[Turn]:
        """The last ``n`` exchanges of a conversation, oldest first (empty when unknown)."""
        if n <= 0:
            return []
        rows = await self._fetch(sql.RECENT_TURNS, (conversation_id, n))
        return [sql.turn_from(self.codec, row) for row in reversed(rows)]

    async def delete_conversation(self, conversation_id: str) -> bool:
        """Delete a conversation, its messages and ratings; False when unknown."""
        return await self._execute(sql.DELETE_CONVERSATION, (conversation_id,)) > 0

    async def rate(self, message_id: str, rating: Rating, comment: str | None = None) -> bool:
        """Record a reader's rating (the last one wins); False for an unknown message."""
        now = self.codec.time_in(datetime.now(UTC))
        return await self._execute(sql.RATE, (message_id, rating, comment, now)) > 0

    async def gaps(
        self, since_days: float, *, until: datetime | None = None, limit: int = 1_000
    ) -> list[GapRow]:
        """Abstained or rated-down questions asked in (until - since_days, until], newest first."""
        end = until or datetime.now(UTC)
        start = end - timedelta(days=since_days)
        window = (self.codec.time_in(start), self.codec.time_in(end), limit)
        return [sql.gap_from(self.codec, row) for row in await self._fetch(sql.GAPS, window)]

    async def insights(self, window: Window) -> Aggregates:
        """The authors' insights over `window`, aggregated by the database."""
        return await aggregate(self._fetch, self.insight_statements, self.codec, window)

    async def forget_before(self, cutoff: datetime) -> int:
        """Delete messages (and their ratings) stored before `cutoff`, then the conversations
        left empty that began before it; the number of messages deleted."""
        moment = self.codec.time_in(cutoff)
        deleted = await self._execute(insight_sql.FORGET_MESSAGES, (moment,))
        await self._execute(insight_sql.FORGET_CONVERSATIONS, (moment,))
        return deleted
