"""The answer reader: the shipped weights, windows over long passages, spans and relevance."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from bookchat.answer.reader import (
    MAX_ANSWER,
    MAX_PIECES,
    WEIGHTS,
    Reader,
    best_spans,
    calibration,
    encode_windows,
    load_tokenizer,
)

# Written by backend/training/train_reader.py from the trained model (float32, transformers).
CHECKS = WEIGHTS.with_suffix(".checks.json")


def test_the_shipped_weights_reproduce_the_scores_training_measured(reader: Reader) -> None:
    checks = json.loads(CHECKS.read_text(encoding="utf-8"))
    assert len(checks) >= 3
    for check in checks:
        (reading,) = reader.read(check["question"], [check["passage"]])
        # bfloat16 products here, float32 in training: the same logit to a small tolerance.
        assert reading.relevance == pytest.approx(check["relevance"], abs=0.25)


def test_the_passage_that_answers_reads_as_relevant_and_the_span_is_the_answer(
    reader: Reader,
) -> None:
    question = "Who wrote Git?"
    answers = "History\nGit was written by Linus Torvalds in April 2005 to manage the Linux kernel."
    other = "Installing\nOn Fedora, install Git with `sudo dnf install git`."
    first, second = reader.read(question, [answers, other])
    assert first.probability > 0.5 > second.probability
    assert first.answer == "Linus Torvalds"
    best = first.spans[0]
    assert answers[best.start : best.end] == first.answer
    assert first.span_score > 0 > second.span_score


def test_the_shipped_thresholds_are_the_ones_the_service_reads() -> None:
    fitted = calibration()
    for veto in ("selection_veto", "book_veto", "book_vouch"):
        assert 0.0 < fitted[veto] < 1.0
    assert fitted["span"] < 0  # a margin below "no answer": most answerable selections show one
    assert set(fitted) == {
        "selection_veto",
        "book_veto",
        "book_vouch",
        "span",
        "answered_at_threshold",
        "note",
    }


def test_a_long_passage_is_read_in_overlapping_windows_that_cover_it() -> None:
    tokenizer = load_tokenizer()
    passage = " ".join(f"Sentence number {i} says something about commits." for i in range(120))
    windows = encode_windows(tokenizer, "What do the sentences say?", [passage])
    assert len(windows) > 1
    assert all(len(w.ids) <= MAX_PIECES and len(w.ids) == len(w.types) for w in windows)
    covered = {o for w in windows for o in w.offsets}
    assert len(covered) == len(tokenizer.encode(passage, add_special_tokens=False).ids)
    for earlier, later in itertools.pairwise(windows):
        assert later.offsets[0] < earlier.offsets[-1]  # they overlap
    # Segment 1 is the passage (and its closing [SEP]); offsets point into the passage.
    w = windows[0]
    assert w.types[w.first - 1] == 0 and w.types[w.first] == 1
    a, b = w.offsets[0]
    assert passage[a:b] == "sentence"[: b - a] or passage[a:b].lower() == "sentence"


def test_the_best_spans_never_end_before_they_start_nor_run_too_long() -> None:
    start = np.zeros(200, np.float32)
    end = np.zeros(200, np.float32)
    start[60], end[10] = 5.0, 5.0  # the best pair in order would end before it starts
    end[60 + MAX_ANSWER] = 4.0  # one piece too far from 60
    end[70] = 1.0
    spans = best_spans(start, end, k=50)
    first, last, value = spans[0]
    assert (first, last) == (60, 70) and value == pytest.approx(6.0)
    assert [v for _, _, v in spans] == sorted((v for _, _, v in spans), reverse=True)
    assert len(spans) == 50 and all(0 <= b - a < MAX_ANSWER for a, b, _ in spans)


def test_a_passage_gives_its_best_spans_best_first_and_each_once(reader: Reader) -> None:
    passage = "History\nGit was written by Linus Torvalds in April 2005 to manage the Linux kernel."
    long = " ".join([passage] * 40)  # read in overlapping windows
    for text in (passage, long):
        (reading,) = reader.read("Who wrote Git?", [text])
        places = [(s.start, s.end) for s in reading.spans]
        assert len(places) == len(set(places)) > 1
        assert [s.score for s in reading.spans] == sorted(
            (s.score for s in reading.spans), reverse=True
        )
        assert all(text[s.start : s.end] == s.text for s in reading.spans)


def test_a_passage_without_words_has_no_span(reader: Reader) -> None:
    (reading,) = reader.read("Who wrote Git?", ["   "])
    assert reading.spans == () and reading.answer == ""


def test_weights_are_small_enough_to_ship() -> None:
    assert Path(WEIGHTS).stat().st_size < 25 * 1024 * 1024
