"""What each route declares it may answer: every status, with FastAPI's error model.

The routes pass these to FastAPI's `responses=`, so the OpenAPI document lists every status a
client can meet (a generated client then knows them all), each with the `{"detail": ...}` body
the error table in errors.py writes.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

Declared = dict[int | str, dict[str, Any]]


class ErrorDetail(BaseModel):
    """An error body: FastAPI's shape, one sentence safe to show a reader."""

    detail: str


INTERNAL = "An unexpected error; the detail is generic (the server log has the rest)."
UNREADABLE = "The body could not be read as JSON."
STORE_DOWN = "The book has not been indexed yet, or the search index is unavailable."
HISTORY_DOWN = "The conversation database is unavailable right now."

_HEADERS: dict[int, dict[str, Any]] = {
    401: {
        "WWW-Authenticate": {"description": "`Bearer`", "schema": {"type": "string"}},
    },
    429: {
        "Retry-After": {
            "description": "Seconds until the client may ask again.",
            "schema": {"type": "integer"},
        },
    },
}


def errors(described: dict[int, str]) -> Declared:
    """OpenAPI responses for these statuses, and the generic 500: model, meaning, headers."""
    declared: Declared = {}
    for status, description in {**described, 500: INTERNAL}.items():
        entry: dict[str, Any] = {"model": ErrorDetail, "description": description}
        if status in _HEADERS:
            entry["headers"] = _HEADERS[status]
        declared[status] = entry
    return declared


QUERY = errors(
    {
        400: "`chapter` (chapter mode) or `selection` (selection mode) is missing, "
        "or the body could not be read.",
        404: "Unknown chapter (GET /api/chapters lists them), unknown `conversation_id`, or a "
        "`version` or `locale` the index does not hold (the detail names the ones it does).",
        429: "Too many questions from this client; `Retry-After` says when to ask again.",
        503: STORE_DOWN,
    }
)
CHAPTERS = errors(
    {404: "Unknown `version` or `locale`: the detail names the known ones.", 503: STORE_DOWN}
)
OPS = errors({})
METRICS = {**OPS, 200: {"content": {"text/plain": {"schema": {"type": "string"}}}}}
ADMIN = errors(
    {
        400: "`docs_dir` is not a folder on the server, `site_dir` has no built route manifest, "
        "or the body could not be read.",
        401: "No bearer token was sent.",
        403: "The bearer token is wrong, or this server has no admin endpoint.",
        503: STORE_DOWN,
    }
)
INSIGHTS = errors(
    {
        400: "`since` is after `until`, the period is longer than 366 days, or a day is not a "
        "real calendar day.",
        401: "No bearer token was sent.",
        403: "The bearer token is wrong, or this server has no admin endpoint.",
        429: "Too many requests from this client; `Retry-After` says when to ask again.",
        503: HISTORY_DOWN,
    }
)
CONVERSATION = errors({404: "Unknown conversation.", 503: HISTORY_DOWN})
FEEDBACK = errors({400: UNREADABLE, 404: "Unknown message: nothing to rate.", 503: HISTORY_DOWN})


def _link(operation_id: str, description: str, **expressions: Any) -> dict[str, Any]:
    """An OpenAPI link to `operation_id`, with `parameters=` and/or `requestBody=`."""
    return {"operationId": operation_id, "description": description, **expressions}


# How an answer leads on (OpenAPI links, by operationId = the route function's name): clients and
# stateful API testers follow the conversation and the message an answer was saved as.
_CONVERSATION = {"conversation_id": "$response.body#/conversation_id"}
ANSWER_LINKS: dict[str, Any] = {
    "GetConversation": _link(
        "get_conversation", "The conversation this answer was saved in.", parameters=_CONVERSATION
    ),
    "DeleteConversation": _link(
        "delete_conversation", "Delete that conversation.", parameters=_CONVERSATION
    ),
    "RateAnswer": _link(
        "feedback", "Rate this answer.", requestBody={"message_id": "$response.body#/message_id"}
    ),
    "AskFollowUp": _link(
        "query", "Ask a follow-up in the same conversation.", requestBody=_CONVERSATION
    ),
}
