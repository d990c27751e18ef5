"""Splitting cleaned Markdown into quotable sentences."""

from __future__ import annotations

from bookchat.answer.sentences import split_sentences


def test_prose_splits_at_sentence_ends() -> None:
    text = "Git stores snapshots. Each commit names its parent! Does it? Yes it does."
    assert split_sentences(text) == [
        "Git stores snapshots.",
        "Each commit names its parent!",
        "Yes it does.",
    ]


def test_code_fences_are_not_prose() -> None:
    text = (
        "Run this command now.\n\n```bash\ngit commit -m 'Fix the bug. Really.'\n```\n\n"
        "Then push the branch."
    )
    assert split_sentences(text) == ["Run this command now.", "Then push the branch."]


def test_list_items_are_sentences_of_their_own() -> None:
    text = (
        "Three rules apply here:\n- keep commits small\n- write clear messages\n"
        "1. push often to the remote"
    )
    assert split_sentences(text) == [
        "Three rules apply here:",
        "keep commits small",
        "write clear messages",
        "push often to the remote",
    ]


def test_table_rows_read_as_first_cell_then_the_rest() -> None:
    text = "| Option | Behavior |\n| --- | --- |\n| `--ff-only` | Fast-forward or fail |\n"
    assert split_sentences(text) == ["`--ff-only`: Fast-forward or fail"]


def test_lines_of_one_paragraph_join_and_fragments_are_dropped() -> None:
    text = "A branch is a\nmovable pointer.\n\nOK.\n\n## Heading here"
    assert split_sentences(text) == ["A branch is a movable pointer."]
