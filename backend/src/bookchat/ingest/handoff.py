"""Let `bookchat ingest` work while `bookchat serve` holds the embedded store.

An embedded store can only be opened by one process. The server records how to reach it in
`<data>/server.json` (readable by its owner only, with a random token); when the CLI finds the
store locked, it asks the running server to run the same ingest in-process instead.
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SERVER_FILE = "server.json"


@dataclass(frozen=True, slots=True)
class ServerRecord:
    """How to reach the server that owns a data folder."""

    url: str
    token: str
    pid: int


def write_record(data_dir: Path, url: str) -> ServerRecord:
    """Record this server (called at start-up); returns the record with a fresh token."""
    record = ServerRecord(url=url, token=secrets.token_urlsafe(32), pid=os.getpid())
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / SERVER_FILE
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump({"url": record.url, "token": record.token, "pid": record.pid}, handle)
    os.replace(tmp, path)
    return record


def remove_record(data_dir: Path, record: ServerRecord) -> None:
    """Remove the record at shutdown, unless another server has replaced it since."""
    current = read_record(data_dir)
    if current is not None and current.token == record.token:
        (data_dir / SERVER_FILE).unlink(missing_ok=True)


def read_record(data_dir: Path) -> ServerRecord | None:
    """The recorded server, if any."""
    try:
        data = json.loads((data_dir / SERVER_FILE).read_text(encoding="utf-8"))
        return ServerRecord(url=str(data["url"]), token=str(data["token"]), pid=int(data["pid"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


class HandoffFailed(RuntimeError):
    """The store is locked and no running server took the work."""


def ingest_via_server(
    data_dir: Path,
    docs_dir: Path,
    *,
    dry_run: bool,
    full: bool,
    site: tuple[Path, Path | None] | None = None,
    timeout: float = 3600,
) -> dict[str, Any]:
    """Ask the server that owns the store to run the ingest (of `site`, a built site and its
    build folder, when given); returns its report."""
    # Here, not at the top: every `bookchat ingest` imports this module, few hand off.
    import httpx

    record = read_record(data_dir)
    if record is None:
        raise HandoffFailed("no running bookchat server is recorded for this data folder")
    body: dict[str, Any] = {"docs_dir": str(docs_dir.resolve()), "dry_run": dry_run, "full": full}
    if site is not None:
        body["site_dir"] = str(site[0].resolve())
        if site[1] is not None:
            body["build_dir"] = str(site[1].resolve())
    try:
        response = httpx.post(
            f"{record.url}/api/admin/ingest",
            json=body,
            headers={"Authorization": f"Bearer {record.token}"},
            timeout=timeout,
        )
    except httpx.HTTPError as exc:
        raise HandoffFailed(f"the server recorded at {record.url} did not answer") from exc
    if response.status_code != 200:
        try:
            detail = response.json().get("detail", response.text)
        except ValueError:
            detail = response.text
        raise HandoffFailed(f"the server refused the ingest ({response.status_code}: {detail})")
    result: dict[str, Any] = response.json()
    return result
