"""The check on generated answers: [n] markers, then citations and support with the real embedder
and the sample book, and sentences embedded while an answer streams."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from bookchat.answer.llm.agent import REFUSAL, Passage, Search
from bookchat.answer.llm.check import (
    Checked,
    Claim,
    SentencePrefetch,
    check,
    cited,
    claims,
    is_refusal,
    renumber,
    strip_markers,
    with_markers,
)
from bookchat.retrieval.sentence_vectors import SentenceVectors
from tests.scripted_model import words

MIN_SUPPORT = 0.55


async def _passages(search: Callable[..., Search], question: str) -> list[Passage]:
    found = await search()(question)
    assert found, question
    return found


@dataclass(frozen=True)
class Checker:
    """The check against the passages the book's search found for one question."""

    passages: list[Passage]
    vectors: SentenceVectors

    async def __call__(self, text: str, min_support: float = MIN_SUPPORT) -> Checked:
        return await check(text, self.passages, self.vectors, min_support=min_support)


@pytest.fixture
async def revert(book_search_fn: Callable[..., Search], vectors: SentenceVectors) -> Checker:
    """Checks answers to "What does git revert do?" against the passages found for it."""
    return Checker(await _passages(book_search_fn, "What does git revert do?"), vectors)


async def test_a_grounded_answer_keeps_its_citations(revert: Checker) -> None:
    text = (
        "git revert creates a new commit that applies the inverse of the given commit [1]. "
        "Because history is only added to, it is the safe way to undo a shared commit [1]."
    )
    checked = await revert(text)
    assert checked.status == "grounded"
    assert checked.answer == text
    assert not checked.hallucination_flag
    assert checked.unsupported_sentences == []
    assert [c.index for c in checked.citations] == [1]
    assert checked.citations[0].chunk_id == revert.passages[0].source.chunk_id
    assert "inverse" in checked.citations[0].excerpt
    assert checked.weakest_support >= MIN_SUPPORT


async def test_an_invented_marker_is_removed_and_flagged(revert: Checker) -> None:
    text = "git revert creates a new commit that applies the inverse of a commit [1][7]."
    checked = await revert(text)
    assert checked.hallucination_flag
    assert checked.status == "grounded"
    assert (
        checked.answer
        == "git revert creates a new commit that applies the inverse of a commit [1]."
    )
    assert len(checked.citations) == 1


async def test_citations_are_renumbered_to_the_cited_sources_in_order(
    book_search_fn: Callable[..., Search], vectors: SentenceVectors
) -> None:
    passages = await _passages(book_search_fn, "How do fast-forward and three-way merges differ?")
    assert len(passages) >= 2
    text = (
        "A fast-forward only moves the branch forward and creates no commit [2]. "
        "Teams use --no-ff so each feature has a merge commit [2]."
    )
    checked = await check(text, passages, vectors, min_support=0.0)
    assert checked.answer.count("[1]") == 2 and "[2]" not in checked.answer
    assert [c.chunk_id for c in checked.citations] == [passages[1].source.chunk_id]


async def test_the_refusal_sentence_abstains(revert: Checker) -> None:
    for text in (REFUSAL, REFUSAL.lower().rstrip("."), f"{REFUSAL} [1]"):
        checked = await revert(text)
        assert checked.status == "abstained"
        assert checked.refused
        assert checked.citations == []


async def test_an_uncited_answer_is_cited_by_the_sections_its_sentences_match(
    revert: Checker,
) -> None:
    # Small local models never write markers: the check places them, and says so.
    for text in (
        "git revert creates a new commit that applies the inverse of a commit.",
        "git revert creates a new commit that applies the inverse of a commit [9].",
    ):
        checked = await revert(text)
        assert checked.status == "grounded"
        assert checked.attributed
        assert checked.answer.endswith("commit [1].")
        assert [c.chunk_id for c in checked.citations] == [revert.passages[0].source.chunk_id]
        assert not checked.refused
    assert (await revert("It does [9].", min_support=0.5)).hallucination_flag


async def test_an_uncited_answer_the_book_does_not_support_abstains(revert: Checker) -> None:
    text = "The 2018 FIFA World Cup was won by France. Its final was played in Moscow."
    checked = await revert(text)
    assert checked.status == "abstained"
    assert checked.citations == []
    assert not checked.refused and not checked.attributed


async def test_only_the_supported_sentences_of_an_uncited_answer_get_markers(
    revert: Checker,
) -> None:
    made_up = "The 2018 FIFA World Cup was won by France."
    text = f"git revert creates a new commit that applies the inverse of a commit.\n{made_up}"
    checked = await revert(text)
    assert checked.status == "grounded" and checked.attributed
    assert checked.answer == (
        f"git revert creates a new commit that applies the inverse of a commit [1].\n{made_up}"
    )
    assert checked.unsupported_sentences == [made_up]


def test_markers_are_placed_before_the_final_punctuation_across_line_breaks() -> None:
    text = "Reset moves\nthe branch. Revert adds a commit!"
    placed = [("Reset moves the branch.", 2), ("Revert adds a commit!", 1)]
    assert with_markers(text, placed) == "Reset moves\nthe branch [2]. Revert adds a commit [1]!"
    assert with_markers(text, [("Nothing like this.", 1)]) is None


async def test_unsupported_sentences_are_listed_but_kept(revert: Checker) -> None:
    made_up = "The 2018 FIFA World Cup was won by France."
    text = (
        f"git revert creates a new commit that applies the inverse of a commit [1]. {made_up} [1]"
    )
    checked = await revert(text)
    assert checked.status == "grounded"
    assert checked.unsupported_sentences == [made_up]
    assert made_up in checked.answer
    assert checked.weakest_support < MIN_SUPPORT


async def test_an_uncited_sentence_is_checked_against_the_cited_sources(revert: Checker) -> None:
    text = (
        "Python lists are implemented as dynamic arrays. "
        "git revert creates a new commit that applies the inverse of a commit [1]."
    )
    checked = await revert(text)
    assert checked.unsupported_sentences == ["Python lists are implemented as dynamic arrays."]


def test_a_marker_after_the_full_stop_belongs_to_the_sentence_before() -> None:
    found = claims("Revert adds a new commit. [2] Reset moves the branch pointer. [1][3]")
    assert found == [
        Claim("Revert adds a new commit.", [2]),
        Claim("Reset moves the branch pointer.", [1, 3]),
    ]


def test_refusal_detection_ignores_case_and_markers() -> None:
    assert is_refusal("the book does not cover this [1]")
    assert not is_refusal("The book does not cover this, but revert adds a commit [1].")


def test_known_markers_are_renumbered_by_first_use() -> None:
    out = renumber("Merges combine work [3]. Rebases replay it [1]. Both exist [3][1].", 3)
    assert out.text == "Merges combine work [1]. Rebases replay it [2]. Both exist [1][2]."
    assert out.order == [3, 1]
    assert out.invented == []


def test_invented_markers_are_removed_with_their_space() -> None:
    out = renumber("Revert adds a commit [1]. It was invented in 1999 [7].", 2)
    assert out.text == "Revert adds a commit [1]. It was invented in 1999."
    assert out.invented == [7]


def test_grouped_markers_are_split_and_filtered() -> None:
    out = renumber("Both say so [2, 9, 1].", 2)
    assert out.text == "Both say so [1][2]."
    assert out.order == [2, 1]
    assert out.invented == [9]


def test_a_repeated_marker_in_one_group_is_kept_once() -> None:
    assert renumber("Twice [1][1].", 1).text == "Twice [1][1]."
    assert renumber("Twice [1, 1].", 1).text == "Twice [1]."


def test_markdown_links_and_zero_are_not_markers() -> None:
    out = renumber("See [1](https://example.com) and item [0].", 1)
    assert out.text == "See [1](https://example.com) and item."
    assert out.invented == [0]
    assert out.order == []


def test_cited_and_strip() -> None:
    assert cited("A [2] b [1][2].") == [2, 1]
    assert strip_markers("A [2] b [1][2].") == "A b."


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
