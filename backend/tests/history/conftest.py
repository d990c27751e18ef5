"""Backends for the conversation-store contract: SQLite in a temp folder, a fresh Postgres DB."""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bookchat.config import Settings
from bookchat.history import ConversationStore, conversation_store_for, open_conversation_store
from bookchat.history.sqlite_store import FILE_NAME
from tests.conftest import need

ADMIN_DSN = "postgresql://postgres@127.0.0.1:5432/postgres"
START_POSTGRES = (
    "PostgreSQL is not reachable at 127.0.0.1:5432; start it with: "
    "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start"
)


def settings_for(data_dir: Path, database_url: str | None = None) -> Settings:
    """Settings isolated from .env and the environment."""
    return Settings(_env_file=None, data_dir=data_dir, database_url=database_url)  # type: ignore[call-arg]


async def admin_connection() -> Any:
    """A connection to the server's `postgres` database (skips or fails when it is down)."""
    try:
        return await asyncpg.connect(ADMIN_DSN, timeout=5)
    except (OSError, asyncpg.PostgresError, TimeoutError):
        need(False, START_POSTGRES)
        raise  # unreachable: need() skipped or failed


@dataclass
class Backend:
    """One database behind the store, and direct access to it for checks."""

    name: str
    settings: Settings

    def new_store(self) -> ConversationStore:
        """Another store (think: another worker) over the same database, not yet connected."""
        return conversation_store_for(self.settings)

    async def rows(self, sql: str) -> list[tuple[Any, ...]]:
        """Run a query straight on the database, bypassing the store."""
        if self.name == "sqlite":
            with sqlite3.connect(self.settings.data_dir / FILE_NAME) as conn:
                return [tuple(row) for row in conn.execute(sql)]
        assert self.settings.database_url is not None
        conn = await asyncpg.connect(self.settings.database_url.get_secret_value())
        try:
            return [tuple(row) for row in await conn.fetch(sql)]
        finally:
            await conn.close()


@asynccontextmanager
async def fresh_postgres(tmp_path: Path) -> AsyncIterator[Backend]:
    """A new, empty Postgres database, dropped afterwards."""
    admin = await admin_connection()
    name = f"bookchat_test_{secrets.token_hex(6)}"
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        url = f"postgresql://postgres@127.0.0.1:5432/{name}"
        yield Backend("postgres", settings_for(tmp_path / "data", url))
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    """An empty database of each kind: a SQLite file, or a fresh Postgres database per test."""
    if request.param == "sqlite":
        yield Backend("sqlite", settings_for(tmp_path / "data"))
        return
    async with fresh_postgres(tmp_path) as postgres:
        yield postgres


@pytest.fixture
async def postgres_backend(tmp_path: Path) -> AsyncIterator[Backend]:
    """An empty Postgres database, for what only a server does."""
    async with fresh_postgres(tmp_path) as postgres:
        yield postgres


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[ConversationStore]:
    """A migrated store over the backend's database, closed after the test."""
    opened = await open_conversation_store(backend.settings)
    yield opened
    await opened.close()
