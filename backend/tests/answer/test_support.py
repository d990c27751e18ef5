"""Support scoring: meaning plus the question's rare words, found in the sentence or its heading."""

import numpy as np

from bookchat.answer.support import Candidate, score_sentences

QUESTION = "What is the golden rule of rebasing?"
SENTENCE = "Never rewrite commits that other people may have based work on."


def _score(heading: str) -> float:
    vector = np.array([1.0, 0.0], dtype=np.float32)
    sentences = np.array([[0.4, 0.9165]], dtype=np.float32)  # the same meaning either way
    candidate = Candidate(SENTENCE, source=0, position=0, heading=heading)
    return score_sentences(QUESTION, vector, [candidate], sentences)[0].support


def test_a_sentence_under_a_heading_that_names_the_topic_is_better_supported() -> None:
    assert _score("The golden rule of rebasing") > _score("Conflicts during a rebase") > 0


def test_scores_are_deterministic() -> None:
    assert _score("The golden rule of rebasing") == _score("The golden rule of rebasing")
