"""Questions reworded away from their paragraph's words (training/reword), on real MiniLM."""

from __future__ import annotations

import pytest
from training.reader_data import words
from training.reword import Rewording

from bookchat.embedding.minilm import packaged_model_dir

PARAGRAPH = "The fortress was constructed by Count Odo in 1120 and rebuilt after the fire of 1300."
QUESTION = "Who constructed the fortress of Count Odo?"


@pytest.fixture(scope="module")
def rewording() -> Rewording:
    return Rewording(packaged_model_dir(), words(QUESTION))


def test_a_word_the_paragraph_uses_is_swapped_for_a_near_one_it_does_not(
    rewording: Rewording,
) -> None:
    out = rewording.reword(QUESTION, PARAGRAPH)
    assert out is not None and out != QUESTION
    swapped = words(out) - words(QUESTION)
    assert swapped and not swapped & words(PARAGRAPH)
    assert "Count Odo" in out  # names stay


def test_a_question_sharing_no_lower_case_word_with_its_paragraph_stays_as_it_is(
    rewording: Rewording,
) -> None:
    assert rewording.reword("Who is Count Odo?", PARAGRAPH) is None


def test_neighbours_never_share_the_word_s_stem(rewording: Rewording) -> None:
    near = rewording.neighbours["constructed"]
    assert near and not any(n.startswith("cons") for n in near)
