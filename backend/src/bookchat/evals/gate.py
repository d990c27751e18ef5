"""The release gate: committed thresholds per slice, and a check that no row went missing.

A gate file (TOML) names the dataset version, the fixtures file whose every id must appear in
the rows exactly once, and per-slice minimums of any summary figure:

    dataset_version = "sample-book-v1"
    fixtures = "sample-book.jsonl"      # relative to the gate file
    # corpus_version = "…"              # optional: pin the indexed book too
    [slices."book/answerable"]
    pass_rate = 0.90
    [all]
    status_accuracy = 0.90
"""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bookchat.evals.metrics import summarise
from bookchat.evals.rows import EvalRow

SHOWN_IDS = 8  # failures list this many ids, then a count


class GateError(ValueError):
    """The gate file itself is unusable."""


@dataclass(frozen=True, slots=True)
class Gate:
    """Parsed gate file."""

    dataset_version: str
    required_ids: list[str]
    fixture_versions: set[str]
    # slice (or "all") -> figure -> minimum; a figure named "<figure>_max" is a ceiling instead
    thresholds: dict[str, dict[str, float]]
    corpus_version: str | None = None
    source: str = field(default="")


def load_gate(path: Path) -> Gate:
    """Read a gate file and the ids of the fixtures file it names."""
    try:
        data: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise GateError(f"cannot read gate file {path}: {exc}") from exc
    if "dataset_version" not in data or "fixtures" not in data:
        raise GateError(f"{path}: dataset_version and fixtures are required")
    fixtures = (path.parent / str(data["fixtures"])).resolve()
    try:
        lines = [json.loads(x) for x in fixtures.read_text(encoding="utf-8").splitlines() if x]
    except (OSError, json.JSONDecodeError) as exc:
        raise GateError(f"cannot read the gate's fixtures {fixtures}: {exc}") from exc
    thresholds = {str(k): _minimums(v) for k, v in (data.get("slices") or {}).items()}
    if "all" in data:
        thresholds["all"] = _minimums(data["all"])
    return Gate(
        dataset_version=str(data["dataset_version"]),
        required_ids=[str(row["id"]) for row in lines],
        fixture_versions={str(row.get("dataset_version", "")) for row in lines},
        thresholds=thresholds,
        corpus_version=str(data["corpus_version"]) if data.get("corpus_version") else None,
        source=str(path),
    )


def _minimums(table: Any) -> dict[str, float]:
    if not isinstance(table, dict):
        raise GateError(f"thresholds must be tables of numbers, got {table!r}")
    return {str(k): float(v) for k, v in table.items()}


def _ids(ids: Sequence[str]) -> str:
    shown = ", ".join(ids[:SHOWN_IDS])
    return shown + (f" … ({len(ids)} in all)" if len(ids) > SHOWN_IDS else "")


def _row_failures(gate: Gate, rows: Sequence[EvalRow]) -> list[str]:
    failures = []
    if gate.fixture_versions != {gate.dataset_version}:
        failures.append(
            f"the gate's fixtures are {sorted(gate.fixture_versions)}, "
            f"the gate expects {gate.dataset_version!r}: update the gate with the dataset"
        )
    other = [r.fixture_id for r in rows if r.dataset_version != gate.dataset_version]
    if other:
        failures.append(
            f"rows from another dataset_version than {gate.dataset_version!r}: " + _ids(other)
        )
    corpora = sorted({r.corpus_version for r in rows})
    if len(corpora) > 1:
        failures.append(f"rows from several corpus versions: {', '.join(corpora)}")
    elif gate.corpus_version and corpora and corpora[0] != gate.corpus_version:
        failures.append(f"corpus_version {corpora[0]} is not the gate's {gate.corpus_version}")
    counts = Counter(r.fixture_id for r in rows)
    required = set(gate.required_ids)
    missing = [i for i in gate.required_ids if i not in counts]
    if missing:
        failures.append("missing fixtures: " + _ids(missing))
    duplicated = sorted(i for i, n in counts.items() if n > 1)
    if duplicated:
        failures.append("duplicated fixtures: " + _ids(duplicated))
    unknown = sorted(i for i in counts if i not in required)
    if unknown:
        failures.append("rows for fixtures the gate's file does not hold: " + _ids(unknown))
    return failures


def _threshold_failures(gate: Gate, summary: dict[str, Any]) -> list[str]:
    failures = []
    for name, minimums in gate.thresholds.items():
        figures = summary["all"] if name == "all" else summary["slices"].get(name)
        if figures is None:
            failures.append(f"{name}: no rows in this slice")
            continue
        for key, limit in minimums.items():
            figure = key.removesuffix("_max")
            value = figures.get(figure)
            if value is None:
                failures.append(f"{name}: {figure} was not measured (threshold {limit})")
            elif key != figure and value > limit:
                failures.append(f"{name}: {figure} {value} > {limit}")
            elif key == figure and value < limit:
                failures.append(f"{name}: {figure} {value} < {limit}")
    return failures


def check_gate(gate: Gate, rows: Sequence[EvalRow]) -> list[str]:
    """Every reason the rows fail the gate; empty when they pass."""
    return _row_failures(gate, rows) + _threshold_failures(gate, summarise(rows))
