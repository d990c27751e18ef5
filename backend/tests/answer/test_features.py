"""Features: lexical evidence (stop words, inflections, rare words), and what a question asks for
met by what a unit offers."""

from __future__ import annotations

import numpy as np

from bookchat.answer.asked import Asked
from bookchat.answer.features import (
    INDEX,
    Candidate,
    Context,
    feature_matrix,
)
from bookchat.markdown.units import split_units


def test_a_date_answers_when_and_a_command_answers_how_to() -> None:
    units = split_units("Git 2.23 shipped in August 2019. Run `git switch -c topic` to branch.")
    candidates = [Candidate(u, 0, i, len(units), "h", "t") for i, u in enumerate(units)]
    vectors = np.eye(len(units), 4, dtype=np.float32)
    when = Asked.of("When was it released?")
    ctx = Context(when, vectors[0], vectors, np.zeros(2), np.zeros(2), [0.5])
    rows = feature_matrix(candidates, ctx)
    assert rows[:, INDEX["when_x_year"]].tolist() == [1.0, 0.0]
    assert rows[:, INDEX["sim"]].tolist() == [1.0, 0.0]
    asked = Asked.of("How do I create a branch?")
    howto = Context(asked, vectors[1], vectors, np.zeros(2), np.zeros(2), [0.5])
    assert feature_matrix(candidates, howto)[:, INDEX["howto_x_code"]].tolist() == [0.0, 1.0]


def test_a_question_asking_for_three_things_meets_a_list_or_sentence_of_three() -> None:
    units = split_units(
        "Launch files start many nodes at once.\n\n"
        "They can be written in Python, XML, and YAML.\n\n"
        "An action has these components:\n\n- **Goal**: what to do\n"
        "- **Feedback**: progress so far\n- **Result**: the final outcome"
    )
    candidates = [Candidate(u, 0, i, len(units), "h", "t") for i, u in enumerate(units)]
    vectors = np.eye(len(units), 8, dtype=np.float32)
    ctx = Context(
        Asked.of("What are the three formats or components?"),
        vectors[0],
        vectors,
        np.zeros(len(units)),
        np.zeros(len(units)),
        [0.5],
    )
    matches = feature_matrix(candidates, ctx)[:, INDEX["count_match"]].tolist()
    assert matches == [0.0, 1.0, 0.0, 1.0, 1.0, 1.0]  # the lead-in itself lists nothing
