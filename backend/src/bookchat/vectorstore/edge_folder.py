"""The folder an Edge store lives in: one owner process, opening the shard, durable renames."""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

import qdrant_edge as qe

from bookchat.vectorstore.base import StoreLocked, StoreUnavailable

LOCK_FILE = ".lock"


class FolderLock:
    """An exclusive flock on `<folder>/.lock`; the OS drops it if the process dies (kill -9 too)."""

    def __init__(self, folder: Path) -> None:
        path = folder / LOCK_FILE
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise StoreLocked(
                f"The index at {folder} is in use by another process (pid {holder}); only one "
                "process may open an embedded store, so stop the server before ingesting or "
                "point both at a Qdrant server with QDRANT_URL."
            ) from None
        # The pid is only for that message; the lock itself is the flock, not the file's content.
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        self._fd: int | None = fd

    def release(self) -> None:
        """Drop the lock (closing the descriptor releases the flock)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def open_shard(shard_dir: Path, dim: int, config: qe.EdgeConfig) -> qe.EdgeShard:
    """Load the shard in `shard_dir`, or create it; Edge's bare errors become ours."""
    try:
        if (shard_dir / "edge_config.json").exists():
            # Passing the config makes Edge check the stored vectors match this embedding size.
            return qe.EdgeShard.load(str(shard_dir), config)
        return qe.EdgeShard.create(str(shard_dir), config)
    except Exception as exc:  # Edge raises bare Exception; sort it by message.
        text = str(exc)
        if "WouldBlock" in text:
            raise StoreLocked(f"The index at {shard_dir} is in use by another process.") from exc
        if "ncompatible" in text:
            raise StoreUnavailable(
                f"The index at {shard_dir} was built with different vectors than this model "
                f"({dim} dimensions); delete the folder and ingest again."
            ) from exc
        raise StoreUnavailable(f"The index at {shard_dir} could not be opened: {text}") from exc


def fsync_dir(folder: Path) -> None:
    """fsync a directory, so a rename inside it survives a crash."""
    # Makes the rename itself durable; some filesystems refuse to open directories, which is fine.
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
