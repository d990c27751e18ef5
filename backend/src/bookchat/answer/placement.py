"""Where an answer points the reader: the chapter that covers a question, a selection's page."""

from __future__ import annotations

from bookchat.answer.compose import Composition, Source
from bookchat.answer.schema import SuggestedChapter
from bookchat.retrieval.catalog import Catalog


def suggest_chapter(
    book: Composition | None, catalog: Catalog, *, exclude: str
) -> SuggestedChapter | None:
    """The chapter a book-wide answer came from, when that is not the chapter asked about."""
    if book is None or not book.citations:
        return None
    cited = book.citations[0]
    chapter = catalog.chapter(cited.chapter)
    if chapter is None or cited.chapter == exclude:
        return None
    return SuggestedChapter(
        key=cited.chapter,
        title=str(chapter.get("title", cited.chapter_title)),
        url=str(chapter.get("url", "")),
        section=cited.section,
        section_url=cited.url,
    )


def selection_source(page: str | None, catalog: Catalog, score: float) -> Source:
    """The one citation of selection mode: the selection, placed on its page when known."""
    found = catalog.page_at(page) if page else None
    chapter, page_info = found if found else ({}, {})
    return Source(
        chunk_id="selection",
        path=str(page_info.get("path", "")),
        doc_id=str(page_info.get("doc_id", "")),
        chapter=str(chapter.get("key", "")),
        chapter_title=str(chapter.get("title", "")),
        section="",
        url=page or "",
        score=round(score, 4),
    )
