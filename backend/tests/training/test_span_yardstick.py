"""The span yardstick (training/span_yardstick.py): where the reader's spans land on an answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from training.span_yardstick import eval_rows, fates, landing

from bookchat.answer.reader import Reading, Span

PASSAGES = [
    "Stashing\nRun git stash to put changes aside. Then switch branches.",
    "Stashing\ngit stash list shows what you saved. git stash pop brings it back.",
]
ANSWER = "git stash pop brings it back"


def _span(passages: list[str], passage: int, words: str, score: float) -> Span:
    start = passages[passage].index(words)
    return Span(start, start + len(words), score, words)


def test_the_rank_counts_spans_of_every_passage_pooled_by_score() -> None:
    readings = [
        Reading(0, 1.0, (_span(PASSAGES, 0, "Run git stash", 3.0),)),
        Reading(
            1, 0.5, (_span(PASSAGES, 1, "git stash list", 2.0), _span(PASSAGES, 1, "pop", 1.0))
        ),
    ]
    assert landing(readings, PASSAGES, ANSWER) == 2


def test_a_span_lands_only_where_its_own_passage_holds_the_answer() -> None:
    # The same offsets in the first passage cover other words: not the answer.
    at = PASSAGES[1].index(ANSWER)
    stray = Span(at, at + 10, 5.0, PASSAGES[0][at : at + 10])
    readings = [Reading(0, 1.0, (stray,)), Reading(1, 0.5, (_span(PASSAGES, 1, "brings", 0.1),))]
    assert landing(readings, PASSAGES, ANSWER) == 1


def test_no_span_on_the_answer_gives_none() -> None:
    readings = [Reading(0, 1.0, (_span(PASSAGES, 0, "switch branches", 3.0),))]
    assert landing(readings, PASSAGES, ANSWER) is None


def _row(fixture: str, status: str, cited: bool, passed: bool) -> dict[str, object]:
    return {
        "fixture_id": fixture,
        "actual_status": status,
        "citation_ok": cited,
        "passed": passed,
    }


def test_fates_sorts_landed_rows_by_how_the_end_to_end_answer_fared() -> None:
    rows = [
        _row("a", "grounded", True, True),
        _row("b", "grounded", True, False),
        _row("c", "grounded", False, False),
        _row("d", "abstained", False, False),
        _row("e", "grounded", True, True),
    ]
    counts = fates(["a", "b", "c", "d", "missing"], rows)
    assert counts == {
        "passed": 1,
        "section cited, answer not quoted": 1,
        "another section cited": 1,
        "declined": 1,
        "not in the rows": 1,
    }


def test_fates_counts_only_the_rows_whose_span_landed() -> None:
    rows = [_row("a", "grounded", True, True), _row("b", "abstained", False, False)]
    assert fates(["b"], rows)["passed"] == 0
    assert fates(["b"], rows)["declined"] == 1


def test_eval_rows_reads_what_bookchat_eval_writes(tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    rows = [_row("a", "grounded", True, True), _row("b", "abstained", False, False)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows) + "\n", encoding="utf-8")
    assert eval_rows(path) == rows


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"fixture_id": "a"\n', "line 1 is not JSON"),
        (
            json.dumps(_row("a", "grounded", True, True)) + '\n{"id": "b", "question": "q"}\n',
            "line 2 is not an eval row",
        ),
        ("[1, 2]\n", "line 1 is not an eval row"),
    ],
)
def test_eval_rows_names_the_first_line_that_is_not_an_eval_row(
    tmp_path: Path, text: str, reason: str
) -> None:
    path = tmp_path / "rows.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=reason):
        eval_rows(path)
