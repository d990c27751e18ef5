"""BM25 sparse vectors for hybrid search, computed in-process by Qdrant Edge's encoder."""

from __future__ import annotations

from functools import lru_cache

import qdrant_edge

from bookchat.vectorstore.base import SparseVector


@lru_cache(maxsize=1)
def _bm25() -> qdrant_edge.Bm25:
    return qdrant_edge.Bm25()


def sparse_document(text: str) -> SparseVector:
    """BM25 term weights of a chunk (IDF is applied by the store at query time)."""
    vector = _bm25().embed_document(text)
    return SparseVector(indices=list(vector.indices), values=list(vector.values))


def sparse_query(text: str) -> SparseVector:
    """BM25 query terms of a question."""
    vector = _bm25().embed_query(text)
    return SparseVector(indices=list(vector.indices), values=list(vector.values))
