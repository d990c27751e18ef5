"""Scoring an answer's words against a reference answer (SQuAD's token F1 and recall)."""

from __future__ import annotations

import pytest

from bookchat.evals.answer_words import (
    AnswerScore,
    plain_text,
    reference_recall,
    score_answer,
    token_f1,
    words,
)


def test_citation_markers_and_inline_markup_are_removed() -> None:
    answer = (
        "**Actions** suit *long* tasks [1][2]. "
        "See [the guide](https://x.org/a) and `ros2 run` [3, 4]."
    )
    assert plain_text(answer) == "Actions suit long tasks. See the guide and ros2 run."


def test_block_markup_is_removed_and_code_kept() -> None:
    answer = (
        "## Steps\n"
        "1. Build with `colcon build` [3]\n"
        "- Source it\n"
        "\n"
        "| Tool | Use |\n"
        "| --- | --- |\n"
        "| colcon | build |\n"
        "```bash\n"
        "source install/setup.bash\n"
        "```"
    )
    assert plain_text(answer) == (
        "Steps Build with colcon build Source it Tool Use colcon build source install/setup.bash"
    )


def test_normalisation_lowercases_and_drops_punctuation_and_articles() -> None:
    assert words("The robot's arm—a “joint”, isn't it? An A.") == [
        "robots",
        "arm",
        "joint",
        "isnt",
        "it",
    ]
    # Punctuation separates words: parts of paths and names stay words of their own.
    assert words("use_sim_time:=true in install/setup.bash") == [
        "use",
        "sim",
        "time",
        "true",
        "in",
        "install",
        "setup",
        "bash",
    ]


def test_f1_and_recall_on_small_cases() -> None:
    # answer: cat sat on mat (4 words); reference: cat sat (2); 2 shared.
    assert token_f1("The cat sat on the mat [1].", "A cat sat.") == pytest.approx(2 / 3)
    assert reference_recall("The cat sat on the mat [1].", "A cat sat.") == 1.0
    # Shared words count as often as both sides have them, as in SQuAD.
    assert token_f1("cat cat", "cat dog") == 0.5
    assert reference_recall("cat", "cat cat dog") == pytest.approx(1 / 3)
    assert token_f1("nothing shared", "cat dog") == 0.0
    assert token_f1("**Same** words [1]", "same words") == 1.0


def test_markup_alone_does_not_change_the_score() -> None:
    reference = "A **node** is a process; a `topic` is a channel."
    assert token_f1("- A node is a process [1]. A topic is a channel [2].", reference) == 1.0


def test_an_abstention_scores_zero_whatever_words_it_shares() -> None:
    reference = "The book does not cover wombats."
    refusal = "The book does not cover this question."
    assert score_answer("grounded", "abstained", refusal, reference) == AnswerScore(0.0, 0.0)
    assert score_answer("grounded", "error", "", reference) == AnswerScore(0.0, 0.0)
    grounded = score_answer("grounded", "grounded", refusal, reference)
    assert grounded is not None and grounded.f1 > 0


def test_no_reference_or_a_row_that_should_abstain_is_not_scored() -> None:
    assert score_answer("grounded", "grounded", "anything", None) is None
    # A wrong-chapter row keeps its real location's reference; abstaining there is right.
    assert score_answer("abstained", "abstained", "Not here.", "A process.") is None
    assert score_answer("abstained", "grounded", "A process.", "A process.") is None
