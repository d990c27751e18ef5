"""The ConversationStore contract, run against SQLite and Postgres alike."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bookchat.history import (
    SELECTION_MAX_CHARS,
    ConversationStore,
    MessageRecord,
    UnknownConversation,
)
from tests.history.conftest import Backend

CITATION: dict[str, Any] = {
    "index": 1,
    "chunk_id": "c-1",
    "path": "03-branching/02-merging.md",
    "doc_id": "branching/merging",
    "chapter": "branching",
    "chapter_title": "Branching — and Merging ✓",
    "section": "Fast-forward merges",
    "url": "/docs/branching/merging#fast-forward-merges",
    "excerpt": 'A "fast-forward" merge moves the pointer.\nNo new commit.',
    "score": 0.71,
    "extra": {"nested": [1, 2.5, None, True]},
}


def record(question: str = "What is a fast-forward merge?", **changes: Any) -> MessageRecord:
    """A grounded book-mode message, with any field changed."""
    values: dict[str, Any] = {
        "question": question,
        "mode": "book",
        "answer": "It moves the branch pointer [1].",
        "status": "grounded",
        "generator": "extractive",
        "citations": [CITATION],
        "latency_ms": 14.25,
        "corpus_version": "c0ffee12",
    }
    values.update(changes)
    return MessageRecord(**values)


async def test_a_new_conversation_exists_and_is_empty(store: ConversationStore) -> None:
    conversation_id = await store.create_conversation()
    assert await store.conversation_exists(conversation_id)
    conversation = await store.get_conversation(conversation_id)
    assert conversation is not None
    assert conversation.id == conversation_id
    assert conversation.messages == []
    assert conversation.created_at.tzinfo is not None


async def test_a_conversation_started_with_its_first_message_holds_it(
    store: ConversationStore,
) -> None:
    conversation_id, message_id = await store.start_conversation(record())
    conversation = await store.get_conversation(conversation_id)
    assert conversation is not None
    assert [(m.id, m.question) for m in conversation.messages] == [
        (message_id, "What is a fast-forward merge?")
    ]
    # It goes on like any other conversation.
    await store.add_message(conversation_id, record("And a three-way merge?"))
    assert len(await store.recent_turns(conversation_id, 5)) == 2


async def test_messages_keep_every_field_and_their_citations(store: ConversationStore) -> None:
    conversation_id = await store.create_conversation()
    sent = record(
        mode="chapter",
        chapter="branching",
        answer="Ünïcode answer — with 'quotes' and \"doubles\" [1].",
    )
    message_id = await store.add_message(conversation_id, sent)

    conversation = await store.get_conversation(conversation_id)
    assert conversation is not None
    [message] = conversation.messages
    assert message.id == message_id
    assert (message.question, message.mode, message.chapter) == (
        sent.question,
        "chapter",
        "branching",
    )
    assert (message.answer, message.status, message.generator) == (
        sent.answer,
        "grounded",
        "extractive",
    )
    assert message.citations == [CITATION]
    assert message.latency_ms == 14.25
    assert message.corpus_version == "c0ffee12"
    assert message.selection is None
    assert message.selection_truncated is False
    assert message.rating is None
    assert message.created_at.tzinfo is not None


async def test_optional_fields_may_be_empty(store: ConversationStore) -> None:
    conversation_id = await store.create_conversation()
    sent = record(status="abstained", citations=[], latency_ms=None, corpus_version=None)
    await store.add_message(conversation_id, sent)
    conversation = await store.get_conversation(conversation_id)
    assert conversation is not None
    [message] = conversation.messages
    assert (message.citations, message.latency_ms, message.corpus_version) == ([], None, None)


async def test_messages_come_back_oldest_first(store: ConversationStore) -> None:
    conversation_id = await store.create_conversation()
    ids = [await store.add_message(conversation_id, record(f"q{i}")) for i in range(5)]
    conversation = await store.get_conversation(conversation_id)
    assert conversation is not None
    assert [m.id for m in conversation.messages] == ids
    assert [m.question for m in conversation.messages] == [f"q{i}" for i in range(5)]


async def test_conversations_do_not_share_messages(store: ConversationStore) -> None:
    first, second = await store.create_conversation(), await store.create_conversation()
    await store.add_message(first, record("only in the first"))
    other = await store.get_conversation(second)
    assert other is not None
    assert other.messages == []
    assert await store.recent_turns(second, 5) == []


async def test_a_long_selection_is_cut_and_flagged(store: ConversationStore) -> None:
    conversation_id = await store.create_conversation()
    fits = "x" * SELECTION_MAX_CHARS
    too_long = "ab" * 5_000
    await store.add_message(conversation_id, record(mode="selection", selection=fits))
    await store.add_message(conversation_id, record(mode="selection", selection=too_long))
    conversation = await store.get_conversation(conversation_id)
    assert conversation is not None
    kept, cut = conversation.messages
    assert (kept.selection, kept.selection_truncated) == (fits, False)
    assert cut.selection == too_long[:SELECTION_MAX_CHARS]
    assert cut.selection_truncated is True


async def test_deleting_removes_the_conversation_and_its_messages(store: ConversationStore) -> None:
    conversation_id = await store.create_conversation()
    message_id = await store.add_message(conversation_id, record())
    await store.rate(message_id, "down", "wrong")
    assert await store.delete_conversation(conversation_id) is True

    assert await store.get_conversation(conversation_id) is None
    assert not await store.conversation_exists(conversation_id)
    assert await store.recent_turns(conversation_id, 5) == []
    assert await store.rate(message_id, "up") is False
    assert await store.gaps(30) == []
    assert await store.delete_conversation(conversation_id) is False


async def test_unknown_ids_are_reported_not_raised(store: ConversationStore) -> None:
    assert await store.get_conversation("nope") is None
    assert await store.conversation_exists("nope") is False
    assert await store.delete_conversation("nope") is False
    assert await store.recent_turns("nope", 3) == []
    assert await store.rate("nope", "up") is False


async def test_adding_to_an_unknown_conversation_raises(store: ConversationStore) -> None:
    with pytest.raises(UnknownConversation):
        await store.add_message("nope", record())


async def test_the_last_rating_wins(store: ConversationStore) -> None:
    conversation_id = await store.create_conversation()
    message_id = await store.add_message(conversation_id, record())
    assert await store.rate(message_id, "up") is True
    assert await store.rate(message_id, "down", "missed the point") is True
    conversation = await store.get_conversation(conversation_id)
    assert conversation is not None
    assert conversation.messages[0].rating == "down"
    [gap] = await store.gaps(1)
    assert (gap.rating, gap.comment) == ("down", "missed the point")

    assert await store.rate(message_id, "up") is True
    conversation = await store.get_conversation(conversation_id)
    assert conversation is not None
    assert conversation.messages[0].rating == "up"
    assert await store.gaps(1) == []


async def test_recent_turns_are_the_last_n_oldest_first(store: ConversationStore) -> None:
    conversation_id = await store.create_conversation()
    for i in range(6):
        await store.add_message(conversation_id, record(f"q{i}", answer=f"a{i}"))
    turns = await store.recent_turns(conversation_id, 3)
    assert [(t.question, t.answer) for t in turns] == [("q3", "a3"), ("q4", "a4"), ("q5", "a5")]
    assert all(t.status == "grounded" and t.citations == [CITATION] for t in turns)
    assert len(await store.recent_turns(conversation_id, 50)) == 6
    assert await store.recent_turns(conversation_id, 0) == []


async def test_gaps_are_abstained_or_rated_down_questions(store: ConversationStore) -> None:
    conversation_id = await store.create_conversation()
    await store.add_message(conversation_id, record("answered well"))
    liked = await store.add_message(conversation_id, record("answered and liked"))
    await store.rate(liked, "up")
    abstained = await store.add_message(
        conversation_id,
        record("not in the book", status="abstained", citations=[], mode="chapter", chapter="ch1"),
    )
    disliked = await store.add_message(conversation_id, record("answered badly"))
    await store.rate(disliked, "down", "too vague")

    gaps = await store.gaps(7)
    assert [g.message_id for g in gaps] == [disliked, abstained]  # newest first
    by_id = {g.message_id: g for g in gaps}
    assert (by_id[abstained].status, by_id[abstained].rating) == ("abstained", None)
    assert (by_id[abstained].mode, by_id[abstained].chapter) == ("chapter", "ch1")
    assert by_id[abstained].question == "not in the book"
    assert (by_id[disliked].rating, by_id[disliked].comment) == ("down", "too vague")
    assert all(g.conversation_id == conversation_id for g in gaps)
    assert len(await store.gaps(7, limit=1)) == 1


async def test_gaps_only_cover_the_window(store: ConversationStore) -> None:
    conversation_id = await store.create_conversation()
    await store.add_message(conversation_id, record("no answer", status="abstained"))
    # Windows placed well away from "now" on either side, so the clock's precision is moot.
    in_a_month = datetime.now(UTC) + timedelta(days=30)
    assert await store.gaps(7, until=in_a_month) == []
    assert len(await store.gaps(60, until=in_a_month)) == 1
    assert await store.gaps(60, until=datetime.now(UTC) - timedelta(days=1)) == []


async def test_ids_are_long_random_and_url_safe(store: ConversationStore) -> None:
    conversation_ids = {await store.create_conversation() for _ in range(50)}
    first = next(iter(conversation_ids))
    message_ids = {await store.add_message(first, record()) for _ in range(20)}
    ids = conversation_ids | message_ids
    assert len(ids) == 70
    for identifier in ids:
        assert len(identifier) >= 22  # ≥ 128 bits in base64url
        assert identifier.replace("-", "").replace("_", "").isalnum()


async def test_ping_answers_when_the_database_does(store: ConversationStore) -> None:
    await store.ping()


async def test_a_message_keeps_one_rating_row(store: ConversationStore, backend: Backend) -> None:
    conversation_id = await store.create_conversation()
    message_id = await store.add_message(conversation_id, record())
    await asyncio.gather(*(store.rate(message_id, "up") for _ in range(5)))
    await store.rate(message_id, "down")
    assert await backend.rows("SELECT rating FROM ratings") == [("down",)]


async def test_concurrent_writes_all_land(store: ConversationStore) -> None:
    conversation_id = await store.create_conversation()
    ids = await asyncio.gather(
        *(store.add_message(conversation_id, record(f"q{i}")) for i in range(20))
    )
    conversation = await store.get_conversation(conversation_id)
    assert conversation is not None
    assert sorted(m.id for m in conversation.messages) == sorted(ids)


async def test_a_suggested_chapter_is_kept_with_its_message(store: ConversationStore) -> None:
    suggestion = {
        "key": "branching",
        "title": "Branching and Merging",
        "url": "/docs/branching/",
        "section": "Fast-forward merges",
        "section_url": "/docs/branching/merging#fast-forward-merges",
    }
    conversation_id = await store.create_conversation()
    await store.add_message(
        conversation_id, record(status="abstained", citations=[], suggested_chapter=suggestion)
    )
    await store.add_message(conversation_id, record())
    conversation = await store.get_conversation(conversation_id)
    assert conversation is not None
    assert [m.suggested_chapter for m in conversation.messages] == [suggestion, None]


async def test_a_short_answer_is_kept_with_its_message(store: ConversationStore) -> None:
    conversation_id = await store.create_conversation()
    await store.add_message(conversation_id, record(short_answer="Git 2.23 or newer"))
    await store.add_message(conversation_id, record(status="abstained", citations=[]))
    conversation = await store.get_conversation(conversation_id)
    assert conversation is not None
    assert [m.short_answer for m in conversation.messages] == ["Git 2.23 or newer", None]


PLACE: dict[str, Any] = {
    "title": "Merging",
    "section": "Aborting a merge",
    "url": "/docs/branching/merging#aborting-a-merge",
    "path": "03-branching/02-merging.md",
    "chapter": "branching",
    "chapter_title": "Branching and Merging",
    "excerpt": "`git merge --abort` returns to the state before the merge.",
    "score": 0.52,
}


async def test_the_places_shown_are_kept_with_the_message_and_its_turn(
    store: ConversationStore,
) -> None:
    conversation_id = await store.create_conversation()
    shown = await store.add_message(
        conversation_id,
        record("undo my merge?", status="related", citations=[], related=[PLACE]),
    )
    plain = await store.add_message(conversation_id, record("fast-forward?"))
    conversation = await store.get_conversation(conversation_id)
    assert conversation is not None
    by_id = {m.id: m for m in conversation.messages}
    assert (by_id[shown].status, by_id[shown].related) == ("related", [PLACE])
    assert by_id[plain].related == []
    turns = await store.recent_turns(conversation_id, 2)
    assert [t.related for t in turns] == [[PLACE], []]


async def test_questions_only_partly_covered_are_gaps_with_the_sections_shown(
    store: ConversationStore,
) -> None:
    conversation_id = await store.create_conversation()
    await store.add_message(conversation_id, record("answered"))
    partly = await store.add_message(
        conversation_id, record("undo my merge?", status="related", citations=[], related=[PLACE])
    )
    (gap,) = await store.gaps(7)
    assert (gap.message_id, gap.status) == (partly, "related")
    assert gap.related_sections == ("Aborting a merge",)
