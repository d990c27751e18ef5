"""`bookchat eval`: fixtures through the answer service, metrics per slice as JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bookchat.cli import build_parser
from bookchat.evals.command import run_eval_command

WOMBATS = """---
title: Wombats
---

# Wombats

## Droppings

Wombats produce cube-shaped droppings, which they leave on rocks to mark their territory.

## Burrows

Wombats dig long burrows with their strong front claws and sleep in them during the day.
"""
QUOKKAS = """---
title: Quokkas
---

# Quokkas

Quokkas are small marsupials that live on Rottnest Island, off the coast of Western Australia.
"""


def _row(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "mode": "book",
        "chapter_path": None,
        "selection": None,
        "expected_status": "grounded",
        "expected_sources": [],
        "expected_answer_contains": [],
        "dataset_version": "test-v1",
    }
    return {**base, **fields}


def _answerable(
    id: str, slice: str, question: str, source: tuple[str, str], phrase: str, **fields: Any
) -> dict[str, Any]:
    """A row answered from one section, whose answer must contain one phrase."""
    path, section = source
    return _row(
        id=id,
        slice=slice,
        question=question,
        expected_sources=[{"path": path, "section": section}],
        expected_answer_contains=[phrase],
        **fields,
    )


ROWS = [
    _answerable(
        "1",
        "book/answerable",
        "What shape are wombat droppings?",
        ("01-wombats.md", "Droppings"),
        "cube-shaped",
        reference_answer="Wombat droppings are cube-shaped.",
    ),
    _row(
        id="2",
        slice="book/off-topic",
        question="Who won the 1998 football World Cup final?",
        expected_status="abstained",
    ),
    _answerable(
        "3",
        "chapter/answerable",
        "Where do quokkas live?",
        ("02-quokkas.md", "Quokkas"),
        "Rottnest",
        mode="chapter",
        chapter_path="02-quokkas.md",
    ),
    _answerable(
        "4",
        "selection/answerable",
        "What do wombats dig burrows with?",
        ("01-wombats.md", "Burrows"),
        "claws",
        mode="selection",
        selection="Wombats dig long burrows with their strong front claws.",
    ),
    _answerable(
        "5",
        "follow-up",
        "And what do they dig them with?",
        ("01-wombats.md", "Burrows"),
        "front claws",
        history=[{"question": "Where do wombats sleep during the day?", "answer": "Burrows."}],
    ),
]


@pytest.fixture
def book(tmp_path: Path) -> tuple[Path, Path]:
    """A two-page docs folder and a fixture file about it."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "01-wombats.md").write_text(WOMBATS, encoding="utf-8")
    (docs / "02-quokkas.md").write_text(QUOKKAS, encoding="utf-8")
    fixtures = tmp_path / "fixtures.jsonl"
    fixtures.write_text("\n".join(json.dumps(r) for r in ROWS) + "\n", encoding="utf-8")
    return docs, fixtures


def _eval(settings: Any, book: tuple[Path, Path], *options: str) -> int:
    """`bookchat eval` over the book with these options; its exit code."""
    docs, fixtures = book
    argv = ["eval", "--fixtures", str(fixtures), "--docs", str(docs), *options]
    return run_eval_command(settings, build_parser().parse_args(argv))


def test_eval_ingests_the_docs_and_prints_metrics_per_slice(
    book: tuple[Path, Path], make_settings: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _eval(make_settings(), book) == 0
    summary = json.loads(capsys.readouterr().out)
    slices = summary["slices"]
    assert list(slices) == [
        "book/answerable",
        "book/off-topic",
        "chapter/answerable",
        "selection/answerable",
        "follow-up",
    ]
    assert summary["all"]["rows"] == 5
    assert summary["all"]["errors"] == 0
    assert slices["book/answerable"]["recall_at_1"] == 1.0
    assert slices["book/answerable"]["answer_contains"] == 1.0
    assert slices["book/off-topic"]["status_accuracy"] == 1.0
    assert slices["chapter/answerable"]["mrr"] == 1.0
    assert slices["selection/answerable"]["answer_contains"] == 1.0
    assert {"latency_ms_p50", "latency_ms_p95"} <= set(summary["all"])


def test_slice_and_limit_select_rows(
    book: tuple[Path, Path], make_settings: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _eval(make_settings(), book, "--slice", "book/off-topic") == 0
    summary = json.loads(capsys.readouterr().out)
    assert list(summary["slices"]) == ["book/off-topic"]


def test_out_and_summary_write_judged_rows_and_figures(
    book: tuple[Path, Path], make_settings: Any, tmp_path: Path
) -> None:
    out, summary_file = tmp_path / "res" / "rows.jsonl", tmp_path / "res" / "summary.json"
    assert _eval(make_settings(), book, "--out", str(out), "--summary", str(summary_file)) == 0
    rows = {r["fixture_id"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert list(rows) == ["1", "2", "3", "4", "5"]
    first = rows["1"]
    assert first["retrieved_sources"][0] == {"path": "01-wombats.md", "section": "Droppings"}
    assert first["cited_sources"][0] == {"path": "01-wombats.md", "section": "Droppings"}
    assert first["passed"] and first["generator"] == "extractive"
    assert first["dataset_version"] == "test-v1"
    assert first["corpus_version"] and "+" in first["run_version"]
    assert rows["2"]["actual_status"] == "abstained" and rows["2"]["citation_ok"]
    # The selection is cited by the page it was selected on, as the widget would send it.
    assert rows["4"]["cited_sources"] == [{"path": "01-wombats.md", "section": ""}]
    assert rows["4"]["citation_ok"] and rows["4"]["retrieved_sources"] == []
    assert rows["5"]["passed"], rows["5"]
    # Against its reference, row 1's best extract of the indexed page is its one sentence
    # "Wombats produce cube-shaped droppings, which they …": 3 shared words of 14 and 5, F1 6/19.
    assert first["reference_answer"] == "Wombat droppings are cube-shaped."
    assert first["oracle_f1"] == 0.3158
    assert 0 < first["answer_f1"] <= 1 and 0 < first["answer_recall"] <= 1
    assert rows["2"]["answer_f1"] is None and rows["2"]["oracle_f1"] is None
    summary = json.loads(summary_file.read_text())
    assert summary["all"]["pass_rate"] == 1.0
    assert summary["slices"]["follow-up"]["recall_at_1"] == 1.0
    assert summary["slices"]["book/answerable"]["oracle_f1"] == 0.3158
    assert summary["slices"]["follow-up"]["answer_f1"] is None
    assert summary["all"]["cite_at_1"] == 1.0 and summary["all"]["answered"] == 1.0


def test_rows_record_the_readers_short_answer_scored_against_the_gold_phrases(
    book: tuple[Path, Path], make_settings: Any, tmp_path: Path
) -> None:
    out, summary_file = tmp_path / "rows.jsonl", tmp_path / "summary.json"
    options = ["--slice", "book/answerable", "--slice", "book/off-topic"]
    options += ["--out", str(out), "--summary", str(summary_file)]
    assert _eval(make_settings(), book, *options) == 0
    rows = {r["fixture_id"]: r for r in map(json.loads, out.read_text().splitlines())}
    answerable, off_topic = rows["1"], rows["2"]
    assert answerable["short_answer"] is None or answerable["short_answer"].strip()
    assert 0 <= answerable["short_em"] <= answerable["short_f1"] <= 1
    if answerable["short_answer"] is None:
        assert answerable["short_f1"] == 0.0
    assert off_topic["short_em"] is None and off_topic["short_f1"] is None
    slices = json.loads(summary_file.read_text())["slices"]
    assert slices["book/answerable"]["short_f1"] == answerable["short_f1"]
    assert slices["book/answerable"]["short_answered"] == float(
        answerable["short_answer"] is not None
    )
    assert slices["book/off-topic"]["short_f1"] is None


def test_missing_fixture_file_is_a_usage_error(
    tmp_path: Path, make_settings: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    args = build_parser().parse_args(["eval", "--fixtures", str(tmp_path / "none.jsonl")])
    assert run_eval_command(make_settings(), args) == 2


def test_eval_with_the_generator_times_the_models_answers(
    book: tuple[Path, Path],
    make_settings: Any,
    local_model: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "rows.jsonl"
    options = ["--generator", "llm", "--slice", "book/answerable", "--slice", "book/off-topic"]
    settings = make_settings(
        OPENAI_BASE_URL=local_model.base_url,
        BOOKCHAT_LLM_MODEL="local",
        BOOKCHAT_LLM_TEMPERATURE=0,
    )
    assert _eval(settings, book, *options, "--out", str(out)) == 0
    captured = capsys.readouterr()
    assert "ok   chat" in captured.err  # the probe's findings, before the rows
    slices = json.loads(captured.out)["slices"]
    answered, declined = slices["book/answerable"], slices["book/off-topic"]
    assert answered["answered"] == 1.0  # a covered question is never declined
    assert answered["first_token_ms_p50"] > 0
    assert answered["answer_f1"] is not None
    assert declined["status_accuracy"] == 1.0
    assert declined["generated"] == 0.0 and declined["first_token_ms_p50"] is None
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows[0]["first_token_ms"] <= rows[0]["latency_ms"]


def test_generator_llm_without_a_model_is_a_usage_error(
    book: tuple[Path, Path], make_settings: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _eval(make_settings(), book, "--generator", "llm") == 2
    assert "BOOKCHAT_LLM_MODEL" in capsys.readouterr().err
