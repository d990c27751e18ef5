"""Check the readers' questions in docs-questions/, rust-book-questions/ and mdbook-questions/
against the documents they are about.

    backend/.venv/bin/python backend/training/check_docs_questions.py

Every row has the fields of the format (backend/training/README.md), a unique id and question, a
known kind; an answerable row's `answer_text` is a verbatim one-line substring of its document,
3 to 40 words; an unanswerable row has none. Exits 1 when a row fails, 2 when a document is not
installed here (Debian's nodejs package installs the Node.js documents; rustup's `rust-docs`
component the Rust book, made Markdown by html_book.py).
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from html_book import RUST_BOOK_HTML, convert, mdbook_questions

HERE = Path(__file__).parent
FOLDERS = (HERE / "docs-questions", HERE / "rust-book-questions")
# One folder per mdBook that rustup's `rust-docs` installs beside the Rust book (`cargo`, …).
MDBOOKS = HERE / "mdbook-questions"
FIELDS = {"id", "doc", "question", "answerable", "answer_text", "kind"}
KINDS = {
    "fact",
    "how-to",
    "why",
    "definition",
    "compare",
    "troubleshooting",
    "list",
    "table",
    "code",
    "error",
}


def problems(
    row: dict[str, object], seen: dict[str, set[str]], sources: dict[str, str]
) -> list[str]:
    """What is wrong with one row (nothing when it is right); `seen` holds the ids and questions
    of the rows before it, `sources` each document's text."""
    if set(row) != FIELDS:
        return [f"fields {sorted(row)}"]
    found = []
    for field, key in (("id", str(row["id"])), ("question", str(row["question"]).strip().lower())):
        if key in seen[field]:
            found.append(f"repeated {field}: {key}")
        seen[field].add(key)
    if row["kind"] not in KINDS:
        found.append(f"kind {row['kind']}")
    answer = row["answer_text"]
    if not row["answerable"]:
        return found + (["an unanswerable row has answer_text"] if answer is not None else [])
    source = sources[str(row["doc"])]
    if not isinstance(answer, str) or answer not in source or "\n" in answer:
        found.append("answer_text is not one line of its document, verbatim")
    elif not 3 <= len(answer.split()) <= 40:
        found.append(f"answer_text has {len(answer.split())} words")
    return found


def main() -> int:
    """Check every file; print one line per problem and a summary."""
    rows = [
        json.loads(line)
        for folder in FOLDERS
        for file in sorted(folder.glob("*.jsonl"))
        for line in file.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    with tempfile.TemporaryDirectory() as scratch:
        if RUST_BOOK_HTML.is_dir():
            convert(RUST_BOOK_HTML, Path(scratch))
        # A Rust book row names its page of the converted book; a Node.js row its full path.
        for row in rows:
            if not Path(str(row["doc"])).is_absolute():
                row["doc"] = str(Path(scratch) / str(row["doc"]))
        for _, docs, book_rows in mdbook_questions(MDBOOKS, Path(scratch)):
            rows.extend({**row, "doc": str(docs / str(row["doc"]))} for row in book_rows)
        return _check(rows)


def _check(rows: list[dict[str, object]]) -> int:
    docs = sorted({str(r["doc"]) for r in rows})
    missing = [doc for doc in docs if not Path(doc).is_file()]
    if missing:
        print(f"not installed here: {', '.join(missing)}", file=sys.stderr)
        return 2
    # Each document once: the rows about fs.md alone would read its 262 kB over a hundred times.
    sources = {doc: Path(doc).read_text(encoding="utf-8") for doc in docs}
    seen: dict[str, set[str]] = {"id": set(), "question": set()}
    bad = 0
    for row in rows:
        for problem in problems(row, seen, sources):
            bad += 1
            print(f"{row.get('id')}: {problem}")
    unanswerable = sum(not r["answerable"] for r in rows)
    print(f"{len(rows)} rows, {unanswerable} unanswerable, {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
