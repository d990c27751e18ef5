"""Edge-only behaviour: reopening, the one-process lock, crash durability, migration, indexing."""

from __future__ import annotations

import logging
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import qdrant_edge

from bookchat.vectorstore.base import INDEXED_FIELDS, Point, StoreLocked, StoreUnavailable
from bookchat.vectorstore.edge_store import EdgeStore
from tests.vectorstore.conftest import DIM, unit_vectors
from tests.vectorstore.legacy import write_legacy_edge

COLLECTION = "book"


def _points(n: int, seed: int = 3) -> list[Point]:
    vectors = unit_vectors(n, seed)
    return [
        Point(f"c{i}", vectors[i].tolist(), {"chapter": f"ch{i % 4}", "doc_id": f"d{i}"})
        for i in range(n)
    ]


def _child(script: str) -> subprocess.Popen[str]:
    """A Python child running `script` with the store classes imported."""
    prelude = "import sys\nfrom pathlib import Path\n"
    prelude += "from bookchat.vectorstore.edge_store import EdgeStore\n"
    prelude += "from tests.vectorstore.test_edge_store import _points, COLLECTION, DIM\n"
    return subprocess.Popen(
        [sys.executable, "-c", prelude + textwrap.dedent(script)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )


def _shard_info(folder: Path) -> qdrant_edge.ShardInfo:
    """What Edge itself reports about a closed store's shard."""
    shard = qdrant_edge.EdgeShard.load(str(folder / COLLECTION))
    try:
        return shard.info()
    finally:
        shard.close()


def test_reopen_keeps_points_catalog_and_payload_indexes(tmp_path: Path) -> None:
    folder = tmp_path / "edge"
    store = EdgeStore.open(folder, COLLECTION, DIM)
    store.upsert(_points(20))
    store.delete(["c0"])
    store.write_catalog({"version": "v1"})
    store.close()
    assert set(INDEXED_FIELDS) <= set(_shard_info(folder).payload_schema)
    store = EdgeStore.open(folder, COLLECTION, DIM)
    try:
        assert store.count() == 19
        assert store.count({"chapter": "ch1"}) == 5
        assert store.read_catalog() == {"version": "v1"}
    finally:
        store.close()
    assert not list(folder.glob("*.tmp"))


def test_second_open_in_same_process_is_locked_until_close(tmp_path: Path) -> None:
    store = EdgeStore.open(tmp_path / "edge", COLLECTION, DIM)
    with pytest.raises(StoreLocked, match="in use by another process"):
        EdgeStore.open(tmp_path / "edge", COLLECTION, DIM)
    store.close()
    store.close()  # closing twice is harmless
    EdgeStore.open(tmp_path / "edge", COLLECTION, DIM).close()


def test_closed_store_refuses_use(tmp_path: Path) -> None:
    store = EdgeStore.open(tmp_path / "edge", COLLECTION, DIM)
    store.close()
    with pytest.raises(StoreUnavailable, match="closed"):
        store.count()
    with pytest.raises(StoreUnavailable, match="closed"):
        store.write_catalog({"version": "v1"})


def test_other_process_is_locked_out_and_kill_9_releases(tmp_path: Path) -> None:
    folder = tmp_path / "edge"
    child = _child(
        f"""
        store = EdgeStore.open(Path({str(folder)!r}), COLLECTION, DIM)
        print("ready", flush=True)
        sys.stdin.readline()
        """
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        with pytest.raises(StoreLocked, match=f"pid {child.pid}"):
            EdgeStore.open(folder, COLLECTION, DIM)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    EdgeStore.open(folder, COLLECTION, DIM).close()


def test_upsert_survives_sigkill_right_after_it_returns(tmp_path: Path) -> None:
    folder = tmp_path / "edge"
    child = _child(
        f"""
        import os, signal
        store = EdgeStore.open(Path({str(folder)!r}), COLLECTION, DIM)
        store.upsert(_points(50))
        store.delete(["c1"])
        os.kill(os.getpid(), signal.SIGKILL)
        """
    )
    assert child.wait() == -signal.SIGKILL
    store = EdgeStore.open(folder, COLLECTION, DIM)
    try:
        assert store.count() == 49
        assert store.payloads(["c7"])["c7"]["chapter"] == "ch3"
        assert store.search(_points(50)[7].vector, limit=1)[0].chunk_id == "c7"
    finally:
        store.close()


def test_old_qdrant_client_folder_is_left_alone_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    old = tmp_path / "qdrant"
    (old / "collection").mkdir(parents=True)
    (old / "meta.json").write_text('{"collections": {}}')
    with caplog.at_level(logging.WARNING, logger="bookchat.vectorstore"):
        store = EdgeStore.open(tmp_path / "edge", COLLECTION, DIM)
    try:
        warnings = [r for r in caplog.records if r.name == "bookchat.vectorstore"]
        assert len(warnings) == 1
        assert "rebuilt" in warnings[0].getMessage()
        assert "next ingest" in warnings[0].getMessage()
        assert store.count() == 0
        assert store.read_catalog() is None
    finally:
        store.close()
    assert (old / "meta.json").read_text() == '{"collections": {}}'
    assert sorted(p.name for p in old.iterdir()) == ["collection", "meta.json"]
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="bookchat.vectorstore"):
        EdgeStore.open(tmp_path / "edge", COLLECTION, DIM).close()
    assert not caplog.records  # the new store exists now, so no more warnings


def test_no_warning_without_an_old_folder(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="bookchat.vectorstore"):
        EdgeStore.open(tmp_path / "edge", COLLECTION, DIM).close()
    assert not caplog.records


def test_other_embedding_size_is_refused_clearly(tmp_path: Path) -> None:
    EdgeStore.open(tmp_path / "edge", COLLECTION, DIM).close()
    with pytest.raises(StoreUnavailable, match="different vectors"):
        EdgeStore.open(tmp_path / "edge", COLLECTION, 8)
    EdgeStore.open(tmp_path / "edge", COLLECTION, DIM).close()  # the failed open let go


def test_bulk_load_builds_hnsw_but_small_upserts_do_not(tmp_path: Path) -> None:
    folder = tmp_path / "edge"
    store = EdgeStore.open(folder, COLLECTION, DIM)
    store.upsert(_points(100))
    store.close()
    assert _shard_info(folder).indexed_vectors_count == 0
    store = EdgeStore.open(folder, COLLECTION, DIM)
    vectors = unit_vectors(7_000, seed=11)
    for start in range(0, 7_000, 1_000):
        store.upsert(
            [
                Point(f"bulk{i}", vectors[i].tolist(), {"chapter": "bulk"})
                for i in range(start, start + 1_000)
            ]
        )
    assert store.search(vectors[4321].tolist(), limit=1)[0].chunk_id == "bulk4321"
    store.close()
    assert _shard_info(folder).indexed_vectors_count > 0


def test_a_shard_from_before_sentence_vectors_is_served_with_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "edge"
    write_legacy_edge(folder / COLLECTION, DIM, _points(10))
    with caplog.at_level(logging.WARNING, logger="bookchat.vectorstore"):
        store = EdgeStore.open(folder, COLLECTION, DIM)
    try:
        messages = [r.getMessage() for r in caplog.records if r.name == "bookchat.vectorstore"]
        assert len(messages) == 1 and "next `bookchat ingest`" in messages[0]
        assert store.count() == 10
        # Writing to it before the upgrade keeps working; the sentences are simply not kept.
        point = _points(1, seed=8)[0]
        store.upsert([Point("c0", point.vector, {"sentence_layout": 1}, sentences=unit_vectors(2))])
        assert len(store.sentence_vectors(["c0"])["c0"].vectors) == 0
    finally:
        store.close()


def test_a_rebuild_stopped_between_its_renames_is_completed_on_open(tmp_path: Path) -> None:
    folder = tmp_path / "edge"
    write_legacy_edge(folder / COLLECTION, DIM, _points(10))
    store = EdgeStore.open(folder, COLLECTION, DIM)
    assert store.upgrade_layout()
    store.close()
    # What a crash right after the first rename leaves: the old shard set aside (here, a legacy
    # one again) and the complete new shard not yet in place.
    (folder / COLLECTION).rename(folder / f"{COLLECTION}.rebuild")
    write_legacy_edge(folder / f"{COLLECTION}.replaced", DIM, _points(3))
    store = EdgeStore.open(folder, COLLECTION, DIM)
    try:
        assert store.count() == 10
        assert store.upgrade_layout() is False  # the new layout is the one in place
    finally:
        store.close()
    assert sorted(p.name for p in folder.iterdir() if p.is_dir()) == [COLLECTION]


def test_a_copy_that_never_finished_is_discarded_and_the_old_shard_kept(tmp_path: Path) -> None:
    folder = tmp_path / "edge"
    write_legacy_edge(folder / COLLECTION, DIM, _points(10))
    write_legacy_edge(folder / f"{COLLECTION}.rebuild", DIM, _points(3))  # a partial copy
    store = EdgeStore.open(folder, COLLECTION, DIM)
    try:
        assert store.count() == 10
        assert store.upgrade_layout() is True
        assert store.count() == 10
    finally:
        store.close()
    assert sorted(p.name for p in folder.iterdir() if p.is_dir()) == [COLLECTION]
