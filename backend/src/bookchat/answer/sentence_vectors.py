"""Sentence embeddings with an LRU cache: book sentences recur from question to question."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from bookchat.retrieval.embedder import Embedder


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
