"""Conversation-store benchmark: the latency the store adds to each query, and what the authors'
insights page costs over a full store, as one JSON object.

A query with history costs one ``recent_turns`` (context for a follow-up) and one
``add_message`` (saving the answer). The insights are GET /api/admin/insights for the last 30
days, through the app over the sample book's index, with --insights-questions stored over 89 days
(insights_load.py): the first call (which embeds the period's gap questions) and then --calls
more; the store's SQL aggregates alone are timed too. Postgres is measured after VACUUM ANALYZE
(the state autovacuum keeps a table in); the machine's load average is reported with the figures.
Measured on SQLite (a temp file) and on the local Postgres (a throwaway database, skipped when the
server is down).

    backend/.venv/bin/python bench/history.py [--queries 300] [--conversations 50]
        [--insights-questions 100000] [--calls 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from harness import REPO, percentiles, throwaway_postgres
from insights_load import fill

from bookchat.config import Settings
from bookchat.history import ConversationStore, MessageRecord, open_conversation_store
from bookchat.history.insight_records import Window
from bookchat.history.sql_store import SQLConversationStore
from bookchat.vectorstore import VectorStore

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


async def _filled(settings: Settings, questions: int, calls: int) -> dict[str, Any]:
    """Fill the store, then time its insights aggregates for 30 days (SQL only)."""
    store = await open_conversation_store(settings)
    try:
        assert isinstance(store, SQLConversationStore)
        started = time.perf_counter()
        await fill(store, questions, days=89)
        filled_s = time.perf_counter() - started
        if settings.database_url is not None:
            await _vacuum(settings.database_url.get_secret_value())
        window = Window.of_days()
        samples = []
        for _ in range(calls):
            started = time.perf_counter()
            found = await store.insights(window)
            samples.append((time.perf_counter() - started) * 1000)
    finally:
        await store.close()
    return {
        "fill_s": round(filled_s, 1),
        "questions_in_30_days": found.totals.asked,
        "gap_questions_read": len(found.gaps),
        "store_aggregates_30_days": _quantiles(samples),
    }


async def _vacuum(url: str) -> None:
    """What autovacuum does to a table that grew this much: visibility map and statistics,
    without which Postgres reads the table instead of its covering indexes."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute("VACUUM ANALYZE")
    finally:
        await conn.close()


def _endpoint(settings: Settings, index: VectorStore, embedder: Any, calls: int) -> dict[str, Any]:
    """GET /api/admin/insights through the app: the first call, then `calls` more."""
    from fastapi.testclient import TestClient

    from bookchat.api.app import create_app

    token = "bench-token"
    auth = {"Authorization": f"Bearer {token}"}
    app = create_app(settings, store=index, embedder=embedder, admin_token=token)
    out: dict[str, Any] = {}
    with TestClient(app) as client:
        for name, params, n in (("30_days", {}, calls), ("90_days", {"since": _ago(89)}, 5)):
            samples = []
            for _ in range(n + 1):
                started = time.perf_counter()
                answer = client.get("/api/admin/insights", params=params, headers=auth)
                samples.append((time.perf_counter() - started) * 1000)
                answer.raise_for_status()
            gaps = len(answer.json()["gaps"])
            out[name] = {"first_call_ms": round(samples[0], 1), **_quantiles(samples[1:]),
                         "calls": n, "gap_groups": gaps}  # fmt: skip
    return out


def _ago(days: int) -> str:
    from datetime import UTC, datetime, timedelta

    return (datetime.now(UTC).date() - timedelta(days=days)).isoformat()


def _insights(
    settings: Settings, index: VectorStore, embedder: Any, questions: int, calls: int
) -> dict[str, Any]:
    found = asyncio.run(_filled(settings, questions, calls))
    found["endpoint"] = _endpoint(settings, index, embedder, calls)
    return found


def _sample_book_index(data_dir: Path) -> tuple[VectorStore, Any]:
    """The sample book ingested into `data_dir` (the gaps' closest sections come from it)."""
    from bookchat.embedding.embedder import Embedder
    from bookchat.ingest.run import run_ingest
    from bookchat.vectorstore import open_store

    settings = _settings(data_dir, None)
    embedder = Embedder.from_settings(settings)
    embedder.load()
    index = open_store(settings)
    run_ingest(settings, index, lambda: embedder, REPO / "website" / "docs")
    return index, embedder


def _settings(data_dir: Path, database_url: str | None) -> Settings:
    return Settings(  # type: ignore[call-arg]
        _env_file=None,
        data_dir=data_dir,
        database_url=database_url,
        BOOKCHAT_RATE_LIMIT="off",
        BOOKCHAT_ANSWER_CACHE="off",
        BOOKCHAT_WARM_SENTENCE_CACHE=False,
        REDIS_URL=None,
        QDRANT_URL=None,
    )


def main(queries: int, conversations: int, insights_questions: int, calls: int) -> None:
    """Measure both stores and print the JSON."""
    result: dict[str, Any] = {"queries": queries}
    insights: dict[str, Any] = {"stored_questions": insights_questions, "days_stored": 89}
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(_env_file=None, data_dir=Path(folder), database_url=None)  # type: ignore[call-arg]
        result["sqlite"] = asyncio.run(_bench(settings, queries, conversations))
    with tempfile.TemporaryDirectory() as folder:
        index, embedder = (None, None)
        if insights_questions:
            index, embedder = _sample_book_index(Path(folder) / "data")
            db = _settings(Path(folder) / "data", None)
            insights["sqlite"] = _insights(db, index, embedder, insights_questions, calls)
        # Outside any event loop: the harness makes and drops the database with its own.
        with throwaway_postgres() as url:
            if url is None:
                result["postgres"] = {"skipped": "Postgres unreachable at 127.0.0.1:5432"}
            else:
                settings = Settings(_env_file=None, database_url=url)  # type: ignore[call-arg]
                result["postgres"] = asyncio.run(_bench(settings, queries, conversations))
        with throwaway_postgres() as url:
            if url is not None and index is not None:
                db = _settings(Path(folder) / "data", url)
                insights["postgres"] = _insights(db, index, embedder, insights_questions, calls)
        if index is not None:
            index.close()
    if insights_questions:
        insights["load_average_1_5_15"] = [round(x, 2) for x in os.getloadavg()]
        result["insights"] = insights
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--conversations", type=int, default=50)
    parser.add_argument("--insights-questions", type=int, default=100_000, help="0 skips them")
    parser.add_argument("--calls", type=int, default=20)
    arguments = parser.parse_args()
    main(arguments.queries, arguments.conversations, arguments.insights_questions, arguments.calls)
