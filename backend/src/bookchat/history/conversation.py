"""Questions inside conversations: load earlier turns, answer, save the exchange.

The conversation store is a convenience, never a dependency of answering: when it is down the
question is still answered, with a warning that the conversation was not saved (and no ids).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from bookchat.answer.phrases import phrases_for
from bookchat.answer.schema import QueryRequest, QueryResponse, Streamed
from bookchat.history.errors import HistoryUnavailable, UnknownConversation
from bookchat.history.records import MessageRecord, Turn
from bookchat.history.store import ConversationStore
from bookchat.retrieval.followup import PriorTurn

# How many earlier turns a follow-up question may lean on.
CONTEXT_TURNS = 3
# What the store could not do; worded in the answer's language once the answer is known.
Lost = Literal["earlier turns", "this exchange"]
log = logging.getLogger(__name__)


class Answerer(Protocol):
    """What answers a question given its earlier turns: the answer service, cached or not."""

    async def answer(
        self, request: QueryRequest, history: Sequence[PriorTurn] = ()
    ) -> QueryResponse:
        """The answer to `request`."""
        ...

    async def stream(self, request: QueryRequest, history: Sequence[PriorTurn] = ()) -> Streamed:
        """The answer to `request`, its text as deltas when a model writes it."""
        ...


@dataclass(slots=True)
class ConversationalAnswers:
    """The answer service with conversation memory: what the query routes call."""

    answers: Answerer
    store: ConversationStore

    async def ask(self, request: QueryRequest) -> QueryResponse:
        """Answer `request` in its conversation (a new one when it names none) and save it."""
        lost: list[Lost] = []
        turns = await self._turns(request.conversation_id, lost)
        response = await self.answers.answer(request, turns)
        return await self._saved(request, response, lost)

    async def ask_stream(self, request: QueryRequest) -> Streamed:
        """`ask` with the model's text as deltas; the exchange is saved once the answer is final."""
        lost: list[Lost] = []
        turns = await self._turns(request.conversation_id, lost)
        streamed = await self.answers.stream(request, turns)
        if streamed.deltas is None:
            return Streamed(await self._saved(request, streamed.meta, lost))
        # Nothing is saved before the answer is final, so no message id exists yet.
        meta = streamed.meta.model_copy(
            update={"conversation_id": request.conversation_id, "message_id": None}
        )
        return Streamed(meta, self._save_at_end(request, streamed.deltas, lost))

    async def _save_at_end(
        self, request: QueryRequest, deltas: AsyncIterator[str | QueryResponse], lost: list[Lost]
    ) -> AsyncIterator[str | QueryResponse]:
        async for item in deltas:
            yield item if isinstance(item, str) else await self._saved(request, item, lost)

    async def _saved(
        self, request: QueryRequest, response: QueryResponse, lost: list[Lost]
    ) -> QueryResponse:
        conversation_id, message_id = await self._save(request, response, lost)
        said = phrases_for(response.locale or request.locale)
        warnings = [
            said.history_not_loaded if what == "earlier turns" else said.history_not_saved
            for what in lost
        ]
        return response.model_copy(
            update={
                "conversation_id": conversation_id,
                "message_id": message_id,
                "warnings": [*response.warnings, *warnings],
            }
        )

    async def _turns(self, conversation_id: str | None, lost: list[Lost]) -> list[Turn]:
        if not conversation_id:
            return []
        try:
            if not await self.store.conversation_exists(conversation_id):
                raise UnknownConversation(conversation_id)
            return await self.store.recent_turns(conversation_id, CONTEXT_TURNS)
        except HistoryUnavailable:
            log.warning("conversation store unavailable: answering without earlier turns")
            lost.append("earlier turns")
            return []

    async def _save(
        self, request: QueryRequest, response: QueryResponse, lost: list[Lost]
    ) -> tuple[str | None, str | None]:
        record = MessageRecord(
            question=request.question,
            mode=request.mode,
            chapter=request.chapter if request.mode == "chapter" else None,
            selection=request.selection if request.mode == "selection" else None,
            answer=response.answer,
            status=response.status,
            generator=response.generator,
            citations=[c.model_dump() for c in response.citations],
            latency_ms=response.latency_ms,
            corpus_version=response.corpus_version,
            suggested_chapter=(
                response.suggested_chapter.model_dump() if response.suggested_chapter else None
            ),
            short_answer=response.short_answer,
            related=[r.model_dump() for r in response.related],
            version=response.version,
            locale=response.locale,
            cached=response.cached,
        )
        try:
            if not request.conversation_id:
                return await self.store.start_conversation(record)
            conversation_id = request.conversation_id
            message_id = await self.store.add_message(conversation_id, record)
        except HistoryUnavailable:
            log.warning("conversation store unavailable: answer not saved")
            lost.append("this exchange")
            return None, None
        return conversation_id, message_id
