"""A grounder over the ingested sample book, as the service builds it (shared by tests)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from bookchat.answer.coverage import Grounding, ReaderJudge
from bookchat.answer.grounding import Grounder
from bookchat.answer.model import AnswerModel, default_model
from bookchat.answer.reader import Reader
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.retrieval.search import Retriever
from bookchat.retrieval.sentence_vectors import PassageVectors, SentenceVectors
from bookchat.vectorstore import VectorStore


def book_grounder(
    settings: Settings,
    store: VectorStore,
    embedder: Embedder,
    model: AnswerModel | None = None,
    reader: Reader | None = None,
    judge: ReaderJudge | None = None,
) -> Grounder:
    """The sample book's grounder with `model` (the committed one by default), `reader` and
    the reader as a `judge` of coverage (with its veto and vouch)."""
    cache = SentenceVectors(embedder)
    return Grounder(
        settings,
        PassageVectors(store, cache),
        cache,
        model or default_model(),
        reader,
        judge=judge,
    )


async def ground_in(
    grounder: Grounder,
    store: VectorStore,
    question: str,
    vector: NDArray[np.float32],
    chapter: str | None = None,
    **kwargs: Any,
) -> Grounding:
    """Ground `question` on the five passages the service retrieves for it (in `chapter`)."""
    hits = Retriever(store).search(question, vector.tolist(), limit=5, chapter=chapter)
    return await grounder.ground(question, vector, hits, **kwargs)
