"""Which questions lean on their context, and what is retrieved for them."""

from dataclasses import dataclass

import pytest

from bookchat.retrieval.followup import asks_about_the_passage, contextual_query, depends_on_context


@dataclass
class Turn:
    question: str


@pytest.mark.parametrize(
    "question",
    [
        "And how do I delete it?",
        "What about tags?",
        "How do I include untracked files in it?",
        "Why?",
        "and the second one?",
        "Which setting controls that for unreachable ones?",
        "Which of the two should I use for a release?",
        "Can I use both at once?",
    ],
)
def test_questions_that_refer_back_depend_on_context(question: str) -> None:
    assert depends_on_context(question)


@pytest.mark.parametrize(
    "question",
    [
        "How do I create a branch in Git?",
        "What does git rebase --autosquash do?",
        "Where is core.editor configured?",
    ],
)
def test_self_contained_questions_do_not(question: str) -> None:
    assert not depends_on_context(question)


def test_the_query_prepends_the_last_two_questions_only_when_needed() -> None:
    turns = [Turn("What is a tag?"), Turn("What does git stash do?"), Turn("How do I pop it?")]
    assert contextual_query("What is a remote?", turns) == "What is a remote?"
    assert contextual_query("And how do I drop it?", turns) == (
        "What does git stash do? How do I pop it? And how do I drop it?"
    )
    assert contextual_query("And how do I drop it?", []) == "And how do I drop it?"


@pytest.mark.parametrize(
    ("question", "generic"),
    [
        ("Explain this passage.", True),
        ("What does this mean?", True),
        ("Summarize this", True),
        ("Can you explain it in simpler terms?", True),
        ("How big is a branch file?", False),
        ("What does core.editor mean here?", False),
    ],
)
def test_questions_about_the_passage_as_a_whole(question: str, generic: bool) -> None:
    assert asks_about_the_passage(question) is generic
