"""Selection mode: the answer from the passage a reader highlighted, and from nothing else.

The selection is split into units and judged as one passage with no heading; the answer reader
reads it with the question: its span is the short answer and the unit the quote is built around,
and below the calibrated veto it is sure the selection does not answer
(specs/001-bookchat/decisions/0022-selections-reader-veto-and-anchored-quote.md).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import numpy as np

from bookchat.answer.asked import Asked
from bookchat.answer.compose import Source
from bookchat.answer.coverage import Grounding
from bookchat.answer.features import Context
from bookchat.answer.grounding import decide
from bookchat.answer.judge import judge, unit_candidates
from bookchat.answer.llm.agent import Passage
from bookchat.answer.model import AnswerModel
from bookchat.answer.outcome import Outcome, Scope, outcome_of
from bookchat.answer.phrases import Phrases
from bookchat.answer.reader import Reader, Reading
from bookchat.answer.schema import MissingInput
from bookchat.answer.short_answer import span_and_unit
from bookchat.config import Settings
from bookchat.markdown.units import split_units
from bookchat.retrieval.catalog import Catalog
from bookchat.retrieval.followup import asks_about_the_passage
from bookchat.retrieval.sentence_vectors import SentenceVectors

# A long selection is judged on its first units: each must be embedded at query time.
MAX_SELECTION_UNITS = 40


def selection_source(page: str | None, catalog: Catalog, score: float) -> Source:
    """The one citation of selection mode: the selection, placed on its page when known."""
    found = catalog.page_at(page) if page else None
    chapter, page_info = found if found else ({}, {})
    return Source(
        chunk_id="selection",
        path=str(page_info.get("path", "")),
        doc_id=str(page_info.get("doc_id", "")),
        chapter=str(chapter.get("key", "")),
        chapter_title=str(chapter.get("title", "")),
        section="",
        url=page or "",
        score=round(score, 4),
    )


class SelectionGrounder:
    """Answers a question from a reader's selection alone, or declines."""

    def __init__(
        self,
        settings: Settings,
        model: AnswerModel,
        vectors: SentenceVectors,
        reader: Reader | None,
        calibrated: Mapping[str, Any],
    ) -> None:
        """`calibrated`: the reader's calibration (reader.json, `reader.calibration()`)."""
        self._max_words = settings.answer_max_words
        self._model = model
        self._vectors = vectors
        self._reader = reader
        # The margin a short answer must beat, and the reader's veto: below it the reader is sure
        # the selection does not answer.
        self._span_margin = float(calibrated.get("span", 0.0))
        self._veto = float(calibrated.get("selection_veto", 0.0))

    async def ground_selection(
        self, question: str, selection: str, page: str | None, catalog: Catalog, said: Phrases
    ) -> Grounding:
        """The grounding of `question` in `selection` (cited on `page`, placed by `catalog`)."""
        # "Explain this passage" names no topic: the passage itself is what to explain, so its
        # most central units answer it.
        about_the_passage = asks_about_the_passage(question)
        query = selection[:2000] if about_the_passage else question
        units = list({u.text: u for u in split_units(selection)}.values())
        candidates = unit_candidates(units[:MAX_SELECTION_UNITS])
        vector, matrix = await self._vectors.embed(
            [c.unit.plain for c in candidates], question=query
        )
        assert vector is not None  # a question was passed, so its row came back
        sims = matrix @ vector if len(candidates) else np.zeros(0, dtype=np.float32)
        similarity = float(sims.max()) if len(sims) else 0.0
        zeros = np.zeros(len(candidates), dtype=np.float32)
        asked = Asked.of(question)
        ctx = Context(
            Asked.of(query) if about_the_passage else asked,
            vector,
            matrix,
            zeros,
            zeros,
            [similarity],
        )
        judged = judge(self._model, asked, candidates, ctx, [selection], selection=True)
        source = selection_source(page, catalog, similarity)
        # "Explain this passage" has no span to find: the reader does not read it.
        reading = None if about_the_passage else await self._read(question, selection)
        # The quote is built around the unit holding the reader's span: a short answer shown
        # always stands in the quote below it.
        units_read = [c.unit for c in candidates]
        span, anchor = span_and_unit(reading, units_read, selection, min_margin=self._span_margin)
        # Below its veto the reader is sure the selection does not answer.
        sure_not = reading is not None and reading.probability < self._veto
        comp, cover = decide(
            self._model,
            judged,
            [source],
            self._max_words,
            said=said,
            anchor=anchor,
            verdict="veto" if sure_not else None,
        )
        selected = (Passage(source, selection),)
        # The selection is the citation: the reader's span anywhere in it is cited text.
        short = span if comp is not None else None
        return Grounding(comp, cover.covered, selected, cover.threshold, short_answer=short)

    async def answer(
        self, question: str, selection: str | None, page: str | None, scope: Scope
    ) -> Outcome:
        """`question` answered from the reader's `selection` alone, or declined; raises
        MissingInput without one."""
        if not selection:
            raise MissingInput("selection", "selection")
        grounding = await self.ground_selection(
            question, selection, page, scope.catalog, scope.said
        )
        return outcome_of(grounding, scope.said.selection_abstention)

    async def _read(self, question: str, selection: str) -> Reading | None:
        """The reader's reading of the selection; None without a reader."""
        if self._reader is None:
            return None
        (reading,) = await asyncio.to_thread(self._reader.read, question, [selection])
        return reading
