"""The release gate: thresholds per slice, and rows that went missing, doubled or stale."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from bookchat.cli import build_parser
from bookchat.config import Settings
from bookchat.evals.command import run_eval_command
from bookchat.evals.gate import Gate, GateError, check_gate, load_gate
from bookchat.evals.rows import EvalRow, write_rows
from tests.evals.factory import abstained, failed, row

GATE = """
dataset_version = "v1"
fixtures = "fixtures.jsonl"

[slices."book/answerable"]
pass_rate = 0.5
recall_at_5 = 0.9
false_decline_max = 0.1

[slices."book/off-topic"]
abstention_recall = 0.9

[all]
status_accuracy = 0.6
"""
IDS = [("a1", "book/answerable"), ("a2", "book/answerable"), ("o1", "book/off-topic")]


@pytest.fixture
def gate(tmp_path: Path) -> Gate:
    """A gate over a three-row fixtures file."""
    lines = [json.dumps({"id": i, "slice": s, "dataset_version": "v1"}) for i, s in IDS]
    (tmp_path / "fixtures.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "gates.toml").write_text(GATE, encoding="utf-8")
    return load_gate(tmp_path / "gates.toml")


def clean() -> list[EvalRow]:
    return [row("a1"), row("a2"), abstained("o1")]


def test_a_complete_passing_run_passes(gate: Gate) -> None:
    assert check_gate(gate, clean()) == []


def test_a_missing_fixture_fails_by_name(gate: Gate) -> None:
    failures = check_gate(gate, [row("a1"), abstained("o1")])
    assert failures == ["missing fixtures: a2"]


def test_a_duplicated_fixture_fails(gate: Gate) -> None:
    failures = check_gate(gate, [*clean(), row("a2")])
    assert failures == ["duplicated fixtures: a2"]


def test_rows_of_another_dataset_version_fail(gate: Gate) -> None:
    rows = [row("a1"), row("a2", dataset_version="v0"), abstained("o1")]
    failures = check_gate(gate, rows)
    assert len(failures) == 1
    assert "another dataset_version" in failures[0]
    assert "a2" in failures[0]


def test_rows_from_two_corpus_versions_fail(gate: Gate) -> None:
    rows = [row("a1"), row("a2", corpus_version="corpus2"), abstained("o1")]
    assert check_gate(gate, rows) == ["rows from several corpus versions: corpus1, corpus2"]


def test_a_pinned_corpus_version_must_match(tmp_path: Path, gate: Gate) -> None:
    # Top-level keys go before the first table, or TOML files them under that table.
    text = 'corpus_version = "corpus9"\n' + GATE
    (tmp_path / "gates.toml").write_text(text, encoding="utf-8")
    pinned = load_gate(tmp_path / "gates.toml")
    assert check_gate(pinned, clean()) == ["corpus_version corpus1 is not the gate's corpus9"]


def test_rows_for_unknown_fixtures_fail(gate: Gate) -> None:
    failures = check_gate(gate, [*clean(), row("zz")])
    assert failures == ["rows for fixtures the gate's file does not hold: zz"]


def test_failed_rows_below_thresholds_name_slice_figure_and_values(gate: Gate) -> None:
    rows = [failed("a1"), failed("a2"), abstained("o1")]
    failures = check_gate(gate, rows)
    assert "book/answerable: pass_rate 0.0 < 0.5" in failures
    assert "book/answerable: false_decline 1.0 > 0.1" in failures  # a ceiling, not a floor
    assert "all: status_accuracy 0.3333 < 0.6" in failures
    # Retrieval still found the gold section: recall is not what failed.
    assert not any("recall_at_5" in f for f in failures)


def test_a_missed_abstention_fails(gate: Gate) -> None:
    wrong = abstained(
        "o1", actual_status="grounded", status_ok=False, citation_ok=False, passed=False
    )
    failures = check_gate(gate, [row("a1"), row("a2"), wrong])
    assert "book/off-topic: abstention_recall 0.0 < 0.9" in failures


def test_a_threshold_on_an_unmeasured_figure_or_absent_slice_fails(gate: Gate) -> None:
    rows = [row("a1", retrieved_sources=[]), row("a2", retrieved_sources=[])]
    failures = check_gate(gate, rows)
    assert "book/answerable: recall_at_5 0.0 < 0.9" in failures
    assert "book/off-topic: no rows in this slice" in failures
    assert "missing fixtures: o1" in failures


def test_gate_fixtures_of_another_version_fail(tmp_path: Path, gate: Gate) -> None:
    line = json.dumps({"id": "a1", "dataset_version": "v2"})
    (tmp_path / "fixtures.jsonl").write_text(line + "\n", encoding="utf-8")
    stale = load_gate(tmp_path / "gates.toml")
    assert any("update the gate with the dataset" in f for f in check_gate(stale, [row("a1")]))


def test_an_unreadable_gate_is_a_gate_error(tmp_path: Path) -> None:
    (tmp_path / "gates.toml").write_text("fixtures = 3 = 4", encoding="utf-8")
    with pytest.raises(GateError):
        load_gate(tmp_path / "gates.toml")


def test_the_command_gates_a_rows_file_and_exits_1_naming_failures(
    tmp_path: Path,
    gate: Gate,
    make_settings: Callable[..., Settings],
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows_file = tmp_path / "rows.jsonl"
    write_rows(rows_file, [row("a1"), abstained("o1")])
    argv = ["eval", "--rows", str(rows_file), "--gate", str(tmp_path / "gates.toml")]
    settings = make_settings()
    assert run_eval_command(settings, build_parser().parse_args(argv)) == 1
    assert "GATE FAILED: missing fixtures: a2" in capsys.readouterr().err

    write_rows(rows_file, clean())
    assert run_eval_command(settings, build_parser().parse_args(argv)) == 0
    assert "gate passed" in capsys.readouterr().err


def test_answer_f1_can_be_gated(tmp_path: Path, gate: Gate) -> None:
    text = GATE.replace("recall_at_5 = 0.9", "recall_at_5 = 0.9\nanswer_f1 = 0.4")
    (tmp_path / "gates.toml").write_text(text, encoding="utf-8")
    f1_gate = load_gate(tmp_path / "gates.toml")
    low = [row("a1", answer_f1=0.3), row("a2", answer_f1=0.4), abstained("o1")]
    assert check_gate(f1_gate, low) == ["book/answerable: answer_f1 0.35 < 0.4"]
    high = [row("a1", answer_f1=0.5), row("a2", answer_f1=0.4), abstained("o1")]
    assert check_gate(f1_gate, high) == []
    # Rows without reference answers cannot pass a gate on them.
    assert check_gate(f1_gate, clean()) == [
        "book/answerable: answer_f1 was not measured (threshold 0.4)"
    ]
