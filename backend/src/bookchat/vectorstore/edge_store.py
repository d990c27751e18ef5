"""The embedded store on Qdrant Edge: an in-process Rust shard in a folder owned by one process."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import qdrant_edge as qe

from bookchat.vectorstore.base import (
    INDEXED_FIELDS,
    EngineStore,
    Hit,
    Point,
    SparseVector,
    StoreUnavailable,
    Where,
    point_id,
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


class EdgeStore(EngineStore):
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
        # Segments replaced by an optimization stay on disk until the next flush (several times
        # the live data on a large store), so flush whenever the optimizer actually ran.
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

    def _ranking(
        self, query: Sequence[float] | SparseVector, depth: int, where: Where | None
    ) -> list[Hit]:
        if isinstance(query, SparseVector):
            sparse = qe.SparseVector(list(query.indices), [float(v) for v in query.values])
            nearest = qe.Query.Nearest(sparse, using=SPARSE)
        else:
            nearest = qe.Query.Nearest([float(x) for x in query], using=DENSE)
        request = qe.QueryRequest(
            limit=depth, query=nearest, filter=edge_filter(where), with_payload=False
        )
        return [Hit(str(p.id), float(p.score)) for p in self._edge.query(request)]

    def _payloads_by_point(self, point_ids: list[str]) -> dict[str, dict[str, Any]]:
        ids: list[qe.PointId] = list(point_ids)
        records = self._edge.retrieve(ids, with_payload=True, with_vector=False)
        return {str(r.id): dict(r.payload or {}) for r in records}

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

    def _records(
        self, chunk_ids: Sequence[str], payload: bool | list[str], vectors: list[str]
    ) -> list[qe.Record]:
        ids: list[qe.PointId] = [point_id(c) for c in chunk_ids]
        return self._edge.retrieve(ids, with_payload=payload, with_vector=vectors or False)

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
