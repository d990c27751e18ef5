"""Sentences of a generated answer, markers kept, for the citation check.

Unlike the book's splitter (answer/sentences.py), a sentence may start in lower case (models
begin sentences with `git ...`) and a lone marker run such as "[1][3]" is kept, because it
belongs to the sentence before it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_FENCE = re.compile(r"^\s*(```|~~~)")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_BOUNDARY = re.compile(r"(?<=[.!?])[\"')*_`]*\s+")
_ABBREVIATION = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|cf)|\b[A-Z])\.[\"')*_`]*$", re.IGNORECASE)


def _paragraphs(answer: str) -> Iterator[str]:
    lines: list[str] = []
    in_fence = False
    for line in answer.splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        stripped = line.strip()
        if in_fence:
            continue
        if not stripped or stripped.startswith("#") or _LIST_ITEM.match(line):
            if lines:
                yield " ".join(lines)
            lines = [_LIST_ITEM.sub("", line).strip()] if _LIST_ITEM.match(line) else []
            continue
        lines.append(stripped)
    if lines:
        yield " ".join(lines)


def answer_sentences(answer: str) -> list[str]:
    """The answer's sentences in order (code blocks and headings left out)."""
    out: list[str] = []
    for paragraph in _paragraphs(answer):
        pieces: list[str] = []
        for piece in _BOUNDARY.split(paragraph):
            if pieces and _ABBREVIATION.search(pieces[-1]):
                pieces[-1] = f"{pieces[-1]} {piece}"
            elif piece.strip():
                pieces.append(piece.strip())
        out.extend(pieces)
    return out
