"""The index catalog (chapters, corpus version) held in memory and re-read after ingests."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from bookchat.retrieval.editions import Edition, resolve
from bookchat.vectorstore import VectorStore


def _page_key(url: str) -> str:
    # Readers send what the browser shows: maybe absolute, maybe with #anchor or trailing slash.
    path = urlsplit(url).path
    return path.rstrip("/") or "/"


@dataclass(frozen=True, slots=True)
class Catalog:
    """One snapshot of the catalog written by the last complete ingest."""

    data: dict[str, Any] = field(default_factory=dict)

    @property
    def ready(self) -> bool:
        """True when an ingest has completed with at least one chunk."""
        return bool(self.data) and int(self.data.get("chunks", 0)) > 0

    @property
    def corpus_version(self) -> str | None:
        """Version of the indexed corpus, None before any ingest."""
        value = self.data.get("corpus_version")
        return str(value) if value else None

    @property
    def chunks(self) -> int:
        """How many chunks the index holds."""
        return int(self.data.get("chunks", 0))

    @property
    def indexed_at(self) -> str | None:
        """When the last ingest completed (ISO 8601)."""
        value = self.data.get("indexed_at")
        return str(value) if value else None

    @property
    def chapters(self) -> list[dict[str, Any]]:
        """Chapters in reading order, as GET /api/chapters serves them."""
        return list(self.data.get("chapters", []))

    def edition(self, version: str | None, locale: str | None) -> tuple[Edition, Catalog]:
        """The edition a request names (defaults when absent) and this catalog seen from it
        (its chapters, pages and URLs); raises UnknownEdition for a version or locale not
        indexed."""
        edition = resolve(self.data, version, locale)
        return edition, Catalog({**self.data, "chapters": list(edition.chapters)})

    def chapter(self, key: str) -> dict[str, Any] | None:
        """The chapter with this key, if any."""
        return next((ch for ch in self.chapters if ch.get("key") == key), None)

    def chapter_of_path(self, path: str) -> dict[str, Any] | None:
        """The chapter that holds the page at this docs-relative file path."""
        for chapter in self.chapters:
            if any(page.get("path") == path for page in chapter.get("pages", [])):
                return chapter
        return None

    def page_at(self, url: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """(chapter, page) whose URL is `url` (anchor and trailing slash ignored), if any."""
        wanted = _page_key(url)
        for chapter in self.chapters:
            for page in chapter.get("pages", []):
                if _page_key(str(page.get("url", ""))) == wanted:
                    return chapter, page
        return None


class CatalogCache:
    """Holds the current catalog; `refresh` re-reads it from the store."""

    def __init__(self, store: VectorStore) -> None:
        self._store = store
        self._current = Catalog()
        self._lock = threading.Lock()

    @property
    def current(self) -> Catalog:
        """The latest snapshot read."""
        return self._current

    def refresh(self) -> Catalog:
        """Read the catalog from the store (blocking); raises StoreUnavailable."""
        data = self._store.read_catalog()
        with self._lock:
            self._current = Catalog(dict(data) if data else {})
        return self._current
