"""The citation check on generated answers, with the real embedder and the sample book."""

from __future__ import annotations

from collections.abc import Callable

from bookchat.answer.llm.citations import Claim, check, claims, is_refusal
from bookchat.answer.llm.passages import Passage, Search
from bookchat.answer.llm.prompt import REFUSAL
from bookchat.answer.sentence_vectors import SentenceVectors

MIN_SUPPORT = 0.55


async def _passages(search: Callable[..., Search], question: str) -> list[Passage]:
    found = await search()(question)
    assert found, question
    return found


async def test_a_grounded_answer_keeps_its_citations(
    book_search_fn: Callable[..., Search], vectors: SentenceVectors
) -> None:
    passages = await _passages(book_search_fn, "What does git revert do?")
    text = (
        "git revert creates a new commit that applies the inverse of the given commit [1]. "
        "Because history is only added to, it is the safe way to undo a shared commit [1]."
    )
    checked = await check(text, passages, vectors, min_support=MIN_SUPPORT)
    assert checked.status == "grounded"
    assert checked.answer == text
    assert not checked.hallucination_flag
    assert checked.unsupported_sentences == []
    assert [c.index for c in checked.citations] == [1]
    assert checked.citations[0].chunk_id == passages[0].source.chunk_id
    assert "inverse" in checked.citations[0].excerpt
    assert checked.weakest_support >= MIN_SUPPORT


async def test_an_invented_marker_is_removed_and_flagged(
    book_search_fn: Callable[..., Search], vectors: SentenceVectors
) -> None:
    passages = await _passages(book_search_fn, "What does git revert do?")
    text = "git revert creates a new commit that applies the inverse of a commit [1][7]."
    checked = await check(text, passages, vectors, min_support=MIN_SUPPORT)
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


async def test_the_refusal_sentence_abstains(
    book_search_fn: Callable[..., Search], vectors: SentenceVectors
) -> None:
    passages = await _passages(book_search_fn, "What does git revert do?")
    for text in (REFUSAL, REFUSAL.lower().rstrip("."), f"{REFUSAL} [1]"):
        checked = await check(text, passages, vectors, min_support=MIN_SUPPORT)
        assert checked.status == "abstained"
        assert checked.refused
        assert checked.citations == []


async def test_an_answer_without_a_valid_citation_abstains(
    book_search_fn: Callable[..., Search], vectors: SentenceVectors
) -> None:
    passages = await _passages(book_search_fn, "What does git revert do?")
    for text in ("git revert makes an inverse commit.", "git revert makes an inverse commit [9]."):
        checked = await check(text, passages, vectors, min_support=MIN_SUPPORT)
        assert checked.status == "abstained"
        assert checked.citations == []
        assert not checked.refused
    assert (await check("It does [9].", passages, vectors, min_support=0.5)).hallucination_flag


async def test_unsupported_sentences_are_listed_but_kept(
    book_search_fn: Callable[..., Search], vectors: SentenceVectors
) -> None:
    passages = await _passages(book_search_fn, "What does git revert do?")
    made_up = "The 2018 FIFA World Cup was won by France."
    text = (
        f"git revert creates a new commit that applies the inverse of a commit [1]. {made_up} [1]"
    )
    checked = await check(text, passages, vectors, min_support=MIN_SUPPORT)
    assert checked.status == "grounded"
    assert checked.unsupported_sentences == [made_up]
    assert made_up in checked.answer
    assert checked.weakest_support < MIN_SUPPORT


async def test_an_uncited_sentence_is_checked_against_the_cited_sources(
    book_search_fn: Callable[..., Search], vectors: SentenceVectors
) -> None:
    passages = await _passages(book_search_fn, "What does git revert do?")
    text = (
        "Python lists are implemented as dynamic arrays. "
        "git revert creates a new commit that applies the inverse of a commit [1]."
    )
    checked = await check(text, passages, vectors, min_support=MIN_SUPPORT)
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
