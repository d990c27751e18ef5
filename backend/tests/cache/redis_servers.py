"""A private redis-server on a free port, for tests that stop Redis in the middle of a run."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

from tests.conftest import need
from tests.threaded_server import free_port


class PrivateRedis:
    """redis-server on 127.0.0.1:<free port>, keeping nothing on disk; `stop` kills it."""

    def __init__(self, workdir: Path) -> None:
        binary = shutil.which("redis-server")
        need(binary is not None, "redis-server is not installed (Debian package redis-server)")
        assert binary is not None
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._process = subprocess.Popen(
            [
                binary,
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(workdir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not _accepts(self.port):
            if time.monotonic() > deadline or self._process.poll() is not None:
                self.stop()
                raise RuntimeError("private redis-server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        """Kill the server (as a crash would) and wait for it to go."""
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait(timeout=10)


def _accepts(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0
