"""The read stage: the shipped reader reorders what retrieval proposes."""

from __future__ import annotations

from bookchat.answer.grounding import Grounder
from bookchat.answer.model import default_model
from bookchat.answer.reader import Reader
from bookchat.answer.reading import reordered
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.retrieval.search import Retriever
from bookchat.retrieval.sentence_vectors import PassageVectors, SentenceVectors
from bookchat.vectorstore import Hit, VectorStore


def _hit(chunk_id: str, section: str, text: str) -> Hit:
    return Hit(chunk_id, 0.5, {"section": section, "text": text})


HISTORY = _hit(
    "history",
    "History",
    "Git was written by Linus Torvalds in April 2005 to manage the Linux kernel.",
)
INSTALLING = _hit("installing", "Installing", "On Fedora, install Git with `sudo dnf install git`.")


def test_the_passage_that_answers_moves_above_one_retrieval_ranked_first(reader: Reader) -> None:
    order = reordered(reader, "Who wrote Git?", [INSTALLING, HISTORY])
    assert [h.chunk_id for h in order] == ["history", "installing"]


def test_passages_that_read_alike_keep_retrieval_order(reader: Reader) -> None:
    twin = _hit("twin", "History", str(HISTORY.payload["text"]))
    order = reordered(reader, "Who wrote Git?", [twin, HISTORY])
    assert [h.chunk_id for h in order] == ["twin", "history"]


def test_nothing_to_read_is_nothing_to_reorder(reader: Reader) -> None:
    assert reordered(reader, "Who wrote Git?", []) == []


def test_a_grounder_reorders_only_when_it_has_a_ranker_and_passages_to_read(
    reader: Reader, book_settings: Settings, book_store: VectorStore, embedder: Embedder
) -> None:
    cache = SentenceVectors(embedder)
    parts = (
        Retriever(book_store, hybrid=True),
        PassageVectors(book_store, cache),
        cache,
        default_model(),
    )
    reading = book_settings.model_copy(update={"reader_passages": 2})
    hits = [INSTALLING, HISTORY]
    ranked = Grounder(reading, *parts, ranker=reader)
    assert [h.chunk_id for h in ranked.reorder("Who wrote Git?", hits, 2)] == [
        "history",
        "installing",
    ]
    for unranked in (Grounder(reading, *parts), Grounder(book_settings, *parts, ranker=reader)):
        assert unranked.reorder("Who wrote Git?", hits, 2) == hits
