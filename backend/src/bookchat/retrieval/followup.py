"""Questions that lean on their context: the conversation, or the passage a reader selected.

"And what about tags?" retrieves nothing useful alone. When a question looks like it depends on
earlier turns (it refers back, starts like a continuation, or names no topic at all), the
retrieval query is the last questions of the conversation followed by this one. Deterministic:
the same turns and question always give the same query.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

_CONTINUATION = re.compile(
    r"^\s*(and|but|so|also|then|what about|how about|what of|why not|same for|ok(ay)?,?)\b", re.I
)
_REFERS_BACK = re.compile(
    r"\b(it|its|it's|that|this|these|those|they|them|their|such|former|latter|same|above|"
    r"previous|earlier|instead|both|either|neither|(the|these|those) (two|three|both)|"
    r"the (first|second|third|last|other|next) (one|ones|method|option|"
    r"way|command|step|kind|type|mode))\b",
    re.I,
)
# Inner dots and pluses stay (`core.editor`, `C++`); a sentence's final period does not.
_WORD = re.compile(r"[A-Za-z][\w+-]*(?:\.[\w+-]+)*")
_FUNCTION_WORDS = frozenset(
    (  # noqa: SIM905 - one readable paragraph beats eighty one-word lines
        "a an the and or but so of to in on for with by at from is are was were be been do does "
        "did how what why when where which who whom can could should would will i you we my me "
        "your our about also then there here if not no yes ok okay please tell explain more"
    ).split()
)
CONTEXT_TURNS = 2


class PriorTurn(Protocol):
    """An earlier question of the conversation (stored turns and eval fixtures both fit)."""

    @property
    def question(self) -> str:
        """The earlier question."""
        ...


def depends_on_context(question: str) -> bool:
    """True when the question probably cannot be understood without the earlier turns."""
    content = [w for w in _WORD.findall(question) if w.lower() not in _FUNCTION_WORDS]
    return bool(_CONTINUATION.match(question) or _REFERS_BACK.search(question) or not content)


_ORDINALS = {
    "first": 0, "1st": 0, "1": 0,
    "second": 1, "2nd": 1, "2": 1,
    "third": 2, "3rd": 2, "3": 2,
    "last": -1,
}  # fmt: skip
_NAMES_PLACE = re.compile(
    r"\b(?:the\s+)?(first|1st|second|2nd|third|3rd|last)\s+(?:one|section|link|place|result|"
    r"suggestion)\b|(?:\bnumber|\bno\.|#)\s*([123])\b",
    re.I,
)


def place_named(question: str, turns: Sequence[PriorTurn]) -> str | None:
    """The section heading of the place the last answer showed that the question names by its
    position ("tell me more about the second one"); None when it names none."""
    if not turns or not (match := _NAMES_PLACE.search(question)):
        return None
    places = getattr(turns[-1], "related", None) or []
    word = next(g for g in match.groups() if g).lower()
    index = _ORDINALS[word]
    if not places or index >= len(places):
        return None
    place = places[index]
    section = place.get("section") if isinstance(place, dict) else None
    return str(section) if section else None


def contextual_query(question: str, turns: Sequence[PriorTurn]) -> str:
    """The text to retrieve with: the question, preceded by recent questions when it needs them."""
    if not turns or not depends_on_context(question):
        return question
    earlier = [turn.question.strip() for turn in turns[-CONTEXT_TURNS:]]
    return " ".join([*earlier, question.strip()])


_ABOUT_THE_PASSAGE = frozenset(
    (  # noqa: SIM905 - one readable paragraph beats forty one-word lines
        "explain explanation mean means meaning meant passage selection selected text paragraph "
        "sentence part bit section summarize summarise summary simpler simply simple terms words "
        "say saying says said clarify elaborate understand help plain english eli5 highlighted "
        "this that it above here in on"
    ).split()
)


def asks_about_the_passage(question: str) -> bool:
    """True for "Explain this passage." or "What does this mean?": no topic of its own."""
    words = [w.lower() for w in _WORD.findall(question)]
    return not [w for w in words if w not in _FUNCTION_WORDS and w not in _ABOUT_THE_PASSAGE]
