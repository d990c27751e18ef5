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


def _blocks(text: str) -> Iterator[tuple[str, str]]:
    """("prose", text) for paragraphs, list items and table rows, ("code", fenced block) for
    code; headings are not prose."""
    paragraph: list[str] = []
    fence: list[str] = []
    in_fence = False
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            if paragraph:
                yield "prose", " ".join(paragraph)
                paragraph = []
            fence.append(line.rstrip())
            if in_fence:
                yield "code", "\n".join(fence)
                fence = []
            in_fence = not in_fence
            continue
        if in_fence:
            fence.append(line.rstrip())
            continue
        stripped = line.strip()
        is_row = stripped.startswith("|") and stripped.count("|") >= 2
        next_is_separator = i + 1 < len(lines) and bool(_TABLE_SEPARATOR.match(lines[i + 1]))
        if not stripped or stripped.startswith("#") or is_row or _LIST_ITEM.match(line):
            if paragraph:
                yield "prose", " ".join(paragraph)
                paragraph = []
            if stripped.startswith("#"):
                yield "heading", stripped
            elif is_row and not next_is_separator and not _TABLE_SEPARATOR.match(line):
                yield "prose", _table_row(stripped)
            elif _LIST_ITEM.match(line):
                paragraph = [_LIST_ITEM.sub("", line).strip()]
            continue
        paragraph.append(stripped)
    if paragraph and not in_fence:
        yield "prose", " ".join(paragraph)


def _sentences(block: str) -> list[str]:
    pieces = (piece.strip() for piece in _SENTENCE_END.split(block))
    return [p for p in pieces if len(p.split()) >= MIN_WORDS and _LETTER.search(p)]


def split_sentences(text: str) -> list[str]:
    """Sentences of `text` in reading order, skipping fragments too short to answer anything."""
    return [sentence for sentence, _ in sentences_with_code(text)]


def sentences_with_code(text: str) -> list[tuple[str, str]]:
    """split_sentences, each with the fenced code block it introduces ("" if none).

    A sentence introduces a block when it ends in a colon and the block follows it directly:
    "To sync the fork, ... fast-forward it:" holds no command itself, the block after it does.
    """
    out: list[tuple[str, str]] = []
    introduces = False  # the block just read ended in a sentence ending in a colon
    for kind, block in _blocks(text):
        if kind == "code" and introduces:
            out[-1] = (out[-1][0], block)
        sentences = _sentences(block) if kind == "prose" else []
        out.extend((sentence, "") for sentence in sentences)
        # Anything in between (a heading, a fragment too short to be a sentence) breaks the link.
        introduces = bool(sentences) and sentences[-1].rstrip("*_` ").endswith(":")
    return out
