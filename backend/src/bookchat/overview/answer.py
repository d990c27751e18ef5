"""Answering an overview question: recognise it, find its part of the book, compose the answer
from the outline ingest stored, and give its citations and the passages a model may read."""

from __future__ import annotations

from dataclasses import dataclass

from bookchat.markdown.page_outline import PageOutline, outlines_of
from bookchat.overview.ask import recognise
from bookchat.overview.compose import Cited, compose, words
from bookchat.overview.said import overview_phrases
from bookchat.overview.scope import Place, Target, resolve
from bookchat.retrieval.catalog import Catalog

# What a model writing the summary reads: each cited section's opening, at most this many words
# in all (the outline's lines come first, in reading order).
MODEL_WORDS = 1200


@dataclass(frozen=True, slots=True)
class OverviewAnswer:
    """An overview: the extractive answer, the sections it cites (its [n] markers, n - 1), and
    what a model reads of the first of them (as many as MODEL_WORDS allow)."""

    target: Target
    answer: str
    cited: list[Cited]
    passages: list[str]


class Outlines:
    """The stored outlines of the current catalog, parsed once per catalog and edition."""

    def __init__(self) -> None:
        self._source: object | None = None
        self._parsed: dict[str, dict[str, PageOutline]] = {}

    def of(self, catalog: Catalog, version: str, locale: str) -> dict[str, PageOutline]:
        """doc id -> outline of one edition ({} for an index ingested before outlines)."""
        source = catalog.data.get("outlines")
        if source is not self._source:
            self._source, self._parsed = source, {}
        key = f"{version}@{locale}"
        if key not in self._parsed:
            self._parsed[key] = outlines_of(catalog.data, version, locale)
        return self._parsed[key]


def find_target(question: str, where: Place) -> Target | None:
    """The part of the book an overview question is about; None for any other question."""
    if where.mode == "selection" or not where.outlines:
        return None
    ask = recognise(question)
    if ask is None:
        return None
    return resolve(ask, where)


def _model_text(cited: Cited) -> str:
    section = cited.section
    opening = section.passage or section.lead
    title = str(cited.page.get("title", "")) if section.depth == 0 else section.heading
    return f"{title}: {opening}" if opening else title


def answer_overview(
    target: Target,
    *,
    catalog: Catalog,
    outlines: dict[str, PageOutline],
    locale: str | None,
) -> OverviewAnswer | None:
    """The overview of `target`, or None when its outline has nothing to show."""
    found = compose(target, catalog.chapters, outlines, overview_phrases(locale))
    if found is None:
        return None
    passages: list[str] = []
    spent = 0
    for cited in found.cited:
        text = _model_text(cited)
        if passages and spent + words(text) > MODEL_WORDS:
            break
        passages.append(text)
        spent += words(text)
    return OverviewAnswer(target, found.answer, list(found.cited), passages)
