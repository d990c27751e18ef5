"""Build the Rust-book evaluation: The Rust Programming Language as Markdown, and its readers'
questions as a `bookchat eval` fixture. `make eval-shared` runs it (scripts/eval-shared.sh).

    backend/.venv/bin/python bench/rust_book.py --out DIR [--html DIR] [--questions FILE]
    BOOKCHAT_DATA_DIR=$(mktemp -d) backend/.venv/bin/bookchat eval \
        --fixtures DIR/fixtures.jsonl --docs DIR/docs --summary DIR/summary.json

DIR/docs holds the book's chapter pages as Markdown (html_book.py), converted from the HTML
that rustup's `rust-docs` component installs; DIR/fixtures.jsonl one book-mode row per question
of backend/evals/rust-book/questions.jsonl. An answerable question expects the section whose
chunk, as ingest cuts the book, holds its `answer_text`, those words in the answer and, as its
reference answer, the same words; a question the book does not answer expects a decline. A
question whose words no chunk holds (they straddle two chunks) has nothing to be scored on and
is left out. No model here was trained or tuned on these questions: they measure what carries
over to a textbook nobody trained on. Exits 3 when no toolchain's docs are installed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import Any

from html_book import convert, rust_book_html

from bookchat.answer.short_answer import passage_text
from bookchat.ingest.corpus import build_corpus

REPO = Path(__file__).resolve().parents[1]
QUESTIONS = REPO / "backend" / "evals" / "rust-book" / "questions.jsonl"
NAME = "rust-book"
NOT_INSTALLED = 3


def answering_chunks(chunks: list[dict[str, Any]], doc: str, answer: str) -> list[dict[str, Any]]:
    """The chunk payloads of page `doc` whose text (as the reader reads it) holds `answer`."""
    return [c for c in chunks if c.get("path") == doc and answer in passage_text(c)]


def fixture_rows(
    questions: list[dict[str, Any]], chunks: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """One eval row per question (`id, doc, question, answerable, answer_text`); `chunks` are
    the payloads ingest makes of the book's pages."""
    rows = []
    for row in questions:
        answer = str(row.get("answer_text") or "")
        base = {
            "id": f"{NAME}-{row['id']}",
            "question": row["question"],
            "mode": "book",
            "chapter_path": None,
            "selection": None,
            "dataset_version": f"{NAME}-readers",
        }
        if not answer:
            rows.append({**base, "slice": "book/uncovered", "expected_status": "abstained"})
            continue
        found = answering_chunks(chunks, str(row["doc"]), answer)
        if not found:
            continue
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


def read_questions(path: Path) -> list[dict[str, Any]]:
    """The readers' questions, in file order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def build(
    html: Path, questions: list[dict[str, Any]], out: Path
) -> tuple[int, list[dict[str, Any]]]:
    """Write `out/docs` and `out/fixtures.jsonl`; returns the pages written and the rows."""
    docs = out / "docs"
    if docs.exists():
        shutil.rmtree(docs)
    pages = convert(html, docs)
    chunks = [c.payload for c in build_corpus(docs).chunks]
    rows = fixture_rows(questions, chunks)
    fixtures = out / "fixtures.jsonl"
    fixtures.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return pages, rows


def main() -> int:
    """Build the book and its fixture into --out."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for docs/ and fixtures")
    parser.add_argument(
        "--html", type=Path, help="the book's HTML folder (default: rustup's, stable first)"
    )
    parser.add_argument(
        "--questions", type=Path, default=QUESTIONS, help="the readers' questions (JSONL)"
    )
    args = parser.parse_args()
    html = args.html or rust_book_html()
    if html is None or not html.is_dir():
        print(
            "The Rust book's HTML is not installed (rustup component add rust-docs).",
            file=sys.stderr,
        )
        return NOT_INSTALLED
    questions = read_questions(args.questions)
    pages, rows = build(html, questions, args.out)
    asked = len(questions)
    answerable = sum(r["expected_status"] == "grounded" for r in rows)
    print(
        f"{pages} pages from {html}; {len(rows)} of {asked} questions as rows "
        f"({answerable} answerable, {asked - len(rows)} left out: answer split across chunks)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
