"""Incremental sync against the real embedded store and the real MiniLM."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from bookchat.answer.judge import hit_candidates
from bookchat.config import Settings
from bookchat.embedding.embedder import DIMENSIONS, MAX_TOKENS, Embedder
from bookchat.ingest.corpus import build_corpus
from bookchat.ingest.report import SyncReport
from bookchat.ingest.run import SiteSource, run_ingest
from bookchat.ingest.tokens import model_length
from bookchat.markdown.unit_layout import SENTENCE_LAYOUT, chunk_sentences
from bookchat.retrieval.search import Retriever
from bookchat.retrieval.sentence_vectors import PassageVectors, SentenceVectors
from bookchat.vectorstore import Point, open_store
from bookchat.vectorstore.sparse import sparse_document
from tests.sites import CURRENT_EN, write_manifests, write_site
from tests.vectorstore.legacy import write_legacy_edge

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


def test_the_report_counts_the_word_pieces_the_model_reads(setup) -> None:
    settings, docs, model = setup
    chunks = build_corpus(docs).chunks
    texts = dict.fromkeys(
        [c.embed_text for c in chunks] + [s for c in chunks for s in chunk_sentences(c.payload)]
    )
    first = _sync(settings, docs, model)
    assert first.word_pieces == sum(min(model_length(t), MAX_TOKENS) for t in texts) > 0
    page = docs / "01-basics" / "02-rebasing.md"
    page.write_text(page.read_text().replace("idea number 2.", "idea number 2, now revised."))
    edited = _sync(settings, docs, model)
    # One chunk's text and the units the store does not hold yet: a small share of the book.
    assert 0 < edited.word_pieces < first.word_pieces / 5
    assert _sync(settings, docs, model).word_pieces == 0


def test_renaming_a_file_moves_its_chunks_without_re_embedding(setup) -> None:
    settings, docs, model = setup
    first = _sync(settings, docs, model)
    old = docs / "01-basics" / "03-tagging.md"
    old.rename(docs / "01-basics" / "03-tags.md")
    calls = model.calls
    report = _sync(settings, docs, model)
    assert report.added == report.deleted > 0
    assert report.embedded == 0 and report.reused_vectors == report.added
    assert report.embedded_sentences == 0 and model.calls == calls  # sentence vectors moved too
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
from bookchat.ingest.run import SiteSource, run_ingest
from bookchat.embedding.embedder import Embedder
from bookchat.vectorstore import open_store

settings = Settings(_env_file=None, data_dir=sys.argv[1])
real = Embedder(threads=1)

class DiesAfterFirstBatch:
    def expect(self, word_pieces):
        real.expect(word_pieces)

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


def _assert_sentence_vectors_stored(settings: Settings, docs: Path, embedder: Embedder) -> None:
    """Every chunk stores one vector per sentence, equal to the model's own (float16 aside)."""
    chunks = build_corpus(docs).chunks
    store = open_store(settings)
    try:
        stored = store.sentence_vectors([c.chunk_id for c in chunks])
    finally:
        store.close()
    for chunk in chunks:
        sentences = chunk_sentences(chunk.payload)
        rows = stored[chunk.chunk_id]
        assert rows.layout == SENTENCE_LAYOUT
        assert rows.vectors.shape == (len(sentences), DIMENSIONS)
        if sentences:
            cosines = (rows.vectors * embedder.embed(sentences)).sum(axis=1)
            assert float(cosines.min()) >= 0.999


def test_each_chunk_stores_its_sentence_vectors(setup, embedder: Embedder) -> None:
    settings, docs, model = setup
    report = _sync(settings, docs, model)
    # Overlapping chunks share boundary sentences: each distinct one is embedded once.
    distinct = {s for c in build_corpus(docs).chunks for s in chunk_sentences(c.payload)}
    assert report.embedded_sentences == len(distinct) > report.added
    _assert_sentence_vectors_stored(settings, docs, embedder)


def test_an_index_from_before_sentence_vectors_is_upgraded_by_the_next_ingest(
    setup, embedder: Embedder
) -> None:
    settings, docs, model = setup
    chunks = build_corpus(docs).chunks
    dense = embedder.embed([c.embed_text for c in chunks])
    old = [
        Point(c.chunk_id, v.tolist(), c.payload, sparse_document(c.embed_text))
        for c, v in zip(chunks, dense, strict=True)
    ]
    write_legacy_edge(settings.store_dir / settings.collection, DIMENSIONS, old)
    report = _sync(settings, docs, model)
    # Every point is rewritten with its sentences; no chunk text goes through the model again.
    assert (report.added, report.updated, report.deleted) == (0, len(chunks), 0)
    assert report.embedded == 0 and report.reused_vectors == len(chunks)
    assert report.embedded_sentences > 0
    _assert_sentence_vectors_stored(settings, docs, embedder)
    store = open_store(settings)
    try:
        kept = store.vectors([c.chunk_id for c in chunks])
        np.testing.assert_allclose([kept[c.chunk_id] for c in chunks], dense, atol=1e-5)
        # The upgraded index answers from stored vectors: no sentence is embedded at query time.
        question = "Why does rebasing step 2 matter?"
        hits = Retriever(store, hybrid=True).search(
            question, embedder.embed([question])[0].tolist(), limit=4
        )
        candidates = hit_candidates(hits)
        cache = SentenceVectors(embedder)
        matrix = asyncio.run(PassageVectors(store, cache).matrix(hits, candidates))
        assert len(candidates) == len(matrix) > 0 and len(cache) == 0
    finally:
        store.close()
    calls = model.calls
    again = _sync(settings, docs, model)
    assert (again.updated, again.embedded, again.embedded_sentences) == (0, 0, 0)
    assert model.calls == calls


# --- A built site: every docs version and locale is an edition ----------------------------------


def _site_sync(settings: Settings, site: Path, model: Counting, **flags: bool) -> SyncReport:
    store = open_store(settings)
    try:
        return run_ingest(settings, store, model, site=SiteSource(site), **flags)
    finally:
        store.close()


def _editions(report: SyncReport) -> dict[str, tuple[int, int, int, int, int]]:
    return {
        e.edition: (e.added, e.updated, e.deleted, e.unchanged, e.embedded) for e in report.editions
    }


@pytest.fixture
def site_setup(tmp_path: Path, make_settings: Callable[..., Settings], embedder: Embedder):
    return make_settings(), write_site(tmp_path), Counting(embedder)


def test_a_site_is_indexed_per_edition_and_repeated_texts_are_embedded_once(site_setup) -> None:
    settings, site, model = site_setup
    report = _site_sync(settings, site, model)
    per = {e.edition: e for e in report.editions}
    assert list(per) == ["current@en", "1.0@en", "current@fr", "1.0@fr"]
    assert all(e.added == e.chunks > 0 and e.deleted == 0 for e in per.values())
    # 1.0@fr is 1.0@en's text at French URLs, and 1.0@en repeats current's unchanged sections:
    # only texts never seen before reach the model.
    assert per["1.0@fr"].embedded == 0
    assert 0 < per["1.0@en"].embedded < per["1.0@en"].chunks
    assert report.embedded == sum(e.embedded for e in per.values()) < report.added
    store = open_store(settings)
    try:
        assert store.count() == report.added
        assert store.count({"version": "1.0", "locale": "fr"}) == per["1.0@fr"].chunks
        catalog = store.read_catalog()
        assert catalog is not None
        assert (catalog["default_version"], catalog["default_locale"]) == ("current", "en")
        assert [(e["version"], e["locale"]) for e in catalog["editions"]] == [
            ("current", "en"),
            ("1.0", "en"),
            ("current", "fr"),
            ("1.0", "fr"),
        ]
    finally:
        store.close()
    calls = model.calls
    again = _site_sync(settings, site, model)  # nothing changed: the model is never loaded
    assert model.calls == calls and again.unchanged == report.added
    assert set(_editions(again).values()) == {(0, 0, 0, per["1.0@fr"].chunks, 0)}


def test_a_page_deleted_from_one_version_leaves_the_other_versions_alone(site_setup) -> None:
    settings, site, model = site_setup
    _site_sync(settings, site, model)
    # The undo page leaves current (both locales build from docs/); 1.0 keeps it.
    (site / "docs" / "02-undo.md").unlink()
    current = {k: v for k, v in CURRENT_EN.items() if k != "02-undo.md"}
    write_manifests(site, current=current)
    report = _site_sync(settings, site, model)
    changes = _editions(report)
    assert changes["current@en"][2] == changes["current@fr"][2] == 1
    assert changes["1.0@en"][:3] == changes["1.0@fr"][:3] == (0, 0, 0)
    store = open_store(settings)
    try:
        assert store.count({"doc_id": "undo", "version": "current"}) == 0
        assert store.count({"doc_id": "undo", "version": "1.0"}) == 2
    finally:
        store.close()


def test_a_plain_docs_index_becomes_a_site_without_re_embedding_its_text(
    site_setup, tmp_path: Path
) -> None:
    settings, site, model = site_setup
    plain = _sync(settings, site / "docs", model)
    report = _site_sync(settings, site, model)
    per = {e.edition: e for e in report.editions}
    # Same chunk ids for current English (only the URLs move under /textbook/): rewritten in place.
    assert (per["current@en"].updated, per["current@en"].added) == (plain.added, 0)
    assert per["current@en"].embedded == 0 and report.deleted == 0


def test_a_site_dry_run_predicts_what_each_edition_will_embed(site_setup) -> None:
    settings, site, model = site_setup
    dry = _site_sync(settings, site, model, dry_run=True)
    real = _site_sync(settings, site, model)
    assert dry.dry_run and not dry.model_loaded
    assert _editions(dry) == _editions(real)
    assert dry.embedded == real.embedded
