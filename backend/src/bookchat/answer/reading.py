"""The read stage: the answer reader reorders the passages retrieval proposes.

Retrieval (dense + BM25) ranks passages by the words and meaning they share with the question;
the reader reads the question with each passage and says how well it answers. Neither alone
ranks best: on held-out readers' questions of three training books (rank_reader.py), the
reader's relevance less RANK_WEIGHT · log(1 + retrieval rank) puts an answering passage first
more often than either (decisions.md, "The reader reorders what retrieval proposes").
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bookchat.answer.reader import Reader
from bookchat.answer.short_answer import passage_text
from bookchat.vectorstore import Hit

# Chosen on held-out training questions (never an evaluated row): 1.0 of the grid 0-6.
RANK_WEIGHT = 1.0


def reordered(reader: Reader, question: str, hits: Sequence[Hit]) -> list[Hit]:
    """`hits` (retrieval's order) by the reader's relevance fused with retrieval's rank."""
    readings = reader.read(question, [passage_text(h.payload) for h in hits])
    fused = [r.relevance - RANK_WEIGHT * math.log1p(rank) for rank, r in enumerate(readings)]
    order = sorted(range(len(hits)), key=lambda i: -fused[i])
    return [hits[i] for i in order]
