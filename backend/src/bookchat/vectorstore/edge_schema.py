"""How bookchat's points look inside a Qdrant Edge shard: vectors, payload filters, hits."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import qdrant_edge as qe

from bookchat.vectorstore.base import DENSE as DENSE
from bookchat.vectorstore.base import SENTENCES as SENTENCES
from bookchat.vectorstore.base import SPARSE as SPARSE
from bookchat.vectorstore.base import Hit, Point, Where, point_id

# When HNSW gets built. Edge has no background optimizer, so we call optimize() after every write;
# it only does work once the appendable segment holds more than this many KB of dense vectors
# (10 MB ~ 6,500 MiniLM vectors). Below that it returns at once, so the few-chunk upserts of an
# incremental re-ingest stay cheap and their points are searched exactly (brute force). A bulk
# load pays the HNSW build in steps as it goes, a little more in all than one build at the end,
# and in exchange search is fast right after the last batch, with no "finish" call ingest could
# miss (specs/001-bookchat/decisions/0007-qdrant-edge-embedded-engine.md).
_INDEXING_THRESHOLD_KB = 10_000


def shard_config(dim: int, *, sentences: bool = True) -> qe.EdgeConfig:
    """The shard's vectors: dense, BM25 and (unless an older shard) the sentence rows."""
    vectors = {DENSE: qe.EdgeVectorParams(size=dim, distance=qe.Distance.Cosine)}
    if sentences:
        # Only ever read back by point id, never searched: no HNSW graph (m=0), half-size floats
        # (close enough to float32 to rank the same), left on disk until read.
        vectors[SENTENCES] = qe.EdgeVectorParams(
            size=dim,
            distance=qe.Distance.Cosine,
            multivector_config=qe.MultiVectorConfig(qe.MultiVectorComparator.MaxSim),
            datatype=qe.VectorStorageDatatype.Float16,
            hnsw_config=qe.HnswIndexConfig(m=0, ef_construct=100, full_scan_threshold=10_000),
            memory=qe.Memory.Cold,
        )
    return qe.EdgeConfig(
        vectors=vectors,
        sparse_vectors={SPARSE: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
        optimizers=qe.EdgeOptimizersConfig(indexing_threshold=_INDEXING_THRESHOLD_KB),
    )


def edge_filter(where: Where | None) -> qe.Filter | None:
    """Payload equality conditions as an Edge filter (None for no filter)."""
    if not where:
        return None
    return qe.Filter(
        must=[qe.FieldCondition(key=k, match=qe.MatchValue(v)) for k, v in where.items()]
    )


def edge_hits(points: Sequence[qe.ScoredPoint]) -> list[Hit]:
    """Edge's scored points as bookchat hits, keyed by the readable chunk id."""
    hits = []
    for p in points:
        payload = dict(p.payload or {})
        hits.append(
            Hit(chunk_id=str(payload.get("chunk_id", p.id)), score=float(p.score), payload=payload)
        )
    return hits


def edge_point(p: Point, *, sentences: bool) -> qe.Point:
    """A bookchat point as an Edge point (sentence rows only when the shard has them)."""
    vector: dict[str, Any] = {DENSE: [float(x) for x in p.vector]}
    if p.sparse is not None and p.sparse.indices:
        vector[SPARSE] = qe.SparseVector(
            list(p.sparse.indices), [float(v) for v in p.sparse.values]
        )
    # Edge refuses an empty multivector: a chunk without sentences simply has none.
    if sentences and p.sentences is not None and len(p.sentences):
        vector[SENTENCES] = p.sentences.tolist()
    return qe.Point(point_id(p.chunk_id), vector, {**p.payload, "chunk_id": p.chunk_id})
