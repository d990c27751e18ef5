"""The broad topic questions that train the answer model's coverage (training/topic_questions)."""

from __future__ import annotations

import json
from pathlib import Path

from training.topic_questions import FURNITURE, TEMPLATES, UNCOVERED, book_topics, uncovered_topics

ROOT = Path(__file__).resolve().parents[3]

PAGE = """---
title: Stashing work
---

Some words before any heading.

## Saving changes with git stash

Stash them.

## Summary

A recap.

## Why stash at all?

Because.
"""


def _book(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "stash.md").write_text(PAGE, encoding="utf-8")
    return docs


def test_each_page_title_and_topic_heading_becomes_one_question(tmp_path: Path) -> None:
    topics = book_topics(_book(tmp_path), "demo")
    assert [(t.path, t.section) for t in topics] == [
        ("stash.md", None),
        ("stash.md", "Saving changes with git stash"),
    ]
    assert "stash" in topics[1].text.lower() and topics[1].text.lower() != topics[1].section


def test_furniture_and_question_headings_are_not_topics(tmp_path: Path) -> None:
    texts = " ".join(t.text.lower() for t in book_topics(_book(tmp_path), "demo"))
    assert "summary" in FURNITURE and "summary" not in texts
    assert "why stash at all" not in texts


def test_without_sections_only_page_titles_are_asked(tmp_path: Path) -> None:
    topics = book_topics(_book(tmp_path), "demo", sections=False)
    assert [(t.path, t.section) for t in topics] == [("stash.md", None)]


def test_a_title_topic_is_answered_by_any_section_of_its_page_a_heading_only_by_its_own(
    tmp_path: Path,
) -> None:
    title, heading = book_topics(_book(tmp_path), "demo")
    assert title.answered_by("stash.md", "Anything on the page")
    assert not title.answered_by("other.md", "Anything on the page")
    assert heading.answered_by("stash.md", "Saving changes with git stash")
    assert not heading.answered_by("stash.md", "Stashing work")


def test_the_questions_are_the_same_on_every_run(tmp_path: Path) -> None:
    docs = _book(tmp_path)
    assert book_topics(docs, "demo") == book_topics(docs, "demo")
    assert [t.text for t in uncovered_topics()] == [t.text for t in uncovered_topics()]


def test_the_templates_vary_the_wording_across_topics() -> None:
    asked = {
        t.text.lower().replace(topic.lower(), "{topic}")
        for t, topic in zip(uncovered_topics(), UNCOVERED, strict=True)
    }
    assert len(asked) >= len(TEMPLATES) // 2


def test_no_uncovered_topic_is_asked_by_an_evaluation_row() -> None:
    rows = (ROOT / "backend/evals/sample-book.jsonl").read_text(encoding="utf-8").splitlines()
    asked = " ".join(json.loads(row)["question"].lower() for row in rows if row.strip())
    assert [topic for topic in UNCOVERED if topic.lower() in asked] == []


def test_no_uncovered_topic_is_named_in_the_sample_book() -> None:
    book = " ".join(
        p.read_text(encoding="utf-8").lower() for p in (ROOT / "website/docs").rglob("*.md*")
    )
    named = [topic for topic in UNCOVERED if topic.lower() in book]
    assert named == []
