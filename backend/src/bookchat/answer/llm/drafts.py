"""What the model is told about one question, gathered from the request and the retrieval."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bookchat.answer import abstain
from bookchat.answer.followup import PriorTurn
from bookchat.answer.llm.passages import Passage, Search
from bookchat.answer.llm.prompt import History, Mode
from bookchat.answer.schema import QueryRequest
from bookchat.retrieval.catalog import Catalog


@dataclass(frozen=True, slots=True)
class Draft:
    """Everything the model needs about one question."""

    question: str
    mode: Mode
    chapter_title: str | None
    history: History
    passages: list[Passage]
    search: Search | None
    abstention: str  # what the reader is told when the model finds no answer
    started: float  # perf_counter() when the request began, for latency_ms


def _abstention(mode: Mode, chapter_title: str | None) -> str:
    if mode == "selection":
        return abstain.SELECTION
    if mode == "chapter" and chapter_title:
        return f"The chapter “{chapter_title}” does not cover this question."
    return abstain.BOOK


def draft_for(
    request: QueryRequest,
    history: Sequence[PriorTurn],
    passages: Sequence[Passage],
    *,
    catalog: Catalog,
    search: Search | None,
    started: float,
) -> Draft:
    """The draft for a question retrieval found grounded."""
    title = None
    if request.mode == "chapter" and request.chapter:
        found = catalog.chapter(request.chapter)
        title = str(found["title"]) if found else None
    return Draft(
        question=request.question,
        mode=request.mode,
        chapter_title=title,
        # Stored turns carry their answer; a turn without one still gives the question's context.
        history=[(turn.question, str(getattr(turn, "answer", "") or "")) for turn in history],
        passages=list(passages),
        search=search,
        abstention=_abstention(request.mode, title),
        started=started,
    )
