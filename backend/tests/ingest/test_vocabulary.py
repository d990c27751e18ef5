"""The book's vocabulary: lowercase words of three letters or more, counted."""

from __future__ import annotations

from bookchat.ingest.vocabulary import book_vocabulary


def test_words_are_counted_case_folded_and_short_ones_dropped() -> None:
    counts = book_vocabulary(["Git stores a Commit.", "git commit -m 'x'; git log"])
    assert counts == {"git": 3, "commit": 2, "stores": 1, "log": 1}
    assert list(counts) == ["git", "commit", "stores", "log"]  # most frequent first


def test_a_word_with_an_accent_is_left_out_whole_not_cut_into_fragments() -> None:
    # "boziz" in the vocabulary would turn a reader's "Bozize" into it.
    assert book_vocabulary(["President Bozizé met Patassé"]) == {"president": 1, "met": 1}
