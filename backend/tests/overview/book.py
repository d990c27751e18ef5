"""The sample book's catalog with its outlines, as ingest writes it, built without a model."""

from __future__ import annotations

from functools import cache

from bookchat.ingest.corpus import build_corpus
from bookchat.markdown.page_outline import PageOutline, outlines_of
from bookchat.retrieval.catalog import Catalog
from tests.conftest import SAMPLE_BOOK


@cache
def sample_book() -> tuple[Catalog, dict[str, PageOutline]]:
    """(catalog, doc id -> outline) of the sample book's default edition."""
    corpus = build_corpus(SAMPLE_BOOK)
    data = {
        "chunks": len(corpus.chunks),
        "chapters": [chapter.to_json() for chapter in corpus.chapters],
        **corpus.catalog_fields(),
    }
    _, seen = Catalog(data).edition(None, None)
    return seen, outlines_of(data, "current", "en")
