"""The oracle: the best short extract of the gold page, read back from the store."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bookchat.config import Settings
from bookchat.evals.gold_pages import GoldPages, pages_of
from bookchat.evals.oracle import best_window, oracle_f1, windows
from bookchat.evals.sentence_split import split_sentences
from bookchat.vectorstore import Point, open_store


def test_windows_are_one_to_three_sentences_within_the_word_cap() -> None:
    sentences = ["a b", "c", "d e f", "g"]
    assert list(windows(sentences, max_sentences=3, max_words=4)) == [
        (0, 1),
        (0, 2),
        (1, 2),
        (1, 3),
        (2, 3),
        (2, 4),
        (3, 4),
    ]
    six = [f"Sentence number {i}." for i in range(6)]
    assert max(end - start for start, end in windows(six)) == 3


def test_a_window_never_exceeds_120_words() -> None:
    fifty = " ".join(["word"] * 50) + "."
    assert {end - start for start, end in windows([fifty] * 4)} == {1, 2}
    long_reference = " ".join(f"w{i}" for i in range(121))
    assert best_window([[long_reference]], long_reference)[0] == 0.0
    fits = " ".join(f"w{i}" for i in range(120))
    assert best_window([[fits]], fits)[0] == 1.0


def test_the_best_window_is_found_and_never_spans_sections() -> None:
    sections = [["Cats purr.", "Dogs bark loudly.", "Birds sing."], ["Fish swim."]]
    # dogs bark loudly birds sing / dogs bark and birds sing: 4 of 5 each way.
    assert best_window(sections, "Dogs bark and birds sing.") == (
        pytest.approx(0.8),
        "Dogs bark loudly. Birds sing.",
    )
    # "Birds sing. Fish swim." would score 1.0 across the two sections.
    assert oracle_f1([sections], "Birds sing. Fish swim.") == 0.6667


def test_the_oracle_is_null_without_a_reference_or_a_page() -> None:
    assert oracle_f1([], "Dogs bark.") is None
    assert oracle_f1([[["Dogs bark."]]], None) is None
    assert oracle_f1([[["Cats purr."]], [["Dogs bark."]]], "Dogs bark.") == 1.0


def test_sentences_items_rows_and_code_lines_are_units() -> None:
    text = (
        "ROS 2 has nodes. Nodes talk over topics! Why?\n\n"
        "Three parts:\n\n"
        "1. **Goal**: what to do 2. **Feedback**: progress - **Result**: the outcome\n\n"
        "> Tip: Use QoS. It matters.\n\n"
        "```bash\nros2 topic list\n```\n"
        "| Tool | Use |\n| colcon | build |"
    )
    assert split_sentences(text) == [
        "ROS 2 has nodes.",
        "Nodes talk over topics!",
        "Why?",
        "Three parts:",
        "**Goal**: what to do",
        "**Feedback**: progress",
        "**Result**: the outcome",
        "Tip: Use QoS.",
        "It matters.",
        "ros2 topic list",
        "| Tool | Use |",
        "| colcon | build |",
    ]


def _payload(path: str, section: str, position: int, text: str) -> dict[str, Any]:
    return {
        "path": path,
        "section": section,
        "heading_path": ["Page", section],
        "anchor": section.lower(),
        "position": position,
        "text": text,
    }


PAYLOADS = [
    _payload("a.md", "Second", 1, "Three fact. Four fact."),
    _payload("a.md", "Second", 0, "One fact. Two fact. Three fact."),
    # A long last sentence is carried into the next chunk as its trailing words only.
    _payload("a.md", "First", 0, "Alpha. Beta gamma delta epsilon."),
    _payload("a.md", "First", 1, "delta epsilon. Zeta."),
    _payload("b.md", "Other", 0, "Elsewhere."),
    {"path": "c.md"},  # not a chunk: no text
]


def test_overlapping_chunks_are_read_once_in_position_order() -> None:
    pages = pages_of(PAYLOADS)
    assert set(pages) == {"a.md", "b.md"}
    assert sorted(pages["a.md"]) == [
        ["Alpha.", "Beta gamma delta epsilon.", "Zeta."],
        ["One fact.", "Two fact.", "Three fact.", "Four fact."],
    ]


def test_gold_pages_reads_the_store(make_settings: Callable[..., Settings]) -> None:
    store = open_store(make_settings())
    try:
        unit = [1.0] + [0.0] * 383
        store.upsert(
            [
                Point(chunk_id=f"c{i}", vector=unit, payload={**p, "chunk_id": f"c{i}"})
                for i, p in enumerate(PAYLOADS[:5])
            ]
        )
        pages = GoldPages(store)
        assert pages.sections("b.md") == [["Elsewhere."]]
        assert pages.sections("missing.md") is None
        assert sorted(map(len, pages.sections("a.md") or [])) == [3, 4]
    finally:
        store.close()
