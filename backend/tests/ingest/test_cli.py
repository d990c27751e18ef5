"""`bookchat ingest` as a user runs it: reports, exit codes, clear errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.sites import write_site

BOOKCHAT = [sys.executable, "-m", "bookchat.cli"]


def _run(args: list[str], data: Path, **kw) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BOOKCHAT_DATA_DIR": str(data)}
    return subprocess.run(
        BOOKCHAT + args, capture_output=True, text=True, env=env, timeout=300, **kw
    )


def _docs(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "intro.md").write_text("---\ntitle: Intro\n---\n## Setup\n\nInstall Git first.\n")
    (docs / "draft.md").write_text("---\ntitle: Draft\ndraft: true\n---\nNot yet.\n")
    return docs


def test_ingest_prints_skips_and_a_summary_then_nothing_to_do(tmp_path: Path) -> None:
    docs = _docs(tmp_path)
    first = _run(["ingest", "--docs", str(docs)], tmp_path / "data")
    assert first.returncode == 0, first.stderr
    assert "skipped draft.md: draft: true" in first.stdout
    assert "chunks added 1, updated 0, deleted 0, unchanged 0" in first.stdout
    second = _run(["ingest", "--docs", str(docs), "--json"], tmp_path / "data")
    report = json.loads(second.stdout)
    assert (report["added"], report["unchanged"], report["model_loaded"]) == (0, 1, False)


def test_dry_run_lists_what_would_change(tmp_path: Path) -> None:
    docs = _docs(tmp_path)
    result = _run(["ingest", "--docs", str(docs), "--dry-run"], tmp_path / "data")
    assert result.returncode == 0
    assert "would add" in result.stdout and "/docs/intro#setup" in result.stdout


def test_a_missing_docs_folder_is_a_usage_error(tmp_path: Path) -> None:
    result = _run(["ingest", "--docs", str(tmp_path / "nope")], tmp_path / "data")
    assert result.returncode == 2
    assert "docs folder not found" in result.stderr and "Traceback" not in result.stderr


def test_a_locked_store_without_a_server_says_what_to_do(tmp_path: Path) -> None:
    docs = _docs(tmp_path)
    assert _run(["ingest", "--docs", str(docs)], tmp_path / "data").returncode == 0
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from bookchat.config import Settings\n"
            "from bookchat.vectorstore import open_store\n"
            "store = open_store(Settings(_env_file=None, data_dir=sys.argv[1]))\n"
            "print('ready', flush=True)\n"
            "time.sleep(60)\n",
            str(tmp_path / "data"),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        result = _run(["ingest", "--docs", str(docs)], tmp_path / "data")
        assert result.returncode == 3
        assert "in use by another process" in result.stderr and "Traceback" not in result.stderr
    finally:
        holder.kill()
        holder.wait()


def test_ingest_site_reports_each_edition(tmp_path: Path) -> None:
    site = write_site(tmp_path)
    result = _run(["ingest", "--site", str(site)], tmp_path / "data")
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stdout.splitlines() if "@" in line.split(":")[0]]
    assert [line.split(":")[0] for line in lines] == [
        "current@en",
        "1.0@en",
        "current@fr",
        "1.0@fr",
    ]
    assert "1.0@fr: pages 3, chunks 7; added 7" in result.stdout


def test_ingest_site_without_a_build_says_to_build_it(tmp_path: Path) -> None:
    (tmp_path / "site" / "docs").mkdir(parents=True)
    result = _run(["ingest", "--site", str(tmp_path / "site")], tmp_path / "data")
    assert result.returncode == 2
    assert "build the site first (`npm run build`)" in result.stderr
    assert "Traceback" not in result.stderr
    both = _run(["ingest", "--site", ".", "--docs", "."], tmp_path / "data")
    assert both.returncode == 2 and "either --site or --docs" in both.stderr
