"""Sentences of a streamed answer are embedded as soon as they look complete."""

from __future__ import annotations

from bookchat.answer.llm.prefetch import SentencePrefetch
from bookchat.answer.sentence_vectors import SentenceVectors
from tests.scripted_model import words


async def test_completed_sentences_are_embedded_while_streaming(vectors: SentenceVectors) -> None:
    prefetch = SentencePrefetch(vectors)
    text = "git revert adds an inverse commit [1]. It never rewrites history [1]. And the last one"
    for delta in words(text):
        prefetch.feed(delta)
    await prefetch.settle()
    done = ["git revert adds an inverse commit", "It never rewrites history"]
    assert vectors.missing(done) == []
    assert vectors.missing(["And the last one"]) == ["And the last one"]


async def test_a_sentence_that_looks_finished_is_embedded_before_its_full_stop(
    vectors: SentenceVectors,
) -> None:
    prefetch = SentencePrefetch(vectors)
    for delta in ("Tags mark ", "releases ", "[1]"):
        prefetch.feed(delta)
    await prefetch.settle()
    assert vectors.missing(["Tags mark releases"]) == []
    before = len(vectors)
    prefetch.feed(".")  # the same sentence, the same key: nothing new to embed
    await prefetch.settle()
    assert len(vectors) == before


async def test_cancel_drops_pending_work(vectors: SentenceVectors) -> None:
    prefetch = SentencePrefetch(vectors)
    prefetch.feed("A sentence that is complete now. Another")
    prefetch.cancel()
    await prefetch.settle()  # nothing left to wait for
