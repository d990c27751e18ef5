"""How bookchat's points look inside a Qdrant Edge shard: vectors, payload filters, hits."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import qdrant_edge as qe

from bookchat.vectorstore.base import Hit, Point, Where, point_id

DENSE = "dense"
SPARSE = "bm25"
SENTENCES = "sentences"

# When HNSW gets built. Edge has no background optimizer, so we call optimize() after every write;
# it only does work once the appendable segment holds more than this many KB of dense vectors
# (10 MB ~ 6,500 MiniLM vectors). Below that it returns in microseconds, so the few-chunk upserts
# of an incremental re-ingest stay cheap and their points are searched exactly (brute force over
# a few thousand vectors takes ~1 ms). A bulk load pays the HNSW build in ~6,500-point steps as it
# goes: measured at 50k points on 2 cores, 63 s in all against 52 s for one build at the end, and
# in exchange search is fast right after the last batch, with no "finish" call ingest could miss.
# Either way it is small next to embedding the same chunks with MiniLM.
_INDEXING_THRESHOLD_KB = 10_000


def shard_config(dim: int, *, sentences: bool = True) -> qe.EdgeConfig:
    """The shard's vectors: dense, BM25 and (unless an older shard) the sentence rows."""
    vectors = {DENSE: qe.EdgeVectorParams(size=dim, distance=qe.Distance.Cosine)}
    if sentences:
        # Only ever read back by point id, never searched: no HNSW graph (m=0), half-size floats
        # (cosine to float32 > 0.9999), left on disk until read.
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
