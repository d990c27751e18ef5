"""Sentence vectors at query time: cached, read from the store, warmed ahead of questions.

What is embedded at query time (selections, the check of generated answers, an index without
stored rows) goes through an LRU cache, which the warm-up fills from the rows ingest stored
(bookchat.markdown.unit_layout) before the first questions; an answer's candidate units take their
stored rows when those still stand for them, and are embedded otherwise.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from bookchat.embedding.embedder import Embedder
from bookchat.markdown.unit_layout import chunk_sentences
from bookchat.vectorstore import Hit, VectorStore
from bookchat.vectorstore.base import usable_rows


class _Text(Protocol):
    @property
    def plain(self) -> str:
        """The unit's text as embedded."""
        ...


class PlacedUnit(Protocol):
    """A unit and where it sits among the retrieved passages (an answer's candidate)."""

    @property
    def unit(self) -> _Text:
        """The unit."""
        ...

    @property
    def source(self) -> int:
        """Its passage's index among those retrieved."""
        ...

    @property
    def position(self) -> int:
        """Its order among its passage's units."""
        ...


class SentenceVectors:
    """Embeds a question and its candidate sentences in one model call, reusing cached rows."""

    def __init__(self, embedder: Embedder, capacity: int = 8192) -> None:
        self._embedder = embedder
        self._capacity = capacity
        self._cache: OrderedDict[str, NDArray[np.float32]] = OrderedDict()

    def _remember(self, text: str, vector: NDArray[np.float32]) -> None:
        self._cache[text] = vector
        self._cache.move_to_end(text)
        while len(self._cache) > self._capacity:
            self._cache.popitem(last=False)

    def missing(self, sentences: Sequence[str]) -> list[str]:
        """The distinct sentences not cached yet, in order."""
        return [s for s in dict.fromkeys(sentences) if s not in self._cache]

    def add(self, sentences: Sequence[str], rows: NDArray[np.float32]) -> int:
        """Cache vectors read from the store while there is room (no eviction); returns how many."""
        added = 0
        for text, row in zip(sentences, rows, strict=True):
            if len(self._cache) >= self._capacity:
                break
            if text not in self._cache:
                self._cache[text] = row
                added += 1
        return added

    @property
    def capacity(self) -> int:
        """How many sentence vectors the cache holds at most."""
        return self._capacity

    def __len__(self) -> int:
        return len(self._cache)

    async def embed(
        self, sentences: Sequence[str], *, question: str | None = None
    ) -> tuple[NDArray[np.float32] | None, NDArray[np.float32]]:
        """(question vector or None, one row per sentence); questions are never cached."""
        missing = self.missing(sentences)
        batch = ([question] if question is not None else []) + missing
        rows = await self._embedder.embed_async(batch) if batch else None
        question_vector = None
        if question is not None and rows is not None:
            question_vector = rows[0]
            rows = rows[1:]
        if rows is not None:
            for text, row in zip(missing, rows, strict=True):
                self._remember(text, row)
        vectors = [self._cache[s] for s in sentences]
        for s in sentences:
            self._cache.move_to_end(s)
        matrix = np.stack(vectors) if vectors else np.zeros((0, 0), dtype=np.float32)
        return question_vector, matrix

    async def similarities(
        self, question_vector: NDArray[np.float32], texts: Sequence[str]
    ) -> NDArray[np.float32]:
        """Cosine of the question with each text; "" scores 0."""
        distinct = [t for t in dict.fromkeys(texts) if t]
        if not distinct:
            return np.zeros(len(texts), dtype=np.float32)
        _, matrix = await self.embed(distinct)
        sims = dict(zip(distinct, (matrix @ question_vector).tolist(), strict=True))
        return np.array([sims.get(t, 0.0) for t in texts], dtype=np.float32)


class PassageVectors:
    """Builds the candidate matrix of an answer from stored rows, embedding only what is not."""

    def __init__(self, store: VectorStore, fallback: SentenceVectors) -> None:
        self._store = store
        self._fallback = fallback

    async def matrix(
        self,
        passages: Sequence[Hit],
        candidates: Sequence[PlacedUnit],
        sentences: Sequence[Sequence[str]] | None = None,
    ) -> NDArray[np.float32]:
        """One row per candidate (its `source` indexes `passages`, `position` their sentences:
        `sentences`, when the caller has read them already)."""
        if not candidates:
            return np.zeros((0, 0), dtype=np.float32)
        stored = await asyncio.to_thread(
            self._store.sentence_vectors, [p.chunk_id for p in passages]
        )
        if sentences is None:
            sentences = [chunk_sentences(p.payload) for p in passages]
        rows = [
            usable_rows(stored.get(p.chunk_id), split)
            for p, split in zip(passages, sentences, strict=True)
        ]
        picked: list[NDArray[np.float32] | None] = []
        for c in candidates:
            found, split = rows[c.source], sentences[c.source]
            # Only the row stored for this very sentence will do.
            fits = (
                found is not None and c.position < len(split) and split[c.position] == c.unit.plain
            )
            picked.append(found[c.position] if fits and found is not None else None)
        missing = [c.unit.plain for c, row in zip(candidates, picked, strict=True) if row is None]
        fresh: Iterator[NDArray[np.float32]] = iter(())
        if missing:
            _, embedded = await self._fallback.embed(missing)
            fresh = iter(embedded)
        matrix = [row if row is not None else next(fresh) for row in picked]
        return np.stack(matrix).astype(np.float32)


log = logging.getLogger(__name__)

_PAYLOAD_PAGE = 64
# Small model calls: a question arriving meanwhile waits for one batch, not for the whole book.
_EMBED_BATCH = 8


async def warm_sentences(store: VectorStore, vectors: SentenceVectors) -> int:
    """Cache the index's sentence vectors, read or embedded, until full; returns how many."""
    chunk_ids = sorted(await asyncio.to_thread(store.fingerprints))
    read = embedded = 0
    for start in range(0, len(chunk_ids), _PAYLOAD_PAGE):
        page = chunk_ids[start : start + _PAYLOAD_PAGE]
        payloads = await asyncio.to_thread(store.payloads, page)
        stored = await asyncio.to_thread(store.sentence_vectors, page)
        todo: list[str] = []
        for chunk_id in page:
            sentences = chunk_sentences(payloads.get(chunk_id, {}))
            rows = usable_rows(stored.get(chunk_id), sentences)
            if rows is None:
                todo.extend(sentences)
            else:
                read += vectors.add(sentences, rows)
        todo = vectors.missing(todo)
        for offset in range(0, len(todo), _EMBED_BATCH):
            if len(vectors) + _EMBED_BATCH > vectors.capacity:
                return read + embedded
            await vectors.embed(todo[offset : offset + _EMBED_BATCH])
            embedded += len(todo[offset : offset + _EMBED_BATCH])
        if len(vectors) >= vectors.capacity:
            break
    log.info("sentence cache warmed: %d sentence vectors read, %d embedded", read, embedded)
    return read + embedded
