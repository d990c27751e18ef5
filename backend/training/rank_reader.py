"""The answer reader's second stage: reorder what retrieval proposes, on textbooks.

    backend/.venv/bin/python backend/training/rank_reader.py --out FILE [--start FILE] [--data DIR]
    backend/.venv/bin/python backend/training/rank_reader.py --measure-only [--start FILE]

Starts from a first-stage reader (train_reader.py: SQuAD and the sample book) and trains it on
readers' questions about two of rank_data.py's books (the sample book's training questions
and the Node.js documents') with the passages hybrid search retrieves for them: per question,
the passages that hold the answer against the near misses retrieval ranked beside them, so that
the relevance logit learns to order a book's passages (a listwise loss: the cross-entropy of the
answering passage among its question's candidates) while keeping its meaning as "does this
passage answer?" (binary cross-entropy) and the span. A replay of SQuAD questions keeps the
span reading it learned there. Then it measures, on the held-out questions of each book and on
every question of the Rust book (never trained on: a book it has not seen), how often the
reader's first passage among those retrieved answers, against retrieval's first and against
the two fused (answer/reading.py), and how well its best score tells covered questions from
uncovered ones (AUC).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np
import torch

from bookchat.answer.reader import WEIGHTS, Reader, load_tokenizer
from bookchat.answer.reading import RANK_WEIGHT
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder

sys.path.insert(0, str(Path(__file__).parent))
from rank_data import Group, ranking_groups
from reader_data import Example, squad_articles, squad_examples
from train_reader import (
    SEED,
    SHARED,
    ReaderNet,
    Rows,
    by_question,
    check_scores,
    export,
    features,
    load_reader_net,
    question_plan,
    run_epoch,
)

LR, HEAD_LR = 3e-5, 3e-4
PAIRS = 16  # pairs a batch, whole questions only
REPLAY = 2_000  # SQuAD questions replayed beside the books'
LISTWISE = 1.0
# The Rust book's questions are never trained on: they measure the reader on a book it never saw.
TRAINED_BOOKS = frozenset({"sample-book", "nodejs-api"})


def measured(group: Group, trained: frozenset[str] = TRAINED_BOOKS) -> bool:
    """Kept out of training, to measure on."""
    return group.held_out or group.book not in trained


def group_rows(
    tokenizer: Any, groups: list[Group], trained: frozenset[str] = TRAINED_BOOKS
) -> list[list[dict[str, Any]]]:
    """Each training question's candidates as feature rows, answering ones first."""
    out = []
    for g in groups:
        if measured(g, trained):
            continue
        positives = [c for c in g.candidates if c.answers][:1]
        negatives = [c for c in g.candidates if not c.answers][: 4 if g.answerable else 3]
        rows = []
        for c in positives + negatives:
            example = Example(g.question, c.text, c.start, g.answer if c.answers else "", g.book)
            row = features(tokenizer, example)
            if row is not None:
                rows.append(row)
        if rows:
            out.append(rows)
    return out


def replay_rows(tokenizer: Any, rng: random.Random) -> list[list[dict[str, Any]]]:
    """SQuAD questions with their negatives, grouped by question (reader_data.py)."""
    articles = squad_articles(SHARED / "squad11-train" / "articles.jsonl.gz")
    featured = ((e.question, features(tokenizer, e)) for e in squad_examples(articles, REPLAY, rng))
    return by_question((q, row) for q, row in featured if row is not None)


def train(model: ReaderNet, groups: list[Rows], threads: int) -> float:
    """One epoch over `groups`, the listwise loss beside the first stage's; returns minutes."""
    torch.set_num_threads(threads)
    started = time.perf_counter()
    plan, extra = question_plan(groups, random.Random(SEED), PAIRS, LISTWISE)
    run_epoch(model, plan, started, LR, HEAD_LR, extra)
    return (time.perf_counter() - started) / 60


def auc(positives: list[float], negatives: list[float]) -> float | None:
    """The chance a covered question's best score beats an uncovered one's."""
    if not positives or not negatives:
        return None
    p, n = np.array(positives)[:, None], np.array(negatives)[None, :]
    return round(float(((p > n) + 0.5 * (p == n)).mean()), 4)


def measure(
    reader: Reader, groups: list[Group], top: int, trained: frozenset[str] = TRAINED_BOOKS
) -> dict[str, Any]:
    """Held-out questions per book: the reader's first passage among retrieval's `top` against
    retrieval's first and the two fused, and the AUC of the best relevance, covered against
    uncovered."""
    figures: dict[str, Any] = {}
    for book in sorted({g.book for g in groups}):
        mine = [g for g in groups if g.book == book and measured(g, trained)]
        right = {"retrieval@1": 0, "reader@1": 0, "fused@1": 0, "gold retrieved": 0}
        covered: list[float] = []
        uncovered: list[float] = []
        for g in mine:
            shown = [c for c in g.candidates if c.rank < top]
            if not shown:
                continue
            readings = reader.read(g.question, [c.text for c in shown])
            best = max(readings, key=lambda r: r.relevance)
            (covered if g.answerable else uncovered).append(best.relevance)
            if g.answerable and any(c.answers for c in shown):
                right["gold retrieved"] += 1
                right["retrieval@1"] += shown[0].answers
                right["reader@1"] += shown[best.passage].answers
                fused = [
                    r.relevance - RANK_WEIGHT * math.log1p(c.rank)
                    for r, c in zip(readings, shown, strict=True)
                ]
                right["fused@1"] += shown[int(np.argmax(fused))].answers
        figures[book] = {
            **right,
            "answerable": sum(g.answerable for g in mine),
            "auc": auc(covered, uncovered),
        }
    return figures


def main() -> None:
    """Build the groups, train (unless --measure-only), measure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=Path, default=WEIGHTS, help="first-stage weights")
    parser.add_argument("--out", type=Path, help="where to write the weights (when training)")
    parser.add_argument("--measure-only", action="store_true")
    parser.add_argument("--data", type=Path, help="keep the scratch indexes here (re-runs)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--books",
        default=",".join(sorted(TRAINED_BOOKS)),
        help="the books whose questions it trains on (comma-separated; the rest are measured)",
    )
    args = parser.parse_args()
    trained = frozenset(args.books.split(","))
    if not args.measure_only and args.out is None:
        # The committed reader is the first stage's (decisions.md, session 17): not overwritten.
        parser.error("--out is required when training")
    random.seed(SEED)
    torch.manual_seed(SEED)
    embedder = Embedder.from_settings(Settings(), threads=args.threads)
    groups = ranking_groups(embedder, args.data)
    counts = {b: sum(g.book == b for g in groups) for b in sorted({g.book for g in groups})}
    print(f"groups {counts}", flush=True)
    weights = args.start
    if not args.measure_only:
        tokenizer = load_tokenizer()
        rows = group_rows(tokenizer, groups, trained) + replay_rows(tokenizer, random.Random(SEED))
        print(f"{len(rows)} questions, {sum(map(len, rows))} pairs", flush=True)
        model = load_reader_net(args.start)
        minutes = train(model, rows, args.threads)
        export(model, args.out, {"seed": str(SEED), "stage": "ranking"})
        checks = check_scores(model, tokenizer)
        args.out.with_suffix(".checks.json").write_text(json.dumps(checks, indent=1) + "\n")
        print(f"trained in {minutes:.1f} min -> {args.out}", flush=True)
        weights = args.out
    reader = Reader(weights)
    for top in (5, 10):
        print(json.dumps({"top": top, **measure(reader, groups, top, trained)}), flush=True)


if __name__ == "__main__":
    main()
