"""Answers written by a model: the extractive service's grounded answers, generated again.

The extractive path decides first; only a grounded decision reaches the model, so abstentions
stay exactly as retrieval made them and the model is never asked to answer what the book does not
cover.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bookchat.answer.llm.agent import Passage, Question, Search
from bookchat.answer.llm.generator import LLMGenerator
from bookchat.answer.llm.writer import Draft, LLMWriter
from bookchat.answer.phrases import localize, localize_deltas
from bookchat.answer.schema import QueryRequest, QueryResponse, Streamed
from bookchat.answer.service import AnswerService, Extracted
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.retrieval.catalog import Catalog, CatalogCache
from bookchat.retrieval.followup import PriorTurn
from bookchat.retrieval.search import Retriever
from bookchat.vectorstore import VectorStore


class GeneratedAnswers(AnswerService):
    """The answer service with every grounded answer written by the model, then checked."""

    def __init__(
        self,
        settings: Settings,
        store: VectorStore,
        embedder: Embedder,
        catalog: CatalogCache,
        generator: LLMGenerator,
    ) -> None:
        super().__init__(settings, store, embedder, catalog)
        self._writer = LLMWriter(
            generator, self._vectors, min_support=settings.llm_min_sentence_support
        )

    async def answer(
        self, request: QueryRequest, history: Sequence[PriorTurn] = ()
    ) -> QueryResponse:
        """The model's checked answer, or the extractive one where the model may not answer."""
        extracted = await self.extract(request, history)
        draft = self._draft(request, history, extracted)
        if draft is None:
            return extracted.response
        written = await self._writer.write(draft, extracted.response)
        return localize(written, extracted.scope.edition)

    async def stream(self, request: QueryRequest, history: Sequence[PriorTurn] = ()) -> Streamed:
        """`answer` with the model's text as deltas; errors are raised before anything streams."""
        extracted = await self.extract(request, history)
        draft = self._draft(request, history, extracted)
        if draft is None:
            return Streamed(extracted.response)
        streamed = self._writer.stream(draft, extracted.response)
        edition = extracted.scope.edition
        deltas = localize_deltas(streamed.deltas, edition) if streamed.deltas else None
        return Streamed(localize(streamed.meta, edition), deltas)

    def uses_history(self, request: QueryRequest, history: Sequence[PriorTurn]) -> bool:
        """True with any earlier turn: the model reads them all."""
        return bool(history)

    def _draft(
        self, request: QueryRequest, history: Sequence[PriorTurn], extracted: Extracted
    ) -> Draft | None:
        """What the model writes from; None unless the extractive answer is grounded."""
        outcome, scope = extracted.outcome, extracted.scope
        if outcome.status != "grounded" or not outcome.passages:
            return None
        search = None
        # An overview's sources are its outline: a search would pull in passages off the scope.
        if request.mode != "selection" and not outcome.overview:
            search = book_search(
                scope.retriever,
                self._embedder,
                chapter=request.chapter if request.mode == "chapter" else None,
                limit=request.top_k,
                min_score=self._settings.min_chunk_score,
            )
        return draft_for(
            request,
            history,
            outcome.passages,
            catalog=scope.catalog,
            search=search,
            started=extracted.started,
            locale=scope.locale,
        )


def draft_for(
    request: QueryRequest,
    history: Sequence[PriorTurn],
    passages: Sequence[Passage],
    *,
    catalog: Catalog,
    search: Search | None,
    started: float,
    locale: str | None = None,
) -> Draft:
    """The draft for a question retrieval found grounded."""
    title = None
    if request.mode == "chapter" and request.chapter:
        found = catalog.chapter(request.chapter)
        title = str(found["title"]) if found else None
    question = Question(
        request.question,
        list(passages),
        request.mode,
        chapter=title,
        # Stored turns carry their answer; a turn without one still gives the question's context.
        history=[(turn.question, str(getattr(turn, "answer", "") or "")) for turn in history],
        search=search,
        locale=locale,
    )
    return Draft(question, started)


def book_search(
    retriever: Retriever,
    embedder: Embedder,
    *,
    chapter: str | None,
    limit: int,
    min_score: float,
) -> Search:
    """search_book's retrieval: the book (or one chapter), passages clearing `min_score`."""
    # The service's own retriever and embedder, in the question's scope (its chapter, if any).

    async def search(query: str) -> list[Passage]:
        rows = await embedder.embed_async([query])
        hits = await asyncio.to_thread(
            retriever.search, query, rows[0].tolist(), limit=limit, chapter=chapter
        )
        return [Passage.from_hit(h) for h in hits if h.score >= min_score]

    return search
