"""run_version: which code and which answer-shaping settings produced a set of rows."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

from bookchat.answer.model import answer_model_version
from bookchat.answer.reader import reader_version
from bookchat.config import Settings


def _git(*args: str, cwd: Path) -> str | None:
    try:
        done = subprocess.run(  # noqa: S603 - fixed argv, no shell
            ["git", *args],  # noqa: S607 - git from PATH, as a developer runs it
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def code_version(cwd: Path | None = None) -> str:
    """Short commit hash, "-dirty" when tracked files changed since; "unknown" outside git."""
    where = cwd or Path(__file__).resolve().parent
    commit = _git("rev-parse", "--short", "HEAD", cwd=where)
    if not commit:
        return "unknown"
    changed = _git("status", "--porcelain", "--untracked-files=no", cwd=where)
    return f"{commit}-dirty" if changed else commit


def settings_fingerprint(settings: Settings) -> str:
    """Short hash of the settings that change what is retrieved or answered."""
    relevant = {
        "min_chunk_score": settings.min_chunk_score,
        "answer_model": answer_model_version(),
        "reader": reader_version(),
        "answer_max_words": settings.answer_max_words,
        "chunk_max_tokens": settings.chunk_max_tokens,
        "chunk_overlap": settings.chunk_overlap,
        "embedding_backend": settings.embedding_backend,
        "generator": "llm" if settings.use_llm else "extractive",
        "llm_model": settings.llm_model if settings.use_llm else None,
    }
    digest = hashlib.sha256(json.dumps(relevant, sort_keys=True).encode()).hexdigest()
    return digest[:8]


def run_version(settings: Settings) -> str:
    """`<commit>+<settings hash>`, e.g. "36025b8+1f2e3d4c"."""
    return f"{code_version()}+{settings_fingerprint(settings)}"
