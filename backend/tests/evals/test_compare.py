"""Comparing two runs: fixed and broken rows, per-slice deltas."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bookchat.cli import build_parser
from bookchat.config import Settings
from bookchat.evals.command import run_eval_command
from bookchat.evals.compare import compare, render
from bookchat.evals.rows import write_rows
from tests.evals.factory import GOLD, OTHER, abstained, failed, row


def test_fixed_broken_and_deltas() -> None:
    old = [failed("a1"), row("a2"), abstained("o1"), row("gone")]
    new = [row("a1"), failed("a2"), abstained("o1"), row("added")]
    result = compare(old, new)
    assert [r.fixture_id for r in result.fixed] == ["a1"]
    assert [r.fixture_id for r in result.broken] == ["a2"]
    assert result.only_old == ["gone"]
    assert result.only_new == ["added"]
    assert "book/off-topic" not in result.deltas
    text = render(result)
    assert "a2 [book/answerable] fails status+citation+content" in text


def test_the_command_prints_the_comparison(
    tmp_path: Path, make_settings: Callable[..., Settings], capsys: pytest.CaptureFixture[str]
) -> None:
    write_rows(tmp_path / "old.jsonl", [failed("a1"), abstained("o1")])
    write_rows(tmp_path / "new.jsonl", [row("a1"), abstained("o1")])
    argv = ["eval", "--compare", str(tmp_path / "old.jsonl"), str(tmp_path / "new.jsonl")]
    assert run_eval_command(make_settings(), build_parser().parse_args(argv)) == 0
    out = capsys.readouterr().out
    assert "fixed (1):" in out
    assert "book/answerable: pass_rate 0.000 -> 1.000" in out


def test_answer_word_figures_are_among_the_deltas() -> None:
    old = [row("a1", answer_f1=0.2, oracle_f1=0.5, cited_sources=[OTHER, GOLD])]
    new = [row("a1", answer_f1=0.6, oracle_f1=0.5)]
    moved = compare(old, new).deltas["book/answerable"]
    assert moved["answer_f1"] == (0.2, 0.6)
    assert moved["f1_of_oracle"] == (0.4, 1.2)
    assert moved["cite_at_1"] == (0.0, 1.0)
    assert "oracle_f1" not in moved  # unchanged
    text = render(compare(old, new))
    assert "answer_f1 0.200 -> 0.600" in text
