"""Fill the sentence-vector cache from the index ahead of the first questions."""

from __future__ import annotations

import asyncio
import logging

from bookchat.answer.sentence_vectors import SentenceVectors
from bookchat.answer.sentences import split_sentences
from bookchat.vectorstore import VectorStore

log = logging.getLogger(__name__)

_PAYLOAD_PAGE = 64
# Small model calls: a question arriving meanwhile waits for one batch, not for the whole book.
_EMBED_BATCH = 8


async def warm_sentences(store: VectorStore, vectors: SentenceVectors) -> int:
    """Embed the sentences of stored passages until the cache is full; returns how many."""
    chunk_ids = sorted(await asyncio.to_thread(store.fingerprints))
    done = 0
    for start in range(0, len(chunk_ids), _PAYLOAD_PAGE):
        page = chunk_ids[start : start + _PAYLOAD_PAGE]
        payloads = await asyncio.to_thread(store.payloads, page)
        sentences = [
            sentence
            for chunk_id in page
            for sentence in split_sentences(str(payloads.get(chunk_id, {}).get("text", "")))
        ]
        todo = vectors.missing(sentences)
        for offset in range(0, len(todo), _EMBED_BATCH):
            if len(vectors) + _EMBED_BATCH > vectors.capacity:
                return done
            await vectors.embed(todo[offset : offset + _EMBED_BATCH])
            done += len(todo[offset : offset + _EMBED_BATCH])
    log.info("sentence cache warmed: %d sentences embedded", done)
    return done
