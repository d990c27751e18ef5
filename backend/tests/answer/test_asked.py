"""What a question asks for, read once: its kind, how many things, the term it defines, the
sides it compares and the code it names."""

from __future__ import annotations

import pytest

from bookchat.answer.asked import Asked, asked_count, asked_list, compared, question_type


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("How do I undo my last commit?", "how_to"),
        ("Why would I rebase instead of merge?", "why"),
        ("When did Git 2.23 add git switch?", "when"),
        ("How many loose objects trigger gc?", "number"),
        ("What is a fast-forward merge?", "define"),
        ("Who maintains Git?", "who"),
    ],
)
def test_question_types_name_what_answer_is_wanted(question: str, kind: str) -> None:
    assert question_type(question) == kind


def test_a_question_says_how_many_things_it_asks_for() -> None:
    assert asked_count("What are the three formats launch files can be written in?") == 3
    assert asked_count("What are the 2 kinds of tags?") == 2
    assert asked_count("How many nodes can a launch file start?") == 0


@pytest.mark.parametrize(
    ("question", "sides"),
    [
        ("What's the difference between git fetch and git pull?", ("git fetch", "git pull")),
        # A side that extends the other keeps the words that tell the two apart.
        (
            "What's the difference between git diff and git diff --staged?",
            ("git diff", "git diff --staged"),
        ),
        ("What is the difference between a node and a topic in ROS 2?", ("node", "topic")),
        (
            "What's the difference between the working tree, the index and the repo?",
            ("working tree", "index", "repo"),
        ),
        (
            "What's the difference between the pre-receive and update hooks?",
            ("pre-receive", "update"),
        ),
        ("How do I undo my last commit?", ()),
    ],
)
def test_a_comparison_question_names_the_things_it_compares(
    question: str, sides: tuple[str, ...]
) -> None:
    assert compared(question) == sides


def test_the_side_after_versus_ends_at_the_question_mark() -> None:
    assert compared("When should I use merge vs. rebase?")[-1] == "rebase"


def test_a_question_asks_for_a_list_only_when_it_asks_what_the_n_things_are() -> None:
    assert asked_list("What are the three components of an action in ROS 2?") == 3
    assert asked_list("Name two kinds of tags.") == 2
    assert asked_list("Which were the 4 founding states?") == 4
    # A count that is not the list asked for.
    assert asked_list("How do I combine my last three commits into one?") == 0
    assert asked_list("What happened three days later?") == 0


def test_one_reading_holds_all_a_question_asks_for() -> None:
    asked = Asked.of("What is a fast-forward merge?")
    assert (asked.kind, asked.defined, asked.compared, asked.key) == (
        "define",
        "fast-forward merge",
        (),
        (),
    )
    listed = Asked.of("What are the three components of an action in ROS 2?")
    assert (listed.count, listed.list_count, listed.defined) == (3, 3, None)
    named = Asked.of("Does GPG signing work with `git commit -S`?")
    assert named.key == ("GPG", "git commit -S") and named.code == ("git commit -S",)
    assert Asked.of("What's the difference between git fetch and git pull?").compared == (
        "git fetch",
        "git pull",
    )
