"""Applying the Postgres migrations: one transaction under an advisory lock."""

from __future__ import annotations

from typing import Any

from bookchat.history.migrations import POSTGRES_LEDGER, load_migrations

# Any number will do as long as every bookchat worker uses the same one.
MIGRATION_LOCK_KEY = 0x626F6F6B63686174  # "bookchat"


async def apply_postgres_migrations(conn: Any) -> None:
    """Apply the migrations not yet recorded in schema_migrations, under an advisory lock."""
    # The advisory lock is held until the transaction ends, so workers starting together apply
    # migrations one after the other; the later ones find everything recorded.
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK_KEY)
        await conn.execute(POSTGRES_LEDGER)
        applied = {
            row["version"] for row in await conn.fetch("SELECT version FROM schema_migrations")
        }
        for migration in load_migrations("postgres"):
            if migration.version in applied:
                continue
            await conn.execute(migration.sql)
            await conn.execute(
                "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                migration.version,
                migration.name,
            )
