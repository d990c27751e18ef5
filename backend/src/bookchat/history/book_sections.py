"""Where in the book an author would answer a question: the closest section, and chapter names.

The gap questions were declined, so they cite nothing; the section whose passages are nearest
to the question (dense search in the index, in the edition the insights look at) is where the
answer belongs or where it should have been found.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from bookchat.retrieval.catalog import Catalog
from bookchat.retrieval.editions import Edition, UnknownEdition
from bookchat.vectorstore import StoreUnavailable, VectorStore


@dataclass(frozen=True, slots=True)
class SectionLink:
    """A section of the book: its heading, its chapter's title and its URL (with #anchor)."""

    section: str
    chapter_title: str
    url: str


@dataclass(frozen=True, slots=True)
class ChapterName:
    """A chapter's title and the URL of its landing page."""

    title: str
    url: str


class BookSections:
    """The index and catalog seen from one edition (the defaults when the one asked for is not
    indexed); with no index, nothing is found and chapters keep their keys."""

    def __init__(
        self,
        store: VectorStore | None,
        catalog: Catalog | None,
        version: str | None = None,
        locale: str | None = None,
    ) -> None:
        self._store = store
        self._edition = _edition(catalog, version, locale)

    def chapter(self, key: str) -> ChapterName | None:
        """The title and landing page of the chapter with this key, if the edition has it."""
        chapters = self._edition.chapters if self._edition else ()
        found = next((c for c in chapters if c.get("key") == key), None)
        if found is None:
            return None
        return ChapterName(str(found.get("title") or key), str(found.get("url") or ""))

    async def closest(self, vectors: NDArray[np.float32]) -> list[SectionLink | None]:
        """The nearest section to each question vector (None when the index cannot say)."""
        if self._store is None or self._edition is None or not len(vectors):
            return [None] * len(vectors)
        where = self._edition.where
        try:
            return await asyncio.to_thread(self._search, vectors, where)
        except StoreUnavailable:
            return [None] * len(vectors)

    def _search(
        self, vectors: NDArray[np.float32], where: dict[str, str] | None
    ) -> list[SectionLink | None]:
        assert self._store is not None
        return [_link(self._store.search(v.tolist(), limit=1, where=where)) for v in vectors]


def _link(hits: Sequence[Any]) -> SectionLink | None:
    if not hits:
        return None
    payload = hits[0].payload
    url = str(payload.get("url") or "")
    if not url:
        return None
    return SectionLink(
        str(payload.get("section") or ""), str(payload.get("chapter_title", "")), url
    )


def _edition(catalog: Catalog | None, version: str | None, locale: str | None) -> Edition | None:
    if catalog is None or not catalog.ready:
        return None
    for wanted in ((version, locale), (None, locale), (None, None)):
        try:
            return catalog.edition(*wanted)[0]
        except UnknownEdition:
            continue
    return None
