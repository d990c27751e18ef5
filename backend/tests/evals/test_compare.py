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
from tests.evals.factory import abstained, failed, row


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
