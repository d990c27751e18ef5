"""Retrieval over the real store: chapter filters in the store, hybrid reports cosines, and a
section whose heading names the question's code comes first."""

from __future__ import annotations

import pytest

from bookchat.embedding.embedder import Embedder
from bookchat.retrieval.search import Retriever
from bookchat.vectorstore import VectorStore
from bookchat.vectorstore.sparse import sparse_query

QUESTION = "How do I resolve a merge conflict?"


def _vector(embedder: Embedder) -> list[float]:
    return [float(x) for x in embedder.embed([QUESTION])[0]]


def test_book_search_ranks_the_merging_page_first(
    book_store: VectorStore, embedder: Embedder
) -> None:
    hits = Retriever(book_store, hybrid=False).search(QUESTION, _vector(embedder), limit=5)
    assert hits[0].payload["chapter"] == "branching"
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_chapter_search_returns_only_that_chapter(
    book_store: VectorStore, embedder: Embedder
) -> None:
    hits = Retriever(book_store, hybrid=False).search(
        QUESTION, _vector(embedder), limit=5, chapter="getting-started"
    )
    assert hits
    assert {h.payload["chapter"] for h in hits} == {"getting-started"}


@pytest.mark.parametrize("chapter", [None, "branching"])
def test_hybrid_search_scores_are_the_dense_cosines(
    book_store: VectorStore, embedder: Embedder, chapter: str | None
) -> None:
    vector = _vector(embedder)
    hybrid = Retriever(book_store, hybrid=True).search(QUESTION, vector, limit=5, chapter=chapter)
    dense = {h.chunk_id: h.score for h in book_store.search(vector, limit=50)}
    assert hybrid
    for hit in hybrid:
        assert hit.score == pytest.approx(dense[hit.chunk_id], abs=1e-4)
        if chapter:
            assert hit.payload["chapter"] == chapter


def test_hybrid_search_returns_the_limit_in_fused_order_with_ties_broken_by_cosine(
    book_store: VectorStore, embedder: Embedder
) -> None:
    vector = _vector(embedder)
    hits = Retriever(book_store, hybrid=True).search(QUESTION, vector, limit=5)
    fused = book_store.hybrid_search(vector, sparse_query(QUESTION), limit=10)
    rrf = {h.chunk_id: round(h.score, 9) for h in fused}
    assert len(hits) == 5
    keys = [(-rrf[h.chunk_id], -h.score) for h in hits]
    assert keys == sorted(keys)


def test_a_scoped_search_stays_inside_its_edition_even_in_one_chapter(
    embedder: Embedder, site_store: VectorStore
) -> None:
    vector = embedder.embed(["What is the default branch called?"])[0].tolist()
    for hybrid in (False, True):
        retriever = Retriever(site_store, hybrid=hybrid).scoped({"version": "1.0", "locale": "fr"})
        for chapter in (None, "basics"):
            hits = retriever.search("default branch", vector, limit=10, chapter=chapter)
            assert hits
            assert {(h.payload["version"], h.payload["locale"]) for h in hits} == {("1.0", "fr")}
            assert all(h.payload["url"].startswith("/textbook/fr/docs/1.0/") for h in hits)


@pytest.mark.parametrize("hybrid", [False, True])
def test_a_section_whose_heading_names_the_questions_code_comes_first(
    book_store: VectorStore, embedder: Embedder, hybrid: bool
) -> None:
    # Ranked by words alone, "Conventions used in this book" (which shows `git describe` as an
    # example) comes before the section the question is about.
    question = "What does `git describe` print?"
    vector = embedder.embed([question])[0].tolist()
    hits = Retriever(book_store, hybrid=hybrid).search(question, vector, limit=5)
    assert hits[0].payload["section"] == "Naming builds with git describe"
    assert len(hits) == 5


def test_a_headed_sections_passages_come_in_reading_order(
    book_store: VectorStore, embedder: Embedder
) -> None:
    # Ranked by words alone, "What's in a commit?" comes between the section's two passages.
    question = "What does `commit-msg` check?"
    vector = embedder.embed([question])[0].tolist()
    hits = Retriever(book_store, hybrid=True).search(question, vector, limit=5)
    section = "Enforcing message conventions with commit-msg"
    headed = [h for h in hits if h.payload["section"] == section]
    assert len(headed) >= 2
    assert headed == hits[: len(headed)]
    assert [h.payload["position"] for h in headed] == sorted(h.payload["position"] for h in headed)
