"""Metric arithmetic on hand-made rows."""

from __future__ import annotations

from bookchat.evals.fixtures import Fixture
from bookchat.evals.judge import citation_ok, content_ok, gold_rank, source_matches, status_ok
from bookchat.evals.metrics import summarise
from tests.evals.factory import GOLD, OTHER, abstained, failed, row


def test_recall_and_mrr_use_the_retrieved_ranking_not_the_citations() -> None:
    rows = [
        row("1", latency_ms=10.0),
        row("2", retrieved_sources=[OTHER, GOLD], cited_sources=[OTHER], latency_ms=20.0),
        failed("3", retrieved_sources=[OTHER], latency_ms=30.0),
    ]
    s = summarise(rows)["slices"]["book/answerable"]
    assert s["recall_at_1"] == round(1 / 3, 4)
    assert s["recall_at_5"] == round(2 / 3, 4)
    assert s["mrr"] == round((1 + 0.5) / 3, 4)
    assert s["citation_precision"] == 0.5
    assert s["latency_ms_p50"] == 20.0


def test_pass_rate_status_and_containment() -> None:
    rows = [row("1"), row("2", content_ok=False, passed=False), failed("3")]
    s = summarise(rows)["slices"]["book/answerable"]
    assert s["pass_rate"] == round(1 / 3, 4)
    assert s["status_accuracy"] == round(2 / 3, 4)
    assert s["answer_contains"] == round(1 / 3, 4)


def test_abstention_precision_and_recall_over_expected_and_actual() -> None:
    rows = [
        abstained("o1"),
        abstained("o2", actual_status="grounded", status_ok=False, passed=False),
        failed("a1"),
        row("a2"),
    ]
    summary = summarise(rows)
    overall = summary["all"]
    assert overall["abstention_recall"] == 0.5  # o1 of o1, o2
    assert overall["abstention_precision"] == 0.5  # o1 of o1, a1
    off_topic = summary["slices"]["book/off-topic"]
    assert off_topic["recall_at_1"] is None
    assert off_topic["answer_contains"] is None


def test_selection_rows_have_no_retrieval_figures() -> None:
    rows = [row("s1", "selection/answerable", mode="selection", retrieved_sources=[])]
    s = summarise(rows)["slices"]["selection/answerable"]
    assert s["recall_at_5"] is None
    assert s["pass_rate"] == 1.0


def test_mixed_versions_are_listed_not_hidden() -> None:
    summary = summarise([row("1"), row("2", corpus_version="corpus2")])
    assert summary["corpus_version"] == ["corpus1", "corpus2"]
    assert summary["dataset_version"] == "v1"


def test_judging_citations_and_content() -> None:
    page_only = {"path": "a.md", "section": ""}
    assert citation_ok("grounded", [page_only], [GOLD])  # a selection is cited by its page
    assert not citation_ok("grounded", [OTHER], [GOLD])
    assert citation_ok("abstained", [], [GOLD])
    assert not citation_ok("abstained", [GOLD], [])
    assert gold_rank([OTHER, GOLD], [GOLD]) == 2
    assert content_ok("Use --Force-With-Lease.", ["--force-with-lease"])
    assert content_ok("anything", [])
    assert not content_ok("nothing here", ["lease"])


def test_answer_word_figures_answered_and_first_citation() -> None:
    rows = [
        row("1", answer_f1=0.5, answer_recall=0.6, oracle_f1=0.8, cited_sources=[GOLD, OTHER]),
        row("2", answer_f1=0.3, answer_recall=0.2, oracle_f1=0.4, cited_sources=[OTHER, GOLD]),
        failed("3", answer_f1=0.0, answer_recall=0.0),  # no gold page indexed: no oracle
        row("4", expected_sources=[]),  # no reference, no gold source
        abstained("o1"),  # expected to abstain: neither answered nor cited counts it
    ]
    s = summarise(rows)["all"]
    assert s["answer_f1"] == round(0.8 / 3, 4)
    assert s["answer_recall"] == round(0.8 / 3, 4)
    assert s["oracle_f1"] == 0.6
    # Compared on the rows that have both figures: (0.5 + 0.3) / (0.8 + 0.4).
    assert s["f1_of_oracle"] == round(0.8 / 1.2, 4)
    assert s["answered"] == 0.75  # 1, 2 and 4 of the four expected grounded
    assert s["cite_at_1"] == round(1 / 3, 4)  # only row 1 cites gold first, of 1, 2, 3


def test_rows_without_references_have_no_answer_word_figures() -> None:
    s = summarise([row("1"), abstained("o1")])["all"]
    assert s["answer_f1"] is None
    assert s["oracle_f1"] is None
    assert s["f1_of_oracle"] is None
    assert s["answered"] == 1.0
    assert s["cite_at_1"] == 1.0


def test_a_gold_source_without_a_section_matches_any_section_of_its_page() -> None:
    page = {"path": "a.md", "section": ""}
    assert source_matches({"path": "a.md", "section": "Anything"}, [page])
    assert not source_matches(OTHER, [page])
    assert gold_rank([OTHER, {"path": "a.md", "section": "Deep"}], [page]) == 2
    assert citation_ok("grounded", [{"path": "a.md", "section": "Deep"}], [page])


def test_the_fixture_loader_reads_a_null_section_as_any_section() -> None:
    base = {"id": "1", "question": "What is a node?", "dataset_version": "v1"}
    fixture = Fixture.from_json(
        {
            **base,
            "expected_sources": [{"path": "a.md", "section": None}],
            "reference_answer": "A process.",
        }
    )
    assert fixture.expected_sources == [("a.md", "")]
    assert fixture.reference_answer == "A process."
    assert Fixture.from_json(base).reference_answer is None


def test_reads_whole_is_the_share_of_given_answers_without_faults() -> None:
    rows = [
        row("1", answer="Git stores snapshots. [1]"),
        row("2", answer="It never stores diffs. [1]"),
        row("3", answer="A remote is a named URL. [1]"),
        failed("4"),  # an abstention quotes nothing: not judged
        abstained("o1"),
    ]
    assert summarise(rows)["all"]["reads_whole"] == round(2 / 3, 4)


def test_found_counts_a_gold_section_shown_as_a_related_place() -> None:
    rows = [
        row("1"),  # passed
        failed("2", actual_status="related", related_sources=[OTHER, GOLD]),  # gold shown
        failed("3", actual_status="related", related_sources=[OTHER]),  # shown, not gold
        failed("4"),  # declined with nothing shown
    ]
    s = summarise(rows)["slices"]["book/answerable"]
    assert s["found"] == 0.5
    assert s["false_decline"] == 0.25
    assert (s["grounded_share"], s["related_share"], s["abstained_share"]) == (0.25, 0.5, 0.25)
    assert s["precision"] == 1.0


def test_a_wrong_chapter_row_is_found_when_the_real_location_is_shown() -> None:
    rows = [
        abstained("w1", "chapter/wrong-chapter", mode="chapter", expected_sources=[GOLD],
                  actual_status="related", related_sources=[GOLD]),
        abstained("w2", "chapter/wrong-chapter", mode="chapter", expected_sources=[GOLD]),
    ]  # fmt: skip
    s = summarise(rows)["slices"]["chapter/wrong-chapter"]
    assert s["found"] == 0.5
    assert s["false_decline"] is None  # nothing here is expected to be answered


def test_confidence_auroc_orders_right_answers_above_wrong_ones() -> None:
    rows = [
        row("1", confidence=0.9),
        row("2", confidence=0.8),
        row("3", confidence=0.7, content_ok=False, passed=False),
        row("4", confidence=0.85, content_ok=False, passed=False),
    ]
    s = summarise(rows)["slices"]["book/answerable"]
    assert s["confidence_auroc"] == 0.75  # 3 of the 4 right-wrong pairs in order
    assert s["precision"] == 0.5
    assert summarise([row("5", confidence=0.5)])["all"]["confidence_auroc"] is None


def test_a_decline_shown_as_related_places_passes_except_off_topic() -> None:
    assert status_ok("book/near-miss", "abstained", "related")
    assert status_ok("chapter/wrong-chapter", "abstained", "related")
    assert not status_ok("book/off-topic", "abstained", "related")
    assert not status_ok("book/reader-everyday-off-topic", "abstained", "related")
    assert not status_ok("book/answerable", "grounded", "related")
    assert status_ok("book/off-topic", "abstained", "abstained")
