"""Sentences of indexed chunk text, for the oracle (independent of the answer package).

The chunker writes each paragraph on one line (a list's items run on inline after its first
bullet) and each code or table line on its own, so every line is a block: fence lines are
dropped, quote marks are stripped, list items are cut apart at their bullets or numbers, and prose
is split after `.`, `!` or `?` before a capital or digit. An item, a table row or a code line is a
unit of its own: it ends without a full stop, yet a reader takes it as one statement.
"""

from __future__ import annotations

import re

_FENCE = re.compile(r"^[ \t]*(?:`{3,}|~{3,})")
_QUOTE = re.compile(r"^[ \t]*(?:>[ \t]?)+")  # ingest keeps admonitions as quotes
_LEAD_MARK = re.compile(r"^(?:[-*+]|\d{1,3}[.)])\s+")
# A bullet or number inside a flattened list, before the item's bold, code or capital.
_INLINE_ITEM = re.compile(r"\s+(?:[-*+]|\d{1,3}[.)])\s+(?=\*\*|`|[A-Z])")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'”’)\]*_`]*\s+(?=[\"'“‘(\[*_`]*[A-Z0-9])")


def _items(line: str) -> list[str]:
    text = _QUOTE.sub("", line).strip()
    # Marks are cut off so that an item's "2." is never taken for the end of a sentence.
    return [_LEAD_MARK.sub("", item) for item in _INLINE_ITEM.split(text)]


def split_sentences(text: str) -> list[str]:
    """The sentences (and list items, table rows, code lines) of chunk text, in order."""
    return [
        sentence.strip()
        for line in text.splitlines()
        if not _FENCE.match(line)
        for item in _items(line)
        for sentence in _SENTENCE_END.split(item)
        if sentence.strip()
    ]
