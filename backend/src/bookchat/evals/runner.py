"""Run fixtures through the same AnswerService the API route calls."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import ValidationError

from bookchat.answer.errors import IndexNotReady, MissingInput, UnknownChapter
from bookchat.answer.schema import QueryResponse
from bookchat.answer.service import AnswerService
from bookchat.evals.fixtures import Fixture
from bookchat.retrieval.catalog import Catalog


@dataclass(frozen=True, slots=True)
class RowResult:
    """How the service did on one fixture."""

    fixture: Fixture
    status: str  # "grounded", "abstained" or "error"
    rank: int | None  # 1-based rank of the first citation matching a gold source
    contains: bool | None  # an expected string is in the answer (None: nothing expected)
    latency_ms: float
    confidence: float
    error: str | None = None


def _rank(fixture: Fixture, response: QueryResponse) -> int | None:
    gold = set(fixture.expected_sources)
    for citation in response.citations:
        if (citation.path, citation.section) in gold:
            return citation.index
    return None


def _contains(fixture: Fixture, answer: str) -> bool | None:
    if not fixture.expected_answer_contains:
        return None
    lowered = answer.lower()
    return any(expected.lower() in lowered for expected in fixture.expected_answer_contains)


async def run_row(service: AnswerService, catalog: Catalog, fixture: Fixture) -> RowResult:
    """Answer one fixture and judge it."""
    started = time.perf_counter()
    try:
        response = await service.answer(fixture.request(catalog))
    except (ValidationError, UnknownChapter, MissingInput, IndexNotReady) as exc:
        elapsed = (time.perf_counter() - started) * 1000
        return RowResult(fixture, "error", None, None, elapsed, 0.0, type(exc).__name__)
    elapsed = (time.perf_counter() - started) * 1000
    return RowResult(
        fixture=fixture,
        status=response.status,
        rank=_rank(fixture, response),
        contains=_contains(fixture, response.answer),
        latency_ms=elapsed,
        confidence=response.confidence,
    )


async def run_rows(
    service: AnswerService, catalog: Catalog, fixtures: Sequence[Fixture]
) -> list[RowResult]:
    """Answer every fixture in order (one at a time, so latencies are not contended)."""
    return [await run_row(service, catalog, fixture) for fixture in fixtures]
