"""Compare two rows files: which fixtures were fixed or broken, and how each slice moved."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bookchat.evals.metrics import summarise
from bookchat.evals.rows import EvalRow

# Figures whose change is worth a line; latency is left out (it is noise between machines).
DELTA_FIGURES = (
    "pass_rate",
    "status_accuracy",
    "recall_at_1",
    "recall_at_5",
    "mrr",
    "citation_precision",
    "abstention_precision",
    "abstention_recall",
    "answer_contains",
    "answer_f1",
    "answer_recall",
    "oracle_f1",
    "f1_of_oracle",
    "answered",
    "cite_at_1",
    "cite_page_at_1",
    "reads_whole",
)


@dataclass(frozen=True, slots=True)
class Comparison:
    """What changed between an old and a new run."""

    fixed: list[EvalRow]  # new rows that pass where the old one failed
    broken: list[EvalRow]  # new rows that fail where the old one passed
    only_old: list[str]
    only_new: list[str]
    deltas: dict[str, dict[str, tuple[float | None, float | None]]]  # slice -> figure -> old/new
    versions: tuple[dict[str, Any], dict[str, Any]]


def compare(old: Sequence[EvalRow], new: Sequence[EvalRow]) -> Comparison:
    """Row-by-row and per-slice differences (rows matched by fixture id)."""
    before = {r.fixture_id: r for r in old}
    after = {r.fixture_id: r for r in new}
    both = [i for i in after if i in before]
    old_summary, new_summary = summarise(old), summarise(new)
    deltas: dict[str, dict[str, tuple[float | None, float | None]]] = {}
    names = [*dict.fromkeys([*old_summary["slices"], *new_summary["slices"]]), "all"]
    for name in names:
        a = old_summary["all"] if name == "all" else old_summary["slices"].get(name, {})
        b = new_summary["all"] if name == "all" else new_summary["slices"].get(name, {})
        moved = {f: (a.get(f), b.get(f)) for f in DELTA_FIGURES if a.get(f) != b.get(f)}
        if moved:
            deltas[name] = moved
    return Comparison(
        fixed=[after[i] for i in both if after[i].passed and not before[i].passed],
        broken=[after[i] for i in both if before[i].passed and not after[i].passed],
        only_old=[i for i in before if i not in after],
        only_new=[i for i in after if i not in before],
        deltas=deltas,
        versions=(
            {k: old_summary[k] for k in ("dataset_version", "run_version", "corpus_version")},
            {k: new_summary[k] for k in ("dataset_version", "run_version", "corpus_version")},
        ),
    )


def _why(row: EvalRow) -> str:
    failed = [
        name
        for name, ok in (
            ("status", row.status_ok),
            ("citation", row.citation_ok),
            ("content", row.content_ok),
        )
        if not ok
    ]
    return "passes" if not failed else "fails " + "+".join(failed)


def render(result: Comparison) -> str:
    """The comparison as plain text for a terminal or a pull request."""
    old_v, new_v = result.versions
    lines = [f"old: {old_v}", f"new: {new_v}"]
    if old_v["dataset_version"] != new_v["dataset_version"]:
        lines.append("warning: different dataset versions: rows may not ask the same questions")
    for title, rows in (("fixed", result.fixed), ("broken", result.broken)):
        lines.append(f"\n{title} ({len(rows)}):")
        lines += [f"  {r.fixture_id} [{r.slice}] {_why(r)}: {r.question}" for r in rows]
    if result.only_old or result.only_new:
        lines.append(f"\nonly in old: {len(result.only_old)}; only in new: {len(result.only_new)}")
    lines.append("\nper-slice deltas (old -> new):")
    for name, moved in result.deltas.items():
        parts = [f"{f} {_fmt(a)} -> {_fmt(b)}" for f, (a, b) in moved.items()]
        lines.append(f"  {name}: " + "; ".join(parts))
    if not result.deltas:
        lines.append("  none")
    return "\n".join(lines)


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"
