"""An answer's words against a reference answer: SQuAD's token F1 and the reference's recall.

Both texts are reduced to plain words first: citation markers and Markdown markup go (a bullet,
a `**`, a table pipe or a `[1]` is not something the answer says), then SQuAD's normalisation
(lower case, no punctuation, no articles a/an/the, single spaces) applies. Unlike SQuAD, which
deletes punctuation, punctuation here becomes a space: textbook answers are full of paths and
calls (`install/setup.bash`, `rclpy.spin()`) whose parts are words, and an em dash between two
words must not glue them into one. Apostrophes are still deleted, so "who's" stays one word.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

_FENCE_LINE = re.compile(r"^[ \t]*(?:`{3,}|~{3,}).*$", re.MULTILINE)
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
# "[1]", "[1][3]" and "[1, 2]", with the space before them: what the generators append.
_MARKERS = re.compile(r"\s*\[\d+(?:\s*,\s*\d+)*\]")
_HEADING = re.compile(r"^[ \t]*#{1,6}[ \t]+", re.MULTILINE)
_BULLET = re.compile(r"^[ \t]*(?:>[ \t]*)*(?:[-*+]|\d{1,3}[.)])[ \t]+", re.MULTILINE)
_QUOTE = re.compile(r"^[ \t]*>[ \t]?", re.MULTILINE)
_TABLE_RULE = re.compile(r"^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*$")
_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)[*_]|[*_](?!\w)")
_ARTICLES = re.compile(r"\b(?:a|an|the)\b")
_APOSTROPHES = str.maketrans("", "", "'\u2019")


def plain_text(markdown: str) -> str:
    """The text a reader sees: no citation markers, fences, links, bullets, pipes or emphasis."""
    text = _FENCE_LINE.sub("", markdown)  # the code inside a fence is kept: it is said
    text = _LINK.sub(r"\1", _IMAGE.sub(r"\1", text))
    text = _MARKERS.sub("", text)
    text = "\n".join(line for line in text.splitlines() if not _TABLE_RULE.match(line))
    text = _BULLET.sub("", _HEADING.sub("", text))
    text = _QUOTE.sub("", text)
    text = text.replace("`", "").replace("|", " ")
    text = _EMPHASIS.sub("", text)
    return re.sub(r"\s+", " ", text).strip()


def _unpunctuated(text: str) -> str:
    # Every Unicode punctuation mark or symbol is a break between words (see the module's note).
    return "".join(
        " " if unicodedata.category(ch)[0] in "PS" else ch for ch in text.translate(_APOSTROPHES)
    )


def words(text: str) -> list[str]:
    """SQuAD-normalised tokens of an answer or reference (markup and markers removed first)."""
    lowered = _unpunctuated(plain_text(text).lower())
    return _ARTICLES.sub(" ", lowered).split()


def overlap_f1(predicted: Counter[str], reference: Counter[str]) -> float:
    """SQuAD's token F1 of two bags of words (1.0 when both are empty, as SQuAD scores it)."""
    if not predicted or not reference:
        return float(predicted == reference)
    same = sum((predicted & reference).values())
    if same == 0:
        return 0.0
    precision = same / sum(predicted.values())
    recall = same / sum(reference.values())
    return 2 * precision * recall / (precision + recall)


def token_f1(answer: str, reference: str) -> float:
    """SQuAD's token F1 of an answer against a reference answer."""
    return overlap_f1(Counter(words(answer)), Counter(words(reference)))


def reference_recall(answer: str, reference: str) -> float:
    """Share of the reference's tokens the answer has, with multiplicity (1.0 if it has none)."""
    gold = Counter(words(reference))
    if not gold:
        return 1.0
    return sum((Counter(words(answer)) & gold).values()) / sum(gold.values())


@dataclass(frozen=True, slots=True)
class AnswerScore:
    """How much of a reference answer one answer says."""

    f1: float
    recall: float


def score_answer(
    expected_status: str, actual_status: str, answer: str, reference: str | None
) -> AnswerScore | None:
    """Scores of an answer that should be grounded; None without a reference; 0 unless answered.

    An abstention (or an error) said nothing of the reference, whatever words its message happens
    to share with it. A row that should abstain (asked in the wrong chapter, say) may keep the
    reference of its real location, but there the right answer says none of it: not scored.
    """
    if reference is None or expected_status != "grounded":
        return None
    if actual_status != "grounded":
        return AnswerScore(0.0, 0.0)
    return AnswerScore(
        round(token_f1(answer, reference), 4), round(reference_recall(answer, reference), 4)
    )
