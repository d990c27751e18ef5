"""The reader's short answer against the gold phrases: SQuAD's exact match and token F1.

These two figures use the official SQuAD evaluation script's normalisation as it stands: lower
case, ASCII punctuation (`string.punctuation`) deleted, the articles a/an/the removed, white space
collapsed. That is not answer_words.py's normalisation, which also strips Markdown and citation
markers and turns every Unicode punctuation mark into a space (so "install/setup.bash" is three
words there and one here): a short answer is a plain span of the book, and scoring it exactly as
SQuAD does keeps these figures comparable with published SQuAD EM/F1.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bookchat.evals.answer_words import overlap_f1

_PUNCTUATION = frozenset(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b")


def normalize_answer(text: str) -> str:
    """SQuAD's `normalize_answer`: lower case, no punctuation, no articles, single spaces."""
    unpunctuated = "".join(ch for ch in text.lower() if ch not in _PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", unpunctuated).split())


def exact_match(predicted: str, gold: str) -> float:
    """1.0 when both normalise to the same text, else 0.0."""
    return float(normalize_answer(predicted) == normalize_answer(gold))


def squad_f1(predicted: str, gold: str) -> float:
    """SQuAD's token F1 of the normalised texts (v2.0's rule: 1.0 when both are empty)."""
    return overlap_f1(
        Counter(normalize_answer(predicted).split()), Counter(normalize_answer(gold).split())
    )


@dataclass(frozen=True, slots=True)
class ShortScore:
    """Exact match and F1 of a short answer, each the best over the gold answers."""

    em: float
    f1: float


def score_short_answer(
    expected_status: str,
    actual_status: str,
    short_answer: str | None,
    golds: Sequence[str],
) -> ShortScore | None:
    """EM and F1 against the best gold; None unless expected grounded with golds; 0 if no span.

    Golds that normalise to nothing are dropped, as SQuAD v2.0's script drops them (a row left
    without any is not scored). An answer without a short answer (an abstention, an error or a
    passage answer) scores 0 for both.
    """
    if expected_status != "grounded":
        return None
    usable = [g for g in golds if normalize_answer(g)]
    if not usable:
        return None
    if actual_status != "grounded" or short_answer is None:
        return ShortScore(0.0, 0.0)
    return ShortScore(
        max(exact_match(short_answer, g) for g in usable),
        round(max(squad_f1(short_answer, g) for g in usable), 4),
    )
