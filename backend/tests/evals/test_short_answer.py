"""The reader's short answer scored as SQuAD does: exact match and token F1, per row and slice."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from bookchat.evals.metrics import summarise
from bookchat.evals.rows import read_rows, write_rows
from bookchat.evals.short_answer import (
    ShortScore,
    exact_match,
    normalize_answer,
    score_short_answer,
    squad_f1,
)
from tests.evals.factory import abstained, failed, row


def test_normalisation_lowercases_and_drops_articles() -> None:
    assert normalize_answer("The  Quick\tBrown Fox") == "quick brown fox"
    assert normalize_answer("an apple, a pear and THE plum") == "apple pear and plum"
    # Whole words only: "theory" and "another" keep their letters.
    assert normalize_answer("Another theory") == "another theory"


def test_normalisation_deletes_punctuation_without_splitting_words() -> None:
    # SQuAD deletes punctuation (answer_words turns it into a space): a path stays one word.
    assert normalize_answer("install/setup.bash") == "installsetupbash"
    assert normalize_answer("--force-with-lease!") == "forcewithlease"
    assert normalize_answer("Git 2.23 (or newer).") == "git 223 or newer"
    # Only ASCII punctuation, as string.punctuation in the official script.
    assert normalize_answer("“quoted”") == "“quoted”"


def test_exact_match_and_f1_after_normalisation() -> None:
    assert exact_match("The 90 days.", "90 days") == 1.0
    assert exact_match("90 days or more", "90 days") == 0.0
    # 2 shared tokens: precision 2/4, recall 2/2.
    assert squad_f1("90 days or more", "90 days") == pytest.approx(2 / 3)
    assert squad_f1("a", "the") == 1.0  # both empty once normalised, as SQuAD v2.0 scores it
    assert squad_f1("ninety", "90 days") == 0.0


def test_a_row_scores_its_best_gold_for_each_figure() -> None:
    golds = ["Git 2.23", "or newer", "Git 2.23 or newer than that"]
    score = score_short_answer("grounded", "grounded", "git 2.23 or newer", golds)
    assert score is not None
    # No gold matches exactly; F1 is best against the third (4 of 4 and 4 of 6 tokens).
    assert score.em == 0.0
    assert score.f1 == round(2 * 1 * (4 / 6) / (1 + 4 / 6), 4)
    exact = score_short_answer("grounded", "grounded", "Git 2.23", golds)
    assert exact == ShortScore(1.0, 1.0)


def test_an_answerable_row_without_a_short_answer_scores_zero() -> None:
    golds = ["90 days"]
    assert score_short_answer("grounded", "grounded", None, golds) == ShortScore(0.0, 0.0)
    assert score_short_answer("grounded", "abstained", None, golds) == ShortScore(0.0, 0.0)
    assert score_short_answer("grounded", "error", None, golds) == ShortScore(0.0, 0.0)


def test_rows_not_expected_grounded_or_without_golds_are_not_scored() -> None:
    assert score_short_answer("abstained", "abstained", None, ["90 days"]) is None
    assert score_short_answer("abstained", "grounded", "90 days", ["90 days"]) is None
    assert score_short_answer("grounded", "grounded", "90 days", []) is None
    # A gold that normalises to nothing is dropped, as SQuAD v2.0 drops it.
    assert score_short_answer("grounded", "grounded", "90 days", ["--", "The"]) is None


def test_slice_figures_are_means_over_the_judged_rows() -> None:
    rows = [
        row("1", short_answer="90 days", short_em=1.0, short_f1=1.0),
        row("2", short_answer="90 days or more", short_em=0.0, short_f1=0.6667),
        row("3", short_em=0.0, short_f1=0.0),  # a passage answer: no span
        failed("4", short_em=0.0, short_f1=0.0),
        abstained("o1"),  # not judged
        row("5", expected_answer_contains=[]),  # no golds: not judged
    ]
    s = summarise(rows)["slices"]["book/answerable"]
    assert s["short_answered"] == 0.5
    assert s["short_em"] == 0.25
    assert s["short_f1"] == round(1.6667 / 4, 4)
    off_topic = summarise(rows)["slices"]["book/off-topic"]
    assert off_topic["short_answered"] is None
    assert off_topic["short_em"] is None and off_topic["short_f1"] is None


def test_short_answer_figures_survive_a_rows_file(tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    written = [row("1", short_answer="90 days", short_em=1.0, short_f1=1.0)]
    write_rows(path, written)
    assert read_rows(path) == written


def test_rows_written_before_short_answers_still_load_and_summarise(tmp_path: Path) -> None:
    old = asdict(row("1", answer_f1=0.5))
    for key in ("short_answer", "short_em", "short_f1"):
        del old[key]
    path = tmp_path / "old.rows.jsonl"
    path.write_text(json.dumps(old) + "\n", encoding="utf-8")
    (loaded,) = read_rows(path)
    assert (loaded.short_answer, loaded.short_em, loaded.short_f1) == (None, None, None)
    figures = summarise([loaded])["all"]
    assert figures["answer_f1"] == 0.5
    assert figures["short_answered"] is None
    assert figures["short_em"] is None and figures["short_f1"] is None
