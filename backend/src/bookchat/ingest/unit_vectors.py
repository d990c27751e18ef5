"""Vectors of answer units: stored at ingest, cached at query time, warmed ahead of questions.

Ingest stores with every chunk one vector per answer unit of its payload (`payload_units`), in
that order, and marks the payload with SENTENCE_LAYOUT. Answers use the rows only while the
marker and the number of rows agree with the units the payload holds today; otherwise the units
are embedded on the fly, so a changed parser costs time, never a wrong vector. What is embedded at
query time (selections, the check of generated answers, an index without stored rows) goes
through an LRU cache, which the warm-up fills from stored rows before the first questions.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from bookchat.answer.features import Candidate
from bookchat.ingest.units import payload_units
from bookchat.retrieval.embedder import Embedder
from bookchat.vectorstore import Hit, VectorStore
from bookchat.vectorstore.base import StoredSentences

# Bump whenever the units of a chunk may change for the same text: the marker is part of every
# payload, so each point's content hash changes and the next ingest re-embeds the units (chunk
# vectors are reused). 3: role-tagged answer units (list items read with the lead-in that
# announces them) instead of plain sentences. 4: a bold numbered step ("**1. Missing X**:")
# keeps its number with its text instead of losing it and breaking its bold. 5: an end mark
# inside inline code (`fixup! Add invoice model`) no longer ends a sentence, and a sentence opening
# on a pronoun keeps the one it leans on (`Unit.before`). 6: a piece with a backtick joins an
# open code span even when it opens another (`fixup! X`; `squash! X`). 7: a closing quote or
# bracket stays with its sentence, and no sentence ends after an initial ("John B. Weller"), a
# title ("Dr.") or "e.g.". 8: a nested list item is read with the item above it when that item
# announces it ("3. **Install space**:"), and a list keeps its lead-in across blank lines.
SENTENCE_LAYOUT = 8


def chunk_sentences(payload: Mapping[str, Any]) -> list[str]:
    """The texts of a chunk's units that its stored rows stand for, in row order."""
    return [unit.plain for unit in payload_units(payload)]


def usable_rows(
    stored: StoredSentences | None, sentences: Sequence[str]
) -> NDArray[np.float32] | None:
    """The stored rows when they stand for exactly `sentences` (today's units), else None."""
    if stored is None or stored.layout != SENTENCE_LAYOUT:
        return None
    if len(stored.vectors) != len(sentences):
        return None
    return stored.vectors


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


class PassageVectors:
    """Builds the candidate matrix of an answer from stored rows, embedding only what is not."""

    def __init__(self, store: VectorStore, fallback: SentenceVectors) -> None:
        self._store = store
        self._fallback = fallback

    async def matrix(
        self, passages: Sequence[Hit], candidates: Sequence[Candidate]
    ) -> NDArray[np.float32]:
        """One row per candidate (its `source` indexes `passages`, `position` their sentences)."""
        if not candidates:
            return np.zeros((0, 0), dtype=np.float32)
        stored = await asyncio.to_thread(
            self._store.sentence_vectors, [p.chunk_id for p in passages]
        )
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
