"""Fixtures of the answer stage's tests: the real service over the sample book."""

from __future__ import annotations

import pytest

from bookchat.answer.service import AnswerService
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.retrieval.catalog import CatalogCache
from bookchat.vectorstore import VectorStore


@pytest.fixture
def service(book_settings: Settings, book_store: VectorStore, embedder: Embedder) -> AnswerService:
    """The real service over the session's sample-book index."""
    catalog = CatalogCache(book_store)
    catalog.refresh()
    return AnswerService(book_settings, book_store, embedder, catalog)
