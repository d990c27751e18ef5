"""Hand-made evaluation rows for the gate, metric and comparison tests."""

from __future__ import annotations

from typing import Any

from bookchat.evals.rows import EvalRow

GOLD = {"path": "a.md", "section": "A"}
OTHER = {"path": "b.md", "section": "B"}


def row(fixture_id: str, slice_: str = "book/answerable", **overrides: Any) -> EvalRow:
    """A passing grounded row unless overridden."""
    values: dict[str, Any] = {
        "dataset_version": "v1",
        "run_version": "abc1234+00000000",
        "corpus_version": "corpus1",
        "fixture_id": fixture_id,
        "slice": slice_,
        "mode": "book",
        "question": f"question {fixture_id}?",
        "expected_status": "grounded",
        "actual_status": "grounded",
        "expected_sources": [GOLD],
        "cited_sources": [GOLD],
        "retrieved_sources": [GOLD, OTHER],
        "answer": "yes, it is",
        "status_ok": True,
        "citation_ok": True,
        "content_ok": True,
        "passed": True,
        "latency_ms": 10.0,
        "generator": "extractive",
        "expected_answer_contains": ["yes"],
    }
    values.update(overrides)
    return EvalRow(**values)


def failed(fixture_id: str, slice_: str = "book/answerable", **overrides: Any) -> EvalRow:
    """A grounded-expected row the service wrongly abstained on."""
    values: dict[str, Any] = {
        "actual_status": "abstained",
        "cited_sources": [],
        "answer": "The book does not cover this question.",
        "status_ok": False,
        "citation_ok": False,
        "content_ok": False,
        "passed": False,
    }
    values.update(overrides)
    return row(fixture_id, slice_, **values)


def abstained(fixture_id: str, slice_: str = "book/off-topic", **overrides: Any) -> EvalRow:
    """A correctly abstained off-topic row."""
    values: dict[str, Any] = {
        "expected_status": "abstained",
        "actual_status": "abstained",
        "expected_sources": [],
        "cited_sources": [],
        "retrieved_sources": [OTHER],
        "expected_answer_contains": [],
    }
    values.update(overrides)
    return row(fixture_id, slice_, **values)
