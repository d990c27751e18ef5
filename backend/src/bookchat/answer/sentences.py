"""Split chunk text (cleaned Markdown) into the sentences an extractive answer can quote."""

from __future__ import annotations

import re
from collections.abc import Iterator

_FENCE = re.compile(r"^\s*(```|~~~)")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
# A sentence ends at . ! or ? followed by space and something that can start a sentence.
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[A-Z0-9`*_\"'(\[])")
_LETTER = re.compile(r"[A-Za-z]")
MIN_WORDS = 3


def _table_row(line: str) -> str:
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    cells = [cell for cell in cells if cell]
    if len(cells) < 2:
        return " ".join(cells)
    # A row reads as "first cell: the rest", the way a reader would say it aloud.
    return f"{cells[0]}: {'; '.join(cells[1:])}"


def _blocks(text: str) -> Iterator[str]:
    """Paragraphs, list items and table rows; code fences and headings are not prose."""
    paragraph: list[str] = []
    in_fence = False
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            in_fence = not in_fence
            if paragraph:
                yield " ".join(paragraph)
                paragraph = []
            continue
        if in_fence:
            continue
        stripped = line.strip()
        is_row = stripped.startswith("|") and stripped.count("|") >= 2
        next_is_separator = i + 1 < len(lines) and bool(_TABLE_SEPARATOR.match(lines[i + 1]))
        if not stripped or stripped.startswith("#") or is_row or _LIST_ITEM.match(line):
            if paragraph:
                yield " ".join(paragraph)
                paragraph = []
            if is_row and not next_is_separator and not _TABLE_SEPARATOR.match(line):
                yield _table_row(stripped)
            elif _LIST_ITEM.match(line):
                paragraph = [_LIST_ITEM.sub("", line).strip()]
            continue
        paragraph.append(stripped)
    if paragraph and not in_fence:
        yield " ".join(paragraph)


def split_sentences(text: str) -> list[str]:
    """Sentences of `text` in reading order, skipping fragments too short to answer anything."""
    out: list[str] = []
    for block in _blocks(text):
        for piece in _SENTENCE_END.split(block):
            sentence = piece.strip()
            if len(sentence.split()) >= MIN_WORDS and _LETTER.search(sentence):
                out.append(sentence)
    return out
