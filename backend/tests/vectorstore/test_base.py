"""What every store shares: when a chunk's stored sentence rows still stand for its units."""

from __future__ import annotations

import numpy as np

from bookchat.markdown.unit_layout import SENTENCE_LAYOUT
from bookchat.vectorstore.base import StoredSentences, usable_rows


def _stored(rows: int, layout: int | None = SENTENCE_LAYOUT) -> StoredSentences:
    return StoredSentences(layout, np.ones((rows, 4), dtype=np.float32))


def test_rows_are_used_only_with_the_current_layout_and_one_row_per_sentence() -> None:
    sentences = ["One whole sentence here.", "And another one here."]
    assert usable_rows(_stored(2), sentences) is not None
    assert usable_rows(_stored(2, layout=SENTENCE_LAYOUT + 1), sentences) is None
    assert usable_rows(_stored(2, layout=None), sentences) is None  # written before markers
    assert usable_rows(_stored(3), sentences) is None
    assert usable_rows(_stored(0), sentences) is None  # an index without sentence vectors
    assert usable_rows(None, sentences) is None
    assert usable_rows(_stored(0), []) is not None  # nothing to embed for a chunk without any
