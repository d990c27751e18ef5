"""The vectors a sync writes with each chunk: its dense vector and one row per sentence.

Both are reused from the store when the chunk's embedded text already has them (a moved page, a
payload-only edit, a new sentence layout that left the chunk's text alone, another edition with
the same text); what is missing is embedded with one model call per batch, chunk texts and
distinct sentences together, each distinct text once per run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from bookchat.embedding.embedder import DIMENSIONS, Embedder
from bookchat.ingest.corpus import Chunk
from bookchat.markdown.unit_layout import chunk_sentences
from bookchat.vectorstore import VectorStore
from bookchat.vectorstore.base import usable_rows


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


# Texts embedded earlier in the same run, for the editions that repeat them (a version snapshot,
# an untranslated page): ~1.5 KB each, so the cap bounds the memo near 77 MB.
MEMO_LIMIT = 50_000


class Memo:
    """Vectors of texts (chunks and sentences) embedded so far in one run, up to a cap."""

    def __init__(self, limit: int = MEMO_LIMIT) -> None:
        self._rows: dict[str, NDArray[np.float32]] = {}
        self._limit = limit

    def get(self, text: str) -> NDArray[np.float32] | None:
        """The vector of `text` if it was embedded this run."""
        return self._rows.get(text)

    def put(self, text: str, row: NDArray[np.float32]) -> None:
        """Remember a vector (until the cap is reached)."""
        if len(self._rows) < self._limit:
            self._rows[text] = row


def embed_missing(
    model: Embedder, batch: Sequence[ChunkVectors], memo: Memo | None = None
) -> tuple[int, int]:
    """Fill in what `batch` lacks with one model call; returns (chunk texts, sentences) embedded.

    Each distinct text is embedded once: overlapping chunks repeat their boundary sentences, and
    editions repeat whole chunks (`memo` carries the vectors across batches)."""
    memo = memo or Memo(0)
    splits = {
        id(item): chunk_sentences(item.chunk.payload) for item in batch if item.sentences is None
    }
    wanted_texts = [item.chunk.embed_text for item in batch if item.dense is None]
    texts = [t for t in dict.fromkeys(wanted_texts) if memo.get(t) is None]
    sentences = dict.fromkeys(s for split in splits.values() for s in split)
    distinct = [s for s in sentences if memo.get(s) is None]
    vectors = model.embed(texts + distinct) if texts or distinct else _no_rows()
    for text, row in zip(texts + distinct, vectors, strict=True):
        memo.put(text, row)
    fresh = dict(zip(texts + distinct, vectors, strict=True))

    def row_of(text: str) -> NDArray[np.float32]:
        found = fresh.get(text)
        return found if found is not None else memo.get(text)  # type: ignore[return-value]

    for item in batch:
        if item.dense is None:
            item.dense = row_of(item.chunk.embed_text).tolist()
        if item.sentences is None:
            rows = [row_of(s) for s in splits[id(item)]]
            item.sentences = np.stack(rows).astype(np.float32) if rows else _no_rows()
    return len(texts), len(distinct)
