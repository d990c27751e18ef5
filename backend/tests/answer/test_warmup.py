"""Warming the sentence cache: stored sentence vectors are copied in, missing ones embedded."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from bookchat.answer.sentence_vectors import SentenceVectors
from bookchat.answer.sentences import split_sentences
from bookchat.answer.warmup import warm_sentences
from bookchat.retrieval.embedder import DIMENSIONS, Embedder
from bookchat.vectorstore import Point, VectorStore
from bookchat.vectorstore.edge_store import EdgeStore
from tests.vectorstore.legacy import write_legacy_edge


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
        sentences = split_sentences(payloads[chunk_id]["text"])
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
        assert vectors.missing(split_sentences(payload["text"])) == []


@pytest.mark.parametrize("index", ["book_store", "old_index"])
def test_warm_up_stops_at_the_cache_capacity(
    index: str, embedder: Embedder, request: pytest.FixtureRequest
) -> None:
    vectors = SentenceVectors(embedder, capacity=20)
    asyncio.run(warm_sentences(request.getfixturevalue(index), vectors))
    assert 0 < len(vectors) <= 20
