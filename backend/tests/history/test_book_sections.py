"""Where a gap belongs in the book: the closest section of the sample book, found once."""

from __future__ import annotations

from bookchat.embedding.embedder import Embedder
from bookchat.history.book_sections import BookSections, ClosestCache
from bookchat.retrieval.catalog import CatalogCache
from tests.conftest import RecordingStore

QUESTION = "How do I move a branch back to an older commit with git reset?"


async def test_the_closest_section_is_found_once_per_question(
    recording_store: RecordingStore, embedder: Embedder
) -> None:
    catalog = CatalogCache(recording_store).refresh()
    cache = ClosestCache()
    book = BookSections(recording_store, catalog, cache=cache)
    vectors = embedder.embed([QUESTION])
    [link] = await book.closest([QUESTION], vectors)
    assert link is not None
    assert link.url.startswith("/docs/everyday-git/") and "#" in link.url
    assert "reset" in link.section.lower()
    searches = len(recording_store.vector_queries())
    # Another request (a new BookSections) over the same index: no search.
    again = BookSections(recording_store, catalog, cache=cache)
    assert await again.closest([QUESTION], vectors) == [link]
    assert len(recording_store.vector_queries()) == searches


async def test_chapters_are_named_from_the_edition_asked_or_the_default(
    recording_store: RecordingStore,
) -> None:
    catalog = CatalogCache(recording_store).refresh()
    for version in (None, "no-such-version"):
        book = BookSections(recording_store, catalog, version=version)
        name = book.chapter("everyday-git")
        assert name is not None
        assert (name.title, name.url.startswith("/docs/")) == ("Everyday Git", True)
    assert BookSections(recording_store, catalog).chapter("nope") is None


async def test_without_an_index_nothing_is_found(embedder: Embedder) -> None:
    book = BookSections(None, None)
    assert await book.closest([QUESTION], embedder.embed([QUESTION])) == [None]
    assert book.chapter("everyday-git") is None
