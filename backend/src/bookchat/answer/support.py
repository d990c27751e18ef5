"""Support: how well one sentence answers the question (meaning plus shared rare words)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from bookchat.answer.lexical import content_terms, idf_weights, overlap

# Weights of the two kinds of evidence; calibrated on squad-dev10 (see decisions.md).
DENSE_WEIGHT = 0.8
LEXICAL_WEIGHT = 0.2


@dataclass(frozen=True, slots=True)
class Candidate:
    """A sentence that might go into the answer, and where it came from."""

    text: str
    source: int  # index of its passage in retrieval order (0 = best passage)
    position: int  # order of the sentence within the passage
    heading: str = ""  # the section it sits under: "The golden rule of rebasing" names its topic
    code: str = ""  # the fenced block it introduces ("... fast-forward it:"), shown after it


@dataclass(frozen=True, slots=True)
class Scored:
    """A candidate with its support score."""

    candidate: Candidate
    support: float
    similarity: float
    lexical: float


def score_sentences(
    question: str,
    question_vector: NDArray[np.float32],
    candidates: Sequence[Candidate],
    sentence_vectors: NDArray[np.float32],
) -> list[Scored]:
    """Support of every candidate, in the candidates' order."""
    if not candidates:
        return []
    similarities = sentence_vectors @ question_vector
    pool = [content_terms(c.text) for c in candidates]
    idf = idf_weights(pool)
    # A question word no sentence contains is as rare as it gets: it weighs the most, so a
    # question about something absent scores low even if the rest of it matches.
    unseen = math.log(1.0 + len(pool))
    q_terms = content_terms(question)
    return [
        Scored(
            candidate=c,
            support=DENSE_WEIGHT * float(sim) + LEXICAL_WEIGHT * lex,
            similarity=float(sim),
            lexical=lex,
        )
        for c, sim, terms in zip(candidates, similarities, pool, strict=True)
        for lex in [overlap(q_terms, terms | content_terms(c.heading), idf, unseen)]
    ]
