"""What the reader is told when the book, chapter or selection does not answer, where they are
pointed instead, and how far to trust an answer (confidence, 0.5 at the coverage threshold)."""

from __future__ import annotations

from bookchat.answer.compose import Composition, Source
from bookchat.answer.phrases import ENGLISH, Phrases
from bookchat.answer.schema import SuggestedChapter
from bookchat.retrieval.catalog import Catalog


def chapter_message(
    chapter_title: str, suggestion: SuggestedChapter | None, said: Phrases = ENGLISH
) -> str:
    """Abstention for chapter mode, naming (and linking) the chapter that does cover it, if any."""
    text = said.chapter_abstention.format(chapter=chapter_title)
    if suggestion is None:
        return text + said.nowhere_else
    where = f"[{suggestion.title}]({suggestion.url})"
    if suggestion.section:
        where += said.in_section.format(section=f"[{suggestion.section}]({suggestion.section_url})")
    return text + said.covered_in.format(where=where)


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


# Coverage probability at which confidence reaches 1.
FULL_SUPPORT = 1.0


def confidence(best_support: float, min_support: float) -> float:
    """0.5 exactly at the abstention threshold, linear to 0 below it and to 1 at FULL_SUPPORT."""
    if best_support <= 0:
        return 0.0
    if best_support < min_support:
        value = 0.5 * best_support / min_support if min_support > 0 else 0.0
    else:
        span = max(FULL_SUPPORT - min_support, 1e-6)
        value = 0.5 + 0.5 * (best_support - min_support) / span
    return round(min(1.0, max(0.0, value)), 3)
