"""Drafts, partials and non-Markdown files are skipped with a reason; the rest are read."""

from pathlib import Path

import pytest

from bookchat.ingest.pages import scan_docs
from tests.sites import write_pages


def test_skips_are_reported_with_reasons(tmp_path: Path) -> None:
    write_pages(
        tmp_path,
        {
            "intro.md": "---\ntitle: Intro\n---\nHello.",
            "draft.md": "---\ntitle: Draft\ndraft: true\n---\nSecret.",
            "_partial.mdx": "Partial.",
            "_hidden/page.md": "Hidden.",
            "img/logo.svg": "<svg/>",
            "broken.md": "---\ntitle: [unclosed\n---\nBody.",
        },
    )
    (tmp_path / "latin1.md").write_bytes("caf\xe9".encode("latin-1"))
    scan = scan_docs(tmp_path)
    assert [p.path for p in scan.pages] == ["intro.md"]
    reasons = {s.path: s.reason for s in scan.skipped}
    assert reasons == {
        "draft.md": "draft: true",
        "_partial.mdx": "partial (file name starts with _)",
        "_hidden/": "folder name starts with _",
        "img/logo.svg": "not a Markdown file",
        "broken.md": reasons["broken.md"],
        "latin1.md": "not UTF-8 text",
    }
    assert reasons["broken.md"].startswith("invalid frontmatter")


def test_title_comes_from_frontmatter_then_first_h1_then_the_id(tmp_path: Path) -> None:
    write_pages(
        tmp_path,
        {
            "a.md": "---\ntitle: From FM\n---\n# From H1\n",
            "b.md": "# From `H1`\n\nText.",
            "02-c.md": "Just text.",
        },
    )
    titles = {p.path: p.title for p in scan_docs(tmp_path).pages}
    assert titles == {"a.md": "From FM", "b.md": "From H1", "02-c.md": "c"}


def test_a_missing_docs_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="Docs folder not found"):
        scan_docs(tmp_path / "nope")
