"""GET /api/chapters, GET /health, GET /metrics and GET /."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Depends, Query
from starlette.responses import JSONResponse, RedirectResponse, Response

from bookchat.api.dependencies import catalog_cache, services
from bookchat.api.models import Chapter, Health
from bookchat.api.responses import CHAPTERS, METRICS, OPS
from bookchat.api.services import Services
from bookchat.history import HistoryUnavailable
from bookchat.retrieval.catalog import CatalogCache
from bookchat.vectorstore import StoreUnavailable

router = APIRouter()


@router.get("/api/chapters", response_model=list[Chapter], responses=CHAPTERS, tags=["book"])
async def chapters(
    catalog: Annotated[CatalogCache, Depends(catalog_cache)],
    version: Annotated[str | None, Query(min_length=1, max_length=100)] = None,
    locale: Annotated[str | None, Query(min_length=1, max_length=50)] = None,
) -> list[Chapter]:
    """One edition's chapters and pages, in reading order (default version and locale unless
    named; empty before ingestion)."""
    current = catalog.current
    if not current.ready:
        return []
    _, seen = current.edition(version, locale)
    return [Chapter.model_validate(ch) for ch in seen.chapters]


def _store_check(found: Services) -> str:
    if found.store is None or found.catalog is None:
        return "unavailable"
    try:
        found.catalog.refresh()
    except StoreUnavailable:
        return "unreachable"
    return "ok"


@router.get(
    "/health",
    response_model=Health,
    responses={**OPS, 503: {"model": Health, "description": "Degraded: a check is not ok."}},
    tags=["ops"],
)
async def health(found: Annotated[Services, Depends(services)]) -> JSONResponse:
    """ok when the store answers and the model is loaded; 503 degraded otherwise."""
    store = await asyncio.to_thread(_store_check, found)
    checks = {"vector_store": store, "embedder": "ok" if found.embedder.loaded else "not loaded"}
    try:
        await found.history.ping()
        checks["conversations"] = "ok"
    except HistoryUnavailable:
        checks["conversations"] = "unreachable"
    catalog = found.catalog.current if found.catalog else None
    ok = all(value == "ok" for value in checks.values())
    body = Health(
        status="ok" if ok else "degraded",
        checks=checks,
        corpus_version=catalog.corpus_version if catalog else None,
        chunks=catalog.chunks if catalog else 0,
        indexed_at=catalog.indexed_at if catalog else None,
        sentence_cache=found.cache_state,
        generator=found.generator_health,
        answer_cache=await found.answer_cache_health(),
    )
    return JSONResponse(body.model_dump(), status_code=200 if ok else 503)


@router.get("/metrics", tags=["ops"], response_class=Response, responses=METRICS)
async def metrics(found: Annotated[Services, Depends(services)]) -> Response:
    """Prometheus metrics (text exposition format)."""
    if found.catalog is not None:
        found.metrics.index_chunks.set(found.catalog.current.chunks)
    cache = await found.answer_cache_health()
    found.metrics.answer_cache_entries.set(cache.entries)
    found.metrics.answer_cache_bytes.set(cache.bytes)
    return Response(found.metrics.render(), media_type="text/plain; version=0.0.4; charset=utf-8")


@router.get("/", include_in_schema=False)
async def root() -> RedirectResponse:
    """Redirect to the interactive API documentation."""
    return RedirectResponse("/docs", status_code=307)
