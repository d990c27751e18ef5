"""Summary figures per slice, computed from rows alone (so a rows file can be re-summarised)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bookchat.evals.judge import found, gold_rank, source_matches
from bookchat.evals.reads_whole import read_faults
from bookchat.evals.rows import EvalRow


def _percentile(values: Sequence[float], q: float) -> float | None:
    ordered = sorted(values)
    if not ordered:
        return None
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return round(ordered[index], 2)


def _ratio(hits: int, total: int) -> float | None:
    return round(hits / total, 4) if total else None


def _ranks(rows: Sequence[EvalRow]) -> list[int | None]:
    # Retrieval is judged where there is retrieval and a gold section to find (an overview's
    # gold is its scope's outline, which no retrieval is asked for).
    return [
        gold_rank(r.retrieved_sources, r.expected_sources)
        for r in rows
        if r.expected_status == "grounded"
        and r.expected_sources
        and r.mode != "selection"
        and not r.overview_expected
    ]


def _mean(values: Sequence[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def _answer_words(rows: Sequence[EvalRow]) -> dict[str, float | None]:
    """Token F1 against the reference answers, and how much of the oracle's F1 that is."""
    f1 = [r.answer_f1 for r in rows if r.answer_f1 is not None]
    recall = [r.answer_recall for r in rows if r.answer_recall is not None]
    oracle = [r.oracle_f1 for r in rows if r.oracle_f1 is not None]
    # The ratio compares the answer with the oracle on the same rows (those with both figures).
    paired = [
        (r.answer_f1, r.oracle_f1)
        for r in rows
        if r.answer_f1 is not None and r.oracle_f1 is not None
    ]
    reachable = sum(o for _, o in paired)
    return {
        "answer_f1": _mean(f1),
        "answer_recall": _mean(recall),
        "oracle_f1": _mean(oracle),
        "f1_of_oracle": round(sum(a for a, _ in paired) / reachable, 4) if reachable else None,
    }


def _short_answers(rows: Sequence[EvalRow]) -> dict[str, float | None]:
    """The reader's short answers on the rows they are judged on (short_answer.py)."""
    judged = [r for r in rows if r.short_f1 is not None]
    given = [r.actual_status == "grounded" and r.short_answer is not None for r in judged]
    return {
        "short_answered": _ratio(sum(given), len(judged)),
        "short_em": _mean([r.short_em for r in judged if r.short_em is not None]),
        "short_f1": _mean([r.short_f1 for r in judged if r.short_f1 is not None]),
    }


def _overviews(rows: Sequence[EvalRow]) -> dict[str, float | None]:
    """Overview questions answered as overviews, and look-alikes answered the usual way."""
    asked = [r for r in rows if r.overview_expected is True]
    alike = [r for r in rows if r.overview_expected is False]
    return {
        "overview_recall": _ratio(sum(r.overview_scope is not None for r in asked), len(asked)),
        "lookalike_rejection": _ratio(sum(r.overview_scope is None for r in alike), len(alike)),
    }


def _found(row: EvalRow) -> bool:
    shown = [*row.cited_sources, *row.related_sources]
    passed = row.passed and row.expected_status == "grounded"
    return found(passed, shown, row.expected_sources)


def _auroc(scored: Sequence[tuple[float, bool]]) -> float | None:
    """P(a right answer's confidence > a wrong one's), ties counted half; None without both."""
    right = [s for s, ok in scored if ok]
    wrong = [s for s, ok in scored if not ok]
    if not right or not wrong:
        return None
    wins = sum((r > w) + 0.5 * (r == w) for r in right for w in wrong)
    return round(wins / (len(right) * len(wrong)), 4)


def _outcomes(rows: Sequence[EvalRow]) -> dict[str, float | None]:
    """What readers were shown (issue #60): the answering place, and false declines."""
    # Rows that name where the answer is: the gold must be shown, cited or as a related place
    # (a wrong-chapter row's gold is the real location, in another chapter).
    located = [
        r for r in rows if r.expected_sources and r.mode != "selection" and not r.overview_expected
    ]
    covered = [r for r in rows if r.expected_status == "grounded"]
    grounded = [r for r in rows if r.actual_status == "grounded"]
    judged = [
        (r.confidence, r.passed)
        for r in grounded
        if r.expected_status == "grounded"
        and r.expected_answer_contains
        and r.confidence is not None
    ]
    share = {
        f"{status}_share": _ratio(sum(r.actual_status == status for r in rows), len(rows))
        for status in ("grounded", "related", "abstained")
    }
    return {
        "found": _ratio(sum(map(_found, located)), len(located)),
        "false_decline": _ratio(sum(r.actual_status == "abstained" for r in covered), len(covered)),
        **share,
        "precision": _ratio(sum(r.passed for r in grounded), len(grounded)),
        "confidence_auroc": _auroc(judged),
    }


def _first_citation_is_gold(row: EvalRow) -> bool:
    return bool(row.cited_sources) and source_matches(row.cited_sources[0], row.expected_sources)


def _first_citation_on_gold_page(row: EvalRow) -> bool:
    # The page-level reading of cite@1: a SQuAD article is one page, so this asks whether the
    # answer came from the right article at all, where cite_at_1 asks for the right paragraph.
    return bool(row.cited_sources) and any(
        row.cited_sources[0]["path"] == gold["path"] for gold in row.expected_sources
    )


def _reads_whole(row: EvalRow) -> bool:
    # A selection is quoted as the reader's plain text (no backticks to open a command with).
    return not read_faults(row.answer, markup=row.mode != "selection")


def slice_metrics(rows: Sequence[EvalRow]) -> dict[str, Any]:
    """Every figure of one group of rows; None where the group has nothing to measure."""
    ranks = _ranks(rows)
    grounded = [r for r in rows if r.expected_status == "grounded"]
    gold_rows = [r for r in grounded if r.expected_sources]
    cited = [(c, r.expected_sources) for r in gold_rows for c in r.cited_sources]
    # Declined: no answer given, whether nothing was shown or the closest places were.
    abstained = [r for r in rows if r.actual_status in ("abstained", "related")]
    answers = [r for r in rows if r.actual_status == "grounded"]
    expected_abstained = [r for r in rows if r.expected_status == "abstained"]
    judged = [r for r in rows if r.expected_answer_contains]
    latencies = [r.latency_ms for r in rows]
    first_tokens = [r.first_token_ms for r in rows if r.first_token_ms is not None]
    return {
        "rows": len(rows),
        "errors": sum(r.actual_status == "error" for r in rows),
        "pass_rate": _ratio(sum(r.passed for r in rows), len(rows)),
        "status_accuracy": _ratio(sum(r.status_ok for r in rows), len(rows)),
        "recall_at_1": _ratio(sum(k == 1 for k in ranks), len(ranks)),
        "recall_at_5": _ratio(sum(k is not None and k <= 5 for k in ranks), len(ranks)),
        "mrr": round(sum(1 / k for k in ranks if k) / len(ranks), 4) if ranks else None,
        "citation_accuracy": _ratio(sum(r.citation_ok for r in gold_rows), len(gold_rows)),
        "citation_precision": _ratio(sum(source_matches(c, g) for c, g in cited), len(cited)),
        "abstention_precision": _ratio(
            sum(r.expected_status == "abstained" for r in abstained), len(abstained)
        ),
        "abstention_recall": _ratio(
            sum(r.status_ok for r in expected_abstained), len(expected_abstained)
        ),
        "answer_contains": _ratio(sum(r.content_ok for r in judged), len(judged)),
        **_answer_words(rows),
        **_short_answers(rows),
        "answered": _ratio(sum(r.actual_status == "grounded" for r in grounded), len(grounded)),
        "cite_at_1": _ratio(sum(map(_first_citation_is_gold, gold_rows)), len(gold_rows)),
        "cite_page_at_1": _ratio(sum(map(_first_citation_on_gold_page, gold_rows)), len(gold_rows)),
        # Answers given that a reader can read as they stand (reads_whole.py), of all answers.
        "reads_whole": _ratio(sum(map(_reads_whole, answers)), len(answers)),
        "latency_ms_p50": _percentile(latencies, 0.50),
        "latency_ms_p95": _percentile(latencies, 0.95),
        # Answers the model wrote (the rest were extractive, or fell back to it).
        "generated": _ratio(sum(r.generator == "llm" for r in rows), len(rows)),
        "first_token_ms_p50": _percentile(first_tokens, 0.50),
        "first_token_ms_p95": _percentile(first_tokens, 0.95),
        "retrieval_mismatches": sum(not r.retrieval_consistent for r in rows),
        **_overviews(rows),
        **_outcomes(rows),
    }


def summarise(rows: Sequence[EvalRow]) -> dict[str, Any]:
    """Versions, {"slices": {slice: figures}} in first-seen order, and "all"."""
    by_slice: dict[str, list[EvalRow]] = {}
    for row in rows:
        by_slice.setdefault(row.slice, []).append(row)

    def distinct(values: set[str]) -> str | list[str] | None:
        # More than one version in one summary is reported as a list, never hidden.
        ordered = sorted(values)
        return ordered[0] if len(ordered) == 1 else (ordered or None)

    return {
        "dataset_version": distinct({r.dataset_version for r in rows}),
        "run_version": distinct({r.run_version for r in rows}),
        "corpus_version": distinct({r.corpus_version for r in rows}),
        "slices": {name: slice_metrics(group) for name, group in by_slice.items()},
        "all": slice_metrics(rows),
    }
