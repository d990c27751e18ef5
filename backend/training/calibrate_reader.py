"""Measure the answer reader on held-out data; writes backend/src/bookchat/answer/reader.json.

The service uses the reader for the short answer (its `span` margin), as the selection's veto
(`selection_veto`: below it the reader is sure a selection does not answer) and as the book's
judge where it is sure (`book_veto`, `book_vouch`); the figures they were fitted on are written
beside them, so that a retrained reader can be compared.

    backend/.venv/bin/python backend/training/calibrate_reader.py [--data DIR] [--weights FILE]
        [--out FILE]
    (make train runs it after train_reader.py)

On questions and paragraphs the reader never trained on (reader_data.py holds them out):
squad-train10, ingested as a book, and every fourth sample-book training question. Each
question is asked as the service asks it (the same hybrid retrieval, the same passages read):
- book mode's judge: the reader's best P over the first POOL passages of answerable questions
  whose gold section is among them, of the same questions asked of the book without their own
  page (off-topic) and of the questions the book does not cover; SQuAD 2.0's unanswerable
  questions are reported, not fitted on. `book_veto` is the highest P keeping VETO_KEPT of each
  source's answerable questions at or above it; `book_vouch` the one VOUCH_DECLINED of the
  off-topic and uncovered asks stay below;
- selection mode: the gold paragraph selected (answered); another paragraph of its article, or
  an unanswerable question's own paragraph (declined); `selection_veto` keeps VETO_KEPT of each
  source's answerable selections.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np

from bookchat.answer.reader import CALIBRATION, WEIGHTS, Reader
from bookchat.answer.short_answer import passage_text, span_of
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.evals.short_answer import squad_f1
from bookchat.ingest.corpus import build_corpus
from bookchat.vectorstore import Hit

sys.path.insert(0, str(Path(__file__).parent))
from reader_data import HELD_OUT_UNANSWERABLE, held_out_book
from scratch_book import ScratchBook, add_data_option

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "corpora"
SEED = 13
SQUAD_QUESTIONS = 500  # answerable squad-train10 questions asked (of 4,371)
# Share of the held-out answerable selections that keep a short answer: the margin leaves out
# only the few the reader doubts most.
SHOWN_SPANS = 0.95
# Share of each source's held-out answerable selections (squad-train10's, the sample book's) that
# the reader's veto leaves answered.
VETO_KEPT = 0.98
# Book and chapter mode: the reader reads the passages an answer is drawn from (the first
# POOL retrieved, as grounding.pool keeps) and vouches for them where no more than
# 1 - VOUCH_DECLINED of the held-out off-topic and uncovered asks read as well.
POOL = 4
# Passages retrieved per question: an answerable question counts where its gold section is
# among them.
READ = 8
VOUCH_DECLINED = 0.99


@dataclass(slots=True)
class Scores:
    """P(covered) of the questions of each kind, per mode."""

    by_kind: dict[str, list[float]] = field(default_factory=dict)

    def add(self, kind: str, value: float) -> None:
        """Record one question's best P(covered)."""
        self.by_kind.setdefault(kind, []).append(value)

    def share_above(self, kind: str, threshold: float) -> float | None:
        """Share of `kind` at or above `threshold` (answered), None when there is none."""
        values = self.by_kind.get(kind, [])
        return round(float(np.mean([v >= threshold for v in values])), 4) if values else None


class Book(ScratchBook):
    """A scratch index of one book."""

    def hits(self, question: str, vector: Any, drop_path: str | None = None) -> list[Hit]:
        """The passages the service reads (with `drop_path`: as if that page were not there)."""
        limit = READ * 4 if drop_path else READ
        hits = self.retriever.search(question, vector.tolist(), limit=limit)
        return [h for h in hits if h.payload.get("path") != drop_path][:READ]


def best(reader: Reader, question: str, texts: list[str]) -> float:
    """The reader's best P(covered) over `texts`."""
    return max((r.probability for r in reader.read(question, texts)), default=0.0)


def read_book(reader: Reader, question: str, hits: list[Hit], pool: Scores, key: str) -> None:
    """Record the best P over the pool's passages (the first POOL) as `key` (source:kind)."""
    pool.add(key, best(reader, question, [passage_text(h.payload) for h in hits[:POOL]]))


def book_mode(
    reader: Reader,
    book: Book,
    embedder: Embedder,
    questions: list[dict[str, Any]],
    pool: Scores,
    src: str,
) -> None:
    """Ask each question of the book, answerable ones again without their page."""
    vectors = embedder.embed([q["question"] for q in questions])
    for q, vector in zip(questions, vectors, strict=True):
        text, kind = q["question"], q["kind"]
        hits = book.hits(text, vector)
        if kind != "answerable":
            read_book(reader, text, hits, pool, f"{src}:{kind}")
            continue
        if any((h.payload.get("path"), h.payload.get("section")) == q["gold"] for h in hits):
            read_book(reader, text, hits, pool, f"{src}:answerable")
        off = book.hits(text, vector, drop_path=q["gold"][0])
        read_book(reader, text, off, pool, f"{src}:off-topic")


def squad_rows() -> list[dict[str, Any]]:
    """squad-train10's questions, with the index of their article."""
    rows, titles = [], []
    for line in (SHARED / "squad-train10" / "questions.jsonl").read_text("utf-8").splitlines():
        row = json.loads(line)
        if row["article_title"] not in titles:
            titles.append(row["article_title"])
        row["article"] = titles.index(row["article_title"])
        rows.append(row)
    return rows


def threshold_for(negatives: list[float], declined: float) -> float:
    """The lowest threshold declining `declined` of `negatives`."""
    ordered = sorted(negatives)
    at = min(len(ordered) - 1, int(np.ceil(declined * len(ordered))) - 1)
    return round(float(ordered[at]) + 1e-4, 4)


def veto_for(*answerable: list[float]) -> float:
    """The highest P that leaves VETO_KEPT of each source's answerable selections at or above
    it: below it, the reader is sure the selection does not answer."""
    kept = [float(np.quantile(values, 1 - VETO_KEPT)) for values in answerable if values]
    return round(min(kept) - 1e-4, 4)


def fit_span_margin(scores: list[float | None], grid: list[float]) -> float:
    """The highest margin of `grid` at which SHOWN_SPANS of the held-out answerable selections
    keep a short answer (`scores`: the margin of each one's short answer, None for none)."""
    shown = {m: float(np.mean([s is not None and s >= m for s in scores])) for m in grid}
    return max((m for m in grid if shown[m] >= SHOWN_SPANS), default=grid[0])


def main() -> None:
    """Score the held-out questions, fit and write the thresholds."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_data_option(parser)
    parser.add_argument(
        "--weights", type=Path, default=WEIGHTS, help="the reader to measure (default: shipped)"
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=CALIBRATION,
        help="where to write the thresholds (default: the shipped answer/reader.json)",
    )
    args = parser.parse_args()
    if not SHARED.exists():
        sys.exit(f"error: calibration needs {SHARED} (the shared corpora)")
    rng = random.Random(SEED)
    reader = Reader(args.weights)
    embedder = Embedder.from_settings(Settings())  # type: ignore[call-arg]
    selection_scores, pool_scores = Scores(), Scores()

    rows = squad_rows()
    answerable = rng.sample([r for r in rows if r["answerable"]], SQUAD_QUESTIONS)
    adversarial = [r for r in rows if not r["answerable"] and r["article"] in HELD_OUT_UNANSWERABLE]
    squad = Book(SHARED / "squad-train10" / "docs", embedder, args.data)
    asked = [
        {
            "question": r["question"],
            "kind": "answerable",
            "gold": (str(r["chapter_file"]).removeprefix("docs/"), r["gold_section_heading"]),
        }
        for r in answerable
    ] + [{"question": r["question"], "kind": "adversarial"} for r in adversarial]
    book_mode(reader, squad, embedder, asked, pool_scores, "squad")
    squad.close()
    by_article: dict[int, list[str]] = {}
    for r in rows:
        by_article.setdefault(r["article"], []).append(r["selected_text"])
    span_f1: list[float] = []
    # Each answerable selection's short answer at any margin: (its margin, its SQuAD F1).
    spans: list[tuple[float, float] | None] = []
    for r in answerable:
        (reading,) = reader.read(r["question"], [r["selected_text"]])
        selection_scores.add("answerable", reading.probability)
        span_f1.append(max(squad_f1(reading.answer, gold) for gold in r["answers"]))
        short = span_of(reading, min_margin=float("-inf"))
        spans.append(
            None
            if short is None
            else (short.score, max(squad_f1(short.text, g) for g in r["answers"]))
        )
        others = [p for p in set(by_article[r["article"]]) if p != r["selected_text"]]
        other = rng.choice(sorted(others))
        selection_scores.add("other-passage", best(reader, r["question"], [other]))
    for r in adversarial:
        selection_scores.add("adversarial", best(reader, r["question"], [r["selected_text"]]))

    sample = [
        json.loads(line)
        for line in (ROOT / "backend" / "training" / "sample-book-questions.jsonl")
        .read_text("utf-8")
        .splitlines()
        if line.strip()
    ]
    held = [r for r in sample if held_out_book(str(r["id"]))]
    chunks = build_corpus(ROOT / "website" / "docs").chunks
    for r in (r for r in held if r["answerable"]):
        # The held-out question's own passage selected, as a reader selects it: no heading.
        own = next(
            (
                text
                for c in chunks
                if (c.payload.get("path"), c.payload.get("section")) == (r["path"], r["section"])
                and str(r["answer_text"]) in (text := str(c.payload.get("text", "")))
            ),
            None,
        )
        if own is not None:
            selection_scores.add("book-answerable", best(reader, r["question"], [own]))
    book = Book(ROOT / "website" / "docs", embedder, args.data)
    asked = [
        {"question": r["question"], "kind": "answerable", "gold": (r["path"], r["section"])}
        if r["answerable"]
        else {"question": r["question"], "kind": "uncovered"}
        for r in held
    ]
    book_mode(reader, book, embedder, asked, pool_scores, "sample")
    book.close()
    embedder.close()

    veto = veto_for(
        selection_scores.by_kind["answerable"], selection_scores.by_kind["book-answerable"]
    )
    pooled = pool_scores.by_kind
    book_veto = veto_for(pooled["squad:answerable"], pooled.get("sample:answerable", []))
    lacking = [
        v for k, vs in pooled.items() if k.endswith((":off-topic", ":uncovered")) for v in vs
    ]
    book_vouch = threshold_for(lacking, VOUCH_DECLINED)
    span_margin = fit_span_margin(
        [None if s is None else s[0] for s in spans], [round(-6 + 0.5 * i, 1) for i in range(17)]
    )
    shown = [s[1] for s in spans if s is not None and s[0] >= span_margin]
    figures = {
        "selection_veto": {
            k: selection_scores.share_above(k, veto) for k in selection_scores.by_kind
        },
        # Of the pool's best P: answered above the vouch, declined below the veto.
        "book_vouch": {k: pool_scores.share_above(k, book_vouch) for k in pooled},
        "book_veto": {k: pool_scores.share_above(k, book_veto) for k in pooled},
        # SQuAD F1 of the predicted span on the answerable questions' own paragraphs.
        "selection_span_f1": round(float(np.mean(span_f1)), 4),
        # ... of the short answers shown at the fitted margin (0 where none is), and their share.
        "selection_short_f1": round(float(np.sum(shown)) / len(answerable), 4),
        "selection_short_shown": round(len(shown) / len(answerable), 4),
        "counts": {
            "selection": {k: len(v) for k, v in selection_scores.by_kind.items()},
            "pool": {k: len(v) for k, v in pooled.items()},
        },
    }
    result = {
        "selection_veto": veto,
        "book_veto": book_veto,
        "book_vouch": book_vouch,
        "span": span_margin,
        "answered_at_threshold": figures,
        "note": "fitted by backend/training/calibrate_reader.py on held-out training data",
    }
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
