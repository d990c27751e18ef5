"""Grounding: retrieved passages pooled, their units judged (answer/judge.py), coverage decided,
then quoted or declined.

Coverage is decided per passage by the coverage model; covered means an answer (a span when one
unit answers on its own, else the passage). The unit scores only choose the words.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from bookchat.answer import coverage, select, shape
from bookchat.answer.asked import Asked
from bookchat.answer.compose import Composition, Source, compose
from bookchat.answer.coverage import Grounding, ReaderJudge
from bookchat.answer.judge import Judged, Units, judge_hits, pool, units_of
from bookchat.answer.llm.agent import Passage
from bookchat.answer.model import AnswerModel
from bookchat.answer.phrases import ENGLISH, Phrases
from bookchat.answer.reader import Reader
from bookchat.answer.short_answer import passage_text, span_and_unit, span_of
from bookchat.config import Settings
from bookchat.retrieval.sentence_vectors import PassageVectors, SentenceVectors
from bookchat.vectorstore import Hit

# The reader is sure of its span where the span beats "no answer": its own decision boundary,
# not the shown-span margin (calibrated for how often selections show one).
SURE_MARGIN = 0.0


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
) -> tuple[Composition | None, coverage.Cover]:
    """The answer (span or passage) when the passages cover the question, else None, with the
    coverage decided. `anchor` is the candidate holding the reader's span, quoted first;
    `verdict` is the answer reader's where it is sure."""
    if not judged.candidates:
        return None, coverage.Cover(False, 0.0, model.threshold(judged.coverage))
    cover = coverage.covers(model, judged.coverage, verdict)
    if not cover.answers:
        return None, cover
    choice = select.choose(
        judged.candidates,
        judged.shaped.scores,
        max_words,
        span_threshold=model.span_threshold,
        sides=judged.shaped.sides,
        anchor=anchor,
        anchor_answers=anchor_answers,
    )
    covered = cover.covered
    if choice is None:
        return None, cover
    if choice.is_span:
        return compose(choice.units, sources, support=covered), cover
    section = sources[choice.units[0].source].section
    intro = said.passage_intro.format(section=section) if section else ""
    # A lead-in quoted without its script still points at the right section: say where the rest is.
    outro = said.continued_in_source if choice.cut else ""
    composed = compose(
        choice.units, sources, support=covered, kind="passage", intro=intro, outro=outro
    )
    return composed, cover


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
        units = units_of(hits)
        min_score = self._settings.min_chunk_score
        relevant = pool(hits, min_score, query.code, query.defined, units=units)
        if not relevant:
            return Grounding(None, 0.0, hits=tuple(hits))
        asked, asked_vector = (Asked.of(focus[0]), focus[1]) if focus else (query, vector)
        judged = await judge_hits(
            self._model, self._vectors, self._cache, asked, asked_vector, relevant, units
        )
        sources = [Source.from_payload(h.chunk_id, h.score, h.payload) for h in relevant]
        # The reader's span chooses the unit the quote is built around; outside selections it
        # is never shown: on textbook prose it points at the answer too rarely to stand in bold.
        anchor, sure = (
            await self._read_best(asked.text, judged, relevant, units) if short else (None, False)
        )
        # A follow-up's words lean on turns the reader does not read: the model alone judges it.
        judge = self._judge if focus is None else None
        verdict = await judge.verdict(asked.text, relevant) if judge is not None else None
        composition, cover = decide(
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
        passages = tuple(
            Passage(s, str(h.payload.get("text", "")))
            for s, h in zip(sources, relevant, strict=True)
        )
        best = float(judged.scores.max()) if len(judged.scores) else 0.0
        named = composition is not None and any(
            shape.names_heading(asked, c.section) for c in composition.citations[:1]
        )
        return Grounding(
            composition,
            cover.covered,
            passages,
            cover.threshold,
            best,
            judged.defines,
            named,
            hits=tuple(hits),
        )

    async def _read_best(
        self, question: str, judged: Judged, hits: Sequence[Hit], units: Units
    ) -> tuple[int | None, bool]:
        """The candidate holding the reader's span in the passage the answer opens with, and
        whether the reader is sure of it; (None, False) without a reader."""
        if self._reader is None or not judged.candidates:
            return None, False
        hit = hits[judged.candidates[judged.best].source]
        text = passage_text(hit.payload)
        (reading,) = await asyncio.to_thread(self._reader.read, question, [text])
        passage = units[hit.chunk_id]
        _, held = span_and_unit(reading, passage, text, min_margin=self._span_margin)
        if held is None:
            return None, False
        sure = span_of(reading, min_margin=SURE_MARGIN) is not None
        # Overlapping chunks share units: the candidate is the unit's first appearance.
        texts = [c.unit.text for c in judged.candidates]
        found = texts.index(passage[held].text) if passage[held].text in texts else None
        return found, sure

    async def judge_hits(
        self,
        asked: Asked,
        vector: NDArray[np.float32],
        hits: Sequence[Hit],
        units: Units | None = None,
    ) -> Judged:
        """Candidates of `hits` judged for the question `asked` (also what training computes)."""
        return await judge_hits(self._model, self._vectors, self._cache, asked, vector, hits, units)
