"""The Rust-book evaluation's fixture (bench/rust_book.py), built from pages written here."""

from __future__ import annotations

import json
from pathlib import Path

from rust_book import QUESTIONS, build, read_questions

from bookchat.evals.fixtures import load_fixtures

PAGE = """<html><body><main>
<h1 id="ownership"><a class="header" href="#ownership">Ownership</a></h1>
<p>Rust manages memory through a system of ownership.</p>
<h2 id="rules"><a class="header" href="#rules">Ownership Rules</a></h2>
<p>Each value in Rust has an <em>owner</em>, and there can only be one owner at a time.</p>
</main></body></html>"""


def _question(id_: str, question: str, answer: str | None) -> dict[str, object]:
    return {
        "id": id_,
        "doc": "ch04-01-what-is-ownership.md",
        "question": question,
        "answerable": answer is not None,
        "answer_text": answer,
        "kind": "fact",
    }


QUESTIONS_HERE = [
    _question("rb1-001", "how many owners can a value have", "there can only be one owner"),
    _question("rb1-002", "does rust have a garbage collector like go", None),
    _question("rb1-003", "what is a lifetime", "words this page never says"),
]


def _built(tmp_path: Path) -> list[dict[str, object]]:
    html = tmp_path / "html"
    html.mkdir()
    (html / "ch04-01-what-is-ownership.html").write_text(PAGE, encoding="utf-8")
    pages, rows = build(html, QUESTIONS_HERE, tmp_path / "out")
    assert pages == 1
    written = (tmp_path / "out" / "fixtures.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in written] == rows
    return rows


def test_an_answerable_question_expects_the_section_whose_chunk_holds_its_words(
    tmp_path: Path,
) -> None:
    row = _built(tmp_path)[0]
    assert row["id"] == "rust-book-rb1-001"
    assert (row["mode"], row["expected_status"]) == ("book", "grounded")
    assert row["expected_sources"] == [
        {"path": "ch04-01-what-is-ownership.md", "section": "Ownership Rules"}
    ]
    assert row["expected_answer_contains"] == ["there can only be one owner"]
    assert row["reference_answer"] == "there can only be one owner"


def test_a_question_the_book_does_not_answer_expects_a_decline(tmp_path: Path) -> None:
    row = _built(tmp_path)[1]
    assert (row["id"], row["expected_status"]) == ("rust-book-rb1-002", "abstained")
    assert "expected_sources" not in row


def test_a_question_whose_words_no_chunk_holds_is_left_out(tmp_path: Path) -> None:
    assert [r["id"] for r in _built(tmp_path)] == ["rust-book-rb1-001", "rust-book-rb1-002"]


def test_the_rows_load_as_eval_fixtures(tmp_path: Path) -> None:
    _built(tmp_path)
    fixtures = load_fixtures(tmp_path / "out" / "fixtures.jsonl")
    assert [(f.slice, f.expected_sources) for f in fixtures] == [
        ("book/answerable", [("ch04-01-what-is-ownership.md", "Ownership Rules")]),
        ("book/uncovered", []),
    ]


def test_the_committed_questions_are_each_asked_once_with_an_answer_only_where_answerable() -> None:
    rows = read_questions(QUESTIONS)
    assert len({r["id"] for r in rows}) == len(rows)
    assert len({str(r["question"]).strip().lower() for r in rows}) == len(rows)
    for row in rows:
        assert set(row) == {"id", "doc", "question", "answerable", "answer_text", "kind"}
        answer = row["answer_text"]
        if row["answerable"]:
            assert isinstance(answer, str) and "\n" not in answer, row["id"]
            assert 3 <= len(answer.split()) <= 40, row["id"]
        else:
            assert answer is None, row["id"]
