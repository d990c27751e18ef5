"""The long-lived objects the lifespan creates and the handlers share."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Literal

from bookchat.answer.llm.generator import LLMGenerator
from bookchat.answer.service import AnswerService
from bookchat.api.metrics import Metrics
from bookchat.api.models import AnswerCacheHealth, GeneratorHealth
from bookchat.cache import AnswerCache, CachedAnswers
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.history.book_sections import ClosestCache
from bookchat.history.conversation import ConversationalAnswers
from bookchat.history.question_vectors import QuestionVectors
from bookchat.history.store import ConversationStore
from bookchat.retrieval.catalog import CatalogCache
from bookchat.vectorstore import VectorStore

CacheState = Literal["off", "warming", "warm"]


@dataclass(slots=True)
class Services:
    """Everything a request may need; `store` is None when it could not be opened."""

    settings: Settings
    embedder: Embedder
    store: VectorStore | None
    catalog: CatalogCache | None
    answers: AnswerService | None
    history: ConversationStore
    metrics: Metrics
    question_vectors: QuestionVectors
    closest_sections: ClosestCache = field(default_factory=ClosestCache)
    admin_token: str | None = None
    generator: LLMGenerator | None = None
    ingest_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    warmer: asyncio.Task[int] | None = None
    answer_cache: AnswerCache | None = None
    answerer: str = ""  # cache.key.answerer_fingerprint of these settings

    @property
    def generator_health(self) -> GeneratorHealth:
        """Who writes the answers and, for a model, what its server was found to support."""
        if self.generator is None:
            return GeneratorHealth(kind="extractive", state="off")
        found = self.generator.capabilities
        if found is None:
            waiting: Literal["probing", "unprobed"] = (
                "probing" if self.settings.llm_probe else "unprobed"
            )
            return GeneratorHealth(kind="llm", model=self.generator.model_name, state=waiting)
        return GeneratorHealth(
            kind="llm",
            model=self.generator.model_name,
            state=found.state,
            capabilities=found.as_dict(),
        )

    @property
    def conversations(self) -> ConversationalAnswers | None:
        """The answer service with conversation memory (None while the store is closed)."""
        if self.answers is None:
            return None
        if self.answer_cache is None or self.catalog is None:
            return ConversationalAnswers(self.answers, self.history)
        cached = CachedAnswers(self.answers, self.catalog, self.answer_cache, self.answerer)
        return ConversationalAnswers(cached, self.history)

    async def answer_cache_health(self) -> AnswerCacheHealth:
        """The answer cache's kind and what it holds now."""
        if self.answer_cache is None:
            return AnswerCacheHealth(kind="off", state="off")
        size = await self.answer_cache.size()
        return AnswerCacheHealth(
            kind=self.answer_cache.kind,
            state="ok" if size.reachable else "unreachable",
            entries=size.entries,
            bytes=size.bytes,
            complete=size.complete,
        )

    def start_warming(self) -> None:
        """(Re)start filling the sentence cache in the background, when the settings ask for it."""
        if not self.settings.warm_sentence_cache or self.answers is None:
            return
        self.stop_warming()
        self.warmer = asyncio.create_task(self.answers.warm())

    @property
    def cache_state(self) -> CacheState:
        """Whether the sentence cache (for selections and checks) is off, warming or warm."""
        if not self.settings.warm_sentence_cache or self.answers is None:
            return "off"
        return "warm" if self.warmer is None or self.warmer.done() else "warming"

    def stop_warming(self) -> None:
        """Cancel a warm-up in progress."""
        if self.warmer is not None and not self.warmer.done():
            self.warmer.cancel()
