"""Saying so when an answer quotes a page the reader's locale has not translated yet.

Such a page is indexed in the reader's edition with the default locale's text, at the URL the
reader's locale serves it (Docusaurus serves the untranslated text there), so the citation
already leads to the right page; the reader is only told that the text is not in their language.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

from bookchat.answer.phrases import phrases_for
from bookchat.answer.schema import Citation, QueryResponse
from bookchat.retrieval.editions import Edition


def untranslated_notice(locale: str, default_locale: str) -> str:
    """The notice for an answer drawn (at least partly) from untranslated pages, in `locale`."""
    return phrases_for(locale).untranslated.format(locale=locale, default_locale=default_locale)


def fallback_notice(
    citations: Sequence[Citation], edition: Edition | None
) -> tuple[list[Citation], str | None]:
    """The citations with `localized` set, and the notice when one cites an untranslated page."""
    if edition is None or edition.locale == edition.default_locale:
        return list(citations), None
    untranslated = edition.untranslated
    marked = [
        c.model_copy(update={"localized": False}) if c.doc_id in untranslated else c
        for c in citations
    ]
    if all(c.localized for c in marked):
        return marked, None
    return marked, untranslated_notice(edition.locale, edition.default_locale)


def localize(response: QueryResponse, edition: Edition | None) -> QueryResponse:
    """A generated answer's own citations marked, and the notice set, for untranslated pages."""
    citations, notice = fallback_notice(response.citations, edition)
    return response.model_copy(update={"citations": citations, "notice": notice})


async def localize_deltas(
    deltas: AsyncIterator[str | QueryResponse], edition: Edition | None
) -> AsyncIterator[str | QueryResponse]:
    """A streamed answer's deltas, its final response localized like `localize`."""
    async for item in deltas:
        yield item if isinstance(item, str) else localize(item, edition)
