"""Candidate sentences read their vectors from the store; only rows that do not fit are embedded."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bookchat.answer.candidates import passage_candidates
from bookchat.answer.passage_vectors import PassageVectors
from bookchat.answer.sentence_vectors import SentenceVectors
from bookchat.answer.support import Candidate
from bookchat.retrieval.embedder import Embedder
from bookchat.retrieval.search import Retriever
from bookchat.vectorstore import Hit, VectorStore

QUESTION = "How do I resolve a merge conflict?"


def _hits(store: VectorStore, embedder: Embedder) -> list[Hit]:
    vector = embedder.embed([QUESTION])[0]
    return Retriever(store, hybrid=True).search(QUESTION, vector.tolist(), limit=4)


def _candidates(hits: Sequence[Hit]) -> list[Candidate]:
    return passage_candidates(
        [str(h.payload["text"]) for h in hits], [str(h.payload["section"]) for h in hits]
    )


def _assert_same_vectors(matrix: np.ndarray, embedder: Embedder, texts: list[str]) -> None:
    fresh = embedder.embed(texts)
    assert matrix.shape == fresh.shape
    assert float((matrix * fresh).sum(axis=1).min()) >= 0.999  # float16 storage at most


async def test_an_ingested_book_answers_without_embedding_any_sentence(
    book_store: VectorStore, embedder: Embedder
) -> None:
    hits = _hits(book_store, embedder)
    candidates = _candidates(hits)
    assert len(candidates) > 10
    cache = SentenceVectors(embedder)
    matrix = await PassageVectors(book_store, cache).matrix(hits, candidates)
    assert len(cache) == 0  # every row came from the store: no model call for book text
    _assert_same_vectors(matrix, embedder, [c.text for c in candidates])


async def test_a_passage_whose_rows_no_longer_fit_its_sentences_is_embedded_on_the_fly(
    book_store: VectorStore, embedder: Embedder
) -> None:
    hits = _hits(book_store, embedder)
    first = hits[0]
    # The chunk as a changed splitter (or text) would see it: one sentence more than its rows.
    text = "An extra opening sentence written for this test.\n\n" + str(first.payload["text"])
    passages = [Hit(first.chunk_id, first.score, {**first.payload, "text": text}), *hits[1:]]
    candidates = _candidates(passages)
    cache = SentenceVectors(embedder)
    matrix = await PassageVectors(book_store, cache).matrix(passages, candidates)
    own = [c.text for c in candidates if c.source == 0]
    assert len(cache) == len(own) and cache.missing(own) == []  # only that passage was embedded
    _assert_same_vectors(matrix, embedder, [c.text for c in candidates])


async def test_no_candidates_read_nothing(book_store: VectorStore, embedder: Embedder) -> None:
    matrix = await PassageVectors(book_store, SentenceVectors(embedder)).matrix([], [])
    assert matrix.shape == (0, 0)
