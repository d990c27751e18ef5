"""Stored sentence vectors: which sentences their rows stand for, and when answers may use them.

Ingest stores with every chunk one vector per sentence of `split_sentences(payload["text"])`, in
that order, and marks the payload with SENTENCE_LAYOUT. Answers use the rows only while the
marker and the number of rows agree with what the splitter returns today; otherwise the
sentences are embedded on the fly, so a changed splitter costs time, never a wrong vector.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from bookchat.answer.sentences import split_sentences
from bookchat.vectorstore.base import StoredSentences

# Bump whenever split_sentences may return other sentences for the same text: the marker is part
# of every payload, so each point's content hash changes and the next ingest re-embeds the
# sentences (chunk vectors are reused). tests/answer/test_sentence_layout.py pins the split.
SENTENCE_LAYOUT = 1


def chunk_sentences(text: str) -> list[str]:
    """The sentences of a chunk's text that its stored rows stand for, in row order."""
    return split_sentences(text)


def usable_rows(
    stored: StoredSentences | None, sentences: Sequence[str]
) -> NDArray[np.float32] | None:
    """The stored rows when they stand for exactly `sentences` (today's split), else None."""
    if stored is None or stored.layout != SENTENCE_LAYOUT:
        return None
    if len(stored.vectors) != len(sentences):
        return None
    return stored.vectors
