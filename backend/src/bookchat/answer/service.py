"""The answer service: what POST /api/query and `bookchat eval` both call."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from bookchat.answer.compose import Source
from bookchat.answer.coverage import Grounding, ReaderJudge, close, confidence, elsewhere
from bookchat.answer.declined import chapter_declined
from bookchat.answer.grounding import Grounder
from bookchat.answer.llm.agent import Passage
from bookchat.answer.model import default_model
from bookchat.answer.phrases import (
    Phrases,
    fallback_notice,
    phrases_for,
)
from bookchat.answer.reader import Reader, calibration
from bookchat.answer.related import (
    ALSO_SHOWN,
    CHAPTER_SHOWN,
    RELATED_SHOWN,
    Places,
    section_key,
)
from bookchat.answer.schema import (
    Citation,
    IndexNotReady,
    MissingInput,
    QueryRequest,
    QueryResponse,
    RelatedSection,
    Status,
    Streamed,
    SuggestedChapter,
    UnknownChapter,
)
from bookchat.answer.selection import SelectionGrounder
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.overview.answer import Outlines, answer_overview, find_target
from bookchat.overview.scope import Place, Target
from bookchat.retrieval.catalog import Catalog, CatalogCache
from bookchat.retrieval.editions import Edition, language_of
from bookchat.retrieval.followup import PriorTurn, contextual_query, place_named
from bookchat.retrieval.search import Retriever
from bookchat.retrieval.sentence_vectors import PassageVectors, SentenceVectors, warm_sentences
from bookchat.retrieval.spelling import Speller, english_words
from bookchat.vectorstore import Hit, StoreUnavailable, VectorStore

log = logging.getLogger(__name__)

# An overview cites whole sections: their excerpts are cut here.
OVERVIEW_EXCERPT_CHARS = 500


@dataclass(frozen=True, slots=True)
class Scope:
    """The edition a question is answered from, and retrieval kept inside it."""

    edition: Edition | None  # None: selection mode before any ingest (nothing to scope)
    catalog: Catalog  # the catalog seen from the edition: its chapters, pages and URLs
    retriever: Retriever
    locale: str | None  # the language bookchat's own sentences are written in

    @property
    def said(self) -> Phrases:
        """bookchat's own sentences in the reader's language (English when not catalogued)."""
        return phrases_for(self.locale)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a mode decided, before ids and timing are added."""

    answer: str
    status: Status
    citations: list[Citation]
    confidence: float
    suggested_chapter: SuggestedChapter | None = None
    passages: tuple[Passage, ...] = ()  # what a generated answer may draw on, when grounded
    short_answer: str | None = None  # the reader's span inside the quote
    overview: bool = False  # answered from the book's outline (bookchat.overview)
    related: tuple[RelatedSection, ...] = ()  # more places in the book (answer/related.py)


@dataclass(frozen=True, slots=True)
class Extracted:
    """An extractive answer and what it was decided from."""

    response: QueryResponse
    outcome: Outcome
    scope: Scope
    started: float  # perf_counter() when the request began, for latency_ms


class AnswerService:
    """Retrieves, picks supporting sentences, cites them, or abstains."""

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
        self._places = Places(store, self._vectors)
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
        self._grounder = Grounder(
            settings,
            PassageVectors(store, self._vectors),
            self._vectors,
            self._model,
            self._reader,
            self._span_margin,
            self._book_judge,
        )
        self._outlines = Outlines()
        self._speller: tuple[str | None, Speller] | None = None
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
        outcome, response = await self._extractive(request, history, started, scope)
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
        return self._target(self._spelt(request, edition.locale), seen, edition, chapter)

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
        if found is None:
            return None
        sources = [Source.from_cited(c) for c in found.cited]
        citations = [
            source.citation(i, cited.excerpt[:OVERVIEW_EXCERPT_CHARS])
            for i, (source, cited) in enumerate(zip(sources, found.cited, strict=True), start=1)
        ]
        passages = tuple(Passage(s, text) for s, text in zip(sources, found.passages, strict=False))
        # The book's own structure, quoted: nothing for a coverage model to doubt.
        return Outcome(found.answer, "grounded", citations, 1.0, passages=passages, overview=True)

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

    async def _extractive(
        self, request: QueryRequest, history: Sequence[PriorTurn], started: float, scope: Scope
    ) -> tuple[Outcome, QueryResponse]:
        request = self._spelt(request, scope.locale)
        named = place_named(request.question, history) if request.mode != "selection" else None
        if named is not None:
            # "Tell me more about the second one": the section the last answer showed there.
            request = request.model_copy(update={"question": f"Tell me about {named}"})
        query = contextual_query(request.question, history)
        # Checked before an overview is looked for: an unknown chapter is a 404 either way.
        chapter = _chapter_asked(request, scope) if request.mode == "chapter" else None
        overview = self._overview(request, scope, chapter)
        if overview is not None:
            outcome = overview
        elif request.mode == "selection":
            outcome = await self._selection(request, scope)
        elif chapter is not None:
            outcome = await self._chapter(request, chapter, query, scope)
        else:
            outcome = await self._book(request, query, scope)
        citations, notice = fallback_notice(outcome.citations, scope.edition)
        return outcome, QueryResponse(
            answer=outcome.answer,
            short_answer=outcome.short_answer,
            status=outcome.status,
            mode=request.mode,
            citations=citations,
            confidence=outcome.confidence,
            suggested_chapter=outcome.suggested_chapter,
            related=list(outcome.related),
            version=scope.edition.version if scope.edition else None,
            locale=scope.edition.locale if scope.edition else None,
            notice=notice,
            corpus_version=self._catalog.current.corpus_version,
            # Ids belong to the conversation layer (history.conversation), which saves the
            # exchange; an answer on its own (e.g. in `bookchat eval`) has none.
            conversation_id=None,
            message_id=None,
            latency_ms=round((time.perf_counter() - started) * 1000, 2),
        )

    def _spelt(self, request: QueryRequest, locale: str | None) -> QueryRequest:
        """`request` with the reader's typos corrected towards the book's words (in an English
        edition: the word list is English); everything reads the corrected question."""
        if language_of(locale) not in ("", "en"):
            return request
        corrected = self._spelling().correct(request.question)
        if corrected == request.question:
            return request
        return request.model_copy(update={"question": corrected})

    def _spelling(self) -> Speller:
        """The speller of the indexed book's vocabulary (rebuilt when an ingest changes it)."""
        catalog = self._catalog.current
        if self._speller is None or self._speller[0] != catalog.corpus_version:
            vocabulary = catalog.data.get("vocabulary") or {}
            self._speller = (catalog.corpus_version, Speller(vocabulary, english_words()))
        return self._speller[1]

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

    def _outcome(self, grounding: Grounding, abstention: str) -> Outcome:
        """The response fields of a grounding; confidence is 0.5 at the coverage threshold."""
        threshold = grounding.threshold
        comp = grounding.composition
        if comp is None:
            # An abstention never claims more than the threshold's 0.5.
            score = min(0.5, confidence(grounding.best_support, threshold))
            return Outcome(abstention, "abstained", [], score)
        score = confidence(comp.best_support, threshold)
        return Outcome(
            comp.answer,
            "grounded",
            comp.citations,
            score,
            passages=grounding.passages,
            short_answer=grounding.short_answer,
        )

    async def _query_vectors(
        self, question: str, query: str
    ) -> tuple[NDArray[np.float32], tuple[str, NDArray[np.float32]] | None]:
        """The retrieval query's vector and, when a follow-up widened it, the question's own."""
        rows = await self._embedder.embed_async([query] if query == question else [query, question])
        return rows[0], ((question, rows[1]) if len(rows) > 1 else None)

    async def _book(self, request: QueryRequest, query: str, scope: Scope) -> Outcome:
        vector, focus = await self._query_vectors(request.question, query)
        said = scope.said
        hits = await _retrieve(scope, query, vector, request.top_k)
        grounding = await self._grounder.ground(query, vector, hits, focus=focus, said=said)
        outcome = self._outcome(grounding, said.book_abstention)
        if outcome.status == "grounded":
            return await self._also(outcome, grounding.hits, vector)
        if not close(self._model, request.question, grounding.hits):
            return outcome
        near = await self._places.near(grounding.hits, vector, limit=RELATED_SHOWN)
        return replace(outcome, answer=said.related, status="related", related=tuple(near))

    async def _chapter(
        self, request: QueryRequest, chapter: dict[str, Any], query: str, scope: Scope
    ) -> Outcome:
        key = str(chapter["key"])
        vector, focus = await self._query_vectors(request.question, query)
        said = scope.said
        hits = await _retrieve(scope, query, vector, request.top_k, key)
        grounding = await self._grounder.ground(query, vector, hits, focus=focus, said=said)
        # The rest of the book, to point elsewhere: the same edition's book, never another's.
        # Only compared with the chapter's, never shown: no short answer is read for it.
        book_hits = await _retrieve(scope, query, vector, request.top_k)
        book = await self._grounder.ground(
            query, vector, book_hits, focus=focus, said=said, short=False
        )
        if grounding.composition is not None and not elsewhere(grounding, book, key):
            return await self._also(self._outcome(grounding, ""), book.hits, vector)
        message, suggestion = chapter_declined(book.composition, scope.catalog, chapter, said)
        declined = Grounding(None, min(grounding.best_support, 0.5), threshold=grounding.threshold)
        outcome = self._outcome(declined, message)
        outcome = Outcome(outcome.answer, "abstained", [], outcome.confidence, suggestion)
        near = await self._chapter_places(request.question, grounding, book, vector, suggestion)
        if not near:
            return outcome
        if suggestion is None:
            message = said.chapter_related.format(chapter=str(chapter["title"]))
        return replace(outcome, answer=message, status="related", related=tuple(near))

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
        self, outcome: Outcome, hits: Sequence[Hit], vector: NDArray[np.float32]
    ) -> Outcome:
        """A grounded answer with the next places in the book beside it (none it cites)."""
        cited = {section_key(c.path, c.section) for c in outcome.citations}
        also = await self._places.near(hits, vector, limit=ALSO_SHOWN, exclude=cited)
        return replace(outcome, related=tuple(also))

    async def _selection(self, request: QueryRequest, scope: Scope) -> Outcome:
        if not request.selection:
            raise MissingInput("selection", "selection")
        grounding = await self._selections.ground_selection(
            request.question, request.selection, request.page, scope.catalog, scope.said
        )
        return self._outcome(grounding, scope.said.selection_abstention)


async def _retrieve(
    scope: Scope,
    query: str,
    vector: NDArray[np.float32],
    top_k: int,
    chapter: str | None = None,
) -> list[Hit]:
    """The `top_k` passages to answer from, in retrieval's order, inside the scope's edition."""
    return await asyncio.to_thread(
        scope.retriever.search, query, vector.tolist(), limit=top_k, chapter=chapter
    )


def _url_key(hit: Hit) -> tuple[str, str]:
    return section_key(str(hit.payload.get("url", "")), str(hit.payload.get("section", "")))


def _chapter_asked(request: QueryRequest, scope: Scope) -> dict[str, Any]:
    """The catalog entry of chapter mode's chapter; raises MissingInput or UnknownChapter."""
    if not request.chapter:
        raise MissingInput("chapter", "chapter")
    chapter = scope.catalog.chapter(request.chapter)
    if chapter is None:
        raise UnknownChapter(request.chapter)
    return chapter
