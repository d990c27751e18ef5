"""The embedded store on Qdrant Edge: an in-process Rust shard in a folder owned by one process."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import qdrant_edge as qe

from bookchat.vectorstore.base import (
    FINGERPRINT_FIELDS,
    INDEXED_FIELDS,
    PREFETCH_SLACK,
    SENTENCE_LAYOUT_FIELD,
    Hit,
    Point,
    SparseVector,
    StoredSentences,
    StoreUnavailable,
    Where,
    fingerprints_of,
    fused,
    point_id,
    ranking_depth,
    sentences_by_chunk,
    with_payloads,
)
from bookchat.vectorstore.edge_folder import FolderLock, fsync_dir, open_shard
from bookchat.vectorstore.edge_migration import (
    finish_interrupted_rebuild,
    has_vector,
    rebuild_shard,
    warn_if_old_layout,
    warn_without_sentences,
)
from bookchat.vectorstore.edge_schema import (
    DENSE,
    SENTENCES,
    SPARSE,
    edge_filter,
    edge_hits,
    edge_point,
    shard_config,
)

_SCROLL_PAGE = 1_000


class EdgeStore:
    """VectorStore on a Qdrant Edge shard: `<path>/<collection>/` plus a JSON catalog beside it."""

    def __init__(
        self,
        path: Path,
        collection: str,
        lock: FolderLock,
        shard: qe.EdgeShard,
        *,
        dim: int,
        sentences: bool,
    ) -> None:
        self._path = path
        self._shard_dir = path / collection
        self._catalog_path = path / f"{collection}.catalog.json"
        self._lock = lock
        self._shard: qe.EdgeShard | None = shard
        self._dim = dim
        self._sentences = sentences  # False: a shard from before sentence vectors were stored

    @classmethod
    def open(cls, path: Path, collection: str, dim: int) -> EdgeStore:
        """Open (or create) the store in `path`; StoreLocked if another process has it."""
        warn_if_old_layout(path)
        path.mkdir(parents=True, exist_ok=True)
        lock = FolderLock(path)
        shard_dir = path / collection
        try:
            finish_interrupted_rebuild(shard_dir)
            # An older shard is served as it is (answers embed its sentences on the fly) until
            # ingest calls upgrade_layout.
            sentences = has_vector(shard_dir, SENTENCES)
            shard = open_shard(shard_dir, dim, shard_config(dim, sentences=sentences))
            _ensure_indexes(shard)
        except BaseException:
            lock.release()
            raise
        if not sentences:
            warn_without_sentences(shard_dir)
        return cls(path, collection, lock, shard, dim=dim, sentences=sentences)

    @property
    def _edge(self) -> qe.EdgeShard:
        if self._shard is None:
            raise StoreUnavailable("The vector store has been closed.")
        return self._shard

    def upsert(self, points: Sequence[Point]) -> None:
        """Insert or replace points; durable once this returns (Edge's WAL survives a crash)."""
        if not points:
            return
        edge_points = [edge_point(p, sentences=self._sentences) for p in points]
        self._edge.update(qe.UpdateOperation.upsert_points(edge_points))
        self._optimize()

    def delete(self, chunk_ids: Sequence[str]) -> None:
        """Remove points by chunk id; unknown ids are ignored."""
        if not chunk_ids:
            return
        self._edge.update(qe.UpdateOperation.delete_points([point_id(c) for c in chunk_ids]))
        # Also lets the vacuum optimizer compact segments that are mostly deleted points.
        self._optimize()

    def _optimize(self) -> None:
        # Segments replaced by an optimization stay on disk until the next flush (at 50k points
        # that was 770 MB instead of 135 MB), so flush whenever the optimizer actually ran.
        if self._edge.optimize():
            self._edge.flush()

    def search(
        self, vector: Sequence[float], *, limit: int, where: Where | None = None
    ) -> list[Hit]:
        """Dense cosine search; payload filters use the keyword indexes."""
        request = qe.QueryRequest(
            limit=limit,
            query=qe.Query.Nearest([float(x) for x in vector], using=DENSE),
            filter=edge_filter(where),
            with_payload=True,
        )
        return edge_hits(self._edge.query(request))

    def hybrid_search(
        self,
        vector: Sequence[float],
        sparse: SparseVector,
        *,
        limit: int,
        where: Where | None = None,
    ) -> list[Hit]:
        """Dense + BM25 rankings with the same filter, fused (`base.fused`: the same order on
        every run)."""
        flt = edge_filter(where)
        depth = ranking_depth(limit)
        queries = [qe.Query.Nearest([float(x) for x in vector], using=DENSE)]
        if sparse.indices:
            query = qe.SparseVector(list(sparse.indices), [float(v) for v in sparse.values])
            queries.append(qe.Query.Nearest(query, using=SPARSE))
        rankings = [
            [
                Hit(str(p.id), float(p.score))
                for p in self._edge.query(
                    qe.QueryRequest(
                        limit=depth + PREFETCH_SLACK, query=q, filter=flt, with_payload=False
                    )
                )
            ]
            for q in queries
        ]
        top = fused(rankings, depth, limit)
        records = self._edge.retrieve(
            [h.chunk_id for h in top], with_payload=True, with_vector=False
        )
        payloads = {str(r.id): dict(r.payload or {}) for r in records}
        return with_payloads(top, payloads, limit)

    def count(self, where: Where | None = None) -> int:
        """Exact number of points (matching the filter)."""
        return int(self._edge.count(qe.CountRequest(exact=True, filter=edge_filter(where))))

    def _scroll(self, fields: list[str]) -> Iterator[dict[str, Any]]:
        offset: Any = None
        while True:
            records, offset = self._edge.scroll(
                qe.ScrollRequest(
                    offset=offset, limit=_SCROLL_PAGE, with_payload=fields, with_vector=False
                )
            )
            for record in records:
                yield dict(record.payload or {})
            if offset is None:
                return

    def fingerprints(self) -> dict[str, tuple[str, str]]:
        """chunk_id -> (content_hash, text_hash) of every stored point."""
        return fingerprints_of(self._scroll(FINGERPRINT_FIELDS))

    def _retrieve(self, chunk_ids: Sequence[str], *, vectors: bool) -> list[qe.Record]:
        if not chunk_ids:
            return []
        ids: list[qe.PointId] = [point_id(c) for c in chunk_ids]
        return self._edge.retrieve(
            ids, with_payload=True, with_vector=[DENSE] if vectors else False
        )

    def vectors(self, chunk_ids: Sequence[str]) -> dict[str, list[float]]:
        """Stored dense vectors (unit length: cosine stores normalise them) by chunk id."""
        out: dict[str, list[float]] = {}
        for record in self._retrieve(chunk_ids, vectors=True):
            vec = record.vector
            dense = vec.get(DENSE) if isinstance(vec, dict) else None
            if record.payload and isinstance(dense, list):
                out[str(record.payload["chunk_id"])] = [float(x) for x in dense]  # type: ignore[arg-type]
        return out

    def payloads(self, chunk_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Stored payloads by chunk id."""
        return {
            str(r.payload["chunk_id"]): dict(r.payload)
            for r in self._retrieve(chunk_ids, vectors=False)
            if r.payload
        }

    def sentence_vectors(self, chunk_ids: Sequence[str]) -> dict[str, StoredSentences]:
        """Stored sentence vectors (unit length, float16 precision) by chunk id, in one read."""
        if not chunk_ids:
            return {}
        records = self._edge.retrieve(
            [point_id(c) for c in chunk_ids],
            with_payload=["chunk_id", SENTENCE_LAYOUT_FIELD],
            with_vector=[SENTENCES] if self._sentences else False,
        )
        return sentences_by_chunk(records, SENTENCES, self._dim)

    def upgrade_layout(self) -> bool:
        """Rebuild a shard made before sentence vectors, copying its points; True if rebuilt."""
        if self._sentences:
            return False
        self._shard = rebuild_shard(self._edge, self._shard_dir, shard_config(self._dim))
        self._sentences = True
        _ensure_indexes(self._shard)
        return True

    def read_catalog(self) -> dict[str, Any] | None:
        """The catalog JSON beside the shard, if ingest has completed once."""
        try:
            text = self._catalog_path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        data = json.loads(text)
        return data if isinstance(data, dict) else None

    def write_catalog(self, catalog: Mapping[str, Any]) -> None:
        """Replace the catalog atomically (temp file, fsync, rename), so readers see old or new."""
        self._edge  # noqa: B018  # a closed store must not write either
        tmp = self._catalog_path.with_name(self._catalog_path.name + ".tmp")
        with tmp.open("w", encoding="utf-8") as fh:
            json.dump(dict(catalog), fh, ensure_ascii=False, sort_keys=True)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self._catalog_path)
        fsync_dir(self._path)

    def close(self) -> None:
        """Flush and close the shard, then release the folder lock; safe to call twice."""
        shard, self._shard = self._shard, None
        if shard is not None:
            try:
                shard.flush()
                shard.close()
            finally:
                self._lock.release()


def _ensure_indexes(shard: qe.EdgeShard) -> None:
    # Also run on load, so a store created before a field joined INDEXED_FIELDS gains its index.
    existing = shard.info().payload_schema
    for name in INDEXED_FIELDS:
        if name not in existing:
            shard.update(qe.UpdateOperation.create_field_index(name, qe.PayloadSchemaType.Keyword))
