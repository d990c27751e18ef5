"""Seeded questions for the insights tests: a few days of a reader's questions, with known counts.

Used by the store contract (both databases), the API tests and the browser tests (which run
`python -m tests.insights_data <data dir>` against the running server's SQLite file). Messages
are saved through the store, then moved to their day, from noon on a minute apart in the order
listed (`backdate`): the store itself only ever writes "now".

    backend/.venv/bin/python -m tests.insights_data DATA_DIR [--days-ago 4]
"""

from __future__ import annotations

import argparse
import asyncio
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any

from bookchat.config import Settings
from bookchat.history import MessageRecord, Rating, open_conversation_store
from bookchat.history.sql_store import SQLConversationStore
from bookchat.history.store import ConversationStore

SCRIPT = "<script>window.__pwned = 1</script><b>How do I rebase onto main?</b>"


def citation(chapter: str, title: str, section: str, url: str) -> dict[str, Any]:
    """A stored citation (the fields the insights read, and an excerpt)."""
    return {
        "index": 1, "chunk_id": url, "path": "x.md", "doc_id": "x", "chapter": chapter,
        "chapter_title": title, "section": section, "url": url, "excerpt": "…", "score": 0.7,
    }  # fmt: skip


CREATE = citation("branching", "Branching", "Creating a branch", "/docs/branching/branches#create")
MERGE = citation("branching", "Branching", "Fast-forward merges", "/docs/branching/merging#ff")
RESET = citation(
    "everyday-git", "Everyday Git", "Moving a branch with git reset",
    "/docs/everyday-git/undoing-changes#moving-a-branch-with-git-reset",
)  # fmt: skip


@dataclass(frozen=True)
class Asked:
    """One seeded question: how many days before the newest seeded day, and what happened."""

    day: int  # 0: the newest seeded day, 1: the day before...
    question: str
    status: str = "grounded"
    chapter: str | None = None
    citations: list[dict[str, Any]] = field(default_factory=list)
    rating: Rating | None = None
    comment: str | None = None
    version: str | None = "current"
    locale: str | None = "en"
    latency_ms: float | None = None
    cached: bool | None = False


# Newest day (0): 3 questions; the day before (1): 4; a week before (7): 1.
SEEDED = [
    Asked(1, "How do I create a branch?", citations=[CREATE], rating="up", latency_ms=10),
    Asked(1, "How do I create a branch?", citations=[CREATE], latency_ms=2, cached=True),
    Asked(1, "How do I sign commits with GPG?", "abstained", latency_ms=30),
    Asked(1, "How can I GPG-sign my commits?", "abstained", "everyday-git", latency_ms=40),
    Asked(0, "What does git reset --hard do?", chapter="everyday-git", citations=[RESET],
          rating="down", comment="too vague", latency_ms=20),
    Asked(0, SCRIPT, "abstained", version="1.0", locale="fr", latency_ms=50, cached=None),
    Asked(0, "What is a merge?", citations=[MERGE, CREATE], version="1.0", locale="fr",
          latency_ms=15),
    Asked(7, "How do I push a tag?", "abstained", latency_ms=60),
]  # fmt: skip


def noon(day: date) -> datetime:
    """Midday UTC of `day`: far from either midnight, whatever the clock's precision."""
    return datetime.combine(day, time(12), UTC)


async def backdate(store: ConversationStore, conversation_id: str, message_id: str,
                   moment: datetime) -> None:  # fmt: skip
    """Move a stored message, and its conversation, to `moment` (through the store's driver)."""
    assert isinstance(store, SQLConversationStore)
    at = store.codec.time_in(moment)
    await store._execute("UPDATE messages SET created_at = $1 WHERE id = $2", (at, message_id))
    # The message's cited sections carry its time too (the insights count them by it).
    await store._execute(
        "UPDATE citations SET created_at = $1 WHERE message_id = $2", (at, message_id)
    )
    await store._execute(
        "UPDATE conversations SET created_at = $1 WHERE id = $2 AND created_at > $1",
        (at, conversation_id),
    )


async def seed(store: ConversationStore, newest: date, seeded: list[Asked] = SEEDED) -> None:
    """Store `seeded`, each question in a conversation of its own, `newest` being day 0."""
    for minute, asked in enumerate(seeded):
        record = MessageRecord(
            question=asked.question,
            mode="chapter" if asked.chapter else "book",
            chapter=asked.chapter,
            answer="A seeded answer that cites the book [1]. " * 5 if asked.citations else "—",
            status=asked.status,
            generator="extractive",
            citations=asked.citations,
            latency_ms=asked.latency_ms,
            version=asked.version,
            locale=asked.locale,
            cached=asked.cached,
        )
        conversation_id, message_id = await store.start_conversation(record)
        if asked.rating:
            await store.rate(message_id, asked.rating, asked.comment)
        moment = noon(newest - timedelta(asked.day)) + timedelta(minutes=minute)
        await backdate(store, conversation_id, message_id, moment)


async def _seed_data_dir(data_dir: Path, days_ago: int) -> None:
    settings = Settings(_env_file=None, data_dir=data_dir, database_url=None)  # type: ignore[call-arg]
    store = await open_conversation_store(settings)
    try:
        await seed(store, datetime.now(UTC).date() - timedelta(days=days_ago))
    finally:
        await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Seed the insights questions into a data dir.")
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("--days-ago", type=int, default=4, help="day 0 is this many days ago")
    arguments = parser.parse_args()
    asyncio.run(_seed_data_dir(arguments.data_dir, arguments.days_ago))
