"""The answer reader's training pairs (training/reader_data): the sample book's and SQuAD's."""

from __future__ import annotations

import json
import random
from pathlib import Path

from training.reader_data import HELD_OUT_ARTICLES, BookChunk, book_examples, squad_examples

CHUNKS = [
    BookChunk("stash.md", "Saving changes", "Run git stash to put uncommitted changes aside."),
    BookChunk("stash.md", "Listing stashes", "git stash list shows every stash you saved."),
    BookChunk("branch.md", "Switching branches", "git switch changes branches; stash first."),
    BookChunk("remote.md", "Pushing", "git push sends commits to a remote."),
]


def _examples(tmp_path: Path, row: dict[str, object], repeat: int = 2) -> list[tuple[str, ...]]:
    # Ids ending in a multiple of 4 are held out for calibration: sbt-001 is trained on.
    questions = tmp_path / "questions.jsonl"
    questions.write_text(json.dumps({"id": "sbt-001", **row}) + "\n", encoding="utf-8")
    return [
        (e.passage, str(e.start), e.answer, e.origin)
        for e in book_examples(questions, CHUNKS, repeat, random.Random(0))
    ]


def _answered(question: str, path: str, section: str, answer: str) -> dict[str, object]:
    return {
        "question": question,
        "answerable": True,
        "path": path,
        "section": section,
        "answer_text": answer,
    }


def test_an_answered_question_trains_on_its_chunk_with_the_answer_at_its_offset(
    tmp_path: Path,
) -> None:
    answer = "put uncommitted changes aside"
    row = _answered("how do i put my changes aside", "stash.md", "Saving changes", answer)
    positives = [e for e in _examples(tmp_path, row, repeat=2) if e[3] == "book"]
    assert len(positives) == 2
    passage, start, said, _ = positives[0]
    assert passage.startswith("Saving changes\n")
    assert passage[int(start) : int(start) + len(said)] == answer


def test_an_answered_question_gets_the_closest_chunk_of_another_section_as_a_near_miss(
    tmp_path: Path,
) -> None:
    row = _answered(
        "how do i list stashes i saved",
        "stash.md",
        "Listing stashes",
        "shows every stash you saved",
    )
    near = [e for e in _examples(tmp_path, row) if e[3] == "book-near"]
    assert len(near) == 1
    passage, start, said, _ = near[0]
    assert (start, said) == ("-1", "")
    assert "shows every stash" not in passage
    assert not passage.startswith("Listing stashes")


def test_an_uncovered_question_trains_on_its_two_closest_chunks_as_not_answering(
    tmp_path: Path,
) -> None:
    row = {
        "question": "how do i stash changes on a remote",
        "answerable": False,
        "path": None,
        "section": None,
        "answer_text": None,
    }
    examples = _examples(tmp_path, row)
    assert [e[3] for e in examples] == ["book-uncovered", "book-uncovered"]
    assert all(start == "-1" for _, start, _, _ in examples)


def test_an_answer_no_chunk_of_its_section_holds_gives_no_pair(tmp_path: Path) -> None:
    row = _answered("how do i push", "stash.md", "Saving changes", "sends commits")
    assert _examples(tmp_path, row) == []


def _article(n: int) -> dict[str, object]:
    """A SQuAD-shaped article: its first paragraph answers one question, the second shares
    the question's words without the answer, the third shares none."""
    context = f"The castle {n} was built by Count Odo in 1120."
    return {
        "title": f"Castle_{n}",
        "paragraphs": [
            {
                "context": context,
                "qas": [
                    {
                        "question": f"Who built the castle {n}?",
                        "answers": [{"text": "Count Odo", "answer_start": context.index("Count")}],
                    }
                ],
            },
            {"context": f"The castle {n} was built of stone and rebuilt twice.", "qas": []},
            {"context": "Wine from the valley is sold in the market.", "qas": []},
        ],
    }


def test_each_squad_question_trains_on_its_paragraph_and_never_a_held_out_article() -> None:
    articles = [_article(n) for n in range(HELD_OUT_ARTICLES + 8)]
    examples = list(squad_examples(articles, 8, random.Random(3)))
    positives = [e for e in examples if e.origin == "squad"]
    assert len(positives) == 8
    for e in positives:
        assert e.passage[e.start : e.start + len(e.answer)] == "Count Odo"
        assert int(e.passage.split("\n")[0].removeprefix("Castle ")) >= HELD_OUT_ARTICLES


def test_a_squad_question_s_near_negative_is_its_article_s_closest_paragraph_without_it() -> None:
    articles = [_article(n) for n in range(HELD_OUT_ARTICLES + 40)]
    examples = list(squad_examples(articles, 40, random.Random(3)))
    assert all(not e.answerable for e in examples if e.origin != "squad")
    near = [e for e in examples if e.origin == "squad-same-article"]
    assert near
    assert all("rebuilt twice" in e.passage and "Count Odo" not in e.passage for e in near)
