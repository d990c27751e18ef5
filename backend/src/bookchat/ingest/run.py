"""One ingest run, shared by the CLI and the server's hand-off endpoint."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.ingest.corpus import Corpus, build_corpus
from bookchat.ingest.manifest import read_site_routes
from bookchat.ingest.report import SyncReport
from bookchat.ingest.site import build_site_corpus
from bookchat.ingest.sync import sync_corpus
from bookchat.vectorstore import VectorStore


@dataclass(frozen=True, slots=True)
class SiteSource:
    """A built Docusaurus site: its folder and its build output (default `<site>/build`)."""

    site_dir: Path
    build_dir: Path | None = None


def load_corpus(settings: Settings, docs_dir: Path | None, site: SiteSource | None) -> Corpus:
    """The corpus of a built site (every edition its route manifests list) or of a docs folder;
    raises ManifestError when a site has no manifest."""
    if site is not None:
        routes = read_site_routes(site.site_dir, site.build_dir)
        return build_site_corpus(
            site.site_dir,
            routes,
            max_tokens=settings.chunk_max_tokens,
            overlap=settings.chunk_overlap,
        )
    return build_corpus(
        docs_dir or settings.docs_dir,
        base_url=settings.site_base_url,
        route=settings.docs_route_base_path,
        max_tokens=settings.chunk_max_tokens,
        overlap=settings.chunk_overlap,
    )


def run_ingest(
    settings: Settings,
    store: VectorStore,
    embedder: Callable[[], Embedder],
    docs_dir: Path | None = None,
    *,
    site: SiteSource | None = None,
    dry_run: bool = False,
    full: bool = False,
    progress: bool = False,
) -> SyncReport:
    """Scan the docs folder (or every edition of a built site) and sync the store with it."""
    corpus = load_corpus(settings, docs_dir, site)
    return sync_corpus(corpus, store, embedder, dry_run=dry_run, full=full, progress=progress)
