"""Write the chapter-mode variants of the frozen readers' slices into sample-book.jsonl.

    python3 backend/evals/chapter_variants.py

Each row of `book/reader-unseen`, `book/reader-fresh` and `book/reader-everyday` is asked again
in chapter mode: from the chapter of its gold section (`chapter/<name>`, to be answered), and
from another chapter (`chapter/<name>-other-chapter`, where the answering section must be shown
with its chapter named). The other chapter is chosen by a hash of the question, so the rows
never change; the script only adds rows that are missing and never edits a question.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path

FIXTURES = Path(__file__).with_name("sample-book.jsonl")
SLICES = ("book/reader-unseen", "book/reader-fresh", "book/reader-everyday")
# One page of each chapter of the sample book (a chapter is a top-level folder or page).
CHAPTERS = {
    "01-getting-started": "01-getting-started/01-installing-git.md",
    "02-everyday-git": "02-everyday-git/01-staging-and-committing.md",
    "03-branching": "03-branching/01-branches.md",
    "04-collaboration": "04-collaboration/01-remotes.md",
    "05-internals.md": "05-internals.md",
    "06-hooks-and-automation.md": "06-hooks-and-automation.md",
    "07-workflows": "07-workflows/01-trunk-based.md",
    "intro.md": "intro.md",
}


def chapter_of(path: str) -> str:
    """The chapter a docs path belongs to."""
    return path.split("/", 1)[0]


def variants(row: dict[str, object]) -> list[dict[str, object]]:
    """The row asked from its gold chapter and from another chapter."""
    sources = row["expected_sources"]
    assert isinstance(sources, list) and sources
    gold = {chapter_of(s["path"]) for s in sources}
    others = sorted(c for c in CHAPTERS if c not in gold)
    other = others[zlib.crc32(str(row["question"]).encode()) % len(others)]
    name = str(row["slice"]).removeprefix("book/")
    number = str(row["id"]).rsplit("-", 1)[1]
    home = {**row, "mode": "chapter", "chapter_path": sources[0]["path"]}
    home.update(slice=f"chapter/{name}", id=f"sb-chapter-{name}-{number}")
    away = {**row, "mode": "chapter", "chapter_path": CHAPTERS[other]}
    away.update(
        slice=f"chapter/{name}-other-chapter",
        id=f"sb-chapter-{name}-other-chapter-{number}",
        expected_status="abstained",
        expected_answer_contains=[],
    )
    return [home, away]


def main() -> int:
    """Add the missing variants, keeping the file sorted by id."""
    rows = [json.loads(line) for line in FIXTURES.read_text(encoding="utf-8").splitlines()]
    have = {r["id"] for r in rows}
    added = [
        v
        for r in rows
        if r["slice"] in SLICES and r["expected_status"] == "grounded"
        for v in variants(r)
        if v["id"] not in have
    ]
    rows = sorted(rows + added, key=lambda r: r["id"])
    FIXTURES.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    print(f"added {len(added)} rows")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
