"""Evaluation rows: one judged answer per fixture, as written to (and read from) rows JSONL."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

SourceRef = dict[str, str]  # {"path": ..., "section": ...}


@dataclass(frozen=True, slots=True)
class EvalRow:
    """Everything measured about one fixture; the rows file holds one per line."""

    dataset_version: str
    run_version: str
    corpus_version: str
    fixture_id: str
    slice: str
    mode: str
    question: str
    expected_status: str
    actual_status: str  # "grounded", "related", "abstained" or "error"
    expected_sources: list[SourceRef]
    cited_sources: list[SourceRef]
    retrieved_sources: list[SourceRef]  # ranked retrieval the answer drew on; [] in selection
    answer: str
    status_ok: bool
    citation_ok: bool
    content_ok: bool
    passed: bool
    latency_ms: float
    generator: str
    expected_answer_contains: list[str] = field(default_factory=list)
    error: str | None = None
    retrieval_consistent: bool = True  # extractive citations all among retrieved_sources
    reference_answer: str | None = None
    # Token F1 and reference recall of the answer (answer_words.py), and the best F1 a short
    # extract of the gold page reaches (oracle.py); None unless the row has a reference and
    # should be answered.
    answer_f1: float | None = None
    answer_recall: float | None = None
    oracle_f1: float | None = None
    # ms from the question to the model's first streamed text; None for answers not generated.
    first_token_ms: float | None = None
    # The reader's predicted span (QueryResponse.short_answer), and its SQuAD exact match and F1
    # against expected_answer_contains as the gold answers (short_answer.py); the figures are
    # None unless the row should be answered and has gold phrases, and 0 without a span.
    short_answer: str | None = None
    short_em: float | None = None
    short_f1: float | None = None
    # Overview rows (fixture `overview` set): whether it should be answered as an overview, and
    # the scope it was answered as ("chapter", "page", "section", "book"; None: not an overview).
    overview_expected: bool | None = None
    overview_scope: str | None = None
    # The places shown beside the answer or instead of it (QueryResponse.related), best first.
    related_sources: list[SourceRef] = field(default_factory=list)
    confidence: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The row as a JSON object."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EvalRow:
        """A row read back from a rows file (unknown keys are ignored)."""
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known})


def write_rows(path: Path, rows: Iterable[EvalRow]) -> None:
    """Write rows as JSONL (parent folders created)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row.to_json(), ensure_ascii=False) + "\n")


def read_rows(path: Path) -> list[EvalRow]:
    """Rows of a rows JSONL file, in file order."""
    with path.open(encoding="utf-8") as handle:
        return [EvalRow.from_json(json.loads(line)) for line in handle if line.strip()]
