"""Server-Sent Events framing for the streamed answer."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Callable
from typing import Any

from bookchat.answer.schema import QueryResponse, Streamed

_PIECES = re.compile(r"\S.*?(?:\[\d+\]|$)\s*", re.DOTALL)


def event(name: str, data: dict[str, Any]) -> str:
    """One SSE event whose data is a single line of JSON."""
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


def answer_pieces(answer: str) -> list[str]:
    """The answer cut after each citation marker; concatenated they give the answer back."""
    pieces = _PIECES.findall(answer)
    return pieces if "".join(pieces) == answer else [answer]


META_FIELDS = (
    "mode",
    "status",
    "citations",
    "conversation_id",
    "message_id",
    "corpus_version",
    "generator",
    "cached",
)
FAILED = "The answer could not be completed."


def meta_event(response: QueryResponse) -> str:
    """The first event: the response's META_FIELDS."""
    body = response.model_dump(mode="json")
    return event("meta", {key: body[key] for key in META_FIELDS})


async def streamed_events(
    streamed: Streamed, on_done: Callable[[QueryResponse], None]
) -> AsyncIterator[str]:
    """meta, the model's deltas as they arrive, then done; `on_done` sees the final response."""
    if streamed.deltas is None:
        on_done(streamed.meta)
        async for chunk in answer_events(streamed.meta):
            yield chunk
        return
    try:
        yield meta_event(streamed.meta)
        async for item in streamed.deltas:
            if isinstance(item, str):
                yield event("delta", {"text": item})
            else:
                on_done(item)
                yield event("done", item.model_dump(mode="json"))
    except Exception:  # the status line is already sent: report in-band, never the exception text
        yield event("error", {"detail": FAILED})


async def answer_events(response: QueryResponse) -> AsyncIterator[str]:
    """meta, the answer as deltas (one when cached), then done (or one error event if serialising
    fails)."""
    try:
        body = response.model_dump(mode="json")
        yield meta_event(response)
        # A cached answer is sent whole: there is nothing to pace.
        pieces = [response.answer] if response.cached else answer_pieces(response.answer)
        for piece in pieces:
            yield event("delta", {"text": piece})
        yield event("done", body)
    except Exception:  # the status line is already sent: report in-band, never the exception text
        yield event("error", {"detail": FAILED})
