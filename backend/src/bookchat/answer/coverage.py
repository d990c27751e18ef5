"""Coverage: every decision on whether the book, a chapter or a selection answers a question,
and whether the book comes close to it when none does.

The coverage model (answer/model.py) judges what the best passage offers against its calibrated
threshold; the answer reader overrules it where it is sure; a named term the passages lack
declines; a chapter defers to the chapter that answers far better; closeness decides between
showing the nearest places and a plain decline.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from bookchat.answer.compose import Composition
from bookchat.answer.llm.agent import Passage
from bookchat.answer.model import COVERAGE_FEATURES, AnswerModel
from bookchat.answer.reader import Reader
from bookchat.answer.related import closeness_row
from bookchat.answer.short_answer import passage_text
from bookchat.vectorstore import Hit


@dataclass(frozen=True, slots=True)
class Grounding:
    """What answering from passages decided: a composition (or None) and P(covered)."""

    composition: Composition | None
    best_support: float
    passages: tuple[Passage, ...] = ()
    threshold: float = 0.5  # the P(covered) it was held to
    best_score: float = 0.0  # the best unit's score: how well one unit answers on its own
    defines: bool = False  # as Judged.defines, for the passages grounded on
    # The answer opens on a section whose heading the question names ("git clean" for
    # "Removing untracked files with git clean").
    named: bool = False
    short_answer: str | None = None  # the reader's span inside the quote (short_answer.py)
    hits: tuple[Hit, ...] = ()  # retrieval's passages, best first: the places shown beside

    @property
    def covered(self) -> bool:
        """True when the passages were judged to cover the question (an answer was composed)."""
        return self.composition is not None


# What the answer reader says where it is sure: the passages answer ("vouch") or do not ("veto").
Verdict = Literal["veto", "vouch"] | None


@dataclass(frozen=True, slots=True)
class Cover:
    """Whether the passages answer, P(covered), and the threshold it was held to."""

    answers: bool
    covered: float
    threshold: float


def covers(model: AnswerModel, row: NDArray[np.float64], verdict: Verdict = None) -> Cover:
    """Whether the passages (or selection) behind a coverage `row` answer: the coverage model
    against its threshold, overruled by the reader's `verdict`."""
    covered = model.covered(row)
    needed = model.threshold(row)
    if verdict == "vouch":
        covered = max(covered, needed)
    if covered < needed:
        return Cover(False, covered, needed)
    if row[COVERAGE_FEATURES.index("missing_terms")] > 0:
        # A named option, key or acronym the passages lack: the book answers a nearby question,
        # not this one, however well the rest matches
        # (specs/001-bookchat/decisions/0015-named-terms-must-be-in-the-passages.md).
        return Cover(False, min(covered, 0.5 * needed), needed)
    return Cover(verdict != "veto", covered, needed)


@dataclass(frozen=True, slots=True)
class ReaderJudge:
    """The answer reader as a judge of coverage where it is sure: below `veto` it declines and
    above `vouch` it answers, whatever the answer model says."""

    reader: Reader
    veto: float
    vouch: float

    async def verdict(self, question: str, hits: Sequence[Hit]) -> Verdict:
        """What the reader, sure of it, says of `hits` for `question` (its best P against the
        veto and the vouch); None where it leaves the answer model to judge."""
        texts = [passage_text(h.payload) for h in hits]
        readings = await asyncio.to_thread(self.reader.read, question, texts)
        best = max(r.probability for r in readings)
        return "veto" if best < self.veto else "vouch" if best >= self.vouch else None


# A chapter "covers" a question only if the rest of the book does not answer it far better.
MUCH_BETTER = 2.0


def elsewhere(chapter: Grounding, book: Grounding, key: str) -> bool:
    """True when another chapter answers much better (a span against the chapter's passage, a
    unit MUCH_BETTER times its best, or the definition or named section the chapter lacks): the
    chapter then declines and points there."""
    found = book.composition
    if found is None or not found.citations or found.citations[0].chapter == key:
        return False
    if (book.defines and not chapter.defines) or (book.named and not chapter.named):
        # The chapter would quote a passing mention while another chapter says what X is, or
        # has the section about the command the question names.
        return True
    if chapter.composition is not None and chapter.composition.kind == "passage":
        return found.kind == "span"
    return book.best_score >= MUCH_BETTER * chapter.best_score


def close(model: AnswerModel, question: str, hits: Sequence[Hit]) -> bool:
    """True when the passages come close enough to the question to be shown."""
    return bool(hits) and model.close(closeness_row(question, hits))


# Coverage probability at which confidence reaches 1.
FULL_SUPPORT = 1.0


def confidence(best_support: float, min_support: float) -> float:
    """0.5 exactly at the abstention threshold, linear to 0 below it and to 1 at FULL_SUPPORT."""
    if best_support <= 0:
        return 0.0
    if best_support < min_support:
        value = 0.5 * best_support / min_support if min_support > 0 else 0.0
    else:
        span = max(FULL_SUPPORT - min_support, 1e-6)
        value = 0.5 + 0.5 * (best_support - min_support) / span
    return round(min(1.0, max(0.0, value)), 3)
