"""Indexes laid out as bookchat wrote them before each chunk stored its sentence vectors.

Frozen copies of the old collection configs (dense + BM25 only), written with the engines' own
APIs, so the upgrade tests open exactly what an existing installation has on disk.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import qdrant_edge as qe
from qdrant_client import QdrantClient, models

from bookchat.vectorstore.base import SENTENCE_LAYOUT_FIELD, Point, point_id


def old_payload(p: Point) -> dict[str, Any]:
    """The point's payload as the old ingest wrote it: no layout marker (and so another hash)."""
    payload = {k: v for k, v in p.payload.items() if k != SENTENCE_LAYOUT_FIELD}
    if "content_hash" in payload:
        # The old ingest hashed payloads without the marker, so its hashes differ from today's.
        payload["content_hash"] = f"pre-layout-{payload['content_hash']}"
    return {**payload, "chunk_id": p.chunk_id}


def write_legacy_edge(shard_dir: Path, dim: int, points: Sequence[Point]) -> None:
    """An Edge shard made with the config of the first Edge store, holding `points`."""
    shard_dir.parent.mkdir(parents=True, exist_ok=True)
    config = qe.EdgeConfig(
        vectors={"dense": qe.EdgeVectorParams(size=dim, distance=qe.Distance.Cosine)},
        sparse_vectors={"bm25": qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
        optimizers=qe.EdgeOptimizersConfig(indexing_threshold=10_000),
    )
    shard = qe.EdgeShard.create(str(shard_dir), config)
    edge_points = []
    for p in points:
        vector: dict[str, Any] = {"dense": [float(x) for x in p.vector]}
        if p.sparse is not None and p.sparse.indices:
            vector["bm25"] = qe.SparseVector(list(p.sparse.indices), list(p.sparse.values))
        edge_points.append(qe.Point(point_id(p.chunk_id), vector, old_payload(p)))
    if edge_points:
        shard.update(qe.UpdateOperation.upsert_points(edge_points))
    shard.flush()
    shard.close()


def write_legacy_collection(
    client: QdrantClient, collection: str, dim: int, points: Sequence[Point]
) -> None:
    """A qdrant-client collection made with the old config, holding `points`."""
    client.create_collection(
        collection,
        vectors_config={"dense": models.VectorParams(size=dim, distance=models.Distance.COSINE)},
        sparse_vectors_config={"bm25": models.SparseVectorParams(modifier=models.Modifier.IDF)},
    )
    structs = []
    for p in points:
        vector: dict[str, Any] = {"dense": list(p.vector)}
        if p.sparse is not None and p.sparse.indices:
            vector["bm25"] = models.SparseVector(indices=p.sparse.indices, values=p.sparse.values)
        structs.append(
            models.PointStruct(id=point_id(p.chunk_id), vector=vector, payload=old_payload(p))
        )
    if structs:
        client.upsert(collection, points=structs, wait=True)
