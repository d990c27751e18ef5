"""The span yardstick (training/span_yardstick.py): where the reader's spans land on an answer."""

from __future__ import annotations

from training.span_yardstick import landing

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
