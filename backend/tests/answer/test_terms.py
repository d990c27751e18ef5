"""Content words: stop words dropped, inflections stripped, and a question's read once."""

from __future__ import annotations

from bookchat.answer.asked import Asked
from bookchat.answer.terms import content_terms


def test_content_terms_drop_stop_words_and_strip_inflections() -> None:
    assert content_terms("What does merging branches do?") == {"merg", "branch"}


def test_a_question_carries_its_content_words_and_reads_hyphens_apart_for_headings() -> None:
    asked = Asked.of("What is a fast-forward merge?")
    assert asked.terms == {"fast-forward", "merg"}
    assert asked.split_terms == {"fast", "forward", "merg"}
