"""What the conversation store keeps and returns: plain, immutable records."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

Rating = Literal["up", "down"]

# A selection may be up to 10,000 characters in a request; keeping all of it would make the
# history mostly copies of the book, so only its start is stored (and flagged as cut).
SELECTION_MAX_CHARS = 2_000


def clip_selection(selection: str | None) -> tuple[str | None, bool]:
    """The selection as stored (at most SELECTION_MAX_CHARS) and whether it was cut."""
    if selection is None or len(selection) <= SELECTION_MAX_CHARS:
        return selection, False
    return selection[:SELECTION_MAX_CHARS], True


@dataclass(frozen=True, slots=True)
class MessageRecord:
    """One question and its answer, as the API hands it to the store."""

    question: str
    mode: str
    answer: str
    status: str
    generator: str
    chapter: str | None = None
    selection: str | None = None
    citations: list[dict[str, Any]] = field(default_factory=list)
    latency_ms: float | None = None
    corpus_version: str | None = None
    suggested_chapter: dict[str, Any] | None = None
    short_answer: str | None = None
    related: list[dict[str, Any]] = field(default_factory=list)
    # The edition answered from and whether the answer cache served it: what the insights page
    # filters and counts by (None when unknown).
    version: str | None = None
    locale: str | None = None
    cached: bool | None = None


@dataclass(frozen=True, slots=True)
class Message:
    """A stored message with its latest rating (``selection`` is the stored, clipped text)."""

    id: str
    created_at: datetime
    question: str
    mode: str
    chapter: str | None
    selection: str | None
    selection_truncated: bool
    answer: str
    status: str
    citations: list[dict[str, Any]]
    generator: str
    latency_ms: float | None
    corpus_version: str | None
    rating: Rating | None
    suggested_chapter: dict[str, Any] | None = None
    short_answer: str | None = None
    related: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Conversation:
    """A conversation and its messages, oldest first."""

    id: str
    created_at: datetime
    messages: list[Message]


@dataclass(frozen=True, slots=True)
class Turn:
    """A past exchange, as context for a follow-up question."""

    question: str
    answer: str
    status: str
    citations: list[dict[str, Any]]
    related: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class GapRow:
    """A question the book did not answer well: abstained, or rated down by a reader."""

    message_id: str
    conversation_id: str
    created_at: datetime
    question: str
    mode: str
    chapter: str | None
    status: str
    rating: Rating | None
    comment: str | None
    related_sections: tuple[str, ...] = ()  # headings of the places shown (status "related")
