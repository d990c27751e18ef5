"""Conversation-store benchmark: the latency the store adds to each query, as one JSON object.

A query with history costs one ``recent_turns`` (context for a follow-up) and one
``add_message`` (saving the answer). Measured on SQLite (a temp file) and on the local Postgres
(a throwaway database, skipped when the server is down).

    backend/.venv/bin/python bench/history.py [--queries 300] [--conversations 50]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import asyncpg

from bookchat.config import Settings
from bookchat.history import ConversationStore, MessageRecord, open_conversation_store

ADMIN_DSN = "postgresql://postgres@127.0.0.1:5432/postgres"
CITATIONS = [
    {"index": i, "chunk_id": f"c{i}", "path": "a/b.md", "url": "/docs/a/b#s", "excerpt": "x" * 300}
    for i in range(1, 6)
]


def _quantiles(samples: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles(samples, n=100)
    return {"p50_ms": round(cuts[49], 3), "p95_ms": round(cuts[94], 3)}


async def _measure(store: ConversationStore, queries: int, conversations: int) -> dict[str, Any]:
    ids = [await store.create_conversation() for _ in range(conversations)]
    message = MessageRecord(
        "How does a PID controller work?", "book", "It sums three terms [1]." * 10, "grounded",
        "extractive", citations=CITATIONS, latency_ms=12.0, corpus_version="bench",
    )  # fmt: skip
    turns: list[float] = []
    adds: list[float] = []
    per_query: list[float] = []
    for i in range(queries):
        conversation_id = ids[i % conversations]
        started = time.perf_counter()
        await store.recent_turns(conversation_id, 3)
        middle = time.perf_counter()
        await store.add_message(conversation_id, message)
        ended = time.perf_counter()
        turns.append((middle - started) * 1000)
        adds.append((ended - middle) * 1000)
        per_query.append((ended - started) * 1000)
    return {
        "recent_turns": _quantiles(turns),
        "add_message": _quantiles(adds),
        "per_query": _quantiles(per_query),
    }


async def _bench_sqlite(queries: int, conversations: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(_env_file=None, data_dir=Path(folder), database_url=None)  # type: ignore[call-arg]
        store = await open_conversation_store(settings)
        try:
            return await _measure(store, queries, conversations)
        finally:
            await store.close()


async def _bench_postgres(queries: int, conversations: int) -> dict[str, Any]:
    try:
        admin = await asyncpg.connect(ADMIN_DSN, timeout=5)
    except (OSError, asyncpg.PostgresError, TimeoutError) as exc:
        return {"skipped": f"Postgres unreachable at 127.0.0.1:5432 ({type(exc).__name__})"}
    name = f"bookchat_bench_{secrets.token_hex(6)}"
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        url = f"postgresql://postgres@127.0.0.1:5432/{name}"
        settings = Settings(_env_file=None, database_url=url)  # type: ignore[call-arg]
        store = await open_conversation_store(settings)
        try:
            return await _measure(store, queries, conversations)
        finally:
            await store.close()
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


async def _main(queries: int, conversations: int) -> None:
    result = {
        "queries": queries,
        "sqlite": await _bench_sqlite(queries, conversations),
        "postgres": await _bench_postgres(queries, conversations),
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--conversations", type=int, default=50)
    arguments = parser.parse_args()
    asyncio.run(_main(arguments.queries, arguments.conversations))
