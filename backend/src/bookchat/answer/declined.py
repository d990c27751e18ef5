"""Chapter mode's decline: what the reader is told when the chapter does not answer, naming
(and linking) the chapter and section the book answers from instead."""

from __future__ import annotations

from bookchat.answer.compose import Composition
from bookchat.answer.phrases import ENGLISH, Phrases
from bookchat.answer.schema import SuggestedChapter
from bookchat.retrieval.catalog import Catalog


def chapter_declined(
    book: Composition | None, catalog: Catalog, chapter: dict[str, object], said: Phrases
) -> tuple[str, SuggestedChapter | None]:
    """Chapter mode's abstention for `chapter` and the chapter the book-wide answer points to."""
    suggestion = suggest_chapter(book, catalog, exclude=str(chapter["key"]))
    return chapter_message(str(chapter["title"]), suggestion, said), suggestion


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
