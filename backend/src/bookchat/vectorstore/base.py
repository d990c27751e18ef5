"""What every vector store offers bookchat, whichever engine holds the points."""

from __future__ import annotations

import uuid
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from bookchat.markdown.unit_layout import SENTENCE_LAYOUT

# Payload fields every store indexes for filtering.
INDEXED_FIELDS = ("chapter", "doc_id", "path", "version", "locale")
# The named vectors every engine stores: the chunk's MiniLM vector and its BM25 terms.
DENSE = "dense"
SPARSE = "bm25"
# One row per answer unit of the chunk (see bookchat.markdown.unit_layout).
SENTENCES = "sentences"

# Point ids must be UUIDs (or integers) in Qdrant; chunk ids are readable strings, so the point
# id is derived from the chunk id and the readable id travels in the payload.
_POINT_NAMESPACE = uuid.UUID("6f1c2a5e-3b8d-4c1e-9a2f-0b6d7e8f9a10")


def point_id(chunk_id: str) -> str:
    """The Qdrant point id of a chunk: a UUID derived from its chunk id."""
    return str(uuid.uuid5(_POINT_NAMESPACE, chunk_id))


# Payload fields incremental sync compares (see fingerprints()).
FINGERPRINT_FIELDS = ["chunk_id", "content_hash", "text_hash"]

# Payload field saying which sentence split a point's `sentences` rows follow (an int written by
# ingest; see bookchat.markdown.unit_layout). Points written before it existed have none.
SENTENCE_LAYOUT_FIELD = "sentence_layout"


def fingerprints_of(payloads: Iterable[Mapping[str, Any]]) -> dict[str, tuple[str, str]]:
    """chunk_id -> (content_hash, text_hash) from stored payloads (points without an id skipped)."""
    return {
        str(p["chunk_id"]): (str(p.get("content_hash", "")), str(p.get("text_hash", "")))
        for p in payloads
        if "chunk_id" in p
    }


class StoreUnavailable(RuntimeError):
    """The vector store cannot be reached or opened."""


class StoreLocked(StoreUnavailable):
    """Another process holds the embedded store."""


@dataclass(frozen=True, slots=True)
class SparseVector:
    """A sparse (BM25) vector: term indices and weights."""

    indices: list[int]
    values: list[float]


@dataclass(frozen=True, slots=True)
class Point:
    """One chunk to store: dense vector, optional sparse vector, payload, sentence vectors."""

    chunk_id: str
    vector: Sequence[float]
    payload: Mapping[str, Any]
    sparse: SparseVector | None = None
    # One row per sentence of the chunk; None or no rows stores none.
    sentences: NDArray[np.float32] | None = None


@dataclass(frozen=True, slots=True)
class StoredSentences:
    """A chunk's stored sentence vectors and the layout marker of the payload they came with."""

    layout: int | None
    vectors: NDArray[np.float32]  # (sentences, dim); no rows when none are stored


def stored_sentences(payload: Mapping[str, Any] | None, rows: Any, dim: int) -> StoredSentences:
    """StoredSentences from a retrieved point's payload and its `sentences` vector (or None)."""
    layout = (payload or {}).get(SENTENCE_LAYOUT_FIELD)
    empty = rows is None or len(rows) == 0
    matrix = np.zeros((0, dim), dtype=np.float32) if empty else np.asarray(rows, dtype=np.float32)
    return StoredSentences(layout if isinstance(layout, int) else None, matrix)


def usable_rows(
    stored: StoredSentences | None, sentences: Sequence[str]
) -> NDArray[np.float32] | None:
    """The stored rows when they stand for exactly `sentences` (today's units), else None."""
    if stored is None or stored.layout != SENTENCE_LAYOUT:
        return None
    if len(stored.vectors) != len(sentences):
        return None
    return stored.vectors


def sentences_by_chunk(records: Iterable[Any], name: str, dim: int) -> dict[str, StoredSentences]:
    """chunk_id -> StoredSentences of retrieved records (Edge's and qdrant-client's alike: each
    has `.payload` and `.vector`, the named vectors as a dict)."""
    out: dict[str, StoredSentences] = {}
    for record in records:
        vectors = record.vector
        rows = vectors.get(name) if isinstance(vectors, dict) else None
        if record.payload:
            out[str(record.payload["chunk_id"])] = stored_sentences(record.payload, rows, dim)
    return out


@dataclass(frozen=True, slots=True)
class Hit:
    """One search result."""

    chunk_id: str
    score: float
    payload: dict[str, Any] = field(default_factory=dict)


Where = Mapping[str, str]

# Hybrid search fuses a dense and a BM25 ranking with reciprocal rank fusion (Qdrant's formula
# and constant: the sum of 1 / (RRF_K + rank), rank from 0). Engines return equal scores in no
# fixed order, inside each ranking (passages with the same BM25 score) as after fusion (one
# ranked (1, 3), another (3, 1)): the same question could quote another passage after a fresh
# ingest, and two trainings fitted different models. So the fusion is ours: each ranking is
# fetched PREFETCH_SLACK deeper than it is cut and ordered by score then point id, and the fused
# hits by score then chunk id (`settled`): the same order on every run and in every store. The
# rankings carry no payload (reading payloads twice costs throughput); only the fused hits kept
# are read.
RRF_K = 2
PREFETCH_SLACK = 8


def settled(hits: Sequence[Hit], limit: int) -> list[Hit]:
    """Hits by score, ties broken by chunk id, cut to `limit`: the same order on every run."""
    return sorted(hits, key=lambda h: (-h.score, h.chunk_id))[:limit]


def ranking_depth(limit: int) -> int:
    """How deep each ranking of a hybrid search is read for `limit` fused hits."""
    return max(limit * 4, 20)


def fused(rankings: Sequence[Sequence[Hit]], depth: int, limit: int) -> list[Hit]:
    """Reciprocal rank fusion of `rankings` (hits keyed by point id, each ranking settled and
    cut to `depth` first): the best `limit`, and any tied with the last of them."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, hit in enumerate(settled(ranking, depth)):
            scores[hit.chunk_id] = scores.get(hit.chunk_id, 0.0) + 1.0 / (RRF_K + rank)
    ranked = settled([Hit(point, score) for point, score in scores.items()], len(scores))
    if len(ranked) <= limit or limit <= 0:
        return ranked[: max(limit, 0)]
    cut = ranked[limit - 1].score
    return [h for h in ranked if h.score >= cut]


def with_payloads(
    top: Sequence[Hit], payloads: Mapping[str, Mapping[str, Any]], limit: int
) -> list[Hit]:
    """Fused hits (keyed by point id) as chunk hits carrying their payloads (`payloads`, by
    point id), settled and cut to `limit`."""
    return settled(
        [
            Hit(str(payloads[h.chunk_id]["chunk_id"]), h.score, dict(payloads[h.chunk_id]))
            for h in top
            if h.chunk_id in payloads
        ],
        limit,
    )


class VectorStore(Protocol):
    """The operations bookchat needs; embedded and server stores pass the same contract tests."""

    def upsert(self, points: Sequence[Point]) -> None:
        """Insert or replace points (idempotent: same chunk id, same point)."""

    def delete(self, chunk_ids: Sequence[str]) -> None:
        """Remove points by chunk id; unknown ids are ignored."""

    def search(
        self, vector: Sequence[float], *, limit: int, where: Where | None = None
    ) -> list[Hit]:
        """Dense cosine search, optionally restricted by payload equality filters."""

    def hybrid_search(
        self,
        vector: Sequence[float],
        sparse: SparseVector,
        *,
        limit: int,
        where: Where | None = None,
    ) -> list[Hit]:
        """Dense + sparse search fused with reciprocal rank fusion."""

    def count(self, where: Where | None = None) -> int:
        """Number of points (matching the filter)."""

    def fingerprints(self) -> dict[str, tuple[str, str]]:
        """chunk_id -> (content_hash, text_hash) of every stored point, for incremental sync."""

    def vectors(self, chunk_ids: Sequence[str]) -> dict[str, list[float]]:
        """Stored dense vectors of the given chunks (missing ones are left out)."""

    def payloads(self, chunk_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Stored payloads of the given chunks (missing ones are left out)."""

    def sentence_vectors(self, chunk_ids: Sequence[str]) -> dict[str, StoredSentences]:
        """Stored sentence vectors of the given chunks, in one read (missing ones are left out)."""

    def upgrade_layout(self) -> bool:
        """Make room for sentence vectors in an index made before them; True if it had to."""

    def read_catalog(self) -> dict[str, Any] | None:
        """The catalog written by the last complete ingest (chapters, corpus version), if any."""

    def write_catalog(self, catalog: Mapping[str, Any]) -> None:
        """Replace the catalog; written last by ingest so a partial run keeps the old one."""

    def close(self) -> None:
        """Release files and connections; the store must not be used afterwards."""


class EngineStore(ABC):
    """The VectorStore methods both engines share, written once over the reads each supplies.

    Records (Edge's and qdrant-client's alike) have `.id`, `.payload` and `.vector`, the named
    vectors as a dict."""

    _dim: int
    _sentences: bool  # False: an index from before sentence vectors were stored

    @abstractmethod
    def _records(
        self, chunk_ids: Sequence[str], payload: bool | list[str], vectors: list[str]
    ) -> Sequence[Any]:
        """The records of these chunks (at least one), with these payload fields and vectors."""

    @abstractmethod
    def _scroll(self, fields: list[str]) -> Iterator[Mapping[str, Any]]:
        """These payload fields of every stored point."""

    @abstractmethod
    def _ranking(
        self, query: Sequence[float] | SparseVector, depth: int, where: Where | None
    ) -> list[Hit]:
        """The `depth` best points for a dense or a BM25 query, keyed by point id, no payload."""

    @abstractmethod
    def _payloads_by_point(self, point_ids: list[str]) -> dict[str, dict[str, Any]]:
        """Point id -> payload of these points."""

    def hybrid_search(
        self,
        vector: Sequence[float],
        sparse: SparseVector,
        *,
        limit: int,
        where: Where | None = None,
    ) -> list[Hit]:
        """Dense + BM25 rankings with the same filter, fused (`fused`: the same order on every
        run, in every store)."""
        depth = ranking_depth(limit)
        queries: list[Sequence[float] | SparseVector] = [vector]
        if sparse.indices:
            queries.append(sparse)
        rankings = [self._ranking(q, depth + PREFETCH_SLACK, where) for q in queries]
        top = fused(rankings, depth, limit)
        return with_payloads(top, self._payloads_by_point([h.chunk_id for h in top]), limit)

    def _retrieve(
        self, chunk_ids: Sequence[str], payload: bool | list[str], vectors: list[str]
    ) -> Sequence[Any]:
        return self._records(chunk_ids, payload, vectors) if chunk_ids else []

    def fingerprints(self) -> dict[str, tuple[str, str]]:
        """chunk_id -> (content_hash, text_hash) of every stored point."""
        return fingerprints_of(self._scroll(FINGERPRINT_FIELDS))

    def vectors(self, chunk_ids: Sequence[str]) -> dict[str, list[float]]:
        """Stored dense vectors by chunk id (unit length: cosine stores normalise them)."""
        out: dict[str, list[float]] = {}
        # Only the id from the payload: the text and units are large and retrieval calls this for
        # every fused hit.
        for record in self._retrieve(chunk_ids, ["chunk_id"], [DENSE]):
            named = record.vector
            dense = named.get(DENSE) if isinstance(named, dict) else named
            if record.payload and dense is not None:
                out[str(record.payload["chunk_id"])] = [float(x) for x in dense]
        return out

    def payloads(self, chunk_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Stored payloads by chunk id."""
        return {
            str(r.payload["chunk_id"]): dict(r.payload)
            for r in self._retrieve(chunk_ids, True, [])
            if r.payload
        }

    def sentence_vectors(self, chunk_ids: Sequence[str]) -> dict[str, StoredSentences]:
        """Stored sentence vectors (unit length) by chunk id, in one read."""
        sentences = [SENTENCES] if self._sentences else []
        records = self._retrieve(chunk_ids, ["chunk_id", SENTENCE_LAYOUT_FIELD], sentences)
        return sentences_by_chunk(records, SENTENCES, self._dim)
