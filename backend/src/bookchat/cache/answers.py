"""The answer service behind the answer cache: what a repeated question costs is one lookup.

Only answers that do not depend on the conversation are cached (a follow-up retrieved with its
earlier turns, or any turn a model reads, is always answered afresh), and never an answer whose
model failed and fell back to an extractive one: the next request may reach the model.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from functools import partial

from pydantic import ValidationError

from bookchat.answer.llm.writer import FALLBACKS
from bookchat.answer.schema import QueryRequest, QueryResponse, Streamed
from bookchat.answer.service import AnswerService
from bookchat.cache.key import answer_key
from bookchat.cache.store import AnswerCache
from bookchat.retrieval.catalog import CatalogCache
from bookchat.retrieval.followup import PriorTurn

# A request's cache key on an index version (corpus_version=...).
Keyer = Callable[..., str]
# What is not part of an answer but of one request: set afresh on every hit.
_PER_REQUEST = {"conversation_id", "message_id", "latency_ms", "cached"}


@dataclass(slots=True)
class CachedAnswers:
    """`AnswerService.answer` and `.stream`, served from `cache` when the question repeats."""

    service: AnswerService
    catalog: CatalogCache
    cache: AnswerCache
    answerer: str  # cache.key.answerer_fingerprint of the settings the service runs with

    async def answer(
        self, request: QueryRequest, history: Sequence[PriorTurn] = ()
    ) -> QueryResponse:
        """The cached answer to `request` when there is one, else the service's (then cached)."""
        key, found = await self._cached(request, history)
        if found is not None:
            return found
        response = await self.service.answer(request, history)
        if key is not None:
            await self._keep(key, response)
        return response

    async def stream(self, request: QueryRequest, history: Sequence[PriorTurn] = ()) -> Streamed:
        """`answer` as a stream: a hit is one response (sent as one delta), a miss streams live."""
        key, found = await self._cached(request, history)
        if found is not None:
            return Streamed(found)
        streamed = await self.service.stream(request, history)
        if key is None:
            return streamed
        if streamed.deltas is None:
            await self._keep(key, streamed.meta)
            return streamed
        return Streamed(streamed.meta, self._kept_at_end(key, streamed.deltas))

    async def _cached(
        self, request: QueryRequest, history: Sequence[PriorTurn]
    ) -> tuple[Keyer | None, QueryResponse | None]:
        """`request`'s key and its cached answer, if any; no key for an answer that depends on
        the conversation (never cached)."""
        started = time.perf_counter()
        if self.service.uses_history(request, history):
            return None, None
        key = self._keyer(request)
        return key, await self._lookup(key, started)

    async def _kept_at_end(
        self, key: Keyer, deltas: AsyncIterator[str | QueryResponse]
    ) -> AsyncIterator[str | QueryResponse]:
        async for item in deltas:
            if isinstance(item, QueryResponse):
                await self._keep(key, item)
            yield item

    def _keyer(self, request: QueryRequest) -> Keyer:
        """`request`'s key on a given index version (whether the page counts is asked once)."""
        return partial(
            answer_key,
            request,
            answerer=self.answerer,
            page_matters=self.service.uses_page(request),
        )

    async def _lookup(self, key: Keyer, started: float) -> QueryResponse | None:
        stored = await self.cache.get(key(corpus_version=self.catalog.current.corpus_version))
        response = _decoded(stored, started) if stored is not None else None
        if response is None:
            self.cache.stats.misses += 1
            return None
        self.cache.stats.hits += 1
        return response

    async def _keep(self, key: Keyer, response: QueryResponse) -> None:
        if FALLBACKS.intersection(response.warnings):
            return
        # Keyed by the index the answer was read from (a refresh may have come in between).
        await self.cache.put(
            key(corpus_version=response.corpus_version),
            response.model_dump_json(exclude=_PER_REQUEST).encode(),
        )


def _decoded(stored: bytes, started: float) -> QueryResponse | None:
    """The cached answer as this request's response (no ids yet: the conversation layer saves it
    and adds them), or None for an entry this release cannot read."""
    try:
        fields = json.loads(stored)
        if not isinstance(fields, dict):
            return None
        latency = round((time.perf_counter() - started) * 1000, 2)
        fields.update(conversation_id=None, message_id=None, latency_ms=latency, cached=True)
        return QueryResponse.model_validate(fields)
    except (ValueError, TypeError, ValidationError):
        return None
