"""Fixtures shared by every stage's tests: settings in temp dirs, the real embedder, the books."""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bookchat.config import Settings
from bookchat.retrieval.embedder import Embedder

REPO = Path(__file__).resolve().parents[2]
SAMPLE_DOCS = REPO / "website" / "docs"
SHARED = REPO.parent / "shared"
IN_CI = os.environ.get("CI", "").lower() == "true"


def need(condition: bool, reason: str) -> None:
    """Skip when a prerequisite is missing, except in CI where that is a failure."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"required in CI: {reason}")
    pytest.skip(reason)


def port_open(host: str, port: int) -> bool:
    """True when something accepts TCP connections there."""
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((host, port)) == 0


@pytest.fixture(scope="session")
def sample_docs() -> Path:
    """The sample book shipped in website/docs."""
    return SAMPLE_DOCS


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared beside the repo (real books); skipped outside CI when absent."""
    need(SHARED.is_dir(), f"{SHARED} is absent: clone the project next to its shared/ folder")
    return SHARED


@pytest.fixture(scope="session")
def embedder() -> Iterator[Embedder]:
    """The real MiniLM (ONNX backend), loaded once per test session."""
    model = Embedder(threads=2)
    model.load()
    yield model
    model.close()


@pytest.fixture
def make_settings(tmp_path: Path) -> Callable[..., Settings]:
    """Settings isolated in a temp data dir; keyword overrides use field names."""

    def build(**overrides: Any) -> Settings:
        values: dict[str, Any] = {"data_dir": tmp_path / "data", "rate_limit": "off"}
        values.update(overrides)
        return Settings(_env_file=None, **values)  # type: ignore[call-arg]

    return build
