"""MiniLM vectors of stored questions, each text embedded once per server.

The insights page groups the same gap questions every time it is opened: without this, every
view would embed up to a thousand questions again. Readers repeat questions, so the distinct texts
are embedded, and only those not seen before.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from bookchat.embedding.embedder import DIMENSIONS, Embedder

# ~1.5 KB a vector: 20,000 questions are ~30 MB.
DEFAULT_SIZE = 20_000


class QuestionVectors:
    """An LRU cache of question vectors in front of the embedder."""

    def __init__(self, embedder: Embedder, size: int = DEFAULT_SIZE) -> None:
        self._embedder = embedder
        self._size = size
        self._known: OrderedDict[str, NDArray[np.float32]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._known)

    def __contains__(self, question: object) -> bool:
        return question in self._known

    async def of(self, questions: Sequence[str]) -> NDArray[np.float32]:
        """One vector per question, in order (the texts not cached are embedded together)."""
        if not questions:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        with self._lock:
            found = {q: self._recall(q) for q in dict.fromkeys(questions)}
        missing = [q for q, vector in found.items() if vector is None]
        if missing:
            fresh = await self._embedder.embed_async(missing)
            with self._lock:
                for text, vector in zip(missing, fresh, strict=True):
                    found[text] = self._known[text] = vector
                while len(self._known) > self._size:
                    self._known.popitem(last=False)
        return np.stack([_known(found[q]) for q in questions])

    def _recall(self, question: str) -> NDArray[np.float32] | None:
        vector = self._known.get(question)
        if vector is not None:
            self._known.move_to_end(question)
        return vector


def _known(vector: NDArray[np.float32] | None) -> NDArray[np.float32]:
    assert vector is not None  # every missing question was embedded above
    return vector
