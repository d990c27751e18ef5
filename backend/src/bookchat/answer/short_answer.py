"""The short answer: the reader's predicted span in the passage an answer quotes first (or in
the reader's selection).

A quoted answer is whole units (a sentence, a list item, a table row); the reader
(`reader.py`) reads the question with that passage and points at the words that answer
("Git 2.23 or newer"). The span is kept only when the reader finds one (it beats "no answer
here" by the calibrated margin) and it lies inside what is quoted: the reader never adds a word
the reader of the answer cannot see cited.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from bookchat.answer.reader import Reader

_MARKUP = re.compile(r"\*\*|__|`")
# Spans that run across a table's cells, a list's items or lines are layout, not an answer.
_LAYOUT = re.compile(r"\||\n|^\s*[-*+]\s|\s[-*+]\s|^#")
_MARKERS = re.compile(r"\s*\[\d+\]")
# A span is a few words: the reader may also point at a whole sentence, which is no short answer.
MAX_WORDS = 12


def passage_text(payload: Mapping[str, object]) -> str:
    """A stored chunk as the reader reads it: its heading on the first line, then its text."""
    heading = str(payload.get("section", "") or payload.get("title", ""))
    text = str(payload.get("text", ""))
    return f"{heading}\n{text}" if heading else text


def _plain(text: str) -> str:
    return " ".join(_MARKUP.sub("", _MARKERS.sub("", text)).split())


def short_answer(
    reader: Reader, question: str, passage: str, quoted: str, *, min_margin: float
) -> str | None:
    """The reader's span of `passage` for `question` when it beats "no answer" by `min_margin`,
    is at most MAX_WORDS words of running text (no table cells, list items or line breaks) and lies
    inside `quoted` (Markdown and [n] markers aside)."""
    (reading,) = reader.read(question, [passage])
    if _LAYOUT.search(reading.answer):
        return None
    span = _plain(reading.answer).strip(" .,;:")
    if reading.span_score < min_margin or not span or len(span.split()) > MAX_WORDS:
        return None
    return span if span.lower() in _plain(quoted).lower() else None
