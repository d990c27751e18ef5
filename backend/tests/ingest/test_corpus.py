"""The sample book is indexed the way a reader sees it, and only what should be."""

from pathlib import Path

import pytest

from bookchat.ingest.corpus import Corpus, build_corpus
from bookchat.ingest.tokens import model_length


@pytest.fixture(scope="module")
def corpus(sample_docs: Path) -> Corpus:
    return build_corpus(sample_docs)


def test_drafts_partials_and_assets_are_never_indexed(corpus: Corpus) -> None:
    paths = {c.payload["path"] for c in corpus.chunks}
    assert "08-troubleshooting.md" not in paths
    assert not any(p.split("/")[-1].startswith("_") for p in paths)
    reasons = {s.path: s.reason for s in corpus.skipped}
    assert reasons["08-troubleshooting.md"] == "draft: true"
    assert reasons["03-branching/_safety-note.mdx"].startswith("partial")
    assert reasons["assets/branch-diagram.svg"] == "not a Markdown file"


def test_every_chunk_fits_the_model_and_ids_are_unique(corpus: Corpus) -> None:
    assert all(model_length(c.embed_text) <= 256 for c in corpus.chunks)
    ids = [c.chunk_id for c in corpus.chunks]
    assert len(ids) == len(set(ids))


def test_chunk_ids_and_version_are_stable_across_runs(corpus: Corpus, sample_docs: Path) -> None:
    again = build_corpus(sample_docs)
    assert [c.chunk_id for c in again.chunks] == [c.chunk_id for c in corpus.chunks]
    assert again.version == corpus.version


def test_mdx_pages_are_indexed_without_jsx(corpus: Corpus) -> None:
    rebasing = [c for c in corpus.chunks if c.payload["path"] == "03-branching/03-rebasing.mdx"]
    assert rebasing
    text = " ".join(c.payload["text"] for c in rebasing)
    assert "import " not in text and "<Tabs" not in text and "<TabItem" not in text


def test_urls_follow_slug_id_and_explicit_anchor_rules(corpus: Corpus) -> None:
    urls = {c.payload["url"] for c in corpus.chunks}
    assert "/docs/getting-started/configure#config-files" in urls
    hooks = next(c for c in corpus.chunks if c.payload["url"].endswith("#client-side-hooks"))
    assert hooks.payload["heading_path"][-2:] == ["Hook types", "Client-side hooks"]
    assert any(u.startswith("/docs/collaboration/reviews#") for u in urls)
    assert any(u.startswith("/docs/#") or u == "/docs/" for u in urls)


def test_payload_has_every_documented_field(corpus: Corpus) -> None:
    fields = {
        "path", "doc_id", "title", "chapter", "chapter_title", "section", "heading_path",
        "anchor", "url", "position", "text", "text_hash", "content_hash",
    }  # fmt: skip
    assert all(fields <= c.payload.keys() for c in corpus.chunks)


def test_the_sample_book_has_the_promised_shape(corpus: Corpus) -> None:
    assert len(corpus.chapters) >= 6
    words = sum(len(p.body.split()) for ch in corpus.chapters for p in ch.pages)
    assert words >= 8000
    long_code = [
        c for c in corpus.chunks if "```" in c.payload["text"] and c.payload["position"] > 0
    ]
    assert long_code, "a code block longer than one chunk is split across chunks"
