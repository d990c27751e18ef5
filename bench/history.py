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
import tempfile
import time
from pathlib import Path
from typing import Any

from harness import percentiles, throwaway_postgres

from bookchat.config import Settings
from bookchat.history import ConversationStore, MessageRecord, open_conversation_store

CITATIONS = [
    {"index": i, "chunk_id": f"c{i}", "path": "a/b.md", "url": "/docs/a/b#s", "excerpt": "x" * 300}
    for i in range(1, 6)
]


def _quantiles(samples: list[float]) -> dict[str, float]:
    return percentiles(samples, unit="_ms", digits=3, count=None)


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


async def _bench(settings: Settings, queries: int, conversations: int) -> dict[str, Any]:
    store = await open_conversation_store(settings)
    try:
        return await _measure(store, queries, conversations)
    finally:
        await store.close()


def main(queries: int, conversations: int) -> None:
    """Measure both stores and print the JSON."""
    result: dict[str, Any] = {"queries": queries}
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(_env_file=None, data_dir=Path(folder), database_url=None)  # type: ignore[call-arg]
        result["sqlite"] = asyncio.run(_bench(settings, queries, conversations))
    # Outside any event loop: the harness makes and drops the database with its own.
    with throwaway_postgres() as url:
        if url is None:
            result["postgres"] = {"skipped": "Postgres unreachable at 127.0.0.1:5432"}
        else:
            settings = Settings(_env_file=None, database_url=url)  # type: ignore[call-arg]
            result["postgres"] = asyncio.run(_bench(settings, queries, conversations))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--conversations", type=int, default=50)
    arguments = parser.parse_args()
    main(arguments.queries, arguments.conversations)
