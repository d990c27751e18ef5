"""The ranking the answer drew on, re-run with the service's own query, retriever and scope.

The API response lists only the passages an answer cites, which says nothing about where the
gold section ranked. Retrieval is deterministic, so running the same `Retriever` with the same
contextual query, vector, depth and chapter filter reproduces the service's ranking exactly; the
runner checks that every extractive citation is among these hits, so a drift between the two
would show up as `retrieval_mismatch` rather than as silently wrong recall.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bookchat.answer.schema import QueryRequest
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.retrieval.followup import PriorTurn, contextual_query
from bookchat.retrieval.search import Retriever
from bookchat.vectorstore import Hit, VectorStore


class RetrievalProbe:
    """Runs the retrieval step of book and chapter mode exactly as AnswerService does."""

    def __init__(self, settings: Settings, store: VectorStore, embedder: Embedder) -> None:
        self._retriever = Retriever(store)
        self._embedder = embedder

    async def ranked(self, request: QueryRequest, history: Sequence[PriorTurn]) -> list[Hit]:
        """The hits the service retrieved first for this request ([] in selection mode)."""
        if request.mode == "selection":
            return []
        query = contextual_query(request.question, history)
        vector = (await self._embedder.embed_async([query]))[0]
        chapter = request.chapter if request.mode == "chapter" else None
        return await asyncio.to_thread(
            self._retriever.search, query, vector.tolist(), limit=request.top_k, chapter=chapter
        )
