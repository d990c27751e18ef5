"""`bookchat eval`: run fixtures through the answer service and print metrics as JSON."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from bookchat.answer.service import AnswerService
from bookchat.config import Settings
from bookchat.evals.fixtures import Fixture, load_fixtures
from bookchat.evals.metrics import summarise
from bookchat.evals.runner import RowResult, run_rows
from bookchat.ingest.run import run_ingest
from bookchat.retrieval.catalog import Catalog, CatalogCache
from bookchat.retrieval.embedder import Embedder
from bookchat.vectorstore import StoreUnavailable, VectorStore, open_store

EXIT_USAGE = 2
EXIT_UNAVAILABLE = 3
# Options argparse already declares for later issues (row files, gates, comparisons).
_NOT_YET = ("out", "summary", "rows", "gate", "compare")


async def _run(
    settings: Settings, service: AnswerService, catalog: Catalog, fixtures: list[Fixture]
) -> list[RowResult]:
    # Like the server after start-up: latencies are measured with the sentence cache warm.
    if settings.warm_sentence_cache:
        await service.warm()
    return await run_rows(service, catalog, fixtures)


def _evaluate(
    settings: Settings, store: VectorStore, embedder: Embedder, args: argparse.Namespace
) -> int:
    if args.docs:
        report = run_ingest(settings, store, lambda: embedder, Path(args.docs))
        print(report.summary(), file=sys.stderr)
    catalog = CatalogCache(store)
    catalog.refresh()
    if not catalog.current.ready:
        print("error: the index is empty: run bookchat ingest, or pass --docs", file=sys.stderr)
        return EXIT_UNAVAILABLE
    service = AnswerService(settings, store, embedder, catalog)
    fixtures = load_fixtures(Path(args.fixtures), slices=args.slices, limit=args.limit)
    rows = asyncio.run(_run(settings, service, catalog.current, fixtures))
    summary = summarise(rows)
    summary["fixtures"] = str(args.fixtures)
    summary["corpus_version"] = catalog.current.corpus_version
    summary["settings"] = {
        "min_chunk_score": settings.min_chunk_score,
        "min_support": settings.min_support,
        "hybrid": settings.hybrid,
        "answer_max_words": settings.answer_max_words,
    }
    print(json.dumps(summary, indent=2))
    return 0


def run_eval_command(settings: Settings, args: argparse.Namespace) -> int:
    """Entry point of `bookchat eval`; returns the process exit code."""
    unsupported = [f"--{name}" for name in _NOT_YET if getattr(args, name, None)]
    if unsupported:
        print(f"error: {', '.join(unsupported)}: not implemented yet", file=sys.stderr)
        return EXIT_USAGE
    if not args.fixtures or not Path(args.fixtures).is_file():
        print("error: --fixtures FILE is required and must exist", file=sys.stderr)
        return EXIT_USAGE
    if args.docs and not Path(args.docs).is_dir():
        print(f"error: docs folder not found: {args.docs}", file=sys.stderr)
        return EXIT_USAGE
    try:
        store = open_store(settings)
    except StoreUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_UNAVAILABLE
    embedder = Embedder.from_settings(settings)
    try:
        return _evaluate(settings, store, embedder, args)
    finally:
        embedder.close()
        store.close()
