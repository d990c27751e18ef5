"""Retrieval over the store: the whole book or one chapter, dense or hybrid (dense + BM25)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from bookchat.retrieval.sparse import sparse_query
from bookchat.vectorstore import Hit, VectorStore
from bookchat.vectorstore.base import Where

# RRF gives equal fused scores to passages with mirrored ranks (2nd dense + 3rd BM25 and 3rd
# dense + 2nd BM25), and the store orders such ties arbitrarily from one process to the next.
# A few extra hits are fetched so ties at the cut are also broken by us, not by the store.
TIE_SLACK = 5


class Retriever:
    """Finds the passages closest to a question; every hit's score is its dense cosine."""

    def __init__(
        self, store: VectorStore, *, hybrid: bool, scope: Mapping[str, str] | None = None
    ) -> None:
        self._store = store
        self._hybrid = hybrid
        self._scope = dict(scope or {})

    def scoped(self, scope: Mapping[str, str] | None) -> Retriever:
        """This retriever restricted to the points matching `scope` (an edition's version and
        locale), in the store's filter, so every search and count stays inside it."""
        return Retriever(self._store, hybrid=self._hybrid, scope=scope)

    def search(
        self,
        question: str,
        vector: Sequence[float],
        *,
        limit: int,
        chapter: str | None = None,
    ) -> list[Hit]:
        """Best passages first (blocking); `chapter` filters in the store, not afterwards."""
        where: Where | None = {**self._scope, **({"chapter": chapter} if chapter else {})} or None
        if not self._hybrid:
            return self._store.search(vector, limit=limit, where=where)
        fused = self._store.hybrid_search(
            vector, sparse_query(question), limit=limit + TIE_SLACK, where=where
        )
        return self._with_cosine(fused, vector)[:limit]

    def _with_cosine(self, hits: list[Hit], vector: Sequence[float]) -> list[Hit]:
        # Fusion scores are rank-based and mean nothing against min_chunk_score; keep the fused
        # order (ties broken by cosine, then id) but report each passage's cosine so thresholds
        # work the same in both modes.
        stored = self._store.vectors([h.chunk_id for h in hits])
        query = np.asarray(vector, dtype=np.float32)
        ranked = []
        for hit in hits:
            row = stored.get(hit.chunk_id)
            score = float(np.asarray(row, dtype=np.float32) @ query) if row is not None else 0.0
            ranked.append((-round(hit.score, 9), -score, hit.chunk_id, hit))
        ranked.sort(key=lambda item: item[:3])
        return [Hit(chunk_id=h.chunk_id, score=-neg, payload=h.payload) for _, neg, _, h in ranked]
