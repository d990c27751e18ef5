"""`bookchat serve`: one uvicorn worker, recorded in <data>/server.json for the ingest hand-off."""

from __future__ import annotations

import logging
import sys

import uvicorn

from bookchat.api.app import create_app
from bookchat.api.json_logs import configure_json_logging
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.ingest.handoff import ServerRecord, remove_record, write_record
from bookchat.vectorstore import VectorStore

log = logging.getLogger(__name__)


def local_url(host: str, port: int) -> str:
    """The URL this machine reaches the server at (wildcard binds become loopback)."""
    reach = "127.0.0.1" if host in {"", "0.0.0.0", "::"} else host  # noqa: S104 - comparing, not binding
    if ":" in reach:
        reach = f"[{reach}]"
    return f"http://{reach}:{port}"


def build_server(
    settings: Settings,
    *,
    host: str,
    port: int,
    store: VectorStore | None = None,
    embedder: Embedder | None = None,
) -> tuple[uvicorn.Server, ServerRecord]:
    """A configured uvicorn server and its hand-off record (written now; remove it after)."""
    record = write_record(settings.data_dir, local_url(host, port))
    app = create_app(settings, store=store, embedder=embedder, admin_token=record.token)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        workers=1,
        # Client addresses are resolved by our own trusted-proxy rule (TRUSTED_PROXIES); uvicorn's
        # default would trust X-Forwarded-For from any local peer.
        proxy_headers=False,
        log_level=settings.log_level.lower(),
        log_config=None,  # keep our JSON handler (see json_logs)
        access_log=False,  # RequestContext logs each request, with its id
        lifespan="on",
    )
    return uvicorn.Server(config), record


def serve(settings: Settings, *, host: str, port: int) -> int:
    """Serve until interrupted; returns the process exit code."""
    configure_json_logging(settings.log_level)
    server, record = build_server(settings, host=host, port=port)
    print(f"bookchat serving on {record.url} (API docs at {record.url}/docs)", file=sys.stderr)
    try:
        server.run()
    finally:
        remove_record(settings.data_dir, record)
    return 0 if server.started else 1
