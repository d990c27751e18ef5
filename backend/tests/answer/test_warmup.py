"""Warming the sentence cache from the real index."""

from __future__ import annotations

import asyncio

from bookchat.answer.sentence_vectors import SentenceVectors
from bookchat.answer.sentences import split_sentences
from bookchat.answer.warmup import warm_sentences
from bookchat.retrieval.embedder import Embedder
from bookchat.vectorstore import VectorStore


def test_warm_up_embeds_the_sentences_of_every_stored_passage(
    book_store: VectorStore, embedder: Embedder
) -> None:
    vectors = SentenceVectors(embedder)
    embedded = asyncio.run(warm_sentences(book_store, vectors))
    assert embedded == len(vectors) > 100
    payloads = book_store.payloads(sorted(book_store.fingerprints())[:10])
    for payload in payloads.values():
        assert vectors.missing(split_sentences(payload["text"])) == []


def test_warm_up_stops_at_the_cache_capacity(book_store: VectorStore, embedder: Embedder) -> None:
    vectors = SentenceVectors(embedder, capacity=20)
    asyncio.run(warm_sentences(book_store, vectors))
    assert len(vectors) <= 20
