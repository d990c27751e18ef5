"""A conversation store as a busy book's would be: N questions over the retention period.

Questions come from a few thousand phrasings (readers repeat each other, the popular ones much
more), about a fifth declined, ~6 % rated, answers citing three sections with a 300-character
excerpt each, some served from the answer cache, most on the current English edition. Rows are
written through the store's own statements (sql.py), a thousand to a transaction.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from bookchat.history import MessageRecord
from bookchat.history import sql as statements
from bookchat.history.ids import new_id
from bookchat.history.sql_store import SQLConversationStore

CHAPTERS = [
    ("getting-started", "Getting Started"), ("everyday-git", "Everyday Git"),
    ("branching", "Branching and Merging"), ("collaboration", "Collaboration"),
    ("internals", "Git Internals"), ("hooks-and-automation", "Hooks and Automation"),
    ("workflows", "Workflows"), ("troubleshooting", "Troubleshooting"),
]  # fmt: skip
TOPICS = [
    "a branch", "a merge conflict", "the staging area", "a remote", "a tag", "git stash",
    "git rebase", "a detached HEAD", "git reflog", "git bisect", "a submodule", "git hooks",
    "a pull request", "git cherry-pick", "the index", "git blame", "a fast-forward merge",
    "git clean", "git revert", "git reset", "a commit message", "git log filters", "gitignore",
    "git worktree", "GPG signing", "Git LFS", "a monorepo", "trunk-based development",
    "git flow", "a release branch", "sparse checkout", "git gc", "packfiles", "the object store",
    "git config", "an alias", "line endings", "a shallow clone", "git fetch", "git pull",
]  # fmt: skip
TEMPLATES = [
    "What is {}?", "How do I use {}?", "When should I use {}?", "Why does {} fail?",
    "Can you explain {}?", "How do I undo {}?", "What is the difference between {} and a commit?",
    "Is {} safe on a shared branch?", "How do I set up {}?", "What are the risks of {}?",
    "Give me an example of {}.", "How does {} work internally?", "What does {} do?",
    "How do I see {}?", "Where is {} stored?", "How do I delete {}?", "How do I rename {}?",
    "How do I configure {}?", "How do I fix {}?", "Should beginners use {}?",
    "What happens to {} after a push?", "How do I share {} with my team?",
    "Does {} work on Windows?", "How big can {} get?", "How do I automate {}?",
]  # fmt: skip
EXCERPT = "A passage of the book, quoted as the answer's source. " * 6  # ~300 characters
BATCH = 1_000


def _citation(rng: random.Random, n: int) -> dict[str, Any]:
    key, title = rng.choice(CHAPTERS)
    section = rng.randrange(12)
    return {
        "index": n, "chunk_id": f"{key}-{section}", "path": f"{key}.md", "doc_id": key,
        "chapter": key, "chapter_title": title, "section": f"Section {section} of {title}",
        "url": f"/docs/{key}#section-{section}", "excerpt": EXCERPT[:300], "score": 0.6,
    }  # fmt: skip


def _record(rng: random.Random, phrasings: list[str]) -> MessageRecord:
    # Popular questions much more often: the top 1 % of phrasings make a fifth of the questions.
    question = phrasings[int(len(phrasings) * rng.random() ** 3)]
    declined = rng.random() < 0.22
    mode = rng.choices(["book", "chapter", "selection"], [60, 35, 5])[0]
    return MessageRecord(
        question=question,
        mode=mode,
        answer="I could not find this in the book." if declined else "It does this [1]. " * 20,
        status="abstained" if declined else "grounded",
        generator="extractive",
        chapter=rng.choice(CHAPTERS)[0] if mode == "chapter" else None,
        citations=[] if declined else [_citation(rng, n) for n in (1, 2, 3)],
        latency_ms=rng.lognormvariate(4.5, 0.6),
        corpus_version="bench",
        version="1.0" if rng.random() < 0.15 else "current",
        locale="fr" if rng.random() < 0.1 else "en",
        cached=rng.random() < 0.15,
    )


async def fill(store: SQLConversationStore, questions: int, days: int = 90, seed: int = 7) -> None:
    """Store `questions` questions spread over the last `days` days (three to a conversation)."""
    rng = random.Random(seed)
    phrasings = [t.format(topic) for topic in TOPICS for t in TEMPLATES]
    rng.shuffle(phrasings)
    now = datetime.now(UTC)
    steps: list[tuple[str, Any]] = []
    conversation = ""
    for i in range(questions):
        at = now - timedelta(seconds=rng.uniform(60, days * 86_400))
        if i % 3 == 0:
            conversation = new_id()
            steps.append((statements.INSERT_CONVERSATION, (conversation, store.codec.time_in(at))))
        record = _record(rng, phrasings)
        message = new_id()
        steps += statements.message_steps(
            store.codec, (message, conversation), record, (None, False), at
        )
        if rng.random() < 0.06:
            rating = "down" if rng.random() < 0.35 else "up"
            comment = "Not what I asked." if rating == "down" and rng.random() < 0.3 else None
            rated = (message, rating, comment, store.codec.time_in(at))
            steps.append((statements.RATE, rated))
        if len(steps) >= BATCH:
            await store._execute_together(steps)
            steps = []
    if steps:
        await store._execute_together(steps)
