"""Retention: questions older than BOOKCHAT_HISTORY_DAYS are deleted, the rest kept (both DBs)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bookchat.history import ConversationStore, MessageRecord
from bookchat.history.retention import cutoff, forget_old, keep_history
from tests.history.conftest import Backend
from tests.insights_data import backdate

CITED = [{"chapter": "c", "chapter_title": "C", "section": "S", "url": "/docs/c#s"}]


def _record(question: str) -> MessageRecord:
    return MessageRecord(question, "book", "An answer.", "grounded", "extractive", citations=CITED)


async def _asked(store: ConversationStore, question: str, days_ago: float) -> tuple[str, str]:
    conversation_id, message_id = await store.start_conversation(_record(question))
    await backdate(store, conversation_id, message_id, datetime.now(UTC) - timedelta(days_ago))
    return conversation_id, message_id


async def test_old_questions_go_with_their_ratings_and_citations_and_recent_ones_stay(
    store: ConversationStore, backend: Backend
) -> None:
    old_conversation, old_message = await _asked(store, "Asked long ago", 100)
    await store.rate(old_message, "down", "bad")
    recent_conversation, _ = await _asked(store, "Asked last week", 7)

    assert await forget_old(store, days=90) == 1

    assert not await store.conversation_exists(old_conversation)
    assert await store.conversation_exists(recent_conversation)
    assert await backend.rows("SELECT message_id FROM ratings") == []
    assert len(await backend.rows("SELECT message_id FROM citations")) == 1  # the recent one's
    assert [row[0] for row in await backend.rows("SELECT question FROM messages")] == [
        "Asked last week"
    ]


async def test_a_long_conversation_keeps_its_recent_messages(store: ConversationStore) -> None:
    conversation_id, _ = await _asked(store, "First, long ago", 100)
    await store.add_message(conversation_id, _record("Then today"))

    assert await forget_old(store, days=90) == 1

    conversation = await store.get_conversation(conversation_id)
    assert conversation is not None
    assert [m.question for m in conversation.messages] == ["Then today"]


async def test_the_sweep_runs_at_once_and_zero_days_keeps_everything(
    store: ConversationStore,
) -> None:
    old_conversation, _ = await _asked(store, "Asked long ago", 400)
    await keep_history(store, days=0)  # returns at once: nothing is ever deleted
    assert await store.conversation_exists(old_conversation)

    sweeping = asyncio.create_task(keep_history(store, days=365, every=3600))
    try:
        for _ in range(200):
            if not await store.conversation_exists(old_conversation):
                break
            await asyncio.sleep(0.02)
        assert not await store.conversation_exists(old_conversation)
    finally:
        sweeping.cancel()


def test_the_cutoff_is_that_many_days_before_now() -> None:
    now = datetime(2026, 6, 1, 12, tzinfo=UTC)
    assert cutoff(90, now) == datetime(2026, 3, 3, 12, tzinfo=UTC)
