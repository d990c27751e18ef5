"""Conversations, messages and ratings: stored in SQLite (embedded) or PostgreSQL."""

from bookchat.history.errors import HistoryUnavailable, UnknownConversation
from bookchat.history.factory import conversation_store_for, open_conversation_store
from bookchat.history.records import (
    SELECTION_MAX_CHARS,
    Conversation,
    GapRow,
    Message,
    MessageRecord,
    Rating,
    Turn,
)
from bookchat.history.store import ConversationStore

__all__ = [
    "SELECTION_MAX_CHARS",
    "Conversation",
    "ConversationStore",
    "GapRow",
    "HistoryUnavailable",
    "Message",
    "MessageRecord",
    "Rating",
    "Turn",
    "UnknownConversation",
    "conversation_store_for",
    "open_conversation_store",
]
