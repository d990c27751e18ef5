"""Metrics per slice: status accuracy, gold-source recall and MRR, containment, latency."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bookchat.evals.runner import RowResult


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return round(ordered[index], 2)


def _ratio(hits: int, total: int) -> float | None:
    return round(hits / total, 4) if total else None


def slice_metrics(rows: Sequence[RowResult]) -> dict[str, Any]:
    """Metrics of one group of rows; source metrics use rows expected to be grounded."""
    grounded = [
        r for r in rows if r.fixture.expected_status == "grounded" and r.fixture.expected_sources
    ]
    judged = [r for r in rows if r.contains is not None]
    return {
        "rows": len(rows),
        "errors": sum(r.status == "error" for r in rows),
        "status_accuracy": _ratio(
            sum(r.status == r.fixture.expected_status for r in rows), len(rows)
        ),
        "grounded_rate": _ratio(sum(r.status == "grounded" for r in rows), len(rows)),
        "recall_at_1": _ratio(sum(r.rank == 1 for r in grounded), len(grounded)),
        "recall_at_5": _ratio(
            sum(r.rank is not None and r.rank <= 5 for r in grounded), len(grounded)
        ),
        "mrr": round(sum(1 / r.rank for r in grounded if r.rank) / len(grounded), 4)
        if grounded
        else None,
        "answer_contains": _ratio(sum(bool(r.contains) for r in judged), len(judged)),
        "latency_ms_p50": _percentile([r.latency_ms for r in rows], 0.50),
        "latency_ms_p95": _percentile([r.latency_ms for r in rows], 0.95),
    }


def summarise(rows: Sequence[RowResult]) -> dict[str, Any]:
    """{"slices": {slice: metrics}, "all": metrics}, slices in first-seen order."""
    by_slice: dict[str, list[RowResult]] = {}
    for row in rows:
        by_slice.setdefault(row.fixture.slice, []).append(row)
    return {
        "slices": {name: slice_metrics(group) for name, group in by_slice.items()},
        "all": slice_metrics(rows),
    }
