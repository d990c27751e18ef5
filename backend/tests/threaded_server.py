"""A real uvicorn server in a thread of the test process, over a one-page book it ingests."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bookchat.api.server import build_server
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.ingest.handoff import ServerRecord, remove_record
from bookchat.ingest.run import run_ingest
from bookchat.vectorstore import open_store


def free_port() -> int:
    """A TCP port nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serving(settings: Settings, docs: Path, embedder: Embedder) -> Iterator[ServerRecord]:
    """`docs` ingested into a store of `settings`' data folder and served on 127.0.0.1 until the
    block ends; yields the server's hand-off record (its URL and admin token)."""
    store = open_store(settings)
    run_ingest(settings, store, lambda: embedder, docs)
    server, record = build_server(
        settings, host="127.0.0.1", port=free_port(), store=store, embedder=embedder
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started and thread.is_alive():
        time.sleep(0.02)
    try:
        yield record
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        remove_record(settings.data_dir, record)
        store.close()
