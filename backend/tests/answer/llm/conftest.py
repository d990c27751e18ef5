"""Fixtures for the generator's tests: the scripted model server and a generator bound to it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest

from bookchat.answer.llm.agent import Search
from bookchat.answer.llm.answers import book_search
from bookchat.answer.llm.generator import LLMGenerator, connect
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.retrieval.search import Retriever
from bookchat.retrieval.sentence_vectors import SentenceVectors
from bookchat.vectorstore import VectorStore
from tests.scripted_model import ScriptedModel


@pytest.fixture
def scripted() -> Iterator[ScriptedModel]:
    """A scripted chat-completions server on 127.0.0.1, fresh for each test."""
    server = ScriptedModel().start()
    yield server
    server.stop()


@pytest.fixture
def llm_settings(make_settings: Callable[..., Settings], scripted: ScriptedModel) -> Settings:
    """Settings pointing the generator at the scripted server."""
    return make_settings(
        BOOKCHAT_GENERATOR="llm",
        OPENAI_BASE_URL=scripted.base_url,
        OPENAI_API_KEY="test-key",
        BOOKCHAT_LLM_MODEL="scripted-model",
        BOOKCHAT_LLM_TIMEOUT=5.0,
    )


@pytest.fixture
async def make_generator(llm_settings: Settings) -> AsyncIterator[Callable[..., LLMGenerator]]:
    """Build generators against the scripted server (keyword overrides of settings fields)."""
    clients = []

    def build(**overrides: Any) -> LLMGenerator:
        settings = llm_settings.model_copy(update=overrides)
        client = connect(settings)
        clients.append(client)
        return LLMGenerator(
            client,
            timeout_s=settings.llm_timeout_s,
            max_words=settings.answer_max_words,
            tracing=settings.llm_tracing,
        )

    yield build
    for client in clients:
        await client.close()


@pytest.fixture
def generator(make_generator: Callable[..., LLMGenerator]) -> LLMGenerator:
    """A generator with the default settings."""
    return make_generator()


@pytest.fixture
def book_search_fn(book_store: VectorStore, embedder: Embedder) -> Callable[..., Search]:
    """Real searches over the session's ingested sample book (optionally one chapter)."""

    def build(chapter: str | None = None, limit: int = 4) -> Search:
        retriever = Retriever(book_store, hybrid=False)
        return book_search(retriever, embedder, chapter=chapter, limit=limit, min_score=0.3)

    return build


@pytest.fixture
def vectors(embedder: Embedder) -> SentenceVectors:
    """A sentence-vector cache over the real embedder."""
    return SentenceVectors(embedder)
