"""Run fixtures through the same AnswerService the API route calls, and judge every answer."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import ValidationError

from bookchat.answer.schema import (
    IndexNotReady,
    MissingInput,
    QueryRequest,
    QueryResponse,
    UnknownChapter,
)
from bookchat.answer.service import AnswerService
from bookchat.evals import judge
from bookchat.evals.answer_words import score_answer
from bookchat.evals.fixtures import Fixture
from bookchat.evals.gold_pages import GoldPages
from bookchat.evals.oracle import oracle_f1
from bookchat.evals.probe import RetrievalProbe
from bookchat.evals.rows import EvalRow, SourceRef
from bookchat.evals.short_answer import score_short_answer
from bookchat.retrieval.catalog import Catalog
from bookchat.retrieval.followup import PriorTurn
from bookchat.vectorstore import Hit


@dataclass(frozen=True, slots=True)
class RunContext:
    """What every row of one run shares."""

    service: AnswerService
    probe: RetrievalProbe
    catalog: Catalog
    run_version: str
    gold_pages: GoldPages | None = None  # None: no oracle figures
    # Answer through the streaming path (as the widget does), timing the first token: what a
    # generated answer's reader waits for.
    streamed: bool = False


def _oracle(ctx: RunContext, fixture: Fixture) -> float | None:
    # Only where the answer is scored (score_answer), so a slice's F1 and oracle share rows.
    if fixture.reference_answer is None or fixture.expected_status != "grounded":
        return None
    if ctx.gold_pages is None:
        return None
    paths = dict.fromkeys(path for path, _ in fixture.expected_sources)
    found = [s for s in map(ctx.gold_pages.sections, paths) if s is not None]
    return oracle_f1(found, fixture.reference_answer)


def _ref(path: str, section: str) -> SourceRef:
    return {"path": path, "section": section}


def _consistent(response: QueryResponse, hits: Sequence[Hit]) -> bool:
    # Extractive citations come from the retrieved passages (or the selection): anything else
    # means the probe does not reproduce the service's retrieval.
    if response.generator != "extractive" or response.mode == "selection":
        return True
    retrieved = {h.chunk_id for h in hits}
    return all(c.chunk_id in retrieved for c in response.citations)


def _row(
    ctx: RunContext,
    fixture: Fixture,
    *,
    status: str,
    answer: str,
    cited: list[SourceRef],
    retrieved: list[SourceRef],
    latency_ms: float,
    generator: str,
    error: str | None = None,
    consistent: bool = True,
    first_token_ms: float | None = None,
    short_answer: str | None = None,
    overview_scope: str | None = None,
    related: list[SourceRef] | None = None,
    confidence: float | None = None,
) -> EvalRow:
    expected = [_ref(path, section) for path, section in fixture.expected_sources]
    status_ok = judge.status_ok(fixture.slice, fixture.expected_status, status)
    citation_ok = status != "error" and judge.citation_ok(fixture.expected_status, cited, expected)
    content_ok = status != "error" and judge.content_ok(answer, fixture.expected_answer_contains)
    overview_ok = fixture.overview is None or (overview_scope is not None) == fixture.overview
    if fixture.overview and status != "error":
        citation_ok = judge.overview_citations_ok(cited, expected)
    score = score_answer(fixture.expected_status, status, answer, fixture.reference_answer)
    short = score_short_answer(
        fixture.expected_status, status, short_answer, fixture.expected_answer_contains
    )
    return EvalRow(
        dataset_version=fixture.dataset_version,
        run_version=ctx.run_version,
        corpus_version=ctx.catalog.corpus_version or "",
        fixture_id=fixture.id,
        slice=fixture.slice,
        mode=fixture.mode,
        question=fixture.question,
        expected_status=fixture.expected_status,
        actual_status=status,
        expected_sources=expected,
        cited_sources=cited,
        retrieved_sources=retrieved,
        answer=answer,
        status_ok=status_ok,
        citation_ok=citation_ok,
        content_ok=content_ok,
        passed=status_ok and citation_ok and content_ok and overview_ok,
        latency_ms=round(latency_ms, 2),
        first_token_ms=None if first_token_ms is None else round(first_token_ms, 2),
        generator=generator,
        expected_answer_contains=list(fixture.expected_answer_contains),
        error=error,
        retrieval_consistent=consistent,
        reference_answer=fixture.reference_answer,
        answer_f1=score.f1 if score else None,
        answer_recall=score.recall if score else None,
        oracle_f1=_oracle(ctx, fixture),
        short_answer=short_answer,
        short_em=short.em if short else None,
        short_f1=short.f1 if short else None,
        overview_expected=fixture.overview,
        overview_scope=overview_scope,
        related_sources=related or [],
        confidence=confidence,
    )


async def _streamed(
    service: AnswerService, request: QueryRequest, history: Sequence[PriorTurn], started: float
) -> tuple[QueryResponse, float | None]:
    """The final response of the streaming route, and ms to the model's first text (or None)."""
    streamed = await service.stream(request, history)
    if streamed.deltas is None:
        return streamed.meta, None
    first: float | None = None
    final = streamed.meta
    async for item in streamed.deltas:
        if isinstance(item, str):
            if first is None and item:
                first = (time.perf_counter() - started) * 1000
        else:
            final = item
    return final, first


async def run_row(ctx: RunContext, fixture: Fixture) -> EvalRow:
    """Answer one fixture (with its history, as the API would) and judge it."""
    started = time.perf_counter()
    first_token_ms: float | None = None
    try:
        request = fixture.request(ctx.catalog)
        if ctx.streamed:
            response, first_token_ms = await _streamed(
                ctx.service, request, fixture.history, started
            )
        else:
            response = await ctx.service.answer(request, history=fixture.history)
    except (ValidationError, UnknownChapter, MissingInput, IndexNotReady) as exc:
        elapsed = (time.perf_counter() - started) * 1000
        return _row(
            ctx,
            fixture,
            status="error",
            answer="",
            cited=[],
            retrieved=[],
            latency_ms=elapsed,
            generator="",
            error=type(exc).__name__,
        )
    elapsed = (time.perf_counter() - started) * 1000
    # The same decision the service made: an overview is answered from the outline, not the hits.
    target = ctx.service.overview_target(request)
    hits = await ctx.probe.ranked(request, fixture.history)
    return _row(
        ctx,
        fixture,
        status=response.status,
        answer=response.answer,
        cited=[_ref(c.path, c.section) for c in response.citations],
        retrieved=[
            _ref(str(h.payload.get("path", "")), str(h.payload.get("section", ""))) for h in hits
        ],
        latency_ms=elapsed,
        generator=response.generator,
        consistent=target is not None or _consistent(response, hits),
        first_token_ms=first_token_ms,
        # The streamed path's final event is the same QueryResponse, span included.
        short_answer=response.short_answer,
        overview_scope=target.scope if target is not None else None,
        related=[_ref(r.path, r.section) for r in response.related],
        confidence=response.confidence,
    )


async def run_rows(ctx: RunContext, fixtures: Sequence[Fixture]) -> list[EvalRow]:
    """Answer every fixture in order (one at a time, so latencies are not contended)."""
    return [await run_row(ctx, fixture) for fixture in fixtures]
