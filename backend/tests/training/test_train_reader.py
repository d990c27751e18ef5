"""The reader's training batches (training/train_reader)."""

from __future__ import annotations

import random

from training.train_reader import BATCH, batches


def _rows(count: int) -> list[dict[str, object]]:
    return [{"n": n, "ids": [0] * (5 + n % 97)} for n in range(count)]


def test_every_row_is_trained_once_in_batches_of_at_most_batch_rows() -> None:
    plan = batches(_rows(2000), random.Random(0))
    seen = sorted(row["n"] for batch in plan for row in batch)
    assert seen == list(range(2000))
    assert all(0 < len(batch) <= BATCH for batch in plan)


def test_a_batch_holds_rows_of_similar_lengths() -> None:
    # Rows are sorted by length within blocks of 50 batches: a batch spans a small part of the
    # block's range of lengths, so little of it is padding.
    plan = batches(_rows(BATCH * 50), random.Random(0))
    spans = [max(len(r["ids"]) for r in b) - min(len(r["ids"]) for r in b) for b in plan]
    assert max(spans) < 10


def test_the_same_seed_gives_the_same_plan() -> None:
    first = batches(_rows(500), random.Random(13))
    again = batches(_rows(500), random.Random(13))
    assert [[r["n"] for r in b] for b in first] == [[r["n"] for r in b] for b in again]
