"""Selection mode: who judges a selection, its short answer and the unit its quote is built on."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bookchat.answer.coverage import Grounding
from bookchat.answer.model import default_model
from bookchat.answer.phrases import ENGLISH
from bookchat.answer.reader import Reader, calibration
from bookchat.answer.selection import SelectionGrounder
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.retrieval.catalog import CatalogCache
from bookchat.retrieval.sentence_vectors import SentenceVectors
from bookchat.vectorstore import VectorStore

WROTE_GIT = (
    "Git was written by Linus Torvalds in April 2005, after the Linux kernel lost its free "
    "licence for BitKeeper. Junio Hamano has maintained it since July 2005."
)


Ground = Callable[[str, str], Awaitable[Grounding]]


@pytest.fixture
def ground(
    book_settings: Settings, book_store: VectorStore, embedder: Embedder, reader: Reader
) -> Ground:
    """Ground a question in WROTE_GIT, selected on /docs/."""
    catalog = CatalogCache(book_store)
    catalog.refresh()

    async def grounded(question: str) -> Grounding:
        grounder = SelectionGrounder(
            book_settings,
            default_model(),
            SentenceVectors(embedder, capacity=64),
            reader,
            calibration(),
        )
        return await grounder.ground_selection(
            question, WROTE_GIT, "/docs/", catalog.current, ENGLISH
        )

    return grounded


# The answer model decides and the reader declines where its P is below the calibrated veto.
async def test_the_reader_declines_a_selection_that_does_not_say_what_is_asked(
    ground: Ground,
) -> None:
    # SQuAD 2.0's kind of question: a date is asked, and the selection has one, of something else
    # (the answer model alone, judging by the units' features, answers "April 2005"). "When was
    # GitHub founded?" sits just above the veto since the reader trained on written unanswerable
    # questions (P 0.125 against 0.118; decisions/0022): another thing's date is asked here.
    answered = await ground("Who wrote Git?")
    declined = await ground("When was Mercurial written?")
    assert answered.composition is not None
    assert "Linus Torvalds" in answered.composition.answer
    assert answered.short_answer == "Linus Torvalds"
    assert declined.composition is None and declined.short_answer is None


async def test_the_reader_leaves_explain_this_passage_to_the_answer_model(ground: Ground) -> None:
    # No span answers "Explain this passage": its most central units do.
    explained = await ground("Explain this.")
    assert explained.composition is not None
    assert "Linus Torvalds" in explained.composition.answer
    assert explained.short_answer is None


async def test_the_selection_is_cited_on_the_readers_page(ground: Ground) -> None:
    (passage,) = (await ground("Who wrote Git?")).passages
    assert passage.text == WROTE_GIT
    assert passage.source.chunk_id == "selection" and passage.source.url == "/docs/"
