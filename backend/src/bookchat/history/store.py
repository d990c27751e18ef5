"""The one interface the API uses to keep conversations, whatever the database."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from bookchat.history.insight_records import Aggregates, Window
from bookchat.history.records import Conversation, GapRow, MessageRecord, Rating, Turn


class ConversationStore(Protocol):
    """Async storage of conversations, messages and ratings.

    Every method raises ``HistoryUnavailable`` (never a driver error) when the database cannot be
    used; the store reconnects and, if needed, migrates on the next call.
    """

    async def migrate(self) -> None:
        """Apply pending schema migrations (safe when several workers start at once)."""
        ...

    async def ping(self) -> None:
        """Return when the database answers; raise HistoryUnavailable otherwise."""
        ...

    async def create_conversation(self) -> str:
        """Start a conversation and return its new id."""
        ...

    async def start_conversation(self, record: MessageRecord) -> tuple[str, str]:
        """Start a conversation with its first message: (conversation id, message id)."""
        ...

    async def conversation_exists(self, conversation_id: str) -> bool:
        """Whether a conversation with this id exists."""
        ...

    async def add_message(self, conversation_id: str, record: MessageRecord) -> str:
        """Store a message; return its new id (UnknownConversation if there is no such one)."""
        ...

    async def get_conversation(self, conversation_id: str) -> Conversation | None:
        """The conversation with its messages oldest first, or None when unknown."""
        ...

    async def recent_turns(self, conversation_id: str, n: int) -> list[Turn]:
        """The last ``n`` exchanges of a conversation, oldest first (empty when unknown)."""
        ...

    async def delete_conversation(self, conversation_id: str) -> bool:
        """Delete a conversation, its messages and ratings; False when unknown."""
        ...

    async def rate(self, message_id: str, rating: Rating, comment: str | None = None) -> bool:
        """Record a reader's rating (the last one wins); False for an unknown message."""
        ...

    async def gaps(
        self, since_days: float, *, until: datetime | None = None, limit: int = 1_000
    ) -> list[GapRow]:
        """Abstained or rated-down questions asked in (until - since_days, until], newest first."""
        ...

    async def insights(self, window: Window) -> Aggregates:
        """The authors' insights over `window`, aggregated by the database."""
        ...

    async def forget_before(self, cutoff: datetime) -> int:
        """Delete messages (and their ratings) stored before `cutoff`, then the conversations
        left empty that began before it; the number of messages deleted."""
        ...

    async def close(self) -> None:
        """Release connections; the store must not be used afterwards."""
        ...
