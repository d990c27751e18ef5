"""`bookchat check-llm`: one line per capability of the configured model server."""

from __future__ import annotations

from pathlib import Path

import pytest

from bookchat.cli import main
from tests.local_model import LocalModel, free_port


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Settings come from the environment: keep this machine's out of it."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "BOOKCHAT_LLM_MODEL", "BOOKCHAT_GENERATOR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("BOOKCHAT_DATA_DIR", str(tmp_path / "data"))


def test_check_llm_reports_every_capability_of_a_real_server(
    local_model: LocalModel, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", local_model.base_url)
    monkeypatch.setenv("BOOKCHAT_LLM_MODEL", "local")
    assert main(["check-llm"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"model local at {local_model.base_url}: ready"
    names = [line.split()[1] for line in lines[1:]]
    assert names == ["reachable", "model", "chat", "streaming", "tools"]
    assert all(line.strip().startswith("ok") for line in lines[1:])
    assert "tokens stream to the reader" in lines[4]


def test_check_llm_fails_when_the_server_is_unreachable(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{free_port()}/v1")
    monkeypatch.setenv("BOOKCHAT_LLM_MODEL", "local")
    assert main(["check-llm"]) == 3
    out = capsys.readouterr().out
    assert ": unusable" in out
    assert "FAIL reachable" in out and "answers stay extractive" in out


def test_check_llm_without_a_model_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-llm"]) == 2
    assert "BOOKCHAT_LLM_MODEL" in capsys.readouterr().err
