"""Incremental sync against the real embedded store and the real MiniLM."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from bookchat.config import Settings
from bookchat.ingest.corpus import build_corpus
from bookchat.ingest.run import run_ingest
from bookchat.ingest.sync import SyncReport
from bookchat.retrieval.embedder import Embedder
from bookchat.vectorstore import open_store

TOPICS = ["merging", "rebasing", "tagging", "stashing", "bisecting", "cloning"]


def _page(topic: str, sections: int) -> str:
    body = [f"---\ntitle: All about {topic}\n---\n", f"An overview of {topic} in Git.\n"]
    for n in range(sections):
        body.append(
            f"## {topic.capitalize()} part {n}\n\n"
            f"Part {n} of {topic} explains a distinct idea number {n}. "
            f"Readers learn why {topic} step {n} matters and how to practise it safely.\n"
        )
    return "\n".join(body)


def _book(root: Path, pages: int = 4, sections: int = 4) -> Path:
    docs = root / "docs"
    for i, topic in enumerate(TOPICS[:pages]):
        (docs / "01-basics").mkdir(parents=True, exist_ok=True)
        (docs / "01-basics" / f"0{i + 1}-{topic}.md").write_text(_page(topic, sections))
    (docs / "02-extra.md").write_text(_page("extras", 2))
    return docs


class Counting:
    """Hands out the real embedder and remembers how often it was asked for."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self.calls = 0

    def __call__(self) -> Embedder:
        self.calls += 1
        return self.embedder


def _sync(settings: Settings, docs: Path, model: Counting, **flags: bool) -> SyncReport:
    store = open_store(settings)
    try:
        return run_ingest(settings, store, model, docs, **flags)
    finally:
        store.close()


def _stored(settings: Settings) -> dict[str, tuple[str, str]]:
    store = open_store(settings)
    try:
        return store.fingerprints()
    finally:
        store.close()


@pytest.fixture
def setup(tmp_path: Path, make_settings: Callable[..., Settings], embedder: Embedder):
    docs = _book(tmp_path)
    return make_settings(), docs, Counting(embedder)


def test_first_run_adds_everything_and_writes_the_catalog(setup) -> None:
    settings, docs, model = setup
    report = _sync(settings, docs, model)
    corpus = build_corpus(docs)
    assert (report.added, report.updated, report.deleted) == (len(corpus.chunks), 0, 0)
    store = open_store(settings)
    try:
        assert store.count() == len(corpus.chunks)
        catalog = store.read_catalog()
        assert catalog is not None and catalog["corpus_version"] == corpus.version
        assert [c["key"] for c in catalog["chapters"]] == ["basics", "extra"]
    finally:
        store.close()


def test_nothing_changed_means_the_model_is_never_loaded(setup) -> None:
    settings, docs, model = setup
    first = _sync(settings, docs, model)
    calls = model.calls
    again = _sync(settings, docs, model)
    assert model.calls == calls
    assert (again.added, again.updated, again.deleted, again.embedded) == (0, 0, 0, 0)
    assert again.unchanged == first.added


def test_editing_one_section_re_embeds_only_that_section(setup) -> None:
    settings, docs, model = setup
    _sync(settings, docs, model)
    before = _stored(settings)
    page = docs / "01-basics" / "02-rebasing.md"
    page.write_text(page.read_text().replace("idea number 2.", "idea number 2, now revised."))
    report = _sync(settings, docs, model)
    assert (report.added, report.updated, report.deleted, report.embedded) == (0, 1, 0, 1)
    after = _stored(settings)
    changed = {cid for cid in after if after[cid] != before.get(cid)}
    assert len(changed) == 1 and set(after) == set(before)


def test_renaming_a_file_moves_its_chunks_without_re_embedding(setup) -> None:
    settings, docs, model = setup
    first = _sync(settings, docs, model)
    old = docs / "01-basics" / "03-tagging.md"
    old.rename(docs / "01-basics" / "03-tags.md")
    report = _sync(settings, docs, model)
    assert report.added == report.deleted > 0
    assert report.embedded == 0 and report.reused_vectors == report.added
    assert len(_stored(settings)) == first.added
    store = open_store(settings)
    try:
        assert store.count(where={"path": "01-basics/03-tagging.md"}) == 0
        assert store.count(where={"path": "01-basics/03-tags.md"}) == report.added
    finally:
        store.close()


def test_deleting_a_file_or_a_section_removes_its_chunks(setup) -> None:
    settings, docs, model = setup
    _sync(settings, docs, model)
    (docs / "01-basics" / "04-stashing.md").unlink()
    page = docs / "01-basics" / "01-merging.md"
    text = page.read_text()
    page.write_text(text[: text.index("## Merging part 3")])
    report = _sync(settings, docs, model)
    assert report.deleted >= 2 and report.added == 0 and report.embedded == 0
    stored = _stored(settings)
    assert set(stored) == {c.chunk_id for c in build_corpus(docs).chunks}
    store = open_store(settings)
    try:
        catalog = store.read_catalog()
        assert catalog is not None
        paths = [p["path"] for ch in catalog["chapters"] for p in ch["pages"]]
        assert "01-basics/04-stashing.md" not in paths
    finally:
        store.close()


def test_dry_run_reports_changes_and_writes_nothing(setup) -> None:
    settings, docs, model = setup
    _sync(settings, docs, model)
    before = _stored(settings)
    shutil.copy(docs / "02-extra.md", docs / "03-more.md")
    report = _sync(settings, docs, model, dry_run=True)
    assert report.added > 0 and report.dry_run
    assert {c["change"] for c in report.changes} == {"add"}
    assert _stored(settings) == before


def test_full_rebuild_re_embeds_every_chunk_and_keeps_ids(setup) -> None:
    settings, docs, model = setup
    first = _sync(settings, docs, model)
    before = set(_stored(settings))
    report = _sync(settings, docs, model, full=True)
    assert report.embedded == report.updated == first.added
    assert set(_stored(settings)) == before


KILLED_RUN = """
import os, signal, sys
from pathlib import Path
from bookchat.config import Settings
from bookchat.ingest.run import run_ingest
from bookchat.retrieval.embedder import Embedder
from bookchat.vectorstore import open_store

settings = Settings(_env_file=None, data_dir=sys.argv[1])
real = Embedder(threads=1)

class DiesAfterFirstBatch:
    def embed(self, texts):
        if getattr(self, "done", False):
            os.kill(os.getpid(), signal.SIGKILL)
        self.done = True
        return real.embed(texts)

run_ingest(settings, open_store(settings), lambda: DiesAfterFirstBatch(), Path(sys.argv[2]))
"""


def test_a_run_killed_midway_converges_on_the_next_run(
    tmp_path: Path, make_settings, embedder
) -> None:
    docs = _book(tmp_path, pages=6, sections=14)  # more than one embedding batch
    settings = make_settings()
    total = len(build_corpus(docs).chunks)
    assert total > 64
    child = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(KILLED_RUN), str(settings.data_dir), str(docs)],
        capture_output=True,
        timeout=300,
    )
    assert child.returncode == -9, child.stderr.decode()[-2000:]
    partial = _stored(settings)
    assert 0 < len(partial) < total
    report = _sync(settings, docs, Counting(embedder))
    assert report.added == total - len(partial) and report.unchanged == len(partial)
    stored = _stored(settings)
    assert set(stored) == {c.chunk_id for c in build_corpus(docs).chunks}
    store = open_store(settings)
    try:
        assert store.count() == total  # no duplicates, no orphans
    finally:
        store.close()
