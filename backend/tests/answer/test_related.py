"""Places in the book beside an answer or instead of one: grouped by section, best first, each
with the sentences of its section nearest the question; a follow-up naming one of them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from bookchat.answer.related import Places, closeness, section_key
from bookchat.answer.schema import QueryRequest, QueryResponse
from bookchat.answer.service import AnswerService
from bookchat.embedding.embedder import Embedder
from bookchat.retrieval.search import Retriever
from bookchat.retrieval.sentence_vectors import SentenceVectors
from bookchat.vectorstore import VectorStore

MERGE = "How do I undo a merge that went wrong before committing it?"


@pytest.fixture
def places(book_store: VectorStore, embedder: Embedder) -> Places:
    """Places over the session's sample-book index."""
    return Places(book_store, SentenceVectors(embedder))


def _ask(service: AnswerService, question: str, **body: Any) -> Any:
    return service.answer(QueryRequest.model_validate({"question": question, **body}))


async def test_places_are_sections_in_retrieval_order_each_with_its_nearest_sentences(
    places: Places, book_store: VectorStore, embedder: Embedder
) -> None:
    vector = embedder.embed([MERGE])[0]
    hits = Retriever(book_store, hybrid=True).search(MERGE, vector.tolist(), limit=8)
    found = await places.near(hits, vector, limit=3)
    keys = [section_key(p.path, p.section) for p in found]
    first_seen = list(
        dict.fromkeys(section_key(h.payload["path"], h.payload["section"]) for h in hits)
    )
    assert keys == first_seen[:3]
    for place, key in zip(found, keys, strict=True):
        text = " ".join(
            h.payload["text"] for h in hits if (h.payload["path"], h.payload["section"]) == key
        )
        assert place.excerpt and all(part in text for part in place.excerpt.split(" ")[:3])
        assert (place.url.startswith("/") and "#" in place.url) or place.section == place.title


async def test_places_leave_out_the_sections_asked_to_and_stop_at_the_limit(
    places: Places, book_store: VectorStore, embedder: Embedder
) -> None:
    vector = embedder.embed([MERGE])[0]
    hits = Retriever(book_store, hybrid=True).search(MERGE, vector.tolist(), limit=8)
    first = section_key(hits[0].payload["path"], hits[0].payload["section"])
    found = await places.near(hits, vector, limit=2, exclude={first})
    assert len(found) == 2
    assert first not in {section_key(p.path, p.section) for p in found}
    assert await places.near(hits, vector, limit=0) == []
    assert closeness(hits) == max(h.score for h in hits) and closeness([]) == 0.0


@dataclass
class _Turn:
    question: str
    related: list[dict[str, Any]] = field(default_factory=list)


async def test_a_follow_up_naming_a_shown_place_is_answered_from_that_section(
    service: AnswerService,
) -> None:
    first: QueryResponse = await _ask(service, "How do I see which files I have changed?")
    assert len(first.related) >= 2
    turn = _Turn(
        first_question := "How do I see which files I have changed?",
        [p.model_dump() for p in first.related],
    )
    assert first_question
    second = first.related[1]
    response = await service.answer(
        QueryRequest(question="tell me more about the second one"), history=[turn]
    )
    assert response.status in ("grounded", "related")
    shown = [(c.path, c.section) for c in response.citations] + [
        (p.path, p.section) for p in response.related
    ]
    assert shown[0] == (second.path, second.section)
