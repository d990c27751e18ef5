"""The answer service: what POST /api/query and `bookchat eval` both call."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bookchat.answer.book import BookAnswers
from bookchat.answer.coverage import ReaderJudge
from bookchat.answer.grounding import Grounder
from bookchat.answer.model import default_model
from bookchat.answer.outcome import Outcome, Scope, overview_outcome
from bookchat.answer.phrases import fallback_notice
from bookchat.answer.reader import Reader, calibration
from bookchat.answer.related import Places
from bookchat.answer.schema import (
    IndexNotReady,
    MissingInput,
    QueryRequest,
    QueryResponse,
    Streamed,
    UnknownChapter,
)
from bookchat.answer.selection import SelectionGrounder
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.overview.answer import Outlines, answer_overview, find_target
from bookchat.overview.scope import Place, Target
from bookchat.retrieval.catalog import Catalog, CatalogCache
from bookchat.retrieval.editions import Edition
from bookchat.retrieval.followup import PriorTurn, contextual_query, place_named
from bookchat.retrieval.search import Retriever
from bookchat.retrieval.sentence_vectors import PassageVectors, SentenceVectors, warm_sentences
from bookchat.retrieval.spelling import BookSpeller, english_words
from bookchat.vectorstore import StoreUnavailable, VectorStore

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Extracted:
    """An extractive answer and what it was decided from."""

    response: QueryResponse
    outcome: Outcome
    scope: Scope
    started: float  # perf_counter() when the request began, for latency_ms


class AnswerService:
    """Answers a question in its mode (book, chapter, selection or an overview), or abstains."""

    def __init__(
        self,
        settings: Settings,
        store: VectorStore,
        embedder: Embedder,
        catalog: CatalogCache,
    ) -> None:
        self._settings = settings
        self._embedder = embedder
        self._catalog = catalog
        self._store = store
        self._retriever = Retriever(store)
        self._vectors = SentenceVectors(embedder, capacity=settings.sentence_cache_size)
        self._model = default_model()
        self._reader = Reader(threads=settings.reader_threads)
        calibrated = calibration()
        self._span_margin = float(calibrated.get("span", 0.0))
        self._book_judge = ReaderJudge(
            self._reader, calibrated["book_veto"], calibrated["book_vouch"]
        )
        self._selections = SelectionGrounder(
            settings, self._model, self._vectors, self._reader, calibrated
        )
        grounder = Grounder(
            settings,
            PassageVectors(store, self._vectors),
            self._vectors,
            self._model,
            self._reader,
            self._span_margin,
            self._book_judge,
        )
        self._books = BookAnswers(embedder, grounder, Places(store, self._vectors), self._model)
        self._outlines = Outlines()
        self._speller = BookSpeller()
        english_words()  # at start-up, not on the first question

    async def answer(
        self, request: QueryRequest, history: Sequence[PriorTurn] = ()
    ) -> QueryResponse:
        """Answer one question in its mode; raises the errors in bookchat.answer.schema.
        `history`: earlier turns, oldest first, retrieved with a follow-up question."""
        return (await self.extract(request, history)).response

    async def stream(self, request: QueryRequest, history: Sequence[PriorTurn] = ()) -> Streamed:
        """`answer` as a stream: the extractive answer is one response (no deltas)."""
        return Streamed(await self.answer(request, history))

    async def extract(self, request: QueryRequest, history: Sequence[PriorTurn] = ()) -> Extracted:
        """`answer`'s extractive response with what it was decided from (a model rewrites it)."""
        started = time.perf_counter()
        scope = await self._scope(request)
        # Everything reads the corrected question.
        question = self._speller.correct(request.question, self._catalog.current, scope.locale)
        named = place_named(question, history) if request.mode != "selection" else None
        if named is not None:
            # "Tell me more about the second one": the section the last answer showed there.
            question = f"Tell me about {named}"
        request = request.model_copy(update={"question": question})
        query = contextual_query(question, history)
        chapter = None
        if request.mode == "chapter":
            # Checked before an overview is looked for: an unknown chapter is a 404 either way.
            if not request.chapter:
                raise MissingInput("chapter", "chapter")
            chapter = scope.catalog.chapter(request.chapter)
            if chapter is None:
                raise UnknownChapter(request.chapter)
        overview = self._overview(request, scope, chapter)
        if overview is not None:
            outcome = overview
        elif request.mode == "selection":
            outcome = await self._selections.answer(
                question, request.selection, request.page, scope
            )
        elif chapter is not None:
            outcome = await self._books.chapter(question, query, request.top_k, chapter, scope)
        else:
            outcome = await self._books.book(question, query, request.top_k, scope)
        citations, notice = fallback_notice(outcome.citations, scope.edition)
        edition = scope.edition
        response = QueryResponse(
            answer=outcome.answer,
            short_answer=outcome.short_answer,
            status=outcome.status,
            mode=request.mode,
            citations=citations,
            confidence=outcome.confidence,
            suggested_chapter=outcome.suggested_chapter,
            related=list(outcome.related),
            version=edition.version if edition else None,
            locale=edition.locale if edition else None,
            notice=notice,
            corpus_version=self._catalog.current.corpus_version,
            # Ids belong to the conversation layer (history.conversation), which saves the
            # exchange; an answer on its own (e.g. in `bookchat eval`) has none.
            conversation_id=None,
            message_id=None,
            latency_ms=round((time.perf_counter() - started) * 1000, 2),
        )
        return Extracted(response, outcome, scope, started)

    def uses_page(self, request: QueryRequest) -> bool:
        """True when the answer depends on request.page (the answer cache keys on it then)."""
        if request.mode == "selection":
            return True
        target = self.overview_target(request)
        return target is not None and target.from_page

    def overview_target(self, request: QueryRequest) -> Target | None:
        """The part of the book an overview question asks about ("summarize this chapter"), in
        the request's edition; None for any other question (or before any ingest)."""
        catalog = self._catalog.current
        if request.mode == "selection" or not catalog.ready:
            return None
        try:
            edition, seen = catalog.edition(request.version, request.locale)
        except LookupError:  # an unknown edition: the answer is a 404 anyway
            return None
        asked = request.chapter if request.mode == "chapter" else None
        chapter = seen.chapter(asked) if asked else None
        question = self._speller.correct(request.question, catalog, edition.locale)
        return self._target(
            request.model_copy(update={"question": question}), seen, edition, chapter
        )

    def _target(
        self,
        request: QueryRequest,
        seen: Catalog,
        edition: Edition,
        chapter: dict[str, Any] | None,
    ) -> Target | None:
        outlines = self._outlines.of(self._catalog.current, edition.version, edition.locale)
        where = Place(request.mode, chapter, request.page, seen, outlines)
        return find_target(request.question, where)

    def _overview(
        self, request: QueryRequest, scope: Scope, chapter: dict[str, Any] | None
    ) -> Outcome | None:
        """An overview question answered from the stored outline; None for any other."""
        if request.mode == "selection" or scope.edition is None:
            return None
        target = self._target(request, scope.catalog, scope.edition, chapter)
        if target is None:
            return None
        edition = scope.edition
        outlines = self._outlines.of(self._catalog.current, edition.version, edition.locale)
        found = answer_overview(
            target, catalog=scope.catalog, outlines=outlines, locale=scope.locale
        )
        return None if found is None else overview_outcome(found)

    def uses_history(self, request: QueryRequest, history: Sequence[PriorTurn]) -> bool:
        """True when earlier turns can change the answer: the question is a follow-up retrieved
        together with them (such answers are never served from a cache)."""
        return bool(history) and contextual_query(request.question, history) != request.question

    async def _scope(self, request: QueryRequest) -> Scope:
        """The edition the request names (the defaults when it names none); raises
        IndexNotReady before any ingest (except in selection mode) and UnknownEdition."""
        catalog = self._catalog.current
        if request.mode != "selection":
            catalog = await self._ready_catalog()
        elif not catalog.ready:
            return Scope(None, catalog, self._retriever, request.locale)
        edition, seen = catalog.edition(request.version, request.locale)
        retriever = (
            self._retriever if edition.where is None else self._retriever.scoped(edition.where)
        )
        return Scope(edition, seen, retriever, edition.locale)

    async def warm(self) -> int:
        """Fill the sentence cache ahead of questions; store errors are logged, not raised."""
        try:
            return await warm_sentences(self._store, self._vectors)
        except StoreUnavailable:
            log.warning("could not warm the sentence cache: vector store unavailable")
            return 0

    async def _ready_catalog(self) -> Catalog:
        catalog = self._catalog.current
        if not catalog.ready:
            # An ingest may have finished since the last periodic refresh.
            catalog = await asyncio.to_thread(self._catalog.refresh)
        if not catalog.ready:
            raise IndexNotReady
        return catalog
