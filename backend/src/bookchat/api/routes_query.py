"""POST /api/query and POST /api/query/stream."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from slowapi import Limiter
from starlette.requests import Request
from starlette.responses import StreamingResponse

from bookchat.answer.llm.writer import FALLBACKS
from bookchat.answer.schema import QueryRequest, QueryResponse
from bookchat.api.dependencies import conversational_answers, services
from bookchat.api.rate_limit import query_limit
from bookchat.api.responses import ANSWER_LINKS, QUERY
from bookchat.api.services import Services
from bookchat.api.sse import streamed_events
from bookchat.config import Settings
from bookchat.history.conversation import ConversationalAnswers

STREAM_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}

Answers = Annotated[ConversationalAnswers, Depends(conversational_answers)]
Shared = Annotated[Services, Depends(services)]


def _count(found: Services, endpoint: str, response: QueryResponse) -> None:
    metrics = found.metrics
    metrics.answers.labels(
        endpoint=endpoint, mode=response.mode, status=response.status, generator=response.generator
    ).inc()
    if response.status == "abstained":
        metrics.abstentions.labels(mode=response.mode).inc()
    if FALLBACKS.intersection(response.warnings):
        metrics.fallbacks.inc()


def query_router(limiter: Limiter, settings: Settings) -> APIRouter:
    """The query routes, sharing one rate limit per client (built per app: limits are settings)."""
    router = APIRouter(tags=["query"])
    limited = query_limit(limiter, settings)

    @router.post(
        "/api/query",
        response_model=QueryResponse,
        responses={**QUERY, 200: {"links": ANSWER_LINKS}},
    )
    @limited
    async def query(
        request: Request, body: QueryRequest, answers: Answers, found: Shared
    ) -> QueryResponse:
        """Answer a question about the book, a chapter or a selection, with citations."""
        response = await answers.ask(body)
        _count(found, "/api/query", response)
        return response

    @router.post(
        "/api/query/stream",
        response_class=StreamingResponse,
        responses={**QUERY, 200: {"content": {"text/event-stream": {}}}},
    )
    @limited
    async def query_stream(
        request: Request, body: QueryRequest, answers: Answers, found: Shared
    ) -> StreamingResponse:
        """The same answer as Server-Sent Events: meta, delta..., done."""
        # Everything that can fail with a status code happens before the first byte; the model's
        # text then streams as it is written.
        streamed = await answers.ask_stream(body)
        events = streamed_events(streamed, lambda done: _count(found, "/api/query/stream", done))
        return StreamingResponse(events, media_type="text/event-stream", headers=STREAM_HEADERS)

    return router
