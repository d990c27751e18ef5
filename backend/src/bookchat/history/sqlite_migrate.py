"""Applying the SQLite migrations: one write transaction, so racing processes take turns."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from bookchat.history.migrations import SQLITE_LEDGER, load_migrations
from bookchat.history.sql import stamp


def split_script(script: str) -> list[str]:
    """Statements of a SQL script (executescript would commit our open transaction)."""
    statements: list[str] = []
    pending = ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if _has_sql(pending):
                statements.append(pending)
            pending = ""
    return statements


def _has_sql(statement: str) -> bool:
    code = [line for line in statement.splitlines() if not line.strip().startswith("--")]
    return bool("".join(code).strip(" \t;"))


def apply_sqlite_migrations(conn: sqlite3.Connection) -> None:
    """Apply the migrations not yet recorded in schema_migrations (conn is in autocommit)."""
    # BEGIN IMMEDIATE takes the write lock up front: a second process starting at the same
    # time waits (busy timeout), then finds every migration recorded.
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(SQLITE_LEDGER)
        applied = {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}
        for migration in load_migrations("sqlite"):
            if migration.version in applied:
                continue
            for statement in split_script(migration.sql):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, stamp(datetime.now(UTC))),
            )
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
