"""The FastAPI app factory: routes, middleware, error table, and the lifespan owning resources."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from slowapi.errors import RateLimitExceeded
from starlette.middleware.cors import CORSMiddleware

from bookchat.answer.llm.answers import GeneratedAnswers
from bookchat.answer.llm.generator import LLMGenerator
from bookchat.answer.service import AnswerService
from bookchat.api import routes_admin, routes_catalog, routes_conversations
from bookchat.api.errors import install_error_handlers
from bookchat.api.insights_page import PAGE_DIR, InsightsPage
from bookchat.api.methods import install_method_handling
from bookchat.api.metrics import Metrics
from bookchat.api.rate_limit import build_limiter, rate_limit_exceeded
from bookchat.api.request_context import RequestContext
from bookchat.api.routes_insights import insights_router
from bookchat.api.routes_query import query_router
from bookchat.api.services import Services
from bookchat.cache import answer_cache_for
from bookchat.cache.key import answerer_fingerprint
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.history import ConversationStore, HistoryUnavailable, conversation_store_for
from bookchat.history.question_vectors import QuestionVectors
from bookchat.history.retention import keep_history
from bookchat.retrieval.catalog import CatalogCache
from bookchat.retrieval.serial_store import SerialStore
from bookchat.vectorstore import StoreLocked, StoreUnavailable, VectorStore, open_store

log = logging.getLogger(__name__)

# Another machine may ingest into a server-mode store; re-reading the catalog this often keeps
# answers, chapters and corpus_version in step without a restart.
CATALOG_REFRESH_SECONDS = 2.0


async def _refresh_periodically(catalog: CatalogCache) -> None:
    while True:
        await asyncio.sleep(CATALOG_REFRESH_SECONDS)
        try:
            await asyncio.to_thread(catalog.refresh)
        except StoreUnavailable:
            log.warning("vector store unreachable; keeping the last catalog")


async def _open(settings: Settings) -> VectorStore | None:
    try:
        return await asyncio.to_thread(open_store, settings)
    except StoreLocked:
        raise  # another process owns the index: refuse to start rather than serve nothing
    except StoreUnavailable:
        log.error("vector store unavailable at start-up; serving degraded")
        return None


def create_app(
    settings: Settings,
    *,
    store: VectorStore | None = None,
    embedder: Embedder | None = None,
    history: ConversationStore | None = None,
    admin_token: str | None = None,
    insights_page: Path = PAGE_DIR,
) -> FastAPI:
    """The bookchat API; `store`/`embedder`/`history` given here are used, not closed, by it
    (`insights_page`: the folder the built /insights page is served from)."""
    metrics = Metrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        """Open the store, load the model, share them; release what the app opened."""
        # First, so a misconfigured model (no BOOKCHAT_LLM_MODEL) stops start-up before anything
        # is opened; the client only connects on the first question.
        llm = LLMGenerator.from_settings(settings) if settings.use_llm else None
        opened = store if store is not None else await _open(settings)
        conversations = history if history is not None else conversation_store_for(settings)
        try:
            await conversations.migrate()
        except HistoryUnavailable:
            # Answers do not need it: questions are answered (unsaved) until it comes back.
            log.warning("conversation store unavailable at start-up; retrying on use")
        model = embedder if embedder is not None else Embedder.from_settings(settings)
        await asyncio.to_thread(model.load)
        shared = SerialStore(opened) if opened is not None else None
        catalog = CatalogCache(shared) if shared is not None else None
        answers = None
        refresher = None
        cache = None
        if shared is not None and catalog is not None:
            with contextlib.suppress(StoreUnavailable):
                await asyncio.to_thread(catalog.refresh)
            answers = (
                GeneratedAnswers(settings, shared, model, catalog, llm)
                if llm is not None
                else AnswerService(settings, shared, model, catalog)
            )
            refresher = asyncio.create_task(_refresh_periodically(catalog))
            cache = answer_cache_for(settings)
        metrics.answer_cache.stats = cache.stats if cache is not None else None
        found = Services(
            settings=settings,
            embedder=model,
            store=shared,
            catalog=catalog,
            answers=answers,
            history=conversations,
            metrics=metrics,
            question_vectors=QuestionVectors(model),
            admin_token=admin_token,
            generator=llm,
            answer_cache=cache,
            answerer=await asyncio.to_thread(answerer_fingerprint, settings) if cache else "",
        )
        app.state.services = found
        found.start_warming()
        retention = asyncio.create_task(keep_history(conversations, settings.history_days))
        # In the background: start-up does not wait for a slow or absent model server.
        probing = (
            asyncio.create_task(llm.probe(announce=True)) if llm and settings.llm_probe else None
        )
        try:
            yield
        finally:
            if probing is not None:
                probing.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await probing
            found.stop_warming()
            retention.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await retention
            if refresher is not None:
                refresher.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await refresher
            if embedder is None:
                model.close()
            if history is None:
                await conversations.close()
            if llm is not None:
                await llm.close()
            if cache is not None:
                await cache.close()
            if store is None and shared is not None:
                # Through the lock: a worker thread may still be mid-call after cancellation.
                shared.close()

    app = FastAPI(
        title="bookchat",
        summary="Question answering with citations for a Docusaurus textbook.",
        version="0.1.0",
        lifespan=lifespan,
        # operationId = the handler's name (`query`, `get_conversation`): short names for
        # generated clients, and what the OpenAPI links in responses.py refer to.
        generate_unique_id_function=lambda route: route.name,
    )
    limiter = build_limiter(settings)
    app.state.limiter = limiter
    app.add_exception_handler(RateLimitExceeded, rate_limit_exceeded)
    install_error_handlers(app)
    install_method_handling(app)
    app.add_middleware(
        CORSMiddleware,
        allow_origins=settings.cors_origins,
        allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
        allow_headers=["Content-Type"],
        allow_credentials=False,
    )
    app.include_router(query_router(limiter, settings))
    app.include_router(routes_catalog.router)
    app.include_router(routes_admin.router)
    app.include_router(routes_conversations.router)
    app.include_router(insights_router(limiter, settings))
    app.mount("/insights", InsightsPage(insights_page), name="insights")
    app.add_middleware(RequestContext, metrics=metrics)
    return app
