"""The readers' questions committed for training and measuring (training/*-questions/): each asked
once, shaped as the README says, and none of them the Rust book's, which nothing trains on.

`check_docs_questions.py` also checks every answer against its document; it needs the books
installed (Debian's nodejs, rustup's rust-docs), so only what the files alone show is checked here.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

TRAINING = Path(__file__).resolve().parents[2] / "training"
FOLDERS = ("docs-questions", "rust-book-questions", "mdbook-questions")
# The Rust book is measured on (readers_fixtures.py, rank_reader.py), never trained on.
MEASURED = "rust-book-questions"
# A row this close in words to a Rust-book row asks the same thing (a pasted error is the same
# error in any book).
SAME_QUESTION = 0.75
# Shorter questions are too generic to compare by words ("what does cargo actually do").
MIN_WORDS = 6


@functools.cache
def _rows(folder: str) -> tuple[dict[str, object], ...]:
    # Read once for all three tests.
    return tuple(
        json.loads(line)
        for file in sorted((TRAINING / folder).rglob("*.jsonl"))
        for line in file.read_text(encoding="utf-8").splitlines()
        if line.strip()
    )


def _words(question: object) -> set[str]:
    return set(re.findall(r"\w+", str(question).lower()))


def test_every_id_and_question_is_used_once_across_all_books() -> None:
    """Two rows with one id, or one question asked twice, would count a question twice."""
    rows = [row for folder in FOLDERS for row in _rows(folder)]
    ids = [row["id"] for row in rows]
    questions = [str(row["question"]).strip().lower() for row in rows]
    assert len(rows) > 3000
    assert len(set(ids)) == len(ids)
    assert len(set(questions)) == len(questions)


def test_an_answer_is_one_line_of_three_to_forty_words_and_only_where_the_book_answers() -> None:
    """The README's format: `answer_text` is null exactly when the row is not answerable."""
    for row in (row for folder in FOLDERS for row in _rows(folder)):
        answer = row["answer_text"]
        if row["answerable"]:
            assert isinstance(answer, str) and "\n" not in answer, row["id"]
            assert 3 <= len(answer.split()) <= 40, row["id"]
        else:
            assert answer is None, row["id"]


def test_no_training_question_asks_what_a_rust_book_question_asks() -> None:
    """The Rust book stays a book nobody trained on: no trained book's row shares most of its
    words with one of its rows (six words or more)."""
    measured = [_words(row["question"]) for row in _rows(MEASURED)]
    for folder in (f for f in FOLDERS if f != MEASURED):
        for row in _rows(folder):
            words = _words(row["question"])
            if len(words) < MIN_WORDS:
                continue
            closest = max(len(words & other) / len(words | other) for other in measured)
            assert closest < SAME_QUESTION, (row["id"], row["question"])
