"""A VectorStore wrapper that lets one call in at a time.

The embedded engines are not safe to read while another thread writes, and the server answers
queries while the admin hand-off ingests in a worker thread; each call holds the lock only for
itself, so queries interleave with an ingest's batches instead of waiting for the whole run.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any

from bookchat.vectorstore import Hit, Point, SparseVector, VectorStore
from bookchat.vectorstore.base import StoredSentences, Where


class SerialStore:
    """Delegates every VectorStore method to `inner` under one lock."""

    def __init__(self, inner: VectorStore) -> None:
        self.inner = inner
        self._lock = threading.RLock()

    def upsert(self, points: Sequence[Point]) -> None:
        """See VectorStore.upsert."""
        with self._lock:
            self.inner.upsert(points)

    def delete(self, chunk_ids: Sequence[str]) -> None:
        """See VectorStore.delete."""
        with self._lock:
            self.inner.delete(chunk_ids)

    def search(
        self, vector: Sequence[float], *, limit: int, where: Where | None = None
    ) -> list[Hit]:
        """See VectorStore.search."""
        with self._lock:
            return self.inner.search(vector, limit=limit, where=where)

    def hybrid_search(
        self,
        vector: Sequence[float],
        sparse: SparseVector,
        *,
        limit: int,
        where: Where | None = None,
    ) -> list[Hit]:
        """See VectorStore.hybrid_search."""
        with self._lock:
            return self.inner.hybrid_search(vector, sparse, limit=limit, where=where)

    def count(self, where: Where | None = None) -> int:
        """See VectorStore.count."""
        with self._lock:
            return self.inner.count(where)

    def fingerprints(self) -> dict[str, tuple[str, str]]:
        """See VectorStore.fingerprints."""
        with self._lock:
            return self.inner.fingerprints()

    def vectors(self, chunk_ids: Sequence[str]) -> dict[str, list[float]]:
        """See VectorStore.vectors."""
        with self._lock:
            return self.inner.vectors(chunk_ids)

    def payloads(self, chunk_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """See VectorStore.payloads."""
        with self._lock:
            return self.inner.payloads(chunk_ids)

    def sentence_vectors(self, chunk_ids: Sequence[str]) -> dict[str, StoredSentences]:
        """See VectorStore.sentence_vectors."""
        with self._lock:
            return self.inner.sentence_vectors(chunk_ids)

    def upgrade_layout(self) -> bool:
        """See VectorStore.upgrade_layout (queries wait while an index is rebuilt)."""
        with self._lock:
            return self.inner.upgrade_layout()

    def read_catalog(self) -> dict[str, Any] | None:
        """See VectorStore.read_catalog."""
        with self._lock:
            return self.inner.read_catalog()

    def write_catalog(self, catalog: Mapping[str, Any]) -> None:
        """See VectorStore.write_catalog."""
        with self._lock:
            self.inner.write_catalog(catalog)

    def close(self) -> None:
        """See VectorStore.close."""
        with self._lock:
            self.inner.close()
