"""The server conversation store: PostgreSQL (e.g. Neon) through an asyncpg pool."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from bookchat.history import insight_sql, sql
from bookchat.history.errors import HistoryUnavailable
from bookchat.history.postgres_dsn import asyncpg_dsn
from bookchat.history.postgres_migrate import apply_postgres_migrations
from bookchat.history.sql_store import MissingReference, SQLConversationStore

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


async def _json_codec(conn: Any) -> None:
    # A text codec is fine here: the store only uses plain inserts, never COPY.
    await conn.set_type_codec("jsonb", encoder=json.dumps, decoder=json.loads, schema="pg_catalog")


class PostgresConversationStore(SQLConversationStore):
    """ConversationStore over PostgreSQL; the pool is created on first use and recreated if lost."""

    codec = sql.POSTGRES
    insight_statements = insight_sql.POSTGRES_STATEMENTS

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

    async def migrate(self) -> None:
        """Apply pending schema migrations (safe when several workers start at once)."""
        await self._ready_pool(migrate=True)

    async def _execute(self, statement: str, args: Sequence[Any]) -> int:
        async with self._connection() as conn:
            try:
                status: str = await conn.execute(statement, *args)
            except asyncpg.ForeignKeyViolationError as exc:
                raise MissingReference from exc
        # The command tag ends with the row count: "INSERT 0 1", "DELETE 3".
        return int(status.rsplit(" ", 1)[-1])

    async def _execute_together(self, steps: Sequence[tuple[str, Sequence[Any]]]) -> None:
        async with self._connection() as conn, conn.transaction():
            try:
                for statement, args in steps:
                    await conn.execute(statement, *args)
            except asyncpg.ForeignKeyViolationError as exc:
                raise MissingReference from exc

    async def _fetch(self, statement: str, args: Sequence[Any]) -> list[sql.Row]:
        async with self._connection() as conn:
            return list(await conn.fetch(statement, *args))

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
