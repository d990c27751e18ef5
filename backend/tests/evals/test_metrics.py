"""Metric arithmetic on hand-made row results."""

from __future__ import annotations

from bookchat.evals.fixtures import Fixture
from bookchat.evals.metrics import summarise
from bookchat.evals.runner import RowResult


def _fixture(slice_: str, expected: str, sources: bool = True) -> Fixture:
    return Fixture(
        id="x",
        slice=slice_,
        question="q",
        mode="book",
        expected_status=expected,
        expected_sources=[("a.md", "A")] if sources else [],
        expected_answer_contains=["yes"],
    )


def test_recall_mrr_and_status_accuracy() -> None:
    rows = [
        RowResult(_fixture("s", "grounded"), "grounded", 1, True, 10.0, 0.9),
        RowResult(_fixture("s", "grounded"), "grounded", 2, False, 20.0, 0.6),
        RowResult(_fixture("s", "grounded"), "abstained", None, False, 30.0, 0.2),
        RowResult(_fixture("t", "abstained", sources=False), "abstained", None, None, 5.0, 0.1),
    ]
    summary = summarise(rows)
    s = summary["slices"]["s"]
    assert s["status_accuracy"] == round(2 / 3, 4)
    assert s["recall_at_1"] == round(1 / 3, 4)
    assert s["recall_at_5"] == round(2 / 3, 4)
    assert s["mrr"] == round((1 + 0.5) / 3, 4)
    assert s["answer_contains"] == round(1 / 3, 4)
    assert s["latency_ms_p50"] == 20.0
    assert summary["slices"]["t"]["recall_at_1"] is None
    assert summary["all"]["rows"] == 4
