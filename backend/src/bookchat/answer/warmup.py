"""Fill the sentence-vector cache ahead of the first questions.

Book and chapter answers read their sentences' vectors from the store. The cache serves what is
embedded at query time: selections (often sentences of the book), the check of generated
answers against their sources, and every answer on an index built before sentence vectors were
stored. So the warm-up copies stored sentence vectors into it (no model call), and embeds the
sentences of chunks that have none, in small model calls.
"""

from __future__ import annotations

import asyncio
import logging

from bookchat.answer.sentence_layout import chunk_sentences, usable_rows
from bookchat.answer.sentence_vectors import SentenceVectors
from bookchat.vectorstore import VectorStore

log = logging.getLogger(__name__)

_PAYLOAD_PAGE = 64
# Small model calls: a question arriving meanwhile waits for one batch, not for the whole book.
_EMBED_BATCH = 8


async def warm_sentences(store: VectorStore, vectors: SentenceVectors) -> int:
    """Cache the index's sentence vectors, read or embedded, until full; returns how many."""
    chunk_ids = sorted(await asyncio.to_thread(store.fingerprints))
    read = embedded = 0
    for start in range(0, len(chunk_ids), _PAYLOAD_PAGE):
        page = chunk_ids[start : start + _PAYLOAD_PAGE]
        payloads = await asyncio.to_thread(store.payloads, page)
        stored = await asyncio.to_thread(store.sentence_vectors, page)
        todo: list[str] = []
        for chunk_id in page:
            sentences = chunk_sentences(str(payloads.get(chunk_id, {}).get("text", "")))
            rows = usable_rows(stored.get(chunk_id), sentences)
            if rows is None:
                todo.extend(sentences)
            else:
                read += vectors.add(sentences, rows)
        todo = vectors.missing(todo)
        for offset in range(0, len(todo), _EMBED_BATCH):
            if len(vectors) + _EMBED_BATCH > vectors.capacity:
                return read + embedded
            await vectors.embed(todo[offset : offset + _EMBED_BATCH])
            embedded += len(todo[offset : offset + _EMBED_BATCH])
        if len(vectors) >= vectors.capacity:
            break
    log.info("sentence cache warmed: %d sentence vectors read, %d embedded", read, embedded)
    return read + embedded
