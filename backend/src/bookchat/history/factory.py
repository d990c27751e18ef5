"""Choosing the conversation store from the settings: Postgres when DATABASE_URL is set."""

from __future__ import annotations

from bookchat.config import Settings
from bookchat.history.errors import HistoryUnavailable
from bookchat.history.postgres_store import PostgresConversationStore
from bookchat.history.sqlite_store import SQLiteConversationStore
from bookchat.history.store import ConversationStore


def conversation_store_for(settings: Settings) -> ConversationStore:
    """The configured store, not yet connected (it connects and migrates on first use)."""
    if settings.database_url is not None and settings.database_url.get_secret_value():
        return PostgresConversationStore(settings.database_url.get_secret_value())
    return SQLiteConversationStore.in_data_dir(settings.data_dir)


async def open_conversation_store(settings: Settings) -> ConversationStore:
    """The configured store, connected and migrated; HistoryUnavailable when it cannot be."""
    store = conversation_store_for(settings)
    try:
        await store.migrate()
    except HistoryUnavailable:
        await store.close()
        raise
    return store
