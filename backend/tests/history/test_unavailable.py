"""An unreachable or broken database surfaces as HistoryUnavailable, never a driver error."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bookchat.history import (
    ConversationStore,
    HistoryUnavailable,
    MessageRecord,
    conversation_store_for,
    open_conversation_store,
)
from bookchat.history.sqlite_store import FILE_NAME
from tests.history.conftest import Backend, admin_connection, settings_for

CLOSED_PORT = "postgresql://postgres@127.0.0.1:1/bookchat"
MESSAGE = MessageRecord("q?", "book", "a.", "grounded", "extractive")

Operation = Callable[[ConversationStore], Awaitable[object]]
OPERATIONS: dict[str, Operation] = {
    "migrate": lambda s: s.migrate(),
    "ping": lambda s: s.ping(),
    "create_conversation": lambda s: s.create_conversation(),
    "conversation_exists": lambda s: s.conversation_exists("x"),
    "add_message": lambda s: s.add_message("x", MESSAGE),
    "get_conversation": lambda s: s.get_conversation("x"),
    "recent_turns": lambda s: s.recent_turns("x", 3),
    "delete_conversation": lambda s: s.delete_conversation("x"),
    "rate": lambda s: s.rate("x", "up"),
    "gaps": lambda s: s.gaps(7),
}


def broken_sqlite(tmp_path: Path) -> Path:
    """A data folder whose conversations file is not a database."""
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / FILE_NAME).write_bytes(b"this is not a SQLite database" * 100)
    return data_dir


def assert_ours(error: HistoryUnavailable) -> None:
    """Our exception, short and free of connection details, with the driver's as its cause."""
    assert type(error) is HistoryUnavailable
    assert error.__cause__ is not None
    assert "127.0.0.1" not in str(error)
    assert "postgres@" not in str(error)


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_opening_an_unusable_database_raises_history_unavailable(
    kind: str, tmp_path: Path
) -> None:
    if kind == "sqlite":
        settings = settings_for(broken_sqlite(tmp_path))
    else:
        settings = settings_for(tmp_path, CLOSED_PORT)
    with pytest.raises(HistoryUnavailable) as caught:
        await open_conversation_store(settings)
    assert_ours(caught.value)


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
@pytest.mark.parametrize("operation", sorted(OPERATIONS))
async def test_every_operation_on_an_unusable_database_raises_history_unavailable(
    kind: str, operation: str, tmp_path: Path
) -> None:
    if kind == "sqlite":
        settings = settings_for(broken_sqlite(tmp_path))
    else:
        settings = settings_for(tmp_path, CLOSED_PORT)
    store = conversation_store_for(settings)
    try:
        with pytest.raises(HistoryUnavailable) as caught:
            await OPERATIONS[operation](store)
        assert_ours(caught.value)
    finally:
        await store.close()


async def test_a_malformed_database_url_raises_history_unavailable(tmp_path: Path) -> None:
    with pytest.raises(HistoryUnavailable):
        await open_conversation_store(settings_for(tmp_path, "mysql://nobody@127.0.0.1/x"))


async def test_a_closed_store_raises_history_unavailable(backend: Backend) -> None:
    store = await open_conversation_store(backend.settings)
    await store.close()
    with pytest.raises(HistoryUnavailable):
        await store.create_conversation()


async def test_postgres_recovers_after_its_connections_are_cut(postgres_backend: Backend) -> None:
    backend = postgres_backend
    store = await open_conversation_store(backend.settings)
    try:
        conversation_id = await store.create_conversation()
        admin = await admin_connection()
        try:
            database = backend.settings.database_url.get_secret_value().rsplit("/", 1)[1]  # type: ignore[union-attr]
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1",
                database,
            )
        finally:
            await admin.close()
        # The first call may or may not notice the cut; either way it is not a driver error.
        with contextlib.suppress(HistoryUnavailable):
            await store.conversation_exists(conversation_id)
        assert await store.conversation_exists(conversation_id)
    finally:
        await store.close()
