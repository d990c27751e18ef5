"""Schema migrations: applied from empty, idempotent, and safe when workers race."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg

from bookchat.history import MessageRecord, conversation_store_for
from bookchat.history.migrations import (
    POSTGRES_LEDGER,
    SQLITE_LEDGER,
    Dialect,
    Migration,
    load_migrations,
)
from bookchat.history.sqlite_store import FILE_NAME
from tests.conftest import settings_for as app_settings
from tests.history.conftest import Backend


def test_both_dialects_ship_the_same_numbered_migrations() -> None:
    sqlite = [(m.version, m.name) for m in load_migrations("sqlite")]
    postgres = [(m.version, m.name) for m in load_migrations("postgres")]
    assert sqlite == postgres
    assert [version for version, _ in sqlite] == list(range(1, len(sqlite) + 1))


async def test_migrate_from_empty_records_every_migration(backend: Backend) -> None:
    store = backend.new_store()
    try:
        await store.migrate()
    finally:
        await store.close()
    expected = [(m.version, m.name) for m in load_migrations("sqlite")]
    recorded = await backend.rows("SELECT version, name FROM schema_migrations ORDER BY version")
    assert recorded == expected


async def test_migrating_again_is_a_no_op(backend: Backend) -> None:
    first = backend.new_store()
    await first.migrate()
    conversation_id = await first.create_conversation()
    before = await backend.rows("SELECT version, applied_at FROM schema_migrations")
    await first.migrate()
    await first.close()

    second = backend.new_store()
    try:
        await second.migrate()
        assert await second.conversation_exists(conversation_id)
    finally:
        await second.close()
    assert await backend.rows("SELECT version, applied_at FROM schema_migrations") == before


async def test_two_workers_migrating_at_once_both_succeed(backend: Backend) -> None:
    workers = [backend.new_store(), backend.new_store()]
    try:
        await asyncio.gather(*(worker.migrate() for worker in workers))
        ids = [await worker.create_conversation() for worker in workers]
        assert all([await workers[0].conversation_exists(i) for i in ids])
    finally:
        await asyncio.gather(*(worker.close() for worker in workers))
    counts = await backend.rows("SELECT version, COUNT(*) FROM schema_migrations GROUP BY version")
    assert sorted(counts) == [(m.version, 1) for m in load_migrations("sqlite")]


async def test_operations_migrate_a_store_nobody_migrated(backend: Backend) -> None:
    # A worker that started while the database was down migrates once it comes back.
    store = backend.new_store()
    try:
        conversation_id = await store.create_conversation()
        assert await store.conversation_exists(conversation_id)
    finally:
        await store.close()


async def test_upgrading_an_existing_database_keeps_its_messages(tmp_path: Path) -> None:
    settings = app_settings(tmp_path)
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    first = load_migrations("sqlite")[0]
    with sqlite3.connect(settings.data_dir / FILE_NAME) as conn:  # a database from release 0001
        conn.executescript(first.sql)
        conn.execute(SQLITE_LEDGER)
        conn.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, 'then')",
            (first.version, first.name),
        )
        conn.execute("INSERT INTO conversations (id, created_at) VALUES ('old', '2026-01-01')")
        conn.execute(
            "INSERT INTO messages (id, conversation_id, created_at, question, mode, answer, status,"
            " generator) VALUES ('m1', 'old', '2026-01-01T00:00:00.000000+00:00', 'Kept?', 'book',"
            " 'Yes.', 'grounded', 'extractive')"
        )
    store = conversation_store_for(settings)
    try:
        await store.migrate()
        conversation = await store.get_conversation("old")
    finally:
        await store.close()
    assert conversation is not None
    assert [(m.question, m.suggested_chapter) for m in conversation.messages] == [("Kept?", None)]


async def _database_as_of(backend: Backend, release: int) -> None:
    """Leave the backend's database as release `release` left it, with one message in it."""
    dialect: Dialect = "sqlite" if backend.name == "sqlite" else "postgres"
    shipped: list[Migration] = load_migrations(dialect)[:release]
    message = (
        "INSERT INTO messages (id, conversation_id, created_at, question, mode, answer, status,"
        " generator) VALUES ('m1', 'old', '2026-01-01T00:00:00.000000+00:00', 'Kept?', 'book',"
        " 'Yes.', 'grounded', 'extractive')"
    )
    if backend.name == "sqlite":
        backend.settings.data_dir.mkdir(parents=True, exist_ok=True)
        with sqlite3.connect(backend.settings.data_dir / FILE_NAME) as conn:
            conn.execute(SQLITE_LEDGER)
            for migration in shipped:
                conn.executescript(migration.sql)
                conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at)"
                    " VALUES (?, ?, 'then')",
                    (migration.version, migration.name),
                )
            conn.execute("INSERT INTO conversations (id, created_at) VALUES ('old', '2026-01-01')")
            conn.execute(message)
        return
    assert backend.settings.database_url is not None
    conn = await asyncpg.connect(backend.settings.database_url.get_secret_value())
    try:
        await conn.execute(POSTGRES_LEDGER)
        for migration in shipped:
            await conn.execute(migration.sql)
            await conn.execute(
                "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                migration.version,
                migration.name,
            )
        await conn.execute(
            "INSERT INTO conversations (id, created_at) VALUES ('old', '2026-01-01T00:00:00Z')"
        )
        await conn.execute(message)
    finally:
        await conn.close()


async def test_upgrading_to_short_answers_keeps_earlier_messages(backend: Backend) -> None:
    await _database_as_of(backend, release=2)  # before messages kept a short answer
    store = backend.new_store()
    try:
        await store.migrate()
        await store.add_message(
            "old",
            MessageRecord(
                "When?", "book", "Since 2.23 [1].", "grounded", "extractive", short_answer="2.23"
            ),
        )
        conversation = await store.get_conversation("old")
    finally:
        await store.close()
    assert conversation is not None
    assert [(m.question, m.short_answer) for m in conversation.messages] == [
        ("Kept?", None),
        ("When?", "2.23"),
    ]


async def test_upgrading_to_insights_fills_in_earlier_messages_citations(backend: Backend) -> None:
    # The release before messages kept what the insights count.
    before = next(m.version for m in load_migrations("sqlite") if m.name == "insights") - 1
    await _database_as_of(backend, release=before)
    citations = (
        '[{"chapter": "branching", "chapter_title": "Branching", "section": "Merging",'
        ' "url": "/docs/branching#merging"}, {"chapter": "internals", "chapter_title": "Internals",'
        ' "section": "Objects", "url": "/docs/internals#objects"}]'
    )
    cast = "" if backend.name == "sqlite" else "::jsonb"
    await backend.rows(
        "INSERT INTO messages (id, conversation_id, created_at, question, mode, answer, status,"
        " generator, citations) VALUES ('m2', 'old', '2026-01-01T00:00:01.000000+00:00',"
        f" 'Cited?', 'book', 'Yes [1].', 'grounded', 'extractive', '{citations}'{cast})"
    )
    store = backend.new_store()
    try:
        await store.migrate()
        await store.add_message(
            "old",
            MessageRecord("Now?", "book", "Yes.", "grounded", "extractive", version="1.0",
                          locale="fr", cached=True),
        )  # fmt: skip
        rows = await backend.rows(
            "SELECT question, version, locale, cached, cited_chapter FROM messages ORDER BY seq"
        )
        cited = await backend.rows("SELECT message_id, url, section FROM citations ORDER BY url")
    finally:
        await store.close()
    assert [(q, v, lo, None if c is None else bool(c), ch) for q, v, lo, c, ch in rows] == [
        ("Kept?", None, None, None, None),
        ("Cited?", None, None, None, "branching"),
        ("Now?", "1.0", "fr", True, None),
    ]
    assert cited == [
        ("m2", "/docs/branching#merging", "Merging"),
        ("m2", "/docs/internals#objects", "Objects"),
    ]
