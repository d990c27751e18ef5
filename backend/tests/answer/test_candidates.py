"""Candidate sentences are bounded and de-duplicated across overlapping chunks."""

from __future__ import annotations

from bookchat.answer.candidates import (
    MAX_CANDIDATES,
    MAX_SELECTION_CANDIDATES,
    passage_candidates,
    selection_candidates,
)


def test_overlapping_chunks_contribute_each_sentence_once() -> None:
    first = "Alpha beta gamma. Delta epsilon zeta."
    second = "Delta epsilon zeta. Eta theta iota."
    texts = [c.text for c in passage_candidates([first, second])]
    assert texts == ["Alpha beta gamma.", "Delta epsilon zeta.", "Eta theta iota."]


def test_candidates_are_capped() -> None:
    text = " ".join(f"Sentence number {i} here." for i in range(100))
    assert len(passage_candidates([text, text])) == MAX_CANDIDATES


def test_long_selection_keeps_the_sentences_sharing_words_with_the_question() -> None:
    filler = [f"Filler sentence number {i} here." for i in range(60)]
    selection = " ".join([*filler[:30], "The wombat digs burrows at night.", *filler[30:]])
    kept = [c.text for c in selection_candidates("When does the wombat dig?", selection)]
    assert len(kept) == MAX_SELECTION_CANDIDATES
    assert "The wombat digs burrows at night." in kept


def test_a_selection_too_short_to_split_is_one_candidate() -> None:
    assert [c.text for c in selection_candidates("What?", "  rebase  ")] == ["rebase"]
