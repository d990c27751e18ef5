"""One ingest run, shared by the CLI and the server's hand-off endpoint."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bookchat.config import Settings
from bookchat.embedding.embedder import BF16_MIN_WORD_PIECES, Embedder
from bookchat.ingest.corpus import Corpus, build_corpus
from bookchat.ingest.manifest import read_site_routes
from bookchat.ingest.read_ahead import ReadAhead
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


# Markdown bytes per word piece a full ingest embeds (chunk texts and their sentences): ~2 on the
# robotics textbook, more on plain prose.
_BYTES_PER_PIECE = 2


def source_bytes(docs_dir: Path, site: SiteSource | None) -> int:
    """Size of the Markdown an ingest reads: the docs folder's, or every edition's of a site."""
    if site is None:
        return sum(p.stat().st_size for p in docs_dir.rglob("*") if p.suffix in (".md", ".mdx"))
    routes = read_site_routes(site.site_dir, site.build_dir)
    sources = {site.site_dir / doc.source for edition in routes.editions for doc in edition.docs}
    return sum(p.stat().st_size for p in sources if p.is_file())


def _loads_model_soon(
    store: VectorStore, full: bool, docs_dir: Path, site: SiteSource | None
) -> bool:
    """True when the ingest will embed a whole book big enough for the bulk model: into an empty
    store (or --full), whatever the diff. A guess from sizes: a wrong one costs time, not vectors
    (`Embedder.expect` still picks the model from the exact count)."""
    if not (full or store.count() == 0):
        return False
    return source_bytes(docs_dir, site) >= BF16_MIN_WORD_PIECES * _BYTES_PER_PIECE


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
    ahead: ReadAhead | None = None,
) -> SyncReport:
    """Scan the docs folder (or every edition of a built site) and sync the store with it;
    `ahead`, reading that same source in another process, lets the model load meanwhile."""
    if ahead is None:
        corpus = load_corpus(settings, docs_dir, site)
        return sync_corpus(corpus, store, embedder, dry_run=dry_run, full=full, progress=progress)
    warm = not dry_run and _loads_model_soon(store, full, docs_dir or settings.docs_dir, site)
    ahead.ask(word_pieces=warm, catalog_fields=not dry_run)
    if warm:
        embedder().warm_up()
    return sync_corpus(
        ahead.corpus(),
        store,
        embedder,
        dry_run=dry_run,
        full=full,
        progress=progress,
        pieces=ahead.word_pieces,
        catalog_fields=ahead.catalog_fields,
    )
