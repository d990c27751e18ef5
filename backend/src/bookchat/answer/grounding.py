"""Grounding: score the units of retrieved passages, decide coverage, then quote or decline.

Coverage is decided per passage by the coverage model; covered means an answer (a span when one
unit answers on its own, else the passage). The unit scores only choose the words.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from bookchat.answer import coverage, select, shape
from bookchat.answer.asked import Asked
from bookchat.answer.compose import Composition, Source, compose
from bookchat.answer.coverage import Grounding, ReaderJudge
from bookchat.answer.coverage_row import coverage_features, names_heading
from bookchat.answer.features import Candidate, Context, feature_matrix
from bookchat.answer.llm.agent import Passage
from bookchat.answer.model import AnswerModel
from bookchat.answer.phrases import ENGLISH, Phrases
from bookchat.answer.reader import Reader
from bookchat.answer.short_answer import passage_text, span_and_unit, span_of
from bookchat.config import Settings
from bookchat.markdown.units import Unit, payload_units
from bookchat.retrieval.named import names_all
from bookchat.retrieval.sentence_vectors import PassageVectors, SentenceVectors
from bookchat.vectorstore import Hit

# Units are only drawn from the best few passages: further down, candidates add noise.
POOL_PASSAGES = 4
MAX_CANDIDATES = 60
# The reader is sure of its span where the span beats "no answer": its own decision boundary,
# not the shown-span margin (calibrated for how often selections show one).
SURE_MARGIN = 0.0


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


def pool(
    hits: Sequence[Hit], min_score: float, code: Sequence[str] = (), term: str | None = None
) -> list[Hit]:
    """The passages units are drawn from, in retrieval order: those reaching `min_score`, naming
    all the question's `code` or introducing the `term` it asks to define; at most
    POOL_PASSAGES, furniture-only passages yielding their place (they rank high on a lesson's
    keywords but are never quoted)."""
    relevant = [h for h in hits if h.score >= min_score or _named(h, code, term)]
    content = [h for h in relevant if _quotable(h)]
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


def _quotable(hit: Hit) -> bool:
    return any(u.role != "furniture" for u in payload_units(hit.payload))


def hit_candidates(hits: Sequence[Hit]) -> list[Candidate]:
    """The units of retrieved passages, best passage first, repeats (chunk overlap) dropped."""
    seen: set[str] = set()
    out: list[Candidate] = []
    for source, hit in enumerate(hits):
        units = payload_units(hit.payload)
        heading = str(hit.payload.get("section", ""))
        title = str(hit.payload.get("title", ""))
        first = int(hit.payload.get("position", 0) or 0) == 0
        for position, unit in enumerate(units):
            if unit.text in seen:
                continue
            seen.add(unit.text)
            out.append(Candidate(unit, source, position, len(units), heading, title, first))
            if len(out) >= MAX_CANDIDATES:
                return out
    return out


def unit_candidates(units: Sequence[Unit]) -> list[Candidate]:
    """Candidates of one passage that has no heading (a reader's selection)."""
    return [Candidate(u, 0, i, len(units), "", "") for i, u in enumerate(units)]


async def context_sims(
    vectors: SentenceVectors, question_vector: NDArray[np.float32], texts: Sequence[str]
) -> NDArray[np.float32]:
    """Cosine of the question with each text (headings and titles recur: they are cached)."""
    distinct = [t for t in dict.fromkeys(texts) if t]
    if not distinct:
        return np.zeros(len(texts), dtype=np.float32)
    _, matrix = await vectors.embed(distinct)
    sims = dict(zip(distinct, (matrix @ question_vector).tolist(), strict=True))
    return np.array([sims.get(t, 0.0) for t in texts], dtype=np.float32)


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


def decide(
    model: AnswerModel,
    judged: Judged,
    sources: Sequence[Source],
    max_words: int,
    *,
    said: Phrases = ENGLISH,
    anchor: int | None = None,
    anchor_answers: bool = True,
    verdict: coverage.Verdict = None,
) -> tuple[Composition | None, float]:
    """The answer (span or passage) when the passages cover the question, else None, with
    P(covered). `anchor` is the candidate holding the reader's span, quoted first; `verdict` is
    the answer reader's where it is sure."""
    if not judged.candidates:
        return None, 0.0
    answers, covered = coverage.covers(model, judged.coverage, verdict)
    if not answers:
        return None, covered
    choice = select.choose(
        judged.candidates,
        judged.shaped.scores,
        max_words,
        span_threshold=model.span_threshold,
        sides=judged.shaped.sides,
        anchor=anchor,
        anchor_answers=anchor_answers,
    )
    if choice is None:
        return None, covered
    if choice.is_span:
        return compose(choice.units, sources, support=covered), covered
    section = sources[choice.units[0].source].section
    intro = said.passage_intro.format(section=section) if section else ""
    # A lead-in quoted without its script still points at the right section: say where the rest is.
    outro = said.continued_in_source if choice.cut else ""
    composed = compose(
        choice.units, sources, support=covered, kind="passage", intro=intro, outro=outro
    )
    return composed, covered


class Grounder:
    """Answers a question from the book (or one chapter of it), extractively, or declines."""

    def __init__(
        self,
        settings: Settings,
        vectors: PassageVectors,
        cache: SentenceVectors,
        model: AnswerModel,
        reader: Reader | None = None,
        span_margin: float = 0.0,
        judge: ReaderJudge | None = None,
    ) -> None:
        """`reader` chooses the unit a quote is built around; `judge` is the answer reader
        overruling the answer model where it is sure (training grounds with neither)."""
        self._settings = settings
        self._vectors = vectors
        self._cache = cache
        self._model = model
        self._reader = reader
        self._span_margin = span_margin
        self._judge = judge

    async def ground(
        self,
        question: str,
        vector: NDArray[np.float32],
        hits: Sequence[Hit],
        *,
        focus: tuple[str, NDArray[np.float32]] | None = None,
        said: Phrases = ENGLISH,
        short: bool = True,
    ) -> Grounding:
        """Answer from `hits`, retrieved with `question`, judging units for `focus` (the question
        itself when the query was widened with earlier turns); `short=False` skips the answer
        reader."""
        query = Asked.of(question)
        relevant = pool(hits, self._settings.min_chunk_score, query.code, query.defined)
        if not relevant:
            return Grounding(None, 0.0, hits=tuple(hits))
        asked, asked_vector = (Asked.of(focus[0]), focus[1]) if focus else (query, vector)
        judged = await self.judge_hits(asked, asked_vector, relevant)
        sources = [Source.from_payload(h.chunk_id, h.score, h.payload) for h in relevant]
        # The reader's span chooses the unit the quote is built around; outside selections it
        # is never shown: on textbook prose it points at the answer too rarely to stand in bold.
        anchor, sure = (
            await self._read_best(asked.text, judged, relevant) if short else (None, False)
        )
        # A follow-up's words lean on turns the reader does not read: the model alone judges it.
        judge = self._judge if focus is None else None
        verdict = await judge.verdict(asked.text, relevant) if judge is not None else None
        composition, covered = decide(
            self._model,
            judged,
            sources,
            self._settings.answer_max_words,
            said=said,
            anchor=anchor,
            # The reader chooses the unit; whether it answers on its own is the reader's call
            # where it is sure of its span, else the answer model's.
            anchor_answers=sure,
            verdict=verdict,
        )
        passages = tuple(Passage.from_hit(h) for h in relevant)
        threshold = self._model.threshold(judged.coverage)
        best = float(judged.scores.max()) if len(judged.scores) else 0.0
        named = composition is not None and any(
            names_heading(asked, c.section) for c in composition.citations[:1]
        )
        return Grounding(
            composition,
            covered,
            passages,
            threshold,
            best,
            judged.defines,
            named,
            hits=tuple(hits),
        )

    async def _read_best(
        self, question: str, judged: Judged, hits: Sequence[Hit]
    ) -> tuple[int | None, bool]:
        """The candidate holding the reader's span in the passage the answer opens with, and
        whether the reader is sure of it; (None, False) without a reader."""
        if self._reader is None or not judged.candidates:
            return None, False
        hit = hits[judged.candidates[judged.best].source]
        text = passage_text(hit.payload)
        (reading,) = await asyncio.to_thread(self._reader.read, question, [text])
        units = payload_units(hit.payload)
        _, held = span_and_unit(reading, units, text, min_margin=self._span_margin)
        if held is None:
            return None, False
        sure = span_of(reading, min_margin=SURE_MARGIN) is not None
        # Overlapping chunks share units: the candidate is the unit's first appearance.
        texts = [c.unit.text for c in judged.candidates]
        found = texts.index(units[held].text) if units[held].text in texts else None
        return found, sure

    async def judge_hits(
        self, asked: Asked, vector: NDArray[np.float32], hits: Sequence[Hit]
    ) -> Judged:
        """Candidates of `hits` judged for the question `asked` (also what training computes)."""
        candidates = hit_candidates(hits)
        matrix = await self._vectors.matrix(hits, candidates)
        sims = await context_sims(
            self._cache, vector, [c.heading for c in candidates] + [c.title for c in candidates]
        )
        ctx = Context(
            asked,
            vector,
            matrix,
            sims[: len(candidates)],
            sims[len(candidates) :],
            [h.score for h in hits],
        )
        return judge(self._model, asked, candidates, ctx, _evidence(hits))


def _evidence(hits: Sequence[Hit]) -> list[str]:
    """What a book or chapter answer stands on: the passages, with their headings and titles."""
    return [
        str(h.payload.get(key, ""))
        for h in hits
        for key in ("text", "section", "chapter_title", "title")
    ]
