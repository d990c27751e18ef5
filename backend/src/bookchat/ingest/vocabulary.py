"""The book's own words and how often it uses them: what readers' typos are corrected towards.

Stored in the catalog at every complete ingest (like the outlines), so correcting a question
costs no pass over the index. Words are lowercase ASCII letters only, at least three of them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

# Whole words of letters; one with an accent is not kept ("Bozizé" must not leave "boziz").
_WORD = re.compile(r"[^\W\d_]{3,}")


def book_vocabulary(texts: Iterable[str]) -> dict[str, int]:
    """How many times each word occurs in `texts` (case folded), most frequent first."""
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(w for w in _WORD.findall(text.lower()) if w.isascii())
    return dict(counts.most_common())
