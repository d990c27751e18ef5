"""POST /api/query and POST /api/query/stream."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from slowapi import Limiter
from starlette.requests import Request
from starlette.responses import StreamingResponse

from bookchat.answer.schema import QueryRequest, QueryResponse
from bookchat.answer.service import AnswerService
from bookchat.api.dependencies import answer_service
from bookchat.api.rate_limit import query_limit
from bookchat.api.sse import answer_events
from bookchat.config import Settings

STREAM_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}

Answers = Annotated[AnswerService, Depends(answer_service)]


def query_router(limiter: Limiter, settings: Settings) -> APIRouter:
    """The query routes, sharing one rate limit per client (built per app: limits are settings)."""
    router = APIRouter(tags=["query"])
    limited = query_limit(limiter, settings)

    @router.post("/api/query", response_model=QueryResponse)
    @limited
    async def query(request: Request, body: QueryRequest, answers: Answers) -> QueryResponse:
        """Answer a question about the book, a chapter or a selection, with citations."""
        return await answers.answer(body)

    @router.post(
        "/api/query/stream",
        response_class=StreamingResponse,
        responses={200: {"content": {"text/event-stream": {}}}},
    )
    @limited
    async def query_stream(
        request: Request, body: QueryRequest, answers: Answers
    ) -> StreamingResponse:
        """The same answer as Server-Sent Events: meta, delta..., done."""
        # Everything that can fail with a status code happens before the first byte.
        response = await answers.answer(body)
        return StreamingResponse(
            answer_events(response), media_type="text/event-stream", headers=STREAM_HEADERS
        )

    return router
