"""Judging: the units of the passages (or a selection) as candidates, scored for the question,
with the coverage row and what the question's shape finds among them.

The answer model's unit scorer weighs each candidate's features (answer/features.py); the
coverage row (answer/coverage_row.py) sums up what the best unit and its passage offer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from bookchat.answer import select, shape
from bookchat.answer.asked import Asked
from bookchat.answer.coverage_row import coverage_features
from bookchat.answer.features import Candidate, Context, feature_matrix
from bookchat.answer.model import AnswerModel
from bookchat.markdown.units import Unit, payload_units
from bookchat.retrieval.named import names_all
from bookchat.retrieval.sentence_vectors import PassageVectors, SentenceVectors
from bookchat.vectorstore import Hit

# A question is judged on at most this many units: further down, candidates add noise.
MAX_CANDIDATES = 60
# Units are only drawn from the best few passages: further down, candidates add noise.
POOL_PASSAGES = 4


@dataclass(frozen=True, slots=True)
class Judged:
    """Candidates with their features, scores and the coverage row, ready to decide on."""

    candidates: list[Candidate]
    features: NDArray[np.float64]
    scores: NDArray[np.float64]
    coverage: NDArray[np.float64]
    # What the coverage row was computed from, so training can recompute it with its own scorer.
    asked: Asked
    # What the question's shape finds among the candidates (shape.read): whether they define
    # what it asks about, the scores with those units on top, each compared side's sections.
    shaped: shape.Shaped
    evidence: tuple[str, ...] = ()
    selection: bool = False

    @property
    def defines(self) -> bool:
        """ "What is X?": the candidates hold X's definition, the section titled X or X in bold."""
        return self.shaped.defines

    @property
    def best(self) -> int:
        """The candidate an answer opens with, ranked as `decide` ranks them."""
        return select.best_index(self.candidates, self.shaped.scores)


# Each passage's units by chunk id: parsed once per question for every step that reads them.
Units = Mapping[str, Sequence[Unit]]


def units_of(hits: Sequence[Hit]) -> dict[str, list[Unit]]:
    """Each hit's units, by chunk id, as ingest stored them."""
    return {h.chunk_id: payload_units(h.payload) for h in hits}


def pool(
    hits: Sequence[Hit],
    min_score: float,
    code: Sequence[str] = (),
    term: str | None = None,
    *,
    units: Units | None = None,
) -> list[Hit]:
    """The passages units are drawn from, in retrieval order: those reaching `min_score`, naming
    all the question's `code` or introducing the `term` it asks to define; at most
    POOL_PASSAGES, furniture-only passages yielding their place (they rank high on a lesson's
    keywords but are never quoted)."""
    units = units_of(hits) if units is None else units
    relevant = [h for h in hits if h.score >= min_score or _named(h, code, term)]
    content = [h for h in relevant if any(u.role != "furniture" for u in units[h.chunk_id])]
    kept = {id(h) for h in content[:POOL_PASSAGES]}
    spare = POOL_PASSAGES - len(kept)
    for h in relevant:
        if spare > 0 and id(h) not in kept:
            kept.add(id(h))
            spare -= 1
    return [h for h in relevant if id(h) in kept]


def _named(hit: Hit, code: Sequence[str], term: str | None) -> bool:
    text, heading = str(hit.payload.get("text", "")), str(hit.payload.get("section", ""))
    return names_all(code, text) or shape.introduces(text, heading, term)


def hit_candidates(hits: Sequence[Hit], units: Units | None = None) -> list[Candidate]:
    """The units of retrieved passages, best passage first, repeats (chunk overlap) dropped."""
    units = units_of(hits) if units is None else units
    seen: set[str] = set()
    out: list[Candidate] = []
    for source, hit in enumerate(hits):
        heading = str(hit.payload.get("section", ""))
        title = str(hit.payload.get("title", ""))
        first = int(hit.payload.get("position", 0) or 0) == 0
        passage = units[hit.chunk_id]
        for position, unit in enumerate(passage):
            if unit.text in seen:
                continue
            seen.add(unit.text)
            out.append(Candidate(unit, source, position, len(passage), heading, title, first))
            if len(out) >= MAX_CANDIDATES:
                return out
    return out


def unit_candidates(units: Sequence[Unit]) -> list[Candidate]:
    """Candidates of one passage that has no heading (a reader's selection)."""
    return [Candidate(u, 0, i, len(units), "", "") for i, u in enumerate(units)]


def judge(
    model: AnswerModel,
    asked: Asked,
    candidates: list[Candidate],
    ctx: Context,
    evidence: Sequence[str],
    *,
    selection: bool = False,
) -> Judged:
    """Score every candidate and compute the coverage row for `asked` (the features weigh what
    `ctx` holds: the same question, or for "Explain this passage" the passage itself)."""
    features = feature_matrix(candidates, ctx)
    scores = model.scorer.predict(features)
    row = coverage_features(asked, features, scores, candidates, evidence, selection=selection)
    shaped = shape.read(candidates, scores, asked)
    return Judged(candidates, features, scores, row, asked, shaped, tuple(evidence), selection)


async def judge_hits(
    model: AnswerModel,
    vectors: PassageVectors,
    cache: SentenceVectors,
    asked: Asked,
    vector: NDArray[np.float32],
    hits: Sequence[Hit],
    units: Units | None = None,
) -> Judged:
    """Candidates of `hits` judged for the question `asked`: their unit vectors read from the
    store (`vectors`), the headings' and titles' embedded through `cache`."""
    units = units_of(hits) if units is None else units
    candidates = hit_candidates(hits, units)
    evidence = _evidence(hits)
    sentences = [[u.plain for u in units[h.chunk_id]] for h in hits]
    matrix = await vectors.matrix(hits, candidates, sentences)
    # Headings and titles recur from question to question: they are cached.
    sims = await cache.similarities(
        vector, [c.heading for c in candidates] + [c.title for c in candidates]
    )
    ctx = Context(
        asked,
        vector,
        matrix,
        sims[: len(candidates)],
        sims[len(candidates) :],
        [h.score for h in hits],
    )
    return judge(model, asked, candidates, ctx, evidence)


def _evidence(hits: Sequence[Hit]) -> list[str]:
    """What a book or chapter answer stands on: the passages, with their headings and titles."""
    return [
        str(h.payload.get(key, ""))
        for h in hits
        for key in ("text", "section", "chapter_title", "title")
    ]
