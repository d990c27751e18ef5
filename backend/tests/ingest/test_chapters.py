"""Top-level folders and top-level pages become chapters with the right titles and order."""

from pathlib import Path

from bookchat.ingest.chapters import assign_chapters
from bookchat.ingest.pages import scan_docs


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_chapter_titles_keys_order_and_urls(tmp_path: Path) -> None:
    _write(tmp_path, "intro.md", "---\ntitle: Welcome\nsidebar_position: 1\nslug: /\n---\nHi.")
    _write(tmp_path, "02-basics/_category_.json", '{"label": "The Basics", "position": 2}')
    _write(tmp_path, "02-basics/02-second.md", "---\ntitle: Second\n---\nB.")
    _write(tmp_path, "02-basics/01-first.md", "---\ntitle: First\n---\nA.")
    _write(tmp_path, "03-advanced/_category_.yml", "label: Advanced Topics\n")
    _write(tmp_path, "03-advanced/01-x.md", "---\ntitle: X\n---\nX.")
    _write(tmp_path, "04-branching/index.md", "---\ntitle: Branching and Merging\n---\nOverview.")
    _write(tmp_path, "04-branching/01-branches.md", "---\ntitle: Branches\n---\nB.")
    _write(tmp_path, "05-plain/01-only.md", "---\ntitle: Only\n---\nO.")
    _write(tmp_path, "06-internals.md", "---\ntitle: Git Internals\n---\nI.")
    _write(tmp_path, "07-misc/01-moved.md", "---\ntitle: Moved\nchapter: Git Internals\n---\nM.")
    _write(tmp_path, "07-misc/02-extra.md", "---\ntitle: Extra\nchapter: Appendix\n---\nE.")
    scan = scan_docs(tmp_path)
    chapters = assign_chapters(scan.pages, scan.categories)
    summary = [(c.key, c.title, c.url, [p.path for p in c.pages]) for c in chapters.values()]
    assert summary == [
        ("intro", "Welcome", "/docs/", ["intro.md"]),
        (
            "basics",
            "The Basics",
            "/docs/basics/first",
            ["02-basics/01-first.md", "02-basics/02-second.md"],
        ),
        ("advanced", "Advanced Topics", "/docs/advanced/x", ["03-advanced/01-x.md"]),
        (
            "branching",
            "Branching and Merging",
            "/docs/branching/",
            ["04-branching/index.md", "04-branching/01-branches.md"],
        ),
        ("plain", "plain", "/docs/plain/only", ["05-plain/01-only.md"]),
        (
            "internals",
            "Git Internals",
            "/docs/internals",
            ["06-internals.md", "07-misc/01-moved.md"],
        ),
        ("appendix", "Appendix", "/docs/misc/extra", ["07-misc/02-extra.md"]),
    ]
