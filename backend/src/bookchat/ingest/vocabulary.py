"""The book's own words and how often it uses them: what readers' typos are corrected towards.

Stored in the catalog at every complete ingest (like the outlines), so correcting a question
costs no pass over the index. Words are lowercase letters only, at least three of them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

_WORD = re.compile(r"[a-z]{3,}")


def book_vocabulary(texts: Iterable[str]) -> dict[str, int]:
    """How many times each word occurs in `texts` (case folded), most frequent first."""
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(_WORD.findall(text.lower()))
    return dict(counts.most_common())
