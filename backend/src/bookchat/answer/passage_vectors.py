"""Vectors of the candidate sentences of retrieved passages: stored at ingest, else embedded.

Every chunk stores one vector per sentence (see sentence_layout), so a book or chapter answer
reads its candidates' vectors in one store call instead of running the model over book text.
A passage whose stored rows do not fit today's sentence split (an index built before they were
stored, or with another splitter) has its sentences embedded through the LRU, as before.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence

import numpy as np
from numpy.typing import NDArray

from bookchat.answer.sentence_layout import chunk_sentences, usable_rows
from bookchat.answer.sentence_vectors import SentenceVectors
from bookchat.answer.support import Candidate
from bookchat.vectorstore import Hit, VectorStore


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
        sentences = [chunk_sentences(str(p.payload.get("text", ""))) for p in passages]
        rows = [
            usable_rows(stored.get(p.chunk_id), split)
            for p, split in zip(passages, sentences, strict=True)
        ]
        picked: list[NDArray[np.float32] | None] = []
        for c in candidates:
            found, split = rows[c.source], sentences[c.source]
            # Only the row stored for this very sentence will do.
            fits = found is not None and c.position < len(split) and split[c.position] == c.text
            picked.append(found[c.position] if fits and found is not None else None)
        missing = [c.text for c, row in zip(candidates, picked, strict=True) if row is None]
        fresh: Iterator[NDArray[np.float32]] = iter(())
        if missing:
            _, embedded = await self._fallback.embed(missing)
            fresh = iter(embedded)
        matrix = [row if row is not None else next(fresh) for row in picked]
        return np.stack(matrix).astype(np.float32)
