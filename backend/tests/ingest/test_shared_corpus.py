"""A real third-party Docusaurus book ingests with every page indexed or skipped with a reason."""

from pathlib import Path

from bookchat.ingest.corpus import build_corpus
from bookchat.ingest.tokens import model_length


def test_robotics_textbook_pages_are_all_accounted_for(shared_dir: Path) -> None:
    docs = shared_dir / "corpora" / "robotics-textbook" / "docs"
    corpus = build_corpus(docs)
    markdown = {p.relative_to(docs).as_posix() for p in docs.rglob("*.md*")}
    indexed = {page.path for chapter in corpus.chapters for page in chapter.pages}
    skipped = {s.path for s in corpus.skipped}
    assert markdown == indexed | skipped
    assert all(s.reason for s in corpus.skipped)
    assert len(indexed) == 44
    assert all(model_length(c.embed_text) <= 256 for c in corpus.chunks)
    assert {c.payload["path"] for c in corpus.chunks} == indexed
