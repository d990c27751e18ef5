"""Retrieval over the store: the whole book or one chapter, dense or hybrid (dense + BM25)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from bookchat.retrieval.named import code_terms, names_all
from bookchat.vectorstore import Hit, VectorStore
from bookchat.vectorstore.base import Where
from bookchat.vectorstore.sparse import sparse_query

# RRF gives equal fused scores to passages with mirrored ranks (2nd dense + 3rd BM25 and 3rd
# dense + 2nd BM25), and the store orders such ties arbitrarily from one process to the next.
# A few extra hits are fetched so ties at the cut are also broken by us, not by the store, and so
# a section whose heading names the question's code is found just past the cut (see search).
SLACK = 5

# How many passages of a section named by the question's code are brought to the front, from its
# opening on: a section says what its subject is early, and the rest of the ranking keeps room.
HEADED_PASSAGES = 3
PAGE_PASSAGES = 100  # more than any page holds


class Retriever:
    """Finds the passages closest to a question; every hit's score is its dense cosine."""

    def __init__(
        self, store: VectorStore, *, hybrid: bool = True, scope: Mapping[str, str] | None = None
    ) -> None:
        """`hybrid`: dense and BM25 rankings fused (RRF), which finds the answering section more
        often than either alone (decision 0009); False searches dense vectors only."""
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
        """Best passages first (blocking), sections whose heading names the question's code
        before the rest; `chapter` filters in the store, not afterwards."""
        where: Where | None = {**self._scope, **({"chapter": chapter} if chapter else {})} or None
        # A section whose heading names the code a question names is about that code, even when
        # other passages share more of its words: "What is the purpose of the `package.xml`
        # file?" ranks "2.4 Understanding package.xml" seventh, below analogies and launch files.
        terms = code_terms(question)
        if not self._hybrid:
            hits = self._store.search(vector, limit=limit + SLACK if terms else limit, where=where)
        else:
            fused = self._store.hybrid_search(
                vector, sparse_query(question), limit=limit + SLACK, where=where
            )
            hits = self._with_cosine(fused, vector)
        return self._headed_first(hits, terms, vector, where)[:limit]

    def _headed_first(
        self, hits: list[Hit], terms: list[str], vector: Sequence[float], where: Where | None
    ) -> list[Hit]:
        """`hits` led by the first section among them whose heading names every one of `terms`,
        from its opening passage on (fetched when it ranked lower); the rest keep their order."""
        headed = next((h for h in hits if names_all(terms, _heading(h))), None)
        if headed is None:
            return hits
        path, heading = str(headed.payload.get("path", "")), _heading(headed)
        # One filtered search over the page (an indexed field) finds all of the section's passages.
        on_page = {**(where or {}), "path": path}
        page = self._store.search(vector, limit=PAGE_PASSAGES, where=on_page)
        section = sorted(
            (h for h in page if _heading(h) == heading),
            key=lambda h: int(h.payload.get("position", 0) or 0),
        )[:HEADED_PASSAGES] or [headed]
        front = {h.chunk_id for h in section}
        return section + [h for h in hits if h.chunk_id not in front]

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


def _heading(hit: Hit) -> str:
    return str(hit.payload.get("section", ""))
