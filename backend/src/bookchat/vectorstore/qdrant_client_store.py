"""The store on qdrant-client: a Qdrant server or Qdrant Cloud, or its local folder mode."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import httpx
from qdrant_client import QdrantClient, models
from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse

from bookchat.vectorstore.base import (
    DENSE,
    INDEXED_FIELDS,
    SENTENCES,
    SPARSE,
    EngineStore,
    Hit,
    Point,
    SparseVector,
    StoreLocked,
    StoreUnavailable,
    Where,
    point_id,
)
from bookchat.vectorstore.qdrant_client_layout import (
    add_sentences,
    has_sentences,
    sentences_params,
)

_SCROLL_PAGE = 1_000
_CATALOG_ID = 1
_T = TypeVar("_T")

_TRANSPORT_ERRORS = (ResponseHandlingException, UnexpectedResponse, httpx.HTTPError, OSError)


@contextmanager
def _reachable(what: str) -> Iterator[None]:
    """Turn the client's transport errors into StoreUnavailable (without the raw text)."""
    try:
        yield
    except _TRANSPORT_ERRORS as exc:
        raise StoreUnavailable(f"The vector store could not be reached ({what}).") from exc


def _filter(where: Where | None) -> models.Filter | None:
    if not where:
        return None
    return models.Filter(
        must=[
            models.FieldCondition(key=key, match=models.MatchValue(value=value))
            for key, value in where.items()
        ]
    )


def _hits(points: Sequence[models.ScoredPoint]) -> list[Hit]:
    return [
        Hit(
            chunk_id=str((p.payload or {}).get("chunk_id", p.id)),
            score=p.score,
            payload=p.payload or {},
        )
        for p in points
    ]


class QdrantClientStore(EngineStore):
    """VectorStore over qdrant-client; the same code serves a server URL and a local folder."""

    def __init__(
        self, client: QdrantClient, collection: str, dim: int, *, index_payload: bool = True
    ) -> None:
        self._client = client
        self._index_payload = index_payload
        self._collection = collection
        self._catalog = f"{collection}__catalog"
        self._dim = dim
        self._sentences = True  # False: a collection from before sentence vectors were stored
        self._ensure_collections()

    @classmethod
    def connect(cls, url: str, api_key: str | None, collection: str, dim: int) -> QdrantClientStore:
        """Open a store on a Qdrant server or Qdrant Cloud."""
        with _reachable("connect"):
            client = QdrantClient(url=url, api_key=api_key, timeout=10)
            return cls(client, collection, dim)

    @classmethod
    def open_local(cls, path: Path, collection: str, dim: int) -> QdrantClientStore:
        """Open qdrant-client's embedded folder store (one process at a time)."""
        path.mkdir(parents=True, exist_ok=True)
        try:
            client = QdrantClient(path=str(path))
        except RuntimeError as exc:
            if "already accessed" in str(exc):
                raise StoreLocked(f"The index at {path} is in use by another process.") from exc
            raise
        return cls(client, collection, dim, index_payload=False)

    def _index_fields(self) -> None:
        # Local folder mode ignores payload indexes (and warns); servers use them. A collection
        # made before a field joined INDEXED_FIELDS gains its index here.
        if not self._index_payload:
            return
        existing = self._client.get_collection(self._collection).payload_schema or {}
        for name in INDEXED_FIELDS:
            if name not in existing:
                self._client.create_payload_index(
                    self._collection, name, models.PayloadSchemaType.KEYWORD
                )

    def _ensure_collections(self) -> None:
        with _reachable("create collection"):
            if self._client.collection_exists(self._collection):
                # An older collection is served as it is until ingest calls upgrade_layout.
                self._sentences = has_sentences(self._client, self._collection)
                self._index_fields()
            else:
                self._client.create_collection(
                    self._collection,
                    vectors_config={
                        DENSE: models.VectorParams(size=self._dim, distance=models.Distance.COSINE),
                        SENTENCES: sentences_params(self._dim),
                    },
                    sparse_vectors_config={
                        SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF)
                    },
                )
                self._index_fields()
            if not self._client.collection_exists(self._catalog):
                self._client.create_collection(
                    self._catalog,
                    vectors_config=models.VectorParams(size=1, distance=models.Distance.DOT),
                )

    def _call(self, what: str, fn: Callable[[], _T]) -> _T:
        with _reachable(what):
            return fn()

    def upsert(self, points: Sequence[Point]) -> None:
        """Insert or replace points."""
        if not points:
            return
        structs = []
        for p in points:
            vector: dict[str, Any] = {DENSE: list(p.vector)}
            if p.sparse is not None and p.sparse.indices:
                vector[SPARSE] = models.SparseVector(
                    indices=p.sparse.indices, values=p.sparse.values
                )
            if self._sentences and p.sentences is not None and len(p.sentences):
                vector[SENTENCES] = p.sentences.tolist()
            structs.append(
                models.PointStruct(
                    id=point_id(p.chunk_id),
                    vector=vector,
                    payload={**p.payload, "chunk_id": p.chunk_id},
                )
            )
        self._call(
            "upsert", lambda: self._client.upsert(self._collection, points=structs, wait=True)
        )

    def delete(self, chunk_ids: Sequence[str]) -> None:
        """Remove points by chunk id."""
        if not chunk_ids:
            return
        selector = models.PointIdsList(points=[point_id(c) for c in chunk_ids])
        self._call("delete", lambda: self._client.delete(self._collection, selector, wait=True))

    def search(
        self, vector: Sequence[float], *, limit: int, where: Where | None = None
    ) -> list[Hit]:
        """Dense cosine search."""
        result = self._call(
            "search",
            lambda: self._client.query_points(
                self._collection,
                query=list(vector),
                using=DENSE,
                limit=limit,
                query_filter=_filter(where),
                with_payload=True,
            ),
        )
        return _hits(result.points)

    def _ranking(
        self, query: Sequence[float] | SparseVector, depth: int, where: Where | None
    ) -> list[Hit]:
        if isinstance(query, SparseVector):
            nearest: Any = models.SparseVector(indices=query.indices, values=query.values)
            using = SPARSE
        else:
            nearest, using = list(query), DENSE
        result = self._call(
            "hybrid search",
            lambda: self._client.query_points(
                self._collection,
                query=nearest,
                using=using,
                query_filter=_filter(where),
                limit=depth,
                with_payload=False,
            ),
        )
        return [Hit(str(p.id), p.score) for p in result.points]

    def _payloads_by_point(self, point_ids: list[str]) -> dict[str, dict[str, Any]]:
        records = self._call(
            "retrieve",
            lambda: self._client.retrieve(self._collection, ids=point_ids, with_payload=True),
        )
        return {str(r.id): dict(r.payload or {}) for r in records}

    def count(self, where: Where | None = None) -> int:
        """Number of points."""
        result = self._call(
            "count",
            lambda: self._client.count(self._collection, count_filter=_filter(where), exact=True),
        )
        return int(result.count)

    def _scroll(self, fields: list[str]) -> Iterator[dict[str, Any]]:
        offset: Any = None
        while True:
            with _reachable("scroll"):
                points, offset = self._client.scroll(
                    self._collection,
                    limit=_SCROLL_PAGE,
                    offset=offset,
                    with_payload=fields,
                    with_vectors=False,
                )
            for p in points:
                yield p.payload or {}
            if offset is None:
                return

    def _records(
        self, chunk_ids: Sequence[str], payload: bool | list[str], vectors: list[str]
    ) -> list[models.Record]:
        return self._call(
            "retrieve",
            lambda: self._client.retrieve(
                self._collection,
                ids=[point_id(c) for c in chunk_ids],
                with_payload=payload,
                with_vectors=vectors or False,
            ),
        )

    def upgrade_layout(self) -> bool:
        """Add the `sentences` vector to a collection made without it, in place; True if added."""
        if self._sentences:
            return False
        with _reachable("add the sentences vector"):
            try:
                add_sentences(self._client, self._collection, self._dim)
            except UnexpectedResponse as exc:
                raise StoreUnavailable(
                    f"The Qdrant server refused to add the `sentences` vector to the collection "
                    f"{self._collection} (it needs Qdrant 1.18 or later): upgrade the server, or "
                    "delete the collection and ingest again."
                ) from exc
        self._sentences = True
        return True

    def read_catalog(self) -> dict[str, Any] | None:
        """The catalog point's payload, if ingest has completed once."""
        records = self._call(
            "read catalog",
            lambda: self._client.retrieve(self._catalog, ids=[_CATALOG_ID], with_payload=True),
        )
        return dict(records[0].payload) if records and records[0].payload else None

    def write_catalog(self, catalog: Mapping[str, Any]) -> None:
        """Replace the catalog point."""
        point = models.PointStruct(id=_CATALOG_ID, vector=[1.0], payload=dict(catalog))
        self._call("write catalog", lambda: self._client.upsert(self._catalog, [point], wait=True))

    def close(self) -> None:
        """Close the client (releases the embedded folder's lock)."""
        self._client.close()
