"""`bookchat eval`: run fixtures (or read a rows file), summarise, gate, compare."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from bookchat.answer.llm.answers import GeneratedAnswers
from bookchat.answer.llm.generator import LLMGenerator
from bookchat.answer.service import AnswerService
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.evals.compare import compare, render
from bookchat.evals.fixtures import Fixture, load_fixtures
from bookchat.evals.gate import GateError, check_gate, load_gate
from bookchat.evals.gold_pages import GoldPages
from bookchat.evals.metrics import summarise
from bookchat.evals.probe import RetrievalProbe
from bookchat.evals.rows import EvalRow, read_rows, write_rows
from bookchat.evals.runner import RunContext, run_rows
from bookchat.evals.versions import run_version
from bookchat.ingest.run import run_ingest
from bookchat.retrieval.catalog import CatalogCache
from bookchat.vectorstore import StoreUnavailable, VectorStore, open_store

EXIT_GATE = 1
EXIT_USAGE = 2
EXIT_UNAVAILABLE = 3


async def _run(
    settings: Settings, ctx: RunContext, fixtures: list[Fixture], llm: LLMGenerator | None
) -> list[EvalRow]:
    try:
        # Like the server after start-up: latencies are measured with the sentence cache warm,
        # and the model is used only for what its server was found to support.
        if settings.warm_sentence_cache:
            await ctx.service.warm()
        if llm is not None and settings.llm_probe:
            found = await llm.probe()
            print("\n".join(found.lines()), file=sys.stderr)
        return await run_rows(ctx, fixtures)
    finally:
        if llm is not None:
            await llm.close()


def _answer_all(
    settings: Settings, store: VectorStore, embedder: Embedder, args: argparse.Namespace
) -> list[EvalRow] | None:
    if args.docs:
        # Indexed as `bookchat ingest` indexes (the bulk embedder), asked as the server is asked.
        bulk = Embedder.from_settings(settings, threads=2, bulk=True)
        report = run_ingest(settings, store, lambda: bulk, Path(args.docs))
        print(report.summary(), file=sys.stderr)
    catalog = CatalogCache(store)
    catalog.refresh()
    if not catalog.current.ready:
        print("error: the index is empty: run bookchat ingest, or pass --docs", file=sys.stderr)
        return None
    # The generator the API would use with these settings (app.py builds it the same way).
    llm = LLMGenerator.from_settings(settings) if settings.use_llm else None
    ctx = RunContext(
        service=(
            GeneratedAnswers(settings, store, embedder, catalog, llm)
            if llm is not None
            else AnswerService(settings, store, embedder, catalog)
        ),
        probe=RetrievalProbe(settings, store, embedder),
        catalog=catalog.current,
        run_version=run_version(settings),
        gold_pages=GoldPages(store),
        streamed=llm is not None,
    )
    fixtures = load_fixtures(Path(args.fixtures), slices=args.slices, limit=args.limit)
    return asyncio.run(_run(settings, ctx, fixtures, llm))


def _fresh_rows(settings: Settings, args: argparse.Namespace) -> list[EvalRow] | int:
    if not args.fixtures or not Path(args.fixtures).is_file():
        print("error: --fixtures FILE (or --rows FILE) is required and must exist", file=sys.stderr)
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
        rows = _answer_all(settings, store, embedder, args)
    finally:
        embedder.close()
        store.close()
    return EXIT_UNAVAILABLE if rows is None else rows


def _settings_used(settings: Settings) -> dict[str, Any]:
    return {
        "min_chunk_score": settings.min_chunk_score,
        "answer_max_words": settings.answer_max_words,
        "generator": "llm" if settings.use_llm else "extractive",
    }


def _gate(path: str, rows: list[EvalRow]) -> int:
    try:
        gate = load_gate(Path(path))
    except GateError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    failures = check_gate(gate, rows)
    for failure in failures:
        print(f"GATE FAILED: {failure}", file=sys.stderr)
    if failures:
        return EXIT_GATE
    print(f"gate passed: {path} ({len(rows)} rows)", file=sys.stderr)
    return 0


def _compare(old: str, new: str) -> int:
    missing = [p for p in (old, new) if not Path(p).is_file()]
    if missing:
        print(f"error: rows file not found: {', '.join(missing)}", file=sys.stderr)
        return EXIT_USAGE
    print(render(compare(read_rows(Path(old)), read_rows(Path(new)))))
    return 0


def run_eval_command(settings: Settings, args: argparse.Namespace) -> int:
    """Entry point of `bookchat eval`; returns the process exit code."""
    if args.generator:
        settings = settings.model_copy(update={"generator": args.generator})
        if settings.use_llm and not settings.llm_model:
            print(
                "error: --generator llm needs BOOKCHAT_LLM_MODEL (and OPENAI_BASE_URL)",
                file=sys.stderr,
            )
            return EXIT_USAGE
    if args.compare:
        return _compare(*args.compare)
    if args.rows:
        if not Path(args.rows).is_file():
            print(f"error: rows file not found: {args.rows}", file=sys.stderr)
            return EXIT_USAGE
        rows = read_rows(Path(args.rows))
        summary = summarise(rows)
    else:
        fresh = _fresh_rows(settings, args)
        if isinstance(fresh, int):
            return fresh
        rows = fresh
        summary = summarise(rows)
        summary["fixtures"] = str(args.fixtures)
        summary["settings"] = _settings_used(settings)
        if args.out:
            write_rows(Path(args.out), rows)
    if args.summary:
        Path(args.summary).parent.mkdir(parents=True, exist_ok=True)
        Path(args.summary).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(summary, indent=2))
    return _gate(args.gate, rows) if args.gate else 0
