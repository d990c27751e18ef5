"""Grounding in the book: retrieve passages, score their sentences, compose or decline."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from bookchat.answer.candidates import passage_candidates
from bookchat.answer.compose import Composition, Source, compose
from bookchat.answer.coverage import missing_terms
from bookchat.answer.llm.passages import Passage
from bookchat.answer.passage_vectors import PassageVectors
from bookchat.answer.support import score_sentences
from bookchat.config import Settings
from bookchat.retrieval.search import Retriever
from bookchat.vectorstore import Hit

# Sentences are only drawn from the best few passages: further down, candidates add noise.
POOL_PASSAGES = 4


@dataclass(frozen=True, slots=True)
class Grounding:
    """Result of answering from passages: a composition (or None) and the best support seen."""

    composition: Composition | None
    best_support: float
    passages: tuple[Passage, ...] = ()


class Grounder:
    """Answers a question from the book (or one chapter of it), extractively, or declines."""

    def __init__(self, settings: Settings, retriever: Retriever, vectors: PassageVectors) -> None:
        self._settings = settings
        self._retriever = retriever
        self._vectors = vectors

    async def ground(
        self,
        question: str,
        vector: NDArray[np.float32],
        top_k: int,
        chapter: str | None = None,
        *,
        focus: tuple[str, NDArray[np.float32]] | None = None,
    ) -> Grounding:
        """Retrieve with `question`; pick sentences for `focus` (the question itself, when the
        retrieval query was widened with earlier turns: those turns are already answered)."""
        hits = await asyncio.to_thread(
            self._retriever.search, question, vector.tolist(), limit=top_k, chapter=chapter
        )
        relevant = [h for h in hits if h.score >= self._settings.min_chunk_score][:POOL_PASSAGES]
        if not relevant:
            return Grounding(None, 0.0)
        sources = [Source.from_payload(h.chunk_id, h.score, h.payload) for h in relevant]
        candidates = passage_candidates(
            [str(h.payload.get("text", "")) for h in relevant],
            [str(h.payload.get("section", "")) for h in relevant],
        )
        matrix = await self._vectors.matrix(relevant, candidates)
        # The follow-up's own words pick the most precise sentences; when they find no support
        # on their own, the widened query (the follow-up read with its earlier turns) decides.
        attempts = [focus, (question, vector)] if focus else [(question, vector)]
        for text, query_vector in attempts:
            scored = score_sentences(text, query_vector, candidates, matrix)
            best = max((s.support for s in scored), default=0.0)
            composition = compose(
                scored,
                sources,
                min_support=self._settings.min_support,
                max_words=self._settings.answer_max_words,
            )
            if composition is not None:
                break
        asked = focus[0] if focus else question
        if composition is not None and missing_terms(asked, _evidence(relevant)):
            composition = None
        return Grounding(composition, best, tuple(Passage.from_hit(h) for h in relevant))


def _evidence(hits: Sequence[Hit]) -> list[str]:
    """What a book or chapter answer stands on: the passages, with their headings and titles."""
    return [
        str(h.payload.get(key, ""))
        for h in hits
        for key in ("text", "section", "chapter_title", "title")
    ]
