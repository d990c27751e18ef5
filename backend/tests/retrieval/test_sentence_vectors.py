"""Sentence vectors at query time: an answer's candidates read their stored rows, what no longer
fits is embedded, and the warm-up fills the cache from the store."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from bookchat.answer.features import Candidate
from bookchat.answer.judge import hit_candidates
from bookchat.embedding.embedder import DIMENSIONS, Embedder
from bookchat.markdown.unit_layout import chunk_sentences
from bookchat.retrieval.search import Retriever
from bookchat.retrieval.sentence_vectors import PassageVectors, SentenceVectors, warm_sentences
from bookchat.vectorstore import Hit, Point, VectorStore
from bookchat.vectorstore.edge_store import EdgeStore
from tests.vectorstore.legacy import write_legacy_edge

QUESTION = "How do I resolve a merge conflict?"


def _hits(store: VectorStore, embedder: Embedder) -> list[Hit]:
    vector = embedder.embed([QUESTION])[0]
    return Retriever(store, hybrid=True).search(QUESTION, vector.tolist(), limit=4)


def _candidates(hits: Sequence[Hit]) -> list[Candidate]:
    return hit_candidates(hits)


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
    _assert_same_vectors(matrix, embedder, [c.unit.plain for c in candidates])


async def test_a_passage_whose_rows_no_longer_fit_its_sentences_is_embedded_on_the_fly(
    book_store: VectorStore, embedder: Embedder
) -> None:
    hits = _hits(book_store, embedder)
    first = hits[0]
    # The chunk as a changed parser (or text) would see it: one unit more than its rows.
    extra = ["An extra opening sentence written for this test.", "prose", "", 0]
    units = [extra, *first.payload["units"]]
    passages = [Hit(first.chunk_id, first.score, {**first.payload, "units": units}), *hits[1:]]
    candidates = _candidates(passages)
    cache = SentenceVectors(embedder)
    matrix = await PassageVectors(book_store, cache).matrix(passages, candidates)
    own = [c.unit.plain for c in candidates if c.source == 0]
    assert len(cache) == len(own) and cache.missing(own) == []  # only that passage was embedded
    _assert_same_vectors(matrix, embedder, [c.unit.plain for c in candidates])


async def test_no_candidates_read_nothing(book_store: VectorStore, embedder: Embedder) -> None:
    matrix = await PassageVectors(book_store, SentenceVectors(embedder)).matrix([], [])
    assert matrix.shape == (0, 0)


@pytest.fixture
def old_index(book_store: VectorStore, tmp_path: Path) -> Iterator[VectorStore]:
    """The sample book as an index built before sentence vectors were stored, open."""
    ids = sorted(book_store.fingerprints())
    vectors, payloads = book_store.vectors(ids), book_store.payloads(ids)
    write_legacy_edge(
        tmp_path / "edge" / "book",
        DIMENSIONS,
        [Point(cid, vectors[cid], payloads[cid]) for cid in ids],
    )
    store = EdgeStore.open(tmp_path / "edge", "book", DIMENSIONS)
    yield store
    store.close()


async def test_warm_up_copies_stored_sentence_vectors_without_embedding_them(
    book_store: VectorStore, embedder: Embedder
) -> None:
    vectors = SentenceVectors(embedder)
    assert await warm_sentences(book_store, vectors) == len(vectors) > 100
    ids = sorted(book_store.fingerprints())[:10]
    payloads, stored = book_store.payloads(ids), book_store.sentence_vectors(ids)
    for chunk_id in ids:
        sentences = chunk_sentences(payloads[chunk_id])
        assert vectors.missing(sentences) == []
        _, cached = await vectors.embed(sentences)
        # The stored float16 rows themselves, not the model's float32 output: nothing was embedded.
        assert np.array_equal(cached, stored[chunk_id].vectors) or not sentences


def test_warm_up_embeds_the_sentences_of_every_passage_of_an_older_index(
    old_index: VectorStore, embedder: Embedder
) -> None:
    vectors = SentenceVectors(embedder)
    embedded = asyncio.run(warm_sentences(old_index, vectors))
    assert embedded == len(vectors) > 100
    payloads = old_index.payloads(sorted(old_index.fingerprints())[:10])
    for payload in payloads.values():
        assert vectors.missing(chunk_sentences(payload)) == []


@pytest.mark.parametrize("index", ["book_store", "old_index"])
def test_warm_up_stops_at_the_cache_capacity(
    index: str, embedder: Embedder, request: pytest.FixtureRequest
) -> None:
    vectors = SentenceVectors(embedder, capacity=20)
    asyncio.run(warm_sentences(request.getfixturevalue(index), vectors))
    assert 0 < len(vectors) <= 20
