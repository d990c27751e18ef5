"""The short answer: the reader's predicted span in the passage of the answer model's best unit
(or in the reader's selection), and the unit that holds it.

The short answer is the reader's best span that is a few words of running text, kept when it
beats "no answer here" by the calibrated margin. The quote is built around the unit holding it;
a span the quote does not show is dropped, so no word appears that is not cited.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from bookchat.answer.reader import Reading, Span
from bookchat.markdown.units import Unit

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


def span_of(reading: Reading, *, min_margin: float) -> Span | None:
    """The reading's best span of at most MAX_WORDS words of running text beating "no answer"
    by `min_margin`: its text as shown and its offsets in the passage."""
    for span in reading.spans:  # best first
        if span.score < min_margin:
            return None
        words = _plain(span.text).strip(" .,;:")
        if words and not _LAYOUT.search(span.text) and len(words.split()) <= MAX_WORDS:
            return replace(span, text=words)
    return None


def span_and_unit(
    reading: Reading | None, units: Sequence[Unit], passage: str, *, min_margin: float
) -> tuple[str | None, int | None]:
    """The reading's short answer and the unit of `passage` holding it; (None, None) if none."""
    span = span_of(reading, min_margin=min_margin) if reading is not None else None
    if span is None:
        return None, None
    return span.text, holding_unit(units, passage, span)


def shown_in(span: str | None, quoted: str) -> bool:
    """True when `span` stands in `quoted` (Markdown and [n] markers aside)."""
    return span is not None and span.lower() in _plain(quoted).lower()


def holding_unit(units: Sequence[Unit], passage: str, span: Span) -> int | None:
    """The unit of `passage` that holds `span`: of those whose words contain it, the last to
    start at or before it (units are in reading order)."""
    words = _plain(passage[span.start : span.end]).lower()
    if not words:
        return None
    found, at = None, 0
    for i, unit in enumerate(units):
        # A unit's own words are found in the passage by its first ones (Markdown may differ).
        head = _plain(unit.text)[:24]
        where = passage.find(head, at) if head else -1
        if where < 0:
            where = at
        if where > span.start and found is not None:
            break
        at = where
        if words in _plain(unit.text).lower():
            found = i
    return found
