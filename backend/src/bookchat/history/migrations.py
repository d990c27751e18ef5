"""Numbered, append-only SQL migrations shipped as package data, one folder per dialect.

A shipped migration is never edited: a schema change is a new ``NNNN_name.sql`` file added to
both ``migrations/sqlite`` and ``migrations/postgres`` (a test checks they stay in step).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from typing import Literal

Dialect = Literal["sqlite", "postgres"]

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")

# Created by the runner itself (before any numbered migration), so it is not a migration.
SQLITE_LEDGER = """CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
)"""
POSTGRES_LEDGER = """CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
)"""


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema change: its number, its name and its SQL script."""

    version: int
    name: str
    sql: str


def load_migrations(dialect: Dialect) -> list[Migration]:
    """The dialect's migrations in order; numbering must run 1, 2, 3... without gaps."""
    folder = resources.files("bookchat.history") / "migrations" / dialect
    found: list[Migration] = []
    for entry in folder.iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda migration: migration.version)
    numbers = [migration.version for migration in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"{dialect} migrations are not numbered 1..n: {numbers}")
    return found
