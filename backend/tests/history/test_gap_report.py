"""The gap report groups unanswered questions by meaning, most frequent first."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.history import MessageRecord, open_conversation_store
from bookchat.history.gap_report import group_gaps, render_markdown

ASKED = [
    # (question, status, chapter, rating)
    ("How do I sign commits with GPG?", "abstained", "everyday-git", None),
    ("How can I GPG-sign my commits?", "abstained", None, None),
    ("What is the command to sign a commit with a GPG key?", "abstained", "internals", None),
    ("How do I configure Git LFS for large files?", "abstained", None, None),
    ("How do I set up Git LFS?", "abstained", None, None),
    ("What does git reset --hard do?", "grounded", "everyday-git", "down"),
    ("What does git status do?", "grounded", None, "up"),  # answered and liked: not a gap
]


async def _seed(settings: Settings) -> None:
    store = await open_conversation_store(settings)
    try:
        conversation = await store.create_conversation()
        for question, status, chapter, rating in ASKED:
            message = await store.add_message(
                conversation,
                MessageRecord(
                    question=question,
                    mode="chapter" if chapter else "book",
                    chapter=chapter,
                    answer="...",
                    status=status,
                    generator="extractive",
                ),
            )
            if rating:
                await store.rate(message, rating)
    finally:
        await store.close()


async def test_gaps_are_grouped_by_meaning_and_counted(make_settings, embedder: Embedder) -> None:
    settings = make_settings()
    await _seed(settings)
    store = await open_conversation_store(settings)
    try:
        rows = await store.gaps(30)
    finally:
        await store.close()
    gaps = group_gaps(rows, embedder.embed([r.question for r in rows]))
    summary = [(g.to_json()["asked"], g.to_json()["question"]) for g in gaps]
    assert summary == [
        (3, "How do I sign commits with GPG?"),
        (2, "How do I configure Git LFS for large files?"),
        (1, "What does git reset --hard do?"),
    ]
    assert gaps[0].to_json()["chapters"] == {"everyday-git": 1, "(whole book)": 1, "internals": 1}
    assert gaps[2].to_json()["rated_down"] == 1
    markdown = render_markdown(gaps, 30)
    assert markdown.index("sign commits with GPG") < markdown.index("Git LFS")


def test_the_command_prints_markdown_or_json(make_settings, tmp_path: Path) -> None:
    settings = make_settings()
    asyncio.run(_seed(settings))
    env = {
        "BOOKCHAT_DATA_DIR": str(settings.data_dir),
        "PATH": "/usr/bin:/bin",
        "HOME": str(Path.home()),
        # The code under test, when the suite runs it from another checkout than the venv's.
        "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
    }
    run = [sys.executable, "-m", "bookchat.cli", "report", "gaps", "--since", "7"]
    markdown = subprocess.run(run, capture_output=True, text=True, env=env, check=True).stdout
    assert markdown.startswith("# Gaps in the book")
    data = json.loads(
        subprocess.run(
            [*run, "--format", "json"], capture_output=True, text=True, env=env, check=True
        ).stdout
    )
    assert [g["asked"] for g in data["gaps"]] == [3, 2, 1]


def test_partly_covered_questions_are_counted_with_the_sections_they_were_shown(
    embedder: Embedder,
) -> None:
    from datetime import UTC, datetime

    from bookchat.history.records import GapRow

    def gap(question: str, status: str, sections: tuple[str, ...] = ()) -> GapRow:
        return GapRow(
            message_id=question, conversation_id="c", created_at=datetime.now(UTC),
            question=question, mode="book", chapter=None, status=status, rating=None,
            comment=None, related_sections=sections,
        )  # fmt: skip

    rows = [
        gap("How do I undo a bad merge?", "related", ("Aborting a merge",)),
        gap("how can I undo a merge that went wrong", "related", ("Undoing a merge commit",)),
        gap("How do I undo a bad merge??", "abstained"),
    ]
    (only,) = group_gaps(rows, embedder.embed([r.question for r in rows]))
    data = only.to_json()
    assert (data["asked"], data["abstained"], data["partly_covered"]) == (3, 1, 2)
    assert data["sections_shown"] == ["Aborting a merge", "Undoing a merge commit"]
    markdown = render_markdown([only], 30)
    assert (
        "| partly covered |" in markdown and "Aborting a merge; Undoing a merge commit" in markdown
    )
