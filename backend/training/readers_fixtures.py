"""Write a readers'-question book as a `bookchat eval` fixture, to measure a change on a book
no model here trained on before it reaches the gate.

    backend/.venv/bin/python backend/training/readers_fixtures.py --book rust-book --out DIR
    BOOKCHAT_DATA_DIR=$(mktemp -d) backend/.venv/bin/bookchat eval \
        --fixtures DIR/fixtures.jsonl --docs DIR/docs --summary DIR/summary.json

DIR/docs holds the book's pages as Markdown (html_book.py's conversion), DIR/fixtures.jsonl one
book-mode row per question: an answerable one expects the section whose chunk holds its answer's
words, those words in the answer and, as its reference answer, the same words (so answer F1 is
how much of the answer is the book's answering sentence); a question the book does not cover
expects a decline. The Rust book's questions are all measured-only (no training script reads
them); of any other book only the fifth `train.py --books` and the reader's second stage leave
out (rank_data.held_out) is written.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from rank_data import Source, answering_chunks, sources

from bookchat.ingest.corpus import build_corpus

MEASURED_ONLY = "rust-book"


def fixture_rows(source: Source, chunks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One eval row per question of `source` that no training script reads; `chunks` are the
    payloads ingest makes of its pages."""
    rows = []
    for row in source.rows:
        if source.name != MEASURED_ONLY and not row["held_out"]:
            continue
        answer = str(row.get("answer_text") or "")
        base = {
            "id": f"{source.name}-{row['id']}",
            "question": row["question"],
            "mode": "book",
            "chapter_path": None,
            "selection": None,
            "dataset_version": f"{source.name}-readers",
        }
        if not answer:
            rows.append({**base, "slice": "book/uncovered", "expected_status": "abstained"})
            continue
        found = answering_chunks(chunks, row["doc"], answer)
        if not found:
            continue  # its words are not in any chunk as ingest cuts them: nothing to score
        rows.append(
            {
                **base,
                "slice": "book/answerable",
                "expected_status": "grounded",
                "expected_sources": [{"path": row["doc"], "section": found[0].get("section")}],
                "expected_answer_contains": [answer],
                "reference_answer": answer,
            }
        )
    return rows


def measured_book(name: str, scratch: Path) -> Source:
    """The readers'-question book `name`, laid out under `scratch`: any but the sample book,
    whose questions the reader trains on; LookupError, naming the choices, for another name."""
    books = {s.name: s for s in sources(scratch)}
    if name not in books or name == "sample-book":
        names = ",".join(n for n in books if n != "sample-book")
        raise LookupError(f"--book {name}: choose from {names}")
    return books[name]


def measured_fixtures(
    name: str, scratch: Path
) -> tuple[Source, list[dict[str, Any]], list[dict[str, Any]]]:
    """The book `name` laid out under `scratch` (`measured_book`), the payloads ingest makes of
    its pages, and its eval rows (`fixture_rows`); LookupError for a name not measured."""
    source = measured_book(name, scratch)
    chunks = [c.payload for c in build_corpus(source.docs).chunks]
    return source, chunks, fixture_rows(source, chunks)


def main() -> int:
    """Write DIR/docs and DIR/fixtures.jsonl for one readers'-question book."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--book", default=MEASURED_ONLY, help="rank_data.py's name of the book")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        try:
            source, _, rows = measured_fixtures(args.book, Path(scratch))
        except LookupError as unknown:
            print(f"error: {unknown}", file=sys.stderr)
            return 2
        docs = args.out / "docs"
        if docs.exists():
            shutil.rmtree(docs)
        shutil.copytree(source.docs, docs)
    fixtures = args.out / "fixtures.jsonl"
    fixtures.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    answerable = sum(r["expected_status"] == "grounded" for r in rows)
    print(f"{fixtures}: {len(rows)} rows ({answerable} answerable)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
