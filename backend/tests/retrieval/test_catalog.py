"""The in-memory catalog: readiness, chapter and page look-ups, refresh from the store."""

from __future__ import annotations

from typing import Any

from bookchat.retrieval.catalog import Catalog, CatalogCache
from bookchat.vectorstore import VectorStore

DATA: dict[str, Any] = {
    "corpus_version": "v1",
    "chunks": 3,
    "indexed_at": "2026-01-01T00:00:00+00:00",
    "chapters": [
        {
            "key": "intro",
            "title": "Intro",
            "url": "/docs/",
            "pages": [{"path": "intro.md", "doc_id": "intro", "title": "Intro", "url": "/docs/"}],
        },
        {
            "key": "branching",
            "title": "Branching",
            "url": "/docs/branching/",
            "pages": [
                {
                    "path": "03-branching/02-merging.md",
                    "doc_id": "branching/merging",
                    "title": "Merging",
                    "url": "/docs/branching/merging",
                }
            ],
        },
    ],
}


def test_empty_catalog_is_not_ready() -> None:
    assert not Catalog().ready
    assert Catalog().corpus_version is None
    assert not Catalog({"chunks": 0, "corpus_version": "x"}).ready


def test_chapter_and_path_look_ups() -> None:
    catalog = Catalog(DATA)
    assert catalog.ready
    assert catalog.chapter("branching")["title"] == "Branching"  # type: ignore[index]
    assert catalog.chapter("nope") is None
    assert catalog.chapter_of_path("03-branching/02-merging.md")["key"] == "branching"  # type: ignore[index]


def test_page_urls_match_without_anchor_host_or_trailing_slash() -> None:
    catalog = Catalog(DATA)
    for url in (
        "/docs/branching/merging#conflicts",
        "http://localhost:3000/docs/branching/merging/",
        "/docs/branching/merging?x=1",
    ):
        found = catalog.page_at(url)
        assert found is not None
        assert found[1]["path"] == "03-branching/02-merging.md"
    assert catalog.page_at("/docs#top")[1]["path"] == "intro.md"  # type: ignore[index]
    assert catalog.page_at("/elsewhere") is None


def test_refresh_reads_what_the_last_ingest_wrote(book_store: VectorStore) -> None:
    cache = CatalogCache(book_store)
    assert not cache.current.ready
    cache.refresh()
    assert cache.current.ready
    assert cache.current.corpus_version == book_store.read_catalog()["corpus_version"]  # type: ignore[index]
