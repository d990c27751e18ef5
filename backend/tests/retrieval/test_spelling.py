"""Readers' typos corrected towards the book's words, and nothing else touched."""

from __future__ import annotations

import pytest

from bookchat.retrieval.catalog import Catalog
from bookchat.retrieval.spelling import BookSpeller, Speller, english_words

# A small book's word counts: what ingest stores (tests/ingest/test_vocabulary.py).
BOOK = {
    "commit": 40,
    "commits": 25,
    "branch": 30,
    "branches": 12,
    "merge": 20,
    "merged": 6,
    "already": 3,
    "rebase": 9,
    "worktree": 4,
    "packfiles": 2,
    "python": 1,
    "amenable": 1,
}


@pytest.fixture(scope="module")
def speller() -> Speller:
    """A speller of BOOK with the real English word list."""
    return Speller(BOOK, english_words())


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("how do i undo a comit", "how do i undo a commit"),
        ("list the comits of a brnach", "list the commits of a branch"),
        ("is it alredy merged?", "is it already merged?"),
        ("hooks in pyhton", "hooks in python"),
        ("whats the diffrence", "what's the difference"),  # English, though not the book's
        ("Comit now", "Commit now"),  # the reader's capital kept
    ],
)
def test_typos_become_the_words_meant(speller: Speller, typed: str, meant: str) -> None:
    assert speller.correct(typed) == meant


def test_a_rare_real_word_is_read_as_a_typo_only_of_a_word_the_book_uses_often(
    speller: Speller,
) -> None:
    assert speller.correct("hop back to the brach") == "hop back to the branch"
    # "amendable" is English, one edit from the book's "amenable", which the book uses once.
    assert speller.correct("is the plan amendable later") == "is the plan amendable later"


@pytest.mark.parametrize(
    "text",
    [
        "my laptop broke, can I recover commits?",  # English the book never uses
        "use `git comit -m` in a script",  # code spans are code
        "set core.editr and --no-fff",  # joined to dots and dashes: code
        "what are packfile deltas",  # the book's plural, so a word
        "it doesn't work",  # half of a contraction is not a word to correct
        "Quels sont les points principaux de ce chapitre",  # mostly unknown: another language
        "De quoi parle ce livre",  # French function words ("parle" is one edit from "parse")
        "How do I use venv",  # four letters: too many neighbours to guess
    ],
)
def test_words_that_are_not_typos_are_left_alone(speller: Speller, text: str) -> None:
    assert speller.correct(text) == text


def test_contractions_without_apostrophes_keep_their_sense(speller: Speller) -> None:
    assert speller.correct("i cant rebase and havent merged") == (
        "i can't rebase and haven't merged"
    )


def test_accents_keep_corrections_to_the_books_words(speller: Speller) -> None:
    # "cette" is one edit from English words, but an accented question may be French.
    assert speller.correct("Résume cette comit") == "Résume cette commit"


def test_without_a_vocabulary_nothing_changes() -> None:
    assert Speller({}, english_words()).correct("how do i undo a comit") == (
        "how do i undo a comit"
    )


def test_the_books_speller_reads_the_indexed_vocabulary_and_leaves_other_languages_alone() -> None:
    speller = BookSpeller()
    first = Catalog({"corpus_version": "a", "vocabulary": BOOK})
    assert speller.correct("undo a comit", first, "en") == "undo a commit"
    assert speller.correct("undo a comit", first, "fr") == "undo a comit"
    # A new ingest brings a new vocabulary: the speller is rebuilt from it.
    renamed = Catalog({"corpus_version": "b", "vocabulary": {"comit": 50}})
    assert speller.correct("undo a comit", renamed, None) == "undo a comit"
