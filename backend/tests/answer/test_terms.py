"""Content words: stop words dropped, inflections stripped, a question's read once, and how much
of a question a sentence shares."""

from __future__ import annotations

from bookchat.answer.asked import Asked
from bookchat.answer.terms import content_terms, idf_weights, overlap


def test_content_terms_drop_stop_words_and_strip_inflections() -> None:
    assert content_terms("What does merging branches do?") == {"merg", "branch"}


def test_a_question_carries_its_content_words_and_reads_hyphens_apart_for_headings() -> None:
    asked = Asked.of("What is a fast-forward merge?")
    assert asked.terms == {"fast-forward", "merg"}
    assert asked.split_terms == {"fast", "forward", "merg"}


def test_overlap_is_the_weighted_share_of_question_terms_found() -> None:
    pool = [content_terms("git merge joins branches"), content_terms("git rebase moves commits")]
    idf = idf_weights(pool)
    question = content_terms("Does git rebase move commits?")
    assert overlap(question, pool[1], idf, unseen=1.0) == 1.0
    assert 0 < overlap(question, pool[0], idf, unseen=1.0) < 0.5


def test_question_words_absent_from_every_sentence_lower_the_overlap() -> None:
    pool = [content_terms("git merge joins branches")]
    idf = idf_weights(pool)
    assert overlap(content_terms("merge zebras"), pool[0], idf, unseen=2.0) < 0.5
