"""The reader's training batches and its per-question ranking loss (training/train_reader)."""

from __future__ import annotations

import random

import torch
from training.train_reader import listwise_loss, question_batches


def _rows(question: int, count: int, length: int) -> list[dict[str, object]]:
    return [{"q": question, "ids": [0] * length} for _ in range(count)]


def test_a_question_s_rows_share_one_batch_and_every_row_is_trained_once() -> None:
    groups = [_rows(q, 1 + q % 3, 10 + q) for q in range(40)]
    steps = question_batches([list(g) for g in groups], random.Random(0), size=8)
    seen = [row["q"] for batch in steps for group in batch for row in group]
    assert sorted(seen) == sorted(row["q"] for g in groups for row in g)
    for batch in steps:
        assert sum(map(len, batch)) <= 8
        for group in batch:
            assert len({row["q"] for row in group}) == 1


def _logits(relevance: list[float]) -> torch.Tensor:
    logits = torch.zeros((len(relevance), 4, 3))
    logits[:, 0, 2] = torch.tensor(relevance)
    return logits


def test_the_ranking_loss_falls_as_the_answering_passage_rises_above_its_neighbours() -> None:
    loss = listwise_loss([[2, 2]], 1.0)
    labels = torch.tensor([1.0, 0.0, 1.0, 0.0])
    ranked_right = loss(0, _logits([3.0, -3.0, 3.0, -3.0]), labels)
    ranked_wrong = loss(0, _logits([-3.0, 3.0, -3.0, 3.0]), labels)
    assert float(ranked_right) < 0.01 < 5.0 < float(ranked_wrong)


def test_a_question_without_both_kinds_of_passage_adds_no_ranking_loss() -> None:
    loss = listwise_loss([[2]], 1.0)
    assert float(loss(0, _logits([1.0, 2.0]), torch.tensor([0.0, 0.0]))) == 0.0
