"""Which part of the book an overview question is about: a chapter, a page, a section or the book.

"This chapter" is the chapter of chapter mode (else the chapter of the reader's page), "this page"
the request's `page`, "this section" that page's #anchor; a title ("the chapter on branching")
is looked up among the edition's chapters, pages and headings (in chapter mode, inside the
chapter only: a title elsewhere is answered the usual way, which points to it). No scope at all:
the chapter in chapter mode, the book otherwise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from bookchat.markdown.page_outline import PageOutline
from bookchat.overview.ask import OverviewAsk, Scope
from bookchat.retrieval.catalog import Catalog

_STOP_WORDS = (
    "a an and the of on in to for with about your my this that its "
    "de du des la le les et en un une sur pour avec"
)
_STOP = frozenset(_STOP_WORDS.split())
_KIND_ORDER: tuple[Scope, ...] = ("chapter", "page", "section")


@dataclass(frozen=True, slots=True)
class Target:
    """The part of one edition an overview is about."""

    scope: Scope
    chapter: dict[str, Any] | None = None  # catalog chapter (chapter, page and section scope)
    page: dict[str, Any] | None = None  # catalog page (page and section scope)
    section: int | None = None  # index in the page's outline (section scope)
    from_page: bool = False  # found through the request's `page`


@dataclass(frozen=True, slots=True)
class Place:
    """Where an overview question is asked from, in one edition."""

    mode: str
    chapter: dict[str, Any] | None  # chapter mode's chapter, as the catalog has it
    page_url: str | None  # the reader's page (the request's `page`)
    catalog: Catalog  # seen from the edition
    outlines: dict[str, PageOutline]  # the edition's, by doc id


def _stem(word: str) -> str:
    for suffix in ("ing", "es", "s", "ed", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def words_of(text: str) -> frozenset[str]:
    """The content words of a title or a name, stemmed, for matching one against the other."""
    tokens = re.findall(r"[\w.+#-]+", text.lower().replace("`", ""))
    return frozenset(_stem(t.strip(".-")) for t in tokens if t.strip(".-") not in _STOP)


def _page_of(catalog: Catalog, url: str | None) -> tuple[dict[str, Any], dict[str, Any]] | None:
    return catalog.page_at(url) if url else None


def _section_at(outline: PageOutline | None, url: str) -> int | None:
    anchor = urlsplit(url).fragment
    if not anchor or outline is None:
        return None
    return next(
        (i for i, s in enumerate(outline.sections) if urlsplit(s.url).fragment == anchor), None
    )


def _here(ask: OverviewAsk, where: Place, chapter: dict[str, Any] | None) -> Target:
    page_url = where.page_url
    found = _page_of(where.catalog, page_url)
    if ask.scope in ("page", "section") and found is not None and page_url is not None:
        page_chapter, page = found
        section = _section_at(where.outlines.get(str(page["doc_id"])), page_url)
        if ask.scope == "section" and section is not None:
            return Target("section", page_chapter, page, section, from_page=True)
        return Target("page", page_chapter, page, from_page=True)
    if chapter is not None:
        return Target("chapter", chapter)
    if found is not None:
        return Target("chapter", found[0], from_page=True)
    return Target("book")


def _named(
    name: str,
    wanted: Scope | None,
    chapters: list[dict[str, Any]],
    outlines: dict[str, PageOutline],
) -> Target | None:
    """The chapter, page or section whose title holds every word of `name`: of the kind the
    question named if any has it, the closest title first, chapters before pages before
    sections."""
    words = words_of(name)
    if not words:
        return None
    best: tuple[tuple[int, float, int, int], Target] | None = None
    order = 0
    for chapter in chapters:
        candidates = [(str(chapter.get("title", "")), Target("chapter", chapter))]
        for page in chapter.get("pages", []):
            candidates.append((str(page.get("title", "")), Target("page", chapter, page)))
            outline = outlines.get(str(page.get("doc_id")))
            for i, section in enumerate(outline.sections if outline else ()):
                if section.depth > 0:
                    candidates.append((section.heading, Target("section", chapter, page, i)))
        for title, target in candidates:
            order += 1
            have = words_of(title)
            if not have or not words <= have:
                continue
            named = 0 if wanted is None or target.scope == wanted else 1
            key = (named, -len(words) / len(have), _KIND_ORDER.index(target.scope), order)
            if best is None or key < best[0]:
                best = (key, target)
    return best[1] if best else None


def resolve(ask: OverviewAsk, where: Place) -> Target | None:
    """The target of an overview question asked from `where`, or None when the title it names
    is not found (the question is then answered the usual way)."""
    chapter = where.chapter if where.mode == "chapter" else None
    if ask.name:
        chapters = [chapter] if chapter is not None else where.catalog.chapters
        return _named(ask.name, ask.scope, chapters, where.outlines)
    if ask.scope == "book":
        return Target("book")
    if ask.here or ask.scope is not None:
        return _here(ask, where, chapter)
    if chapter is not None:
        return Target("chapter", chapter)
    return Target("book")
