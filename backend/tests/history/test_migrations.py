"""Schema migrations: applied from empty, idempotent, and safe when workers race."""

from __future__ import annotations

import asyncio

from bookchat.history.migrations import load_migrations
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
