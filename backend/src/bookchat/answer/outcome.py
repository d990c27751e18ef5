"""What a mode decided, and the edition it decided in: what the service turns into a response."""

from __future__ import annotations

from dataclasses import dataclass

from bookchat.answer.compose import Source
from bookchat.answer.coverage import Grounding, confidence
from bookchat.answer.llm.agent import Passage
from bookchat.answer.phrases import Phrases, phrases_for
from bookchat.answer.schema import Citation, RelatedSection, Status, SuggestedChapter
from bookchat.overview.answer import OverviewAnswer
from bookchat.retrieval.catalog import Catalog
from bookchat.retrieval.editions import Edition
from bookchat.retrieval.search import Retriever

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


def outcome_of(grounding: Grounding, abstention: str) -> Outcome:
    """The response fields of a grounding; confidence is 0.5 at the coverage threshold."""
    threshold = grounding.threshold
    comp = grounding.composition
    if comp is None:
        # An abstention never claims more than the threshold's 0.5.
        score = min(0.5, confidence(grounding.best_support, threshold))
        return Outcome(abstention, "abstained", [], score)
    return Outcome(
        comp.answer,
        "grounded",
        comp.citations,
        confidence(comp.best_support, threshold),
        passages=grounding.passages,
        short_answer=grounding.short_answer,
    )


def overview_outcome(found: OverviewAnswer) -> Outcome:
    """An overview answered from the book's outline, citing the sections it names."""
    sources = [Source.from_cited(c) for c in found.cited]
    citations = [
        source.citation(i, cited.excerpt[:OVERVIEW_EXCERPT_CHARS])
        for i, (source, cited) in enumerate(zip(sources, found.cited, strict=True), start=1)
    ]
    passages = tuple(Passage(s, text) for s, text in zip(sources, found.passages, strict=False))
    # The book's own structure, quoted: nothing for a coverage model to doubt.
    return Outcome(found.answer, "grounded", citations, 1.0, passages=passages, overview=True)
