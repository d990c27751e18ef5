"""Splitting cleaned Markdown into quotable sentences."""

from __future__ import annotations

import pytest

from bookchat.answer.sentences import sentences_with_code, split_sentences


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


FORK = """To sync the fork, keep your own commits off its `main` and fast-forward it:

```bash
git fetch upstream
git merge --ff-only upstream/main
```

Then push it back to your fork.
"""


def test_a_sentence_ending_in_a_colon_carries_the_code_block_after_it() -> None:
    assert sentences_with_code(FORK) == [
        (
            "To sync the fork, keep your own commits off its `main` and fast-forward it:",
            "```bash\ngit fetch upstream\ngit merge --ff-only upstream/main\n```",
        ),
        ("Then push it back to your fork.", ""),
    ]


def test_code_is_attached_without_changing_the_sentences() -> None:
    assert [s for s, _ in sentences_with_code(FORK)] == split_sentences(FORK)


@pytest.mark.parametrize(
    "text",
    [
        # No colon: the block illustrates, it is not what the sentence introduces.
        "Run the usual commands for this step.\n\n```bash\ngit status\n```\n",
        # A heading between them: the block belongs to the next section.
        "Run the following commands here:\n\n## Next\n\n```bash\ngit status\n```\n",
        # A fragment too short to be a sentence sits between them.
        "Run the following commands here:\n\nFor example:\n\n```bash\ngit status\n```\n",
    ],
)
def test_code_is_only_attached_directly_after_an_introducing_sentence(text: str) -> None:
    assert all(code == "" for _, code in sentences_with_code(text))
