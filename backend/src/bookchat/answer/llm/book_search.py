"""The retrieval behind search_book: the service's own retriever, in the question's scope."""

from __future__ import annotations

import asyncio

from bookchat.answer.llm.passages import Passage, Search
from bookchat.retrieval.embedder import Embedder
from bookchat.retrieval.search import Retriever


def book_search(
    retriever: Retriever,
    embedder: Embedder,
    *,
    chapter: str | None,
    limit: int,
    min_score: float,
) -> Search:
    """A search over the book (or one chapter) keeping passages that clear `min_score`."""

    async def search(query: str) -> list[Passage]:
        rows = await embedder.embed_async([query])
        hits = await asyncio.to_thread(
            retriever.search, query, rows[0].tolist(), limit=limit, chapter=chapter
        )
        return [Passage.from_hit(h) for h in hits if h.score >= min_score]

    return search
