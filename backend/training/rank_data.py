"""Readers' questions on textbooks, each with the passages retrieval proposes for it.

The answer reader's second stage trains on what the product shows it: for a question, the
passages hybrid search retrieves from the question's book, the ones holding the answer's words
marked as answering and the rest as near misses (the hard negatives a reranker needs); for a
question the book does not cover, the passages retrieved are all near misses. Six books,
public and never evaluated:
- the sample book's training questions (`sample-book-questions.jsonl`, its held-out quarter kept
  out as reader_data.py does);
- readers' questions on Node.js's API documents (`docs-questions/`, Debian's `nodejs` package);
- readers' questions on *The Rust Programming Language* (`rust-book-questions/`, the mdBook that
  rustup's `rust-docs` component installs, made Markdown by html_book.py);
- readers' questions on three more of its mdBooks (`mdbook-questions/<book>/`: the Embedded Rust
  Book, the Rustonomicon, the Cargo Book).
One question in five of all but the sample book is held out (by id) to measure the reader's
ranking.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from html_book import RUST_BOOK_HTML, convert, mdbook_questions
from reader_data import held_out_book
from scratch_book import ScratchBook

from bookchat.answer.short_answer import passage_text
from bookchat.embedding.embedder import Embedder
from bookchat.ingest.corpus import build_corpus

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
RETRIEVED = 10  # passages retrieved per question: what the reader may be asked to reorder
NEGATIVES = 4  # near misses kept per answerable question (the best-ranked ones)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A retrieved passage as the reader reads it, and whether it holds the answer."""

    text: str
    section: str
    rank: int  # retrieval's rank, 0 first; RETRIEVED for a passage retrieval missed
    answers: bool
    start: int  # the answer's character offset in `text`, or -1


@dataclass(frozen=True, slots=True)
class Group:
    """One question with its candidates."""

    book: str
    id: str
    question: str
    answerable: bool
    answer: str
    held_out: bool
    candidates: tuple[Candidate, ...]


@dataclass(frozen=True, slots=True)
class Source:
    """One book and its questions, in a common shape: `doc` is the docs-relative page path."""

    name: str
    docs: Path
    rows: list[dict[str, Any]]


def held_out(question_id: str) -> bool:
    """One readers' question in five is kept to measure on."""
    return zlib.crc32(question_id.encode()) % 5 == 0


def _jsonl(folder: Path, pattern: str) -> list[dict[str, Any]]:
    return [
        json.loads(line)
        for file in sorted(folder.glob(pattern))
        for line in file.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]


def sources(scratch: Path) -> list[Source]:
    """The books, their documents laid out under `scratch` where they are not a folder."""
    sample = [
        {**r, "doc": r["path"], "held_out": held_out_book(r["id"])}
        for r in _jsonl(HERE, "sample-book-questions.jsonl")
    ]
    node_rows = _jsonl(HERE / "docs-questions", "dq*.jsonl")
    node = scratch / "nodejs-api" / "docs"
    node.mkdir(parents=True, exist_ok=True)
    for doc in sorted({r["doc"] for r in node_rows}):
        shutil.copy(doc, node / Path(doc).name)
    node_rows = [
        {**r, "doc": Path(r["doc"]).name, "held_out": held_out(r["id"])} for r in node_rows
    ]
    rust = scratch / "rust-book" / "docs"
    convert(RUST_BOOK_HTML, rust)
    rust_rows = [
        {**r, "held_out": held_out(r["id"])}
        for r in _jsonl(HERE / "rust-book-questions", "rb*.jsonl")
    ]
    books = [
        Source("sample-book", ROOT / "website" / "docs", sample),
        Source("nodejs-api", node, node_rows),
        Source("rust-book", rust, rust_rows),
    ]
    for name, docs, rows in mdbook_questions(HERE / "mdbook-questions", scratch):
        books.append(Source(name, docs, [{**r, "held_out": held_out(r["id"])} for r in rows]))
    return books


def answering_chunks(chunks: list[dict[str, Any]], doc: str, answer: str) -> list[dict[str, Any]]:
    """The chunk payloads of page `doc` whose text (as the reader reads it) holds `answer`."""
    return [c for c in chunks if c.get("path") == doc and answer in passage_text(c)]


def _groups(source: Source, embedder: Embedder, data: Path | None) -> Iterator[Group]:
    book = ScratchBook(source.docs, embedder, data)
    try:
        chunks = [c.payload for c in build_corpus(source.docs).chunks]
        vectors = embedder.embed([r["question"] for r in source.rows])
        for row, vector in zip(source.rows, vectors, strict=True):
            hits = book.retriever.search(row["question"], vector.tolist(), limit=RETRIEVED)
            answer = str(row.get("answer_text") or "")
            candidates = []
            gold_sections = set()
            for rank, hit in enumerate(hits):
                text = passage_text(hit.payload)
                mine = bool(answer) and hit.payload.get("path") == row["doc"] and answer in text
                if mine:
                    gold_sections.add(str(hit.payload.get("section")))
                section = str(hit.payload.get("section"))
                start = text.find(answer) if mine else -1
                candidates.append(Candidate(text, section, rank, mine, start))
            if answer and not gold_sections:
                missed = answering_chunks(chunks, row["doc"], answer)
                if not missed:
                    continue
                text = passage_text(missed[0])
                section = str(missed[0].get("section"))
                gold_sections.add(section)
                candidates.append(Candidate(text, section, RETRIEVED, True, text.find(answer)))
            # A passage of the answer's own section without its words may still say it otherwise.
            kept = tuple(
                c for c in candidates if c.answers or not (answer and c.section in gold_sections)
            )
            yield Group(
                source.name,
                str(row["id"]),
                str(row["question"]),
                bool(answer),
                answer,
                bool(row["held_out"]),
                kept,
            )
    finally:
        book.close()


def ranking_groups(embedder: Embedder, data: Path | None = None) -> list[Group]:
    """Every question of every book with its retrieved candidates."""
    with tempfile.TemporaryDirectory() as scratch:
        out: list[Group] = []
        for source in sources(Path(scratch)):
            out.extend(_groups(source, embedder, data))
        return out
