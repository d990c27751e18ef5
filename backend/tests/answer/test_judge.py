"""Judging: candidates scored for the question, and the one an answer opens with."""

from __future__ import annotations

import numpy as np

from bookchat.answer import shape
from bookchat.answer.asked import Asked
from bookchat.answer.features import Candidate
from bookchat.answer.judge import Judged
from bookchat.markdown.units import split_units


def test_the_answer_opens_where_the_questions_shape_ranks_first_not_the_model_alone() -> None:
    # The reader reads the passage of this candidate for the quote's anchor: the glossary's
    # entry scores best, but "the three components" are the list in the other passage.
    glossary = split_units("**Action**: Long-running tasks with feedback and cancellation.")
    lesson = split_units(
        "**Action Components**:\n"
        "- **Goal**: The request sent to the server\n"
        "- **Feedback**: Messages sent during execution\n"
        "- **Result**: The final outcome"
    )
    candidates = [
        Candidate(u, 0, i, len(glossary), "A", "Glossary") for i, u in enumerate(glossary)
    ]
    candidates += [Candidate(u, 1, i, len(lesson), "Actions", "") for i, u in enumerate(lesson)]
    scores = np.array([0.9] + [0.2] * len(lesson))
    asked = Asked.of("What are the three components of an action?")
    judged = Judged(
        candidates,
        np.zeros((len(candidates), 1)),
        scores,
        np.zeros(1),
        asked,
        shape.read(candidates, scores, asked),
    )
    assert int(np.argmax(scores)) == 0
    assert candidates[judged.best].source == 1
    assert candidates[judged.best].unit.role == "list_item"
