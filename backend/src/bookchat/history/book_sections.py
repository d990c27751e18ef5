"""Where in the book an author would answer a question: the closest section, and chapter names.

The gap questions were declined, so they cite nothing; the section whose passages are nearest
to the question (dense search in the index, in the edition the insights look at) is where the
answer belongs or where it should have been found.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
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


class ClosestCache:
    """The closest sections found, by question, edition and index version: a gap shown again
    costs no search until the book is ingested anew."""

    def __init__(self, size: int = 5_000) -> None:
        self._size = size
        self._found: OrderedDict[tuple[str, ...], SectionLink | None] = OrderedDict()

    def get(self, key: tuple[str, ...]) -> tuple[bool, SectionLink | None]:
        """(whether `key` is known, its section)."""
        if key not in self._found:
            return False, None
        self._found.move_to_end(key)
        return True, self._found[key]

    def put(self, key: tuple[str, ...], link: SectionLink | None) -> None:
        """Remember `link` for `key` (the least recently used go first)."""
        self._found[key] = link
        while len(self._found) > self._size:
            self._found.popitem(last=False)


class BookSections:
    """The index and catalog seen from one edition (the defaults when the one asked for is not
    indexed); with no index, nothing is found and chapters keep their keys."""

    def __init__(
        self,
        store: VectorStore | None,
        catalog: Catalog | None,
        version: str | None = None,
        locale: str | None = None,
        cache: ClosestCache | None = None,
    ) -> None:
        self._store = store
        self._edition = _edition(catalog, version, locale)
        self._cache = cache or ClosestCache()
        where = self._edition.where if self._edition else None
        corpus = catalog.corpus_version if catalog else None
        self._scope = (corpus or "", *(f"{k}={v}" for k, v in sorted((where or {}).items())))

    def chapter(self, key: str) -> ChapterName | None:
        """The title and landing page of the chapter with this key, if the edition has it."""
        chapters = self._edition.chapters if self._edition else ()
        found = next((c for c in chapters if c.get("key") == key), None)
        if found is None:
            return None
        return ChapterName(str(found.get("title") or key), str(found.get("url") or ""))

    async def closest(
        self, questions: Sequence[str], vectors: NDArray[np.float32]
    ) -> list[SectionLink | None]:
        """The nearest section to each question (its vector given); None when the index cannot
        say."""
        if self._store is None or self._edition is None or not len(vectors):
            return [None] * len(vectors)
        keys = [(*self._scope, q) for q in questions]
        known = [self._cache.get(key) for key in keys]
        missing = [i for i, (hit, _) in enumerate(known) if not hit]
        if not missing:
            return [link for _, link in known]
        try:
            found = await asyncio.to_thread(self._search, vectors[missing], self._edition.where)
        except StoreUnavailable:
            return [link for _, link in known]
        for i, link in zip(missing, found, strict=True):
            self._cache.put(keys[i], link)
            known[i] = (True, link)
        return [link for _, link in known]

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
