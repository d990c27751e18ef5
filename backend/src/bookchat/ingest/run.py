"""One ingest run, shared by the CLI and the server's hand-off endpoint."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bookchat.config import Settings
from bookchat.ingest.corpus import build_corpus
from bookchat.ingest.sync import SyncReport, sync_corpus
from bookchat.retrieval.embedder import Embedder
from bookchat.vectorstore import VectorStore


def run_ingest(
    settings: Settings,
    store: VectorStore,
    embedder: Callable[[], Embedder],
    docs_dir: Path | None = None,
    *,
    dry_run: bool = False,
    full: bool = False,
    progress: bool = False,
) -> SyncReport:
    """Scan the docs folder and sync the store with it."""
    corpus = build_corpus(
        docs_dir or settings.docs_dir,
        base_url=settings.site_base_url,
        route=settings.docs_route_base_path,
        max_tokens=settings.chunk_max_tokens,
        overlap=settings.chunk_overlap,
    )
    return sync_corpus(corpus, store, embedder, dry_run=dry_run, full=full, progress=progress)
