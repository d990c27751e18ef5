"""The embedded conversation store: one SQLite file, used from a worker thread."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from bookchat.history import insight_sql, sql
from bookchat.history.errors import HistoryUnavailable
from bookchat.history.sql_store import MissingReference, SQLConversationStore
from bookchat.history.sqlite_migrate import apply_sqlite_migrations

T = TypeVar("T")

FILE_NAME = "conversations.sqlite3"
_PLACEHOLDER = re.compile(r"\$(\d+)")


def sqlite_statement(statement: str) -> str:
    """A statement of sql.py with SQLite's numbered placeholders (`$2` becomes `?2`)."""
    return _PLACEHOLDER.sub(r"?\1", statement)


class SQLiteConversationStore(SQLConversationStore):
    """ConversationStore over a SQLite file (WAL), one connection guarded by a lock."""

    codec = sql.SQLITE
    insight_statements = insight_sql.SQLITE_STATEMENTS

    def __init__(self, path: Path, *, busy_timeout_s: float = 10.0) -> None:
        self._path = path
        self._busy_timeout_s = busy_timeout_s
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._migrated = False
        self._closed = False

    @classmethod
    def in_data_dir(cls, data_dir: Path) -> SQLiteConversationStore:
        """The store kept at ``<data_dir>/conversations.sqlite3`` (nothing opened yet)."""
        return cls(data_dir / FILE_NAME)

    # -- plumbing ------------------------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(
                self._path,
                timeout=self._busy_timeout_s,
                isolation_level=None,  # we open transactions ourselves
                check_same_thread=False,  # used from worker threads, one at a time (the lock)
            )
            try:
                conn.row_factory = sqlite3.Row
                conn.execute("PRAGMA foreign_keys = ON")
                _enable_wal(conn, self._busy_timeout_s)
                conn.execute("PRAGMA synchronous = NORMAL")
            except BaseException:
                conn.close()
                raise
            self._conn = conn
        return self._conn

    def _run(self, work: Callable[[sqlite3.Connection], T], *, migrate: bool = False) -> T:
        with self._lock:
            if self._closed:
                raise HistoryUnavailable("the conversation store is closed")
            try:
                conn = self._connection()
                if migrate or not self._migrated:
                    apply_sqlite_migrations(conn)
                    self._migrated = True
                return work(conn)
            except (sqlite3.Error, OSError) as exc:
                raise HistoryUnavailable("the conversation database is unavailable") from exc

    async def migrate(self) -> None:
        """Apply pending schema migrations (safe when several workers start at once)."""
        await asyncio.to_thread(self._run, lambda conn: None, migrate=True)

    async def _execute(self, statement: str, args: Sequence[Any]) -> int:
        def run(conn: sqlite3.Connection) -> int:
            with _foreign_keys_reported():
                return conn.execute(sqlite_statement(statement), args).rowcount

        return await asyncio.to_thread(self._run, run)

    async def _execute_together(self, steps: Sequence[tuple[str, Sequence[Any]]]) -> None:
        def run(conn: sqlite3.Connection) -> None:
            conn.execute("BEGIN")
            try:
                with _foreign_keys_reported():
                    for statement, args in steps:
                        conn.execute(sqlite_statement(statement), args)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

        await asyncio.to_thread(self._run, run)

    async def _fetch(self, statement: str, args: Sequence[Any]) -> list[sql.Row]:
        return await asyncio.to_thread(
            self._run, lambda conn: conn.execute(sqlite_statement(statement), args).fetchall()
        )

    async def close(self) -> None:
        """Release connections; the store must not be used afterwards."""
        await asyncio.to_thread(self._close)

    def _close(self) -> None:
        with self._lock:
            self._closed = True
            if self._conn is not None:
                self._conn.close()
                self._conn = None


@contextmanager
def _foreign_keys_reported() -> Iterator[None]:
    """A foreign key that fails inside the block raises MissingReference."""
    try:
        yield
    except sqlite3.IntegrityError as exc:
        if exc.sqlite_errorname == "SQLITE_CONSTRAINT_FOREIGNKEY":
            raise MissingReference from exc
        raise


def _enable_wal(conn: sqlite3.Connection, timeout_s: float) -> None:
    """Switch to WAL, waiting while another worker holds the database.

    Changing the journal mode needs an exclusive lock, and SQLite does not apply the busy
    timeout to it: a worker starting while another migrates would fail at once without this.
    """
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(0.02)
