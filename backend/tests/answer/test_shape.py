"""The question's shape: the units a "What is X?", "What are the three X?" or comparison
question asks for, raised before the span is chosen."""

from __future__ import annotations

import numpy as np
import pytest

from bookchat.answer import select, shape
from bookchat.answer.asked import Asked
from bookchat.answer.features import Candidate
from bookchat.answer.shape import titled
from bookchat.markdown.units import split_units
from tests.answer.candidates import candidates_of, clone_sections, scored, texts_of, top_texts


def test_what_is_x_is_answered_by_the_definition_of_x_over_a_higher_scored_row() -> None:
    text = (
        "| Command | Effect |\n| --- | --- |\n| `git branch topic` | Create a branch |\n\n"
        "A branch is a movable pointer to a commit. Creating one is cheap.\n\n"
        "A tag is a fixed pointer to a commit."
    )
    candidates = candidates_of(text=text)
    scores = np.array([0.8, 0.3, 0.1, 0.35])
    raised = shape.definition_first(candidates, scores, "branch")
    assert texts_of(select.span(candidates, raised, 40))[:2] == [
        "A branch is a movable pointer to a commit.",
        "Creating one is cheap.",
    ]
    # Plural terms find singular definitions; no definition of the term, no change.
    assert shape.definition_first(candidates, scores, "branches")[1] > scores[0]
    assert shape.definition_first(candidates, scores, "remote") is scores
    assert shape.definition_first(candidates, scores, None) is scores


def test_what_is_x_without_a_definition_is_answered_by_the_opening_of_the_section_titled_x() -> (
    None
):
    text = (
        "If the current tip is an ancestor of the other tip, Git just moves the branch forward. "
        "This fast-forward creates no commit.\n\n"
        "| Option | Behavior |\n| --- | --- |\n| `--ff` | Fast-forward when possible |"
    )
    units = split_units(text)
    candidates = [
        Candidate(u, 0, i, len(units), "Fast-forward merges", "Merging")
        for i, u in enumerate(units)
    ]
    scores = np.array([0.2, 0.1, 0.7])
    raised = shape.definition_first(candidates, scores, "fast-forward merge")
    assert texts_of(select.span(candidates, raised, 40))[:2] == [
        "If the current tip is an ancestor of the other tip, Git just moves the branch forward.",
        "This fast-forward creates no commit.",
    ]
    # A section that merely mentions the term is not its title.
    assert shape.definition_first(candidates, scores, "merge") is scores


def test_a_section_titled_x_that_opens_on_a_list_is_not_read_as_defining_x() -> None:
    units = split_units("- Influential monocular SLAM system\n- Reality gap mitigation")
    candidates = [
        Candidate(u, 0, i, len(units), "Visual SLAM", "References") for i, u in enumerate(units)
    ]
    assert shape.opening(candidates, "visual SLAM") is None


def test_what_are_the_three_x_is_answered_by_the_three_item_list_whose_lead_in_names_x() -> None:
    text = (
        "**Action (ROS 2)**: Long-running tasks with feedback and cancellation.\n\n"
        "**Action Components**:\n"
        "- **Goal**: The request sent to the server\n"
        "- **Feedback**: Messages sent during execution\n"
        "- **Result**: The final outcome\n\n"
        "**Action Structure**:\n"
        "- **Action Server**: Executes the task\n"
        "- **Action Client**: Sends goals\n"
        "- **Action Type**: Defines the formats\n\n"
        "**Typical Uses**:\n"
        "- Navigation\n"
        "- Arm motions\n"
        "- Downloads"
    )
    candidates = candidates_of(text=text)
    scores = scored(candidates, "Long-running tasks")
    question = "What are the three components of an action in ROS 2?"
    chosen = texts_of(
        select.span(candidates, shape.list_first(candidates, scores, Asked.of(question)), 60)
    )
    assert chosen[:3] == [
        "- **Goal**: The request sent to the server",
        "- **Feedback**: Messages sent during execution",
        "- **Result**: The final outcome",
    ]
    # Not a list question, no list of that length, or no list naming what is counted: no change.
    assert shape.list_first(candidates, scores, Asked.of("What is an action in ROS 2?")) is scores
    assert shape.list_first(candidates, scores, Asked.of("What are the four components?")) is scores
    assert (
        shape.list_first(candidates, scores, Asked.of("What are the three colours of a flag?"))
        is scores
    )


def test_a_comparison_opens_on_the_definitions_of_what_it_compares() -> None:
    text = (
        "**Sourcing the Workspace**: After building, you must source the workspace.\n\n"
        "A **workspace** is a top-level directory that contains one or more packages.\n\n"
        "**Graph Components**:\n\n"
        "1. **Nodes**: Independent executables that perform computation\n"
        "2. **Topics**: Named channels for one-way data flow\n\n"
        "A **ROS 2 package** is a directory containing related code."
    )
    candidates = candidates_of(text=text)
    scores = scored(candidates, "Sourcing the Workspace")
    question_terms = ("ROS 2 workspace", "ROS 2 package")
    raised = shape.definitions_compared(candidates, scores, question_terms)
    assert texts_of(select.span(candidates, raised, 60))[:2] == [
        "A **workspace** is a top-level directory that contains one or more packages.",
        "A **ROS 2 package** is a directory containing related code.",
    ]
    raised = shape.definitions_compared(candidates, scores, ("node", "topic"))
    assert top_texts(candidates, raised) == [
        "1. **Nodes**: Independent executables that perform computation",
        "2. **Topics**: Named channels for one-way data flow",
    ]
    # No definition of either side, or no comparison: no change.
    assert shape.definitions_compared(candidates, scores, ("tag", "release")) is scores
    assert shape.definitions_compared(candidates, scores, ()) is scores


def test_a_comparison_without_definitions_opens_on_what_is_said_of_each_side_in_general() -> None:
    text = (
        "**Service Server**: Node that implements the service.\n\n"
        "A rebase can stop once for each conflicting commit.\n\n"
        "Services provide synchronous request-response communication.\n\n"
        "Topics carry one-way messages to any subscriber.\n\n"
        "Rebasing rewrites history."
    )
    candidates = candidates_of(text=text)
    scores = scored(candidates, "Service Server")
    raised = shape.definitions_compared(candidates, scores, ("ROS 2 services", "topics"))
    assert top_texts(candidates, raised) == [
        "Services provide synchronous request-response communication.",
        "Topics carry one-way messages to any subscriber.",
    ]
    # "A rebase can stop …" is said of one rebase, not of rebases: it defines nothing.
    assert shape.definitions_compared(candidates, scores, ("rebase", "squash")) is scores


def test_a_comparison_without_definitions_opens_on_the_sections_titled_with_each_side() -> None:
    candidates = [*clone_sections(), *candidates_of()]
    scores = scored(candidates, "Sync the fork")
    raised = shape.definitions_compared(candidates, scores, ("partial clone", "shallow clone"))
    assert top_texts(candidates, raised) == [
        "Objects are fetched on demand from the server by such a clone.",
        "`git clone --depth 1 <url>` fetches only the latest commit.",
    ]


def test_what_is_x_without_a_definition_or_section_is_answered_where_x_is_set_in_bold() -> None:
    text = (
        "- `--grep` searches commit messages.\n"
        "- `-S`, the **pickaxe**, finds commits that changed the number of occurrences of a string."
    )
    candidates = candidates_of(text=text)
    scores = scored(candidates, "--grep")
    assert candidates[shape.definition_of(candidates, scores, "pickaxe") or 0].unit.text == (
        "- `-S`, the **pickaxe**, finds commits that changed the number of occurrences of a string."
    )
    assert shape.definition_of(candidates, scores, "grep") is None
    assert shape.introduces(text, "Filtering commits", "pickaxe")
    assert shape.introduces("", "Shallow clone", "shallow clone")
    assert not shape.introduces(text, "Filtering commits", "string")


@pytest.mark.parametrize(
    ("term", "heading"),
    [
        ("fast-forward merge", "Fast-forward merges"),
        ("detached HEAD", "Detached `HEAD`"),
        ("launch files", "What are Launch Files?"),
        ("node", "2.1 Nodes"),
        ("garbage collection", "Garbage collection with git gc"),
        ("ort merge strategy", "The `ort` merge strategy"),
        ("class", "Classes"),
    ],
)
def test_a_heading_titles_the_term_it_is_made_of(term: str, heading: str) -> None:
    assert titled(term, heading)


@pytest.mark.parametrize(
    ("term", "heading"),
    [
        ("fork", "Contributing through a fork"),
        ("merge", "Fast-forward merges"),
        ("shallow clone", "Partial clone"),
        (None, "Shallow clone"),
        ("shallow clone", ""),
    ],
)
def test_a_heading_that_only_mentions_the_term_does_not_title_it(
    term: str | None, heading: str
) -> None:
    assert not titled(term, heading)


@pytest.mark.parametrize(
    ("question", "heading"),
    [
        (
            "How do I make git clean also remove ignored build output?",
            "Removing untracked files with git clean",
        ),
        ("Which branches does a plain git push send by default?", "Pushing"),
        ("What is the develop branch for in git flow?", "The git-flow branches"),
    ],
)
def test_a_question_names_a_heading_by_all_its_words_or_by_what_it_is_done_with(
    question: str, heading: str
) -> None:
    assert shape.names_heading(Asked.of(question), heading)


@pytest.mark.parametrize(
    ("question", "heading"),
    [
        ("Can a commit have no parent at all?", "Three-way merges"),
        ("Why do rebased commits end up with different hashes?", "Object IDs: SHA-1 and SHA-256"),
        ("How do I undo a commit?", ""),
    ],
)
def test_a_heading_with_words_the_question_lacks_is_not_named(question: str, heading: str) -> None:
    assert not shape.names_heading(Asked.of(question), heading)
