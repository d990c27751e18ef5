"""Fit the answer model's closeness: whether the book comes close enough to a question for the
reader to be shown its nearest sections when no passage answers.

    backend/.venv/bin/python backend/training/closeness.py    # make train runs it after train.py

Closeness is a logistic regression over answer/related.py's CLOSENESS_FEATURES: the best
retrieved passage's dense cosine and the share of the question's words the passages use (a
question about what a book never names shares few of its words). Training data only, three
books: the sample book's training questions, squad-train10's answerable questions and
task_book.py's people's tasks in their own words, each asked of its own book (covered), and
asked of the other books, of their own book without their page (squad, tasks) and topics no
training book covers (sample, squad: a book of commands and answers touches some of them)
(off-topic). Each book weighs the same. The threshold on its probability is the largest that
keeps `--decline` of the covered questions of each book, or fewer, below it: a covered question
told that nothing is close is the failure the reader minds most. Both are written into
model.json with the figures they were fitted on.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from bookchat.answer.model import Logistic, fit_logistic
from bookchat.answer.related import CLOSENESS_FEATURES, closeness_row
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder

sys.path.insert(0, str(Path(__file__).parent))
from scratch_book import ScratchBook, add_data_option
from task_book import task_book
from topic_questions import uncovered_topics
from train import ROOT, Question, sample_questions, squad_questions

HITS = 5  # the passages the service grounds on


@dataclass(frozen=True, slots=True)
class Asked:
    """One question asked of one book, and whether that book covers it."""

    book: str
    covered: bool
    row: tuple[float, ...]  # CLOSENESS_FEATURES


def _ask(
    book: ScratchBook, texts: list[str], embedder: Embedder, drop: list[str | None]
) -> list[tuple[float, ...]]:
    vectors = embedder.embed(texts)
    out = []
    for text, vector, path in zip(texts, vectors, drop, strict=True):
        found = book.retriever.search(text, vector.tolist(), limit=HITS + (25 if path else 0))
        kept = [h for h in found if path is None or h.payload.get("path") != path][:HITS]
        out.append(tuple(float(v) for v in closeness_row(text, kept)))
    return out


def measure(shared: Path, embedder: Embedder, data: Path | None, limit: int) -> list[Asked]:
    """Every training question's closeness, asked where it is covered and where it is not."""
    squad_dir = shared / "corpora/squad-train10"
    squad = [q for q in squad_questions(squad_dir) if q.answers][:limit]
    sample = [
        q
        for q in sample_questions(ROOT / "backend/training/sample-book-questions.jsonl")
        if q.answers
    ]
    with tempfile.TemporaryDirectory() as tmp:
        tasks_docs = Path(tmp) / "task-pairs/docs"
        tasks = task_book(shared / "corpora/task-pairs/pairs.jsonl.gz", tasks_docs)
        books = {
            "squad": (squad_dir / "docs", squad),
            "sample": (ROOT / "website/docs", sample),
            "tasks": (tasks_docs, tasks),
        }
        return [r for name in books for r in _measure_book(name, books, embedder, data)]


def _measure_book(
    name: str, books: dict[str, tuple[Path, list[Question]]], embedder: Embedder, data: Path | None
) -> list[Asked]:
    """One book's rows: its own questions, without their page, and every other book's."""
    docs, own = books[name]
    other: list[Question] = [q for n, (_, qs) in books.items() if n != name for q in qs]
    uncovered = [t.text for t in uncovered_topics()] if name != "tasks" else []
    book = ScratchBook(docs, embedder, data)
    try:
        texts = [q.text for q in own]
        rows = [Asked(name, True, c) for c in _ask(book, texts, embedder, [None] * len(texts))]
        if name != "sample":  # books of many pages: each question without its own page
            dropped = _ask(book, texts, embedder, [q.path for q in own])
            rows += [Asked(name, False, c) for c in dropped]
        foreign = [q.text for q in other] + uncovered
        return rows + [
            Asked(name, False, c) for c in _ask(book, foreign, embedder, [None] * len(foreign))
        ]
    finally:
        book.close()


def fit(rows: list[Asked], decline: float) -> tuple[Logistic, float, dict[str, object]]:
    """The model, its threshold and, per book, how covered and off-topic questions fall."""
    books = sorted({r.book for r in rows})
    x = np.array([r.row for r in rows], dtype=np.float64)
    y = np.array([float(r.covered) for r in rows])
    # Each book's covered and its off-topic questions weigh the same share of the whole.
    groups = [(r.book, r.covered) for r in rows]
    sizes = {g: groups.count(g) for g in set(groups)}
    weights = np.array([len(rows) / (len(sizes) * sizes[g]) for g in groups])
    model = fit_logistic(CLOSENESS_FEATURES, x, y, weights=weights)
    p = model.predict(x)
    by_book = {
        (b, covered): [
            pi for pi, r in zip(p, rows, strict=True) if (r.book, r.covered) == (b, covered)
        ]
        for b in books
        for covered in (True, False)
    }
    cuts = [float(np.quantile(by_book[b, True], decline)) for b in books]
    threshold = round(min(cuts), 4)
    figures: dict[str, object] = {"decline_target": decline}
    for b in books:
        covered, off = by_book[b, True], by_book[b, False]
        figures[b] = {
            "covered": len(covered),
            "covered_declined": round(float(np.mean(np.array(covered) < threshold)), 4),
            "off_topic": len(off),
            "off_topic_declined": round(float(np.mean(np.array(off) < threshold)), 4),
        }
    return model, threshold, figures


def main() -> int:
    """Measure, fit and write close_threshold into the answer model."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared", help="shared/")
    parser.add_argument(
        "--model",
        type=Path,
        default=ROOT / "backend/src/bookchat/answer/model.json",
        help="the answer model to write close_threshold into",
    )
    add_data_option(parser)
    parser.add_argument(
        "--decline", type=float, default=0.02, help="covered questions allowed below it"
    )
    parser.add_argument("--limit", type=int, default=1500, help="squad-train10 questions")
    parser.add_argument("--dry-run", action="store_true", help="print, do not write")
    args = parser.parse_args()
    if not (args.shared / "corpora/squad-train10").is_dir():
        print(f"error: {args.shared}/corpora/squad-train10 not found", file=sys.stderr)
        return 2
    embedder = Embedder.from_settings(Settings(), threads=2)
    try:
        rows = measure(args.shared, embedder, args.data, args.limit)
    finally:
        embedder.close()
    closeness, threshold, figures = fit(rows, args.decline)
    print(json.dumps({"close_threshold": threshold, **figures}, indent=1))
    if not args.dry_run:
        model = json.loads(args.model.read_text(encoding="utf-8"))
        model["closeness"] = closeness.to_json()
        model["close_threshold"] = threshold
        model.setdefault("trained_on", {})["closeness"] = figures
        args.model.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
