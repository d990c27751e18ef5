"""Top-level folders and top-level pages become chapters with the right titles and order."""

from pathlib import Path

from bookchat.ingest.chapters import assign_chapters
from bookchat.ingest.pages import scan_docs
from tests.sites import write_pages


def test_chapter_titles_keys_order_and_urls(tmp_path: Path) -> None:
    write_pages(
        tmp_path,
        {
            "intro.md": "---\ntitle: Welcome\nsidebar_position: 1\nslug: /\n---\nHi.",
            "02-basics/_category_.json": '{"label": "The Basics", "position": 2}',
            "02-basics/02-second.md": "---\ntitle: Second\n---\nB.",
            "02-basics/01-first.md": "---\ntitle: First\n---\nA.",
            "03-advanced/_category_.yml": "label: Advanced Topics\n",
            "03-advanced/01-x.md": "---\ntitle: X\n---\nX.",
            "04-branching/index.md": "---\ntitle: Branching and Merging\n---\nOverview.",
            "04-branching/01-branches.md": "---\ntitle: Branches\n---\nB.",
            "05-plain/01-only.md": "---\ntitle: Only\n---\nO.",
            "06-internals.md": "---\ntitle: Git Internals\n---\nI.",
            "07-misc/01-moved.md": "---\ntitle: Moved\nchapter: Git Internals\n---\nM.",
            "07-misc/02-extra.md": "---\ntitle: Extra\nchapter: Appendix\n---\nE.",
        },
    )
    scan = scan_docs(tmp_path)
    chapters = assign_chapters(scan.pages, scan.categories)
    # Chapters in reading order with their titles and urls, then the pages each one holds.
    assert [(c.key, c.title, c.url) for c in chapters.values()] == [
        ("intro", "Welcome", "/docs/"),
        ("basics", "The Basics", "/docs/basics/first"),
        ("advanced", "Advanced Topics", "/docs/advanced/x"),
        ("branching", "Branching and Merging", "/docs/branching/"),
        ("plain", "plain", "/docs/plain/only"),
        ("internals", "Git Internals", "/docs/internals"),
        ("appendix", "Appendix", "/docs/misc/extra"),
    ]
    assert {c.key: [p.path for p in c.pages] for c in chapters.values()} == {
        "intro": ["intro.md"],
        "basics": ["02-basics/01-first.md", "02-basics/02-second.md"],
        "advanced": ["03-advanced/01-x.md"],
        "branching": ["04-branching/index.md", "04-branching/01-branches.md"],
        "plain": ["05-plain/01-only.md"],
        "internals": ["06-internals.md", "07-misc/01-moved.md"],
        "appendix": ["07-misc/02-extra.md"],
    }
