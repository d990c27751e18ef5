"""Book and chapter mode: retrieve, ground, and show the next places in the book beside.

A grounded answer comes with the closest sections it does not cite; a decline comes with the
places that come close ("related"), or plainly when nothing does. A chapter answers only what the
rest of the book does not answer far better; otherwise it declines and points there.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from bookchat.answer.coverage import Grounding, close, elsewhere
from bookchat.answer.declined import chapter_declined
from bookchat.answer.grounding import Grounder
from bookchat.answer.model import AnswerModel
from bookchat.answer.outcome import Outcome, Scope, outcome_of
from bookchat.answer.related import ALSO_SHOWN, CHAPTER_SHOWN, RELATED_SHOWN, Places, section_key
from bookchat.answer.schema import RelatedSection, SuggestedChapter
from bookchat.embedding.embedder import Embedder
from bookchat.vectorstore import Hit


class BookAnswers:
    """Answers from the whole book, or from one chapter of it."""

    def __init__(
        self, embedder: Embedder, grounder: Grounder, places: Places, model: AnswerModel
    ) -> None:
        self._embedder = embedder
        self._grounder = grounder
        self._places = places
        self._model = model

    async def book(self, question: str, query: str, top_k: int, scope: Scope) -> Outcome:
        """`question` answered from the whole book; `query` is what retrieval searches with
        (the question widened with earlier turns for a follow-up)."""
        vector, focus = await self._vectors(question, query)
        hits = await _retrieve(scope, query, vector, top_k)
        said = scope.said
        grounding = await self._grounder.ground(query, vector, hits, focus=focus, said=said)
        outcome = outcome_of(grounding, said.book_abstention)
        if outcome.status == "grounded":
            return await self._also(outcome, grounding.hits, vector)
        if not close(self._model, question, grounding.hits):
            return outcome
        near = await self._places.near(grounding.hits, vector, limit=RELATED_SHOWN)
        return replace(outcome, answer=said.related, status="related", related=tuple(near))

    async def chapter(
        self, question: str, query: str, top_k: int, chapter: dict[str, Any], scope: Scope
    ) -> Outcome:
        """`question` answered from `chapter` (its catalog entry), or declined with where the
        book answers it."""
        key = str(chapter["key"])
        vector, focus = await self._vectors(question, query)
        said = scope.said
        hits = await _retrieve(scope, query, vector, top_k, key)
        grounding = await self._grounder.ground(query, vector, hits, focus=focus, said=said)
        # The rest of the book, to point elsewhere: the same edition's book, never another's.
        # Only compared with the chapter's, never shown: no short answer is read for it.
        book_hits = await _retrieve(scope, query, vector, top_k)
        book = await self._grounder.ground(
            query, vector, book_hits, focus=focus, said=said, short=False
        )
        if grounding.composition is not None and not elsewhere(grounding, book, key):
            return await self._also(outcome_of(grounding, ""), book.hits, vector)
        message, suggestion = chapter_declined(book.composition, scope.catalog, chapter, said)
        declined = Grounding(None, min(grounding.best_support, 0.5), threshold=grounding.threshold)
        outcome = replace(outcome_of(declined, message), suggested_chapter=suggestion)
        near = await self._chapter_places(question, grounding, book, vector, suggestion)
        if not near:
            return outcome
        if suggestion is None:
            message = said.chapter_related.format(chapter=str(chapter["title"]))
        return replace(outcome, answer=message, status="related", related=tuple(near))

    async def _vectors(
        self, question: str, query: str
    ) -> tuple[NDArray[np.float32], tuple[str, NDArray[np.float32]] | None]:
        """The retrieval query's vector and, when a follow-up widened it, the question's own."""
        rows = await self._embedder.embed_async([query] if query == question else [query, question])
        return rows[0], ((question, rows[1]) if len(rows) > 1 else None)

    async def _chapter_places(
        self,
        question: str,
        chapter: Grounding,
        book: Grounding,
        vector: NDArray[np.float32],
        suggestion: SuggestedChapter | None,
    ) -> list[RelatedSection]:
        """The chapter's closest section first, then the book's best places (the one it answers
        from first); none when nothing in the book comes close."""
        ranked = list(book.hits)
        if suggestion is not None:
            named = section_key(suggestion.section_url, suggestion.section)
            ranked.sort(key=lambda h: _url_key(h) != named)  # stable: the rest keep their order
        here_close = close(self._model, question, chapter.hits)
        if not (here_close or suggestion is not None or close(self._model, question, book.hits)):
            return []
        here = (
            await self._places.near(chapter.hits, vector, limit=CHAPTER_SHOWN) if here_close else []
        )
        shown = {section_key(p.path, p.section) for p in here}
        there = await self._places.near(
            ranked, vector, limit=RELATED_SHOWN - len(here), exclude=shown
        )
        return here + there

    async def _also(
        self, outcome: Outcome, hits: tuple[Hit, ...], vector: NDArray[np.float32]
    ) -> Outcome:
        """A grounded answer with the next places in the book beside it (none it cites)."""
        cited = {section_key(c.path, c.section) for c in outcome.citations}
        also = await self._places.near(hits, vector, limit=ALSO_SHOWN, exclude=cited)
        return replace(outcome, related=tuple(also))


async def _retrieve(
    scope: Scope, query: str, vector: NDArray[np.float32], top_k: int, chapter: str | None = None
) -> list[Hit]:
    """The `top_k` passages to answer from, in retrieval's order, inside the scope's edition."""
    return await asyncio.to_thread(
        scope.retriever.search, query, vector.tolist(), limit=top_k, chapter=chapter
    )


def _url_key(hit: Hit) -> tuple[str, str]:
    return section_key(str(hit.payload.get("url", "")), str(hit.payload.get("section", "")))
