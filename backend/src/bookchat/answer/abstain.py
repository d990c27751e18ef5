"""What the reader is told when the book, chapter or selection does not answer the question."""

from __future__ import annotations

from bookchat.answer.schema import SuggestedChapter

BOOK = "The book does not cover this question, so I cannot answer it from the book."
SELECTION = (
    "The selected text does not answer this question. Try asking about the whole book instead."
)


def chapter_message(chapter_title: str, suggestion: SuggestedChapter | None) -> str:
    """Abstention for chapter mode, naming (and linking) the chapter that does cover it, if any."""
    text = f"The chapter “{chapter_title}” does not cover this question."
    if suggestion is None:
        return text + " Nothing else in the book seems to cover it either."
    where = f"[{suggestion.title}]({suggestion.url})"
    if suggestion.section:
        where += f", in the section [{suggestion.section}]({suggestion.section_url})"
    return f"{text} The book covers it in the chapter {where}."
