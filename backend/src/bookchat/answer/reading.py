"""The read stage: the answer reader reorders the passages retrieval proposes.

Retrieval ranks passages by shared words and meaning; the reader says how well each answers.
Neither alone ranks best, so the order is the reader's relevance less
RANK_WEIGHT · log(1 + retrieval rank) (specs/001-bookchat/experiments.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bookchat.answer.reader import Reader
from bookchat.answer.short_answer import passage_text
from bookchat.vectorstore import Hit

# Chosen on held-out training questions, never an evaluated row.
RANK_WEIGHT = 1.0


def reordered(reader: Reader, question: str, hits: Sequence[Hit]) -> list[Hit]:
    """`hits` (retrieval's order) by the reader's relevance fused with retrieval's rank."""
    readings = reader.read(question, [passage_text(h.payload) for h in hits])
    fused = [r.relevance - RANK_WEIGHT * math.log1p(rank) for rank, r in enumerate(readings)]
    order = sorted(range(len(hits)), key=lambda i: -fused[i])
    return [hits[i] for i in order]
