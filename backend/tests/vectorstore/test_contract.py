"""The VectorStore contract: every engine must pass these the same way."""

from __future__ import annotations

from typing import Any

import numpy as np
import qdrant_edge

from bookchat.vectorstore.base import Point, SparseVector, VectorStore, point_id
from tests.vectorstore.conftest import StoreKit, unit_vectors

CHAPTERS = ("ch-a", "ch-b", "ch-c")
BM25 = qdrant_edge.Bm25()


def _payload(i: int) -> dict[str, Any]:
    return {
        "chapter": CHAPTERS[i % len(CHAPTERS)],
        "doc_id": f"doc-{i // 10}",
        "path": f"docs/doc-{i // 10}.md",
        "title": f"Title {i}",
        "version": ("current", "1.0")[i % 2],
        "locale": "en" if i < 20 else "fr",
        "content_hash": f"c{i}",
        "text_hash": f"t{i}",
    }


def _points(n: int = 30, seed: int = 7) -> list[Point]:
    vectors = unit_vectors(n, seed)
    return [Point(f"chunk-{i}", vectors[i].tolist(), _payload(i)) for i in range(n)]


def _near(vector: list[float], seed: int = 99) -> list[float]:
    """The vector nudged slightly, so it is nearest to the original but not identical."""
    rng = np.random.default_rng(seed)
    v = np.asarray(vector) + 0.05 * rng.standard_normal(len(vector)) / np.sqrt(len(vector))
    return [float(x) for x in v / np.linalg.norm(v)]


def _sparse(text: str, *, query: bool = False) -> SparseVector:
    vec = BM25.embed_query(text) if query else BM25.embed_document(text)
    return SparseVector(list(vec.indices), list(vec.values))


def test_search_returns_nearest_with_payload_and_chunk_id(store: VectorStore) -> None:
    points = _points()
    store.upsert(points)
    hits = store.search(_near(list(points[17].vector)), limit=5)
    assert len(hits) == 5
    assert hits[0].chunk_id == "chunk-17"
    assert hits[0].payload["chunk_id"] == "chunk-17"
    assert hits[0].payload["title"] == "Title 17"
    assert hits[0].score > 0.9 > hits[1].score
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_upsert_is_idempotent_and_replaces_payload(store: VectorStore) -> None:
    points = _points(10)
    store.upsert(points)
    store.upsert(points)
    assert store.count() == 10
    replaced = Point("chunk-3", points[3].vector, {"chapter": "ch-z", "title": "New"})
    store.upsert([replaced])
    assert store.count() == 10
    payload = store.payloads(["chunk-3"])["chunk-3"]
    assert payload == {"chapter": "ch-z", "title": "New", "chunk_id": "chunk-3"}


def test_empty_writes_are_noops(store: VectorStore) -> None:
    store.upsert([])
    store.delete([])
    assert store.count() == 0
    assert store.search(unit_vectors(1)[0].tolist(), limit=3) == []


def test_delete_by_chunk_id_ignores_unknown_ids(store: VectorStore) -> None:
    points = _points(10)
    store.upsert(points)
    store.delete(["chunk-4", "no-such-chunk"])
    assert store.count() == 9
    assert "chunk-4" not in store.payloads(["chunk-4", "chunk-5"])
    hits = store.search(list(points[4].vector), limit=10)
    assert "chunk-4" not in {h.chunk_id for h in hits}


def test_where_filters_search_hybrid_and_count(store: VectorStore) -> None:
    points = [
        Point(p.chunk_id, p.vector, p.payload, _sparse(f"robot arm joint {p.chunk_id}"))
        for p in _points()
    ]
    store.upsert(points)
    where = {"chapter": "ch-b"}
    query = list(points[0].vector)  # chunk-0 is in ch-a, so the filter must exclude it
    hits = store.search(query, limit=20, where=where)
    assert len(hits) == 10
    assert {h.payload["chapter"] for h in hits} == {"ch-b"}
    hybrid = store.hybrid_search(query, _sparse("robot joint", query=True), limit=20, where=where)
    assert hybrid
    assert {h.payload["chapter"] for h in hybrid} == {"ch-b"}
    assert store.count(where) == 10
    assert store.count({"chapter": "ch-b", "doc_id": "doc-0"}) == 3
    assert store.count({"chapter": "nowhere"}) == 0
    assert store.count() == 30


def test_edition_filters_combine_with_the_chapter_filter(store: VectorStore) -> None:
    points = [
        Point(p.chunk_id, p.vector, p.payload, _sparse(f"branch name {p.chunk_id}"))
        for p in _points()
    ]
    store.upsert(points)
    where = {"version": "1.0", "locale": "fr", "chapter": "ch-b"}
    wanted = {p.chunk_id for p in points if all(p.payload[k] == v for k, v in where.items())}
    assert wanted == {"chunk-25"}  # the one 1.0 French point of ch-b
    query = list(points[0].vector)
    assert {h.chunk_id for h in store.search(query, limit=20, where=where)} == wanted
    hybrid = store.hybrid_search(query, _sparse("branch name", query=True), limit=20, where=where)
    assert {h.chunk_id for h in hybrid} == wanted
    assert store.count({"version": "1.0", "locale": "fr"}) == 5
    assert store.count({"version": "2.0"}) == 0


def test_hybrid_ranks_an_exact_keyword_match_dense_misses(store: VectorStore) -> None:
    # Hand-made dense space: the query points at axis 0; "keyword" points elsewhere, so dense
    # search ranks it last, while it is the only document with the rare query term.
    dim = len(unit_vectors(1)[0])
    texts = {
        f"near-{i}": f"Robots move their arms with motors and gears, lesson {i}." for i in range(8)
    }
    texts["keyword"] = "The quaternion slerp interpolates orientations smoothly."
    points = []
    for i, (chunk_id, text) in enumerate(texts.items()):
        v = np.zeros(dim)
        if chunk_id == "keyword":
            v[1] = 1.0
        else:
            v[0], v[2 + i] = 1.0, 0.1 * (i + 1)
        v /= np.linalg.norm(v)
        points.append(Point(chunk_id, v.tolist(), {"chapter": "ch-a"}, _sparse(text)))
    store.upsert(points)
    query = np.zeros(dim)
    query[0] = 1.0
    sparse = _sparse("how does slerp work", query=True)
    dense_ids = [h.chunk_id for h in store.search(query.tolist(), limit=3)]
    assert "keyword" not in dense_ids
    hybrid_ids = [h.chunk_id for h in store.hybrid_search(query.tolist(), sparse, limit=3)]
    assert hybrid_ids[0] == "keyword"
    assert len(hybrid_ids) == 3


def test_fingerprints_vectors_and_payloads_round_trip(store: VectorStore) -> None:
    points = _points(12)
    store.upsert(points)
    fingerprints = store.fingerprints()
    assert len(fingerprints) == 12
    assert fingerprints["chunk-5"] == ("c5", "t5")
    vectors = store.vectors(["chunk-5", "chunk-6", "missing"])
    assert set(vectors) == {"chunk-5", "chunk-6"}
    np.testing.assert_allclose(vectors["chunk-5"], points[5].vector, atol=1e-5)
    payloads = store.payloads(["chunk-6", "missing"])
    assert payloads == {"chunk-6": {**_payload(6), "chunk_id": "chunk-6"}}
    assert store.vectors([]) == {}
    assert store.payloads([]) == {}


def test_catalog_starts_empty_then_is_replaced(store: VectorStore) -> None:
    assert store.read_catalog() is None
    first = {"version": "v1", "chapters": [{"id": "ch-a", "title": "Intro"}]}
    store.write_catalog(first)
    assert store.read_catalog() == first
    second = {"version": "v2"}
    store.write_catalog(second)
    assert store.read_catalog() == second


def test_close_releases_and_persistent_stores_reopen(kit: StoreKit) -> None:
    store = kit.open()
    store.upsert(_points(6))
    store.write_catalog({"version": "v1"})
    store.close()
    if not kit.persistent:
        return  # an in-memory store keeps nothing: closing without error is all there is
    reopened = kit.open()
    assert reopened.count() == 6
    assert reopened.read_catalog() == {"version": "v1"}
    assert reopened.search(list(_points(6)[2].vector), limit=1)[0].chunk_id == "chunk-2"


def _with_layout(p: Point, rows: np.ndarray | None, layout: int = 1) -> Point:
    payload = {**p.payload, "sentence_layout": layout}
    return Point(p.chunk_id, p.vector, payload, p.sparse, sentences=rows)


def test_sentence_vectors_come_back_in_one_read_in_float16_precision(store: VectorStore) -> None:
    points = _points(4)
    rows = unit_vectors(9, seed=5)
    store.upsert([_with_layout(p, rows[3 * i : 3 * i + 3]) for i, p in enumerate(points[:3])])
    store.upsert([points[3]])  # no sentence vectors, no layout marker
    got = store.sentence_vectors(["chunk-0", "chunk-1", "chunk-2", "chunk-3", "missing"])
    assert set(got) == {"chunk-0", "chunk-1", "chunk-2", "chunk-3"}
    for i in range(3):
        stored = got[f"chunk-{i}"]
        assert stored.layout == 1
        assert stored.vectors.shape == (3, len(rows[0])) and stored.vectors.dtype == np.float32
        # Row order kept; float16 storage costs at most a rounding error.
        cosines = (stored.vectors * rows[3 * i : 3 * i + 3]).sum(axis=1)
        assert cosines.min() >= 0.999
    assert got["chunk-3"].layout is None and got["chunk-3"].vectors.shape == (0, len(rows[0]))
    assert store.sentence_vectors([]) == {}


def test_rewriting_a_point_replaces_its_sentence_vectors(store: VectorStore) -> None:
    point = _points(1)[0]
    store.upsert([_with_layout(point, unit_vectors(3, seed=5))])
    store.upsert([_with_layout(point, unit_vectors(2, seed=6))])
    assert len(store.sentence_vectors(["chunk-0"])["chunk-0"].vectors) == 2
    store.upsert([_with_layout(point, None)])  # its new text has no sentence left
    assert len(store.sentence_vectors(["chunk-0"])["chunk-0"].vectors) == 0


def test_an_index_from_before_sentence_vectors_is_served_then_upgraded(kit: StoreKit) -> None:
    points = [
        Point(p.chunk_id, p.vector, p.payload, _sparse(f"robot arm joint {p.chunk_id}"))
        for p in _points(12)
    ]
    kit.legacy(points)
    store = kit.open()
    # Served as it is: searches work, and no chunk has stored sentence vectors yet.
    assert store.search(_near(list(points[5].vector)), limit=1)[0].chunk_id == "chunk-5"
    old = store.sentence_vectors(["chunk-5"])["chunk-5"]
    assert old.layout is None and len(old.vectors) == 0
    fingerprints = store.fingerprints()
    assert store.upgrade_layout() is True
    assert store.upgrade_layout() is False
    # Every point kept its vectors, payload and filters.
    assert store.fingerprints() == fingerprints
    np.testing.assert_allclose(store.vectors(["chunk-5"])["chunk-5"], points[5].vector, atol=1e-5)
    assert store.count({"chapter": "ch-b"}) == 4
    assert store.search(_near(list(points[5].vector)), limit=1)[0].chunk_id == "chunk-5"
    sparse = _sparse("robot joint chunk-7", query=True)
    assert store.hybrid_search(list(points[7].vector), sparse, limit=1)[0].chunk_id == "chunk-7"
    store.upsert([_with_layout(points[5], unit_vectors(2, seed=9))])
    assert store.sentence_vectors(["chunk-5"])["chunk-5"].vectors.shape[0] == 2
    if not kit.persistent:
        return
    store.close()
    reopened = kit.open()
    assert reopened.upgrade_layout() is False
    assert reopened.sentence_vectors(["chunk-5"])["chunk-5"].vectors.shape[0] == 2
    assert reopened.count() == 12


def test_hybrid_breaks_tied_fusion_scores_by_chunk_id(store: VectorStore) -> None:
    # "z" is first for the dense query and second for the keyword; "a" the other way round: RRF
    # gives both the same score, and the order must not depend on the engine's mood.
    dim = len(unit_vectors(1)[0])
    dense_first, keyword_first, other = np.zeros(dim), np.zeros(dim), np.zeros(dim)
    dense_first[0] = 1.0
    keyword_first[0], keyword_first[1] = 0.5, 1.0
    other[2] = 1.0
    texts = {
        "z-dense-first": (dense_first, "The alpha release shipped with gears, motors and arms."),
        "a-keyword-first": (keyword_first, "Alpha."),
        "m-other": (other, "Gears turn slowly."),
    }
    store.upsert(
        [
            Point(chunk_id, (v / np.linalg.norm(v)).tolist(), {"chapter": "ch-a"}, _sparse(text))
            for chunk_id, (v, text) in texts.items()
        ]
    )
    hits = store.hybrid_search(dense_first.tolist(), _sparse("alpha", query=True), limit=2)
    assert hits[0].score == hits[1].score  # the tie this test is about
    assert [h.chunk_id for h in hits] == ["a-keyword-first", "z-dense-first"]


def test_hybrid_ranks_passages_the_keyword_search_ties_by_chunk_id(store: VectorStore) -> None:
    # Three passages with the same words tie in the keyword ranking; engines return such ties
    # in their own order (here: as inserted, b a c). Ranked by point id (a b c) beside the
    # dense ranking (c b a), fusion gives a and c 1/4 + 1/2 each and b 1/3 + 1/3: a, c, b.
    dim = len(unit_vectors(1)[0])
    closeness = {"b-second": 0.8, "a-third": 0.6, "c-first": 1.0}
    assert sorted(closeness, key=point_id) == ["a-third", "b-second", "c-first"]
    points = []
    for chunk_id, near in closeness.items():
        v = np.zeros(dim)
        v[0], v[1] = near, 1.0 - near
        points.append(
            Point(chunk_id, (v / np.linalg.norm(v)).tolist(), {}, _sparse("Alpha gears."))
        )
    store.upsert(points)
    query = np.zeros(dim)
    query[0] = 1.0
    hits = store.hybrid_search(query.tolist(), _sparse("alpha", query=True), limit=3)
    assert [h.chunk_id for h in hits] == ["a-third", "c-first", "b-second"]
    assert hits[0].score == hits[1].score > hits[2].score
