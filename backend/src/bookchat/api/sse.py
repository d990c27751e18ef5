"""Server-Sent Events framing for the streamed answer."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from typing import Any

from bookchat.answer.schema import QueryResponse

_PIECES = re.compile(r"\S.*?(?:\[\d+\]|$)\s*", re.DOTALL)


def event(name: str, data: dict[str, Any]) -> str:
    """One SSE event whose data is a single line of JSON."""
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


def answer_pieces(answer: str) -> list[str]:
    """The answer cut after each citation marker; concatenated they give the answer back."""
    pieces = _PIECES.findall(answer)
    return pieces if "".join(pieces) == answer else [answer]


async def answer_events(response: QueryResponse) -> AsyncIterator[str]:
    """meta, the answer as deltas, then done (or one error event if serialising fails)."""
    try:
        body = response.model_dump(mode="json")
        meta = {
            key: body[key]
            for key in (
                "mode",
                "status",
                "citations",
                "conversation_id",
                "message_id",
                "corpus_version",
                "generator",
            )
        }
        yield event("meta", meta)
        for piece in answer_pieces(response.answer):
            yield event("delta", {"text": piece})
        yield event("done", body)
    except Exception:  # the status line is already sent: report in-band, never the exception text
        yield event("error", {"detail": "The answer could not be completed."})
