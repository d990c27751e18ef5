"""Fit the answer model (unit scorer, coverage, thresholds); writes answer/model.json.

    backend/.venv/bin/python backend/training/train.py [--data DIR] [--holdout]   # make train

Data, never the evaluation rows: squad-train10 (the first 10 articles of the SQuAD 2.0 training
set, ../shared/corpora/squad-train10) and the sample book's own training questions
(backend/training/sample-book-questions.jsonl). Each book is ingested into a scratch index and
every question is answered the way the service answers it (same retrieval, same candidates,
same features), so the model learns from exactly what it will see.

Examples:
- unit scorer: the candidates of a covered question, positive where the unit holds the gold
  answer inside the gold section;
- coverage, book mode: answerable questions whose gold section was retrieved (positive); the
  unanswerable ones, and answerable ones asked of the book with their own article removed
  (off-topic, negative); broad topic questions written from the books' headings
  (topic_questions.py), positive where retrieval proposes their section, negative asked of the
  other book, like topics neither book covers;
- coverage, selection mode: the gold paragraph selected (positive); another paragraph of the same
  article, or an unanswerable question's paragraph (negative).
Deterministic: same data, same weights. Why it is built so:
specs/001-bookchat/decisions/0014-learned-answer-model.md and 0031-training-the-models.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from bookchat.answer.asked import Asked
from bookchat.answer.coverage_row import coverage_features
from bookchat.answer.features import FEATURES, Context
from bookchat.answer.grounding import Grounder
from bookchat.answer.judge import Judged, judge, pool, unit_candidates
from bookchat.answer.model import COVERAGE_FEATURES, AnswerModel, Logistic, fit_logistic
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.markdown.units import split_units
from bookchat.retrieval.named import code_terms
from bookchat.retrieval.sentence_vectors import PassageVectors, SentenceVectors
from bookchat.vectorstore import Hit

sys.path.insert(0, str(Path(__file__).parent))
from scratch_book import ScratchBook, add_data_option
from topic_questions import Topic, book_topics, uncovered_topics

ROOT = Path(__file__).resolve().parents[2]
OFF_TOPIC_EVERY = 3  # every third answerable question is also asked with its article removed
SAMPLE_BOOK_WEIGHT = 5.0  # few rows, but the only ones with real headings, lists, tables, code
TOPIC_WEIGHT = 1.0  # a topic question weighs what a SQuAD question does


@dataclass(frozen=True, slots=True)
class Question:
    """One training question: where its answer is, if anywhere."""

    text: str
    path: str | None
    section: str | None
    answers: tuple[str, ...]
    paragraph: str | None
    book: str


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def squad_questions(folder: Path) -> list[Question]:
    """squad-train10's questions (answerable and not)."""
    out = []
    for line in (folder / "questions.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        path = str(row["chapter_file"]).removeprefix("docs/")
        out.append(
            Question(
                row["question"],
                path,
                row["gold_section_heading"],
                tuple(row["answers"]) if row["answerable"] else (),
                row.get("selected_text"),
                "squad",
            )
        )
    return out


def sample_questions(path: Path) -> list[Question]:
    """The sample book's training questions."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        answerable = row.get("answerable", True) and row.get("answer_text")
        out.append(
            Question(
                row["question"],
                row.get("path") if answerable else None,
                row.get("section") if answerable else None,
                (row["answer_text"],) if answerable else (),
                None,
                "sample",
            )
        )
    return out


def _holds(unit_text: str, plain: str, answers: tuple[str, ...]) -> bool:
    text, plain = _norm(unit_text), _norm(plain)
    return any(_norm(a) in text or _norm(a) in plain for a in answers if a.strip())


def _gold(hit: Hit, q: Question) -> bool:
    return hit.payload.get("path") == q.path and hit.payload.get("section") == q.section


class Book(ScratchBook):
    """A scratch index of one book and the service's own retrieval and judging over it."""

    def __init__(
        self, docs: Path, embedder: Embedder, model: AnswerModel, data: Path | None
    ) -> None:
        super().__init__(docs, embedder, data)
        self.cache = SentenceVectors(embedder, capacity=200_000)
        self.grounder = Grounder(
            self.settings, PassageVectors(self.store, self.cache), self.cache, model
        )

    def hits(self, q: str, vector: np.ndarray, *, drop_path: str | None = None) -> list[Hit]:
        """What the service would ground on (or, with drop_path, a book without that page)."""
        if drop_path is None:
            hits = self.retriever.search(q, vector.tolist(), limit=5)
        else:
            found = self.retriever.search(q, vector.tolist(), limit=30)
            rest = [h for h in found if h.payload.get("path") != drop_path]
            hits = rest[:5]
        # Without the term a "What is X?" question asks about: a passage that pool() adds for it
        # (titled X, or setting X in bold) is one whose unit and coverage the service decides by
        # rule (grounding.decide), never by the model, so it teaches the model nothing it is
        # asked.
        return pool(hits, self.settings.min_chunk_score, code_terms(q))


@dataclass(slots=True)
class Example:
    """One judged question: its candidates' features and labels, and its coverage label."""

    judged: Judged
    labels: np.ndarray  # per candidate
    covered: bool
    kind: str  # answerable, adversarial, off-topic, selection-*
    weight: float
    group: str = ""  # "<book>:<page>" of its question: held-out folds never split a page


async def book_examples(
    book: Book,
    questions: list[Question],
    embedder: Embedder,
    unanswered: dict[str, int],
    asked: dict[str, int],
) -> list[Example]:
    """Book-mode examples (answerable, adversarial, off-topic) of one book's questions;
    `unanswered` counts the asks declined before any model (no passage above min_chunk_score),
    `asked` the answerable questions asked, per book (retrieval's misses included)."""
    vectors = embedder.embed([q.text for q in questions])
    out: list[Example] = []
    for i, (q, vector) in enumerate(zip(questions, vectors, strict=True)):
        weight = SAMPLE_BOOK_WEIGHT if q.book == "sample" else 1.0
        asks: list[tuple[str, str | None]] = [("answerable" if q.answers else "adversarial", None)]
        if q.answers and i % OFF_TOPIC_EVERY == 0:
            asks.append(("off-topic", q.path))
        if q.answers:
            asked[q.book] = asked.get(q.book, 0) + 1
        for kind, drop in asks:
            hits = book.hits(q.text, vector, drop_path=drop)
            if not hits:
                unanswered[kind] = unanswered.get(kind, 0) + 1
                continue
            judged = await book.grounder.judge_hits(Asked.of(q.text), vector, hits)
            if not judged.candidates:
                continue
            gold_hits = {h.chunk_id for h in hits if kind == "answerable" and _gold(h, q)}
            labels = np.array(
                [
                    float(
                        hits[c.source].chunk_id in gold_hits
                        and _holds(c.unit.text, c.unit.plain, q.answers)
                    )
                    for c in judged.candidates
                ]
            )
            covered = kind == "answerable" and labels.any()
            if kind == "answerable" and not covered:
                continue  # retrieval missed the gold unit: nothing to learn about coverage
            group = f"{q.book}:{q.path}"
            out.append(Example(judged, labels, bool(covered), kind, weight, group))
    return out


async def topic_examples(
    book: Book, own: list[Topic], others: list[Topic], embedder: Embedder
) -> list[Example]:
    """Coverage examples of topic questions: the book's own (covered where retrieval proposes the
    section or page they name) and other books' or no book's (off-topic). No unit answers a
    topic, so these teach coverage only, never the unit scorer."""
    asks = [(t, "topic") for t in own] + [(t, "off-topic") for t in others]
    vectors = embedder.embed([t.text for t, _ in asks])
    out: list[Example] = []
    for (topic, kind), vector in zip(asks, vectors, strict=True):
        hits = book.hits(topic.text, vector)
        if not hits:
            # Declined before any model. Unlike book_examples' asks these are not counted as
            # declined off-topic ones: the threshold is held to the topics the model does see.
            continue
        judged = await book.grounder.judge_hits(Asked.of(topic.text), vector, hits)
        if not judged.candidates:
            continue
        found = any(
            topic.answered_by(h.payload.get("path"), h.payload.get("section")) for h in hits
        )
        if kind == "topic" and not found:
            continue  # retrieval missed the topic's section: nothing to learn about coverage
        labels = np.zeros(len(judged.candidates))
        group = f"{topic.book}:{topic.path}"
        out.append(Example(judged, labels, kind == "topic", kind, TOPIC_WEIGHT, group))
    return out


async def selection_examples(
    book: Book, questions: list[Question], model: AnswerModel, embedder: Embedder
) -> list[Example]:
    """Selection-mode examples: the gold paragraph, another paragraph, adversarial ones."""
    paragraphs: dict[str, list[str]] = {}
    for q in questions:
        if q.paragraph and q.path:
            paragraphs.setdefault(q.path, [])
            if q.paragraph not in paragraphs[q.path]:
                paragraphs[q.path].append(q.paragraph)
    chosen = [q for i, q in enumerate(questions) if q.paragraph and i % 4 == 0]
    vectors = embedder.embed([q.text for q in chosen])
    out = []
    for i, (q, vector) in enumerate(zip(chosen, vectors, strict=True)):
        others = [p for p in paragraphs.get(q.path or "", []) if p != q.paragraph]
        asks = [("selection-answerable" if q.answers else "selection-adversarial", q.paragraph)]
        if q.answers and others and i % 2 == 0:
            asks.append(("selection-other", others[i % len(others)]))
        for kind, text in asks:
            assert text is not None
            units = list({u.text: u for u in split_units(text)}.values())
            candidates = unit_candidates(units)
            if not candidates:
                continue
            _, matrix = await book.cache.embed([c.unit.plain for c in candidates])
            sims = matrix @ vector
            zeros = np.zeros(len(candidates), dtype=np.float32)
            asked = Asked.of(q.text)
            ctx = Context(asked, vector, matrix, zeros, zeros, [float(sims.max())])
            judged = judge(model, asked, candidates, ctx, [text], selection=True)
            labels = np.array(
                [
                    float(kind == "selection-answerable" and _holds(c.unit.text, "", q.answers))
                    for c in candidates
                ]
            )
            covered = kind == "selection-answerable" and labels.any()
            if kind == "selection-answerable" and not covered:
                continue
            out.append(Example(judged, labels, bool(covered), kind, 1.0, f"{q.book}:{q.path}"))
    return out


def _fit_scorer(ranked: list[Example]) -> Logistic:
    x = np.vstack([ex.judged.features for ex in ranked])
    y = np.concatenate([ex.labels for ex in ranked])
    # Each question weighs the same whatever its number of gold units.
    w = np.concatenate(
        [np.full(len(ex.labels), ex.weight / max(1.0, ex.labels.sum())) for ex in ranked]
    )
    return fit_logistic(FEATURES, x, y, l2=1.0, weights=w)


def _top1(examples: list[Example], scorer: Logistic) -> float:
    hits = [ex.labels[int(np.argmax(scorer.predict(ex.judged.features)))] for ex in examples]
    return round(float(np.mean(hits)), 4) if hits else 0.0


def held_out(ranked: list[Example], asked: dict[str, int]) -> dict[str, dict[str, float]]:
    """Best unit right on pages the scorer was not fitted on: two folds by page, each scored by
    the scorer fitted on the other, reported per book (how a feature change should be judged),
    among the questions whose gold unit was retrieved and end to end, among all answerable
    ones asked (how a retrieval change should be judged)."""
    fold = [zlib.crc32(ex.group.encode()) % 2 for ex in ranked]
    scored: dict[str, list[float]] = {}
    asked_right: dict[str, float] = {}
    for k in (0, 1):
        scorer = _fit_scorer([ex for ex, f in zip(ranked, fold, strict=True) if f != k])
        for ex, f in zip(ranked, fold, strict=True):
            if f == k:
                right = ex.labels[int(np.argmax(scorer.predict(ex.judged.features)))]
                book = ex.group.split(":")[0]
                scored.setdefault(book, []).append(float(right))
                if ex.kind == "answerable":
                    asked_right[book] = asked_right.get(book, 0.0) + float(right)
    return {
        "best_unit_right": {b: round(float(np.mean(v)), 4) for b, v in sorted(scored.items())},
        "end_to_end": {b: round(asked_right.get(b, 0.0) / n, 4) for b, n in sorted(asked.items())},
    }


def _zero_model() -> AnswerModel:
    zeros = Logistic(
        FEATURES, np.zeros(len(FEATURES)), np.zeros(len(FEATURES)), np.ones(len(FEATURES))
    )
    cov = Logistic(
        COVERAGE_FEATURES,
        np.zeros(len(COVERAGE_FEATURES)),
        np.zeros(len(COVERAGE_FEATURES)),
        np.ones(len(COVERAGE_FEATURES)),
    )
    return AnswerModel(zeros, cov, 0.5, 0.5, {})


def _coverage_rows(examples: list[Example], scorer: Logistic) -> tuple[np.ndarray, np.ndarray]:
    """Coverage rows with the trained scorer's best score (and, in a selection, its margin)."""
    rows = []
    for ex in examples:
        j = ex.judged
        scores = scorer.predict(j.features)
        if j.selection:
            # One passage: only the scores change the row, so it is recomputed whole.
            row = coverage_features(
                j.asked, j.features, scores, j.candidates, j.evidence, selection=True
            )
        else:
            # Book rows keep the passage features of the blank scorer's pick (the top-retrieved
            # passage): recomputing them around the trained scorer's pick did not help on
            # held-out articles.
            row = j.coverage.copy()
            row[COVERAGE_FEATURES.index("best_score")] = scores.max()
        rows.append(row)
    return np.array(rows), np.array([float(ex.covered) for ex in examples])


# What the threshold must hold on the training questions: the book declines nearly every
# off-topic question, and at least this share of SQuAD's unanswerable ones (written to look
# answerable from their own paragraph). The lowest threshold that does so answers the most.
OFF_TOPIC_DECLINED = 0.97
ADVERSARIAL_DECLINED = 0.35
# A selection was chosen by the reader: another paragraph of the same article must still be
# declined nearly always, and at least this share of SQuAD's unanswerable questions about it.
SELECTION_OTHER_DECLINED = 0.90
SELECTION_ADVERSARIAL_DECLINED = 0.15


# Features a book-mode coverage model leaves out. The best unit's margin over the runner-up
# speaks of one passage the reader chose; in a book the runner-up is often the same fact in
# another passage, which says nothing against coverage (held-out articles: no gain there).
SELECTION_ONLY = ("best_score_margin",)


# Selections are a third as many rows, two of their features are one (a selection's passage
# cosine is its best unit's): a firmer L2 ranks held-out articles' selections better, against
# other paragraphs and against unanswerable questions alike.
SELECTION_L2 = 10.0


def _fit_coverage(
    examples: list[Example], scorer: Logistic, *, skip: tuple[str, ...] = (), l2: float = 1.0
) -> Logistic:
    cx, cy = _coverage_rows(examples, scorer)
    weights = np.array([ex.weight for ex in examples])
    keep = [i for i, name in enumerate(COVERAGE_FEATURES) if name not in skip]
    names = [COVERAGE_FEATURES[i] for i in keep]
    fitted = fit_logistic(names, cx[:, keep], cy, l2=l2, weights=weights)
    # Back in the full feature order: a skipped feature weighs 0.
    return Logistic.from_json(fitted.to_json(), COVERAGE_FEATURES)


def _threshold(
    p: np.ndarray, kinds: list[str], unanswered: dict[str, int], *, selection: bool = False
) -> float:
    """The lowest coverage threshold meeting both decline targets of book (or selection) mode."""
    kinds_arr = np.array(kinds)
    names = (
        ("selection-other", "selection-adversarial") if selection else ("off-topic", "adversarial")
    )
    targets = (
        (SELECTION_OTHER_DECLINED, SELECTION_ADVERSARIAL_DECLINED)
        if selection
        else (
            OFF_TOPIC_DECLINED,
            ADVERSARIAL_DECLINED,
        )
    )
    for t in np.linspace(0.05, 0.95, 181):
        declined = {}
        for kind in names:
            mask = kinds_arr == kind
            total = int(mask.sum()) + unanswered.get(kind, 0)
            declined[kind] = (int((p[mask] < t).sum()) + unanswered.get(kind, 0)) / max(1, total)
        if declined[names[0]] >= targets[0] and declined[names[1]] >= targets[1]:
            return round(float(t), 4)
    return 0.95


def _span_threshold(examples: list[Example], scorer: Logistic) -> float:
    """The best-unit score above which the best unit is right more often than not."""
    pairs = []
    for ex in examples:
        if not ex.covered:
            continue
        scores = scorer.predict(ex.judged.features)
        best = int(np.argmax(scores))
        pairs.append((scores[best], ex.labels[best]))
    pairs.sort()
    s = np.array([p[0] for p in pairs])
    ok = np.array([p[1] for p in pairs])
    # Smallest threshold t such that the best units scoring around t (a window) are right >= 50 %.
    window = max(25, len(pairs) // 20)
    for i in range(len(pairs) - window):
        if ok[i : i + window].mean() >= 0.5:
            return round(float(s[i + window // 2]), 4)
    return 0.5


def main() -> int:
    """Train on the public data and write the model JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--shared",
        default=str(ROOT.parent / "shared"),
        help="the shared data folder holding corpora/squad-train10 (default: ../shared)",
    )
    parser.add_argument(
        "--out",
        default=str(ROOT / "backend/src/bookchat/answer/model.json"),
        help="where to write the model (default: the shipped answer/model.json)",
    )
    parser.add_argument(
        "--limit", type=int, default=None, help="the first N squad-train10 questions only (smoke)"
    )
    add_data_option(parser)
    parser.add_argument(
        "--holdout",
        action="store_true",
        help="also report the scorer on pages it was not fitted on (two folds by page)",
    )
    args = parser.parse_args()
    started = time.perf_counter()
    squad_dir = Path(args.shared) / "corpora/squad-train10"
    sample_file = ROOT / "backend/training/sample-book-questions.jsonl"
    if not squad_dir.is_dir():
        print(f"error: {squad_dir} not found (clone the project beside shared/)", file=sys.stderr)
        return 2
    embedder = Embedder.from_settings(Settings(), threads=2)
    model = _zero_model()
    examples: list[Example] = []
    squad = squad_questions(squad_dir)[: args.limit]
    books = [(squad_dir / "docs", squad)]
    if sample_file.is_file():
        books.append((ROOT / "website/docs", sample_questions(sample_file)))
    unanswered: dict[str, int] = {}
    asked: dict[str, int] = {}
    # Each book's topics are asked of it and, as off-topic, of the other.
    topics = {
        str(docs): book_topics(docs, questions[0].book, sections=questions[0].book != "squad")
        for docs, questions in books
        if questions
    }
    for docs, questions in books:
        book = Book(docs, embedder, model, args.data)
        try:
            examples += asyncio.run(book_examples(book, questions, embedder, unanswered, asked))
            if str(docs) in topics:
                others = [t for d, ts in topics.items() if d != str(docs) for t in ts]
                own = topics[str(docs)]
                examples += asyncio.run(
                    topic_examples(book, own, others + uncovered_topics(), embedder)
                )
            if questions and questions[0].book == "squad":
                examples += asyncio.run(selection_examples(book, questions, model, embedder))
        finally:
            book.close()
    ranked = [ex for ex in examples if ex.covered and ex.kind != "topic"]
    scorer = _fit_scorer(ranked)
    if args.holdout:
        print(json.dumps({"held_out": held_out(ranked, asked)}), file=sys.stderr)
    book_rows = [ex for ex in examples if not ex.kind.startswith("selection-")]
    selection_rows = [ex for ex in examples if ex.kind.startswith("selection-")]
    coverage = _fit_coverage(book_rows, scorer, skip=SELECTION_ONLY)
    selection_coverage = _fit_coverage(selection_rows, scorer, l2=SELECTION_L2)
    kinds = [ex.kind for ex in examples]
    cx, _ = _coverage_rows(examples, scorer)
    p = np.where(
        [k.startswith("selection-") for k in kinds],
        selection_coverage.predict(cx),
        coverage.predict(cx),
    )
    threshold = _threshold(p, kinds, unanswered)
    selection_threshold = _threshold(p, kinds, {}, selection=True)
    span_threshold = _span_threshold(ranked, scorer)
    counts: dict[str, Any] = {}
    for kind in sorted(set(kinds)):
        mask = np.array([k == kind for k in kinds])
        counts[kind] = {
            "rows": int(mask.sum()),
            "covered_rate": round(float((p[mask] >= threshold).mean()), 4),
            "curve": {
                f"{t:.2f}": round(float((p[mask] >= t).mean()), 3)
                for t in np.linspace(0.1, 0.95, 18)
            },
        }
    top1 = _top1(ranked, scorer)
    data = {
        "scorer": scorer.to_json(),
        "coverage": coverage.to_json(),
        "coverage_threshold": threshold,
        "span_threshold": span_threshold,
        "selection_coverage": selection_coverage.to_json(),
        "selection_threshold": selection_threshold,
        "trained_on": {
            "data": ["squad-train10", "backend/training/sample-book-questions.jsonl"],
            "unit_rows": sum(len(ex.labels) for ex in ranked),
            "questions_ranked": len(ranked),
            "declined_before_the_model": unanswered,
            "best_unit_right_on_train": top1,
            "coverage_on_train": counts,
        },
    }
    Path(args.out).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(data["trained_on"], indent=1))
    print(
        f"coverage_threshold {threshold}, span_threshold {span_threshold}; "
        f"{time.perf_counter() - started:.0f} s",
        file=sys.stderr,
    )
    embedder.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
