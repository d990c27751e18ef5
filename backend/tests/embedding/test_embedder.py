"""The ONNX embedder gives sentence-transformers' vectors and never blocks the event loop."""

from __future__ import annotations

import asyncio
from pathlib import Path

import numpy as np
import pytest

from bookchat.config import Settings
from bookchat.embedding.embedder import (
    BF16_MIN_WORD_PIECES,
    DIMENSIONS,
    Embedder,
    batches_by_length,
)
from bookchat.embedding.minilm import bf16_native
from bookchat.ingest.corpus import build_corpus
from bookchat.markdown.units import payload_units

TEXTS = [
    "How do I undo the last commit but keep my changes?",
    "git reset --soft HEAD~1 moves the branch back one commit and keeps the index.",
    "Packfiles store objects as deltas against similar objects to save space. " * 6,
    "",
]


def test_vectors_are_normalised_and_384_wide(embedder: Embedder) -> None:
    vectors = embedder.embed(TEXTS)
    assert vectors.shape == (len(TEXTS), DIMENSIONS)
    assert np.allclose(np.linalg.norm(vectors[:3], axis=1), 1.0, atol=1e-5)


def test_batching_and_order_do_not_change_vectors(embedder: Embedder) -> None:
    together = embedder.embed(TEXTS[:3])
    alone = np.vstack([embedder.embed([t]) for t in TEXTS[:3]])
    assert np.allclose(together, alone, atol=1e-5)


@pytest.mark.slow
def test_onnx_matches_sentence_transformers(embedder: Embedder) -> None:
    torch_model = Embedder(backend="torch", threads=2)
    reference = torch_model.embed(TEXTS[:3])
    cosine = (embedder.embed(TEXTS[:3]) * reference).sum(axis=1)
    assert cosine.min() >= 0.9999


def test_the_bfloat16_forward_pass_gives_the_onnx_vectors(
    embedder: Embedder, sample_docs: Path
) -> None:
    # Real book text, short and long (code, tables, 256-piece chunks), batched together.
    chunks = build_corpus(sample_docs).chunks[:48]
    units = [u.plain for c in chunks[:8] for u in payload_units(c.payload)]
    texts = [*TEXTS, *(c.embed_text for c in chunks), *units]
    bulk = Embedder(backend="bf16", threads=2)
    cosine = (bulk.embed(texts) * embedder.embed(texts)).sum(axis=1)
    assert cosine.min() >= 0.9999


def test_auto_decides_at_load_and_takes_bfloat16_only_where_the_cpu_has_it() -> None:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    bulk = Embedder.from_settings(settings, threads=2, bulk=True)
    assert bulk.backend == "auto" and not bulk.loaded  # nothing imported to decide yet
    bulk.load()
    assert bulk.backend == ("bf16" if bf16_native() else settings.embedding_backend)
    assert Embedder.from_settings(settings).backend == settings.embedding_backend


def test_auto_keeps_onnx_for_a_small_edit_and_leaves_a_whole_book_to_the_cpu() -> None:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    edit = Embedder.from_settings(settings, bulk=True)
    edit.expect(400)  # one section: bf16's slower start would not pay for itself
    assert edit.backend == settings.embedding_backend
    book = Embedder.from_settings(settings, bulk=True)
    book.expect(BF16_MIN_WORD_PIECES)
    assert book.backend == "auto"  # decided at load, by what the CPU can do


async def test_embedding_runs_off_the_event_loop(embedder: Embedder) -> None:
    order: list[str] = []

    async def ticker() -> None:
        order.append("loop ran")

    big = [f"sentence {i} about branches, merges and rebases in Git" for i in range(400)]
    work = asyncio.ensure_future(embedder.embed_async(big))
    await asyncio.sleep(0)
    await ticker()
    vectors = await work
    order.append("embedded")
    assert order == ["loop ran", "embedded"] and vectors.shape == (400, DIMENSIONS)


def test_batches_follow_length_and_a_much_longer_text_starts_a_new_one() -> None:
    sentences = [12, 11, 13, 12, 14, 12, 11, 13, 12]  # word pieces
    batches = list(batches_by_length([230, *sentences], 16))
    # The nine sentences are not padded to the chunk's length: it runs on its own.
    assert batches == [[2, 7, 1, 4, 6, 9, 3, 8, 5], [0]]
    assert [len(b) for b in batches_by_length(sentences * 2, 16)] == [16, 2]
    # 20 pieces is more than 1.25x 12 plus slack: padding 12 pieces to 20 would waste 40 %.
    assert batches_by_length([12, 20], 16).__next__() == [0]
    assert list(batches_by_length([], 16)) == []
