"""The vectors a sync writes with each chunk: its dense vector and one row per sentence.

Both are reused from the store when the chunk's embedded text already has them (a moved page, a
payload-only edit, a new sentence layout that left the chunk's text alone); what is missing is
embedded with one model call per batch, chunk texts and distinct sentences together.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from bookchat.answer.unit_vectors import chunk_sentences, usable_rows
from bookchat.ingest.corpus import Chunk
from bookchat.retrieval.embedder import DIMENSIONS, Embedder
from bookchat.vectorstore import VectorStore


@dataclass(slots=True)
class ChunkVectors:
    """A chunk to write and the vectors known for it so far (None: still to embed)."""

    chunk: Chunk
    dense: list[float] | None = None
    sentences: NDArray[np.float32] | None = None

    @property
    def complete(self) -> bool:
        """True when nothing is left to embed."""
        return self.dense is not None and self.sentences is not None


def reuse(store: VectorStore, chunks: Sequence[Chunk], owner: dict[str, str]) -> list[ChunkVectors]:
    """The vectors stored for each chunk's text (`owner`: text hash -> a chunk id holding it)."""
    owners = [owner[c.text_hash] for c in chunks]
    dense = store.vectors(owners)
    stored = store.sentence_vectors(owners)
    out = []
    for chunk, chunk_owner in zip(chunks, owners, strict=True):
        split = chunk_sentences(chunk.payload)
        rows = usable_rows(stored.get(chunk_owner), split) if split else _no_rows()
        out.append(ChunkVectors(chunk, dense.get(chunk_owner), rows))
    return out


def _no_rows() -> NDArray[np.float32]:
    return np.zeros((0, DIMENSIONS), dtype=np.float32)


def embed_missing(model: Embedder, batch: Sequence[ChunkVectors]) -> tuple[int, int]:
    """Fill in what `batch` lacks with one model call; returns (chunks, sentences) embedded."""
    texts = [item.chunk.embed_text for item in batch if item.dense is None]
    splits = {
        id(item): chunk_sentences(item.chunk.payload) for item in batch if item.sentences is None
    }
    # Overlapping chunks repeat their boundary sentences: each distinct one is embedded once.
    distinct = list(dict.fromkeys(s for split in splits.values() for s in split))
    vectors = model.embed(texts + distinct)
    dense = iter(vectors[: len(texts)].tolist())
    row_of = {sentence: len(texts) + i for i, sentence in enumerate(distinct)}
    for item in batch:
        if item.dense is None:
            item.dense = next(dense)
        if item.sentences is None:
            rows = [row_of[s] for s in splits[id(item)]]
            item.sentences = vectors[rows] if rows else _no_rows()
    return len(texts), len(distinct)
