"""Places in the book beside an answer or instead of one: grouped by section, best first, each
with the sentences of its section nearest the question; and the three outcomes they make."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from bookchat.answer.related import Places, closeness, section_key
from bookchat.answer.schema import QueryRequest, QueryResponse
from bookchat.answer.service import AnswerService
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.retrieval.catalog import CatalogCache
from bookchat.retrieval.search import Retriever
from bookchat.retrieval.sentence_vectors import SentenceVectors
from bookchat.vectorstore import VectorStore

MERGE = "How do I undo a merge that went wrong before committing it?"


@pytest.fixture
def places(book_store: VectorStore, embedder: Embedder) -> Places:
    """Places over the session's sample-book index."""
    return Places(book_store, SentenceVectors(embedder))


def _service(settings: Settings, store: VectorStore, embedder: Embedder) -> AnswerService:
    catalog = CatalogCache(store)
    catalog.refresh()
    return AnswerService(settings, store, embedder, catalog)


@pytest.fixture
def service(book_settings: Settings, book_store: VectorStore, embedder: Embedder) -> AnswerService:
    """The real service over the session's sample-book index."""
    return _service(book_settings, book_store, embedder)


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


async def test_a_grounded_answer_shows_up_to_two_more_places_it_does_not_cite(
    service: AnswerService,
) -> None:
    response: QueryResponse = await _ask(service, "How do I see which files I have changed?")
    assert response.status == "grounded"
    cited = {section_key(c.path, c.section) for c in response.citations}
    assert 1 <= len(response.related) <= 2
    assert not cited & {section_key(p.path, p.section) for p in response.related}
    assert all(p.excerpt for p in response.related)


async def test_a_question_the_book_does_not_touch_is_declined_with_nothing_shown(
    service: AnswerService,
) -> None:
    response: QueryResponse = await _ask(service, "What is a good recipe for sourdough bread?")
    assert response.status == "abstained"
    assert response.related == [] and response.citations == []


async def test_a_covered_question_no_passage_answers_shows_the_closest_sections(
    service: AnswerService,
) -> None:
    # The book talks about hosting remotes but names no price: no passage answers, and what the
    # reader gets is where the book comes closest, never a dead end.
    response: QueryResponse = await _ask(service, "Which Git hosting service is the cheapest?")
    assert response.status == "related"
    assert response.citations == [] and response.short_answer is None
    assert "closest" in response.answer
    assert 1 <= len(response.related) <= 3
    assert any(
        "remote" in p.section.lower() or "remote" in p.excerpt.lower() for p in response.related
    )


async def test_chapter_mode_names_the_other_chapter_whose_section_comes_closest(
    service: AnswerService,
) -> None:
    response: QueryResponse = await _ask(
        service, "How do I abort a merge with conflicts?", mode="chapter", chapter="getting-started"
    )
    assert response.status in ("related", "abstained")
    if response.status == "abstained":
        pytest.fail(f"a merge question was declined outright in Getting Started: {response}")
    other = [p for p in response.related if p.chapter != "getting-started"]
    assert other and other[-1].chapter_title
    assert response.suggested_chapter is None or response.suggested_chapter.key == other[-1].chapter


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
