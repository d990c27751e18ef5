"""Judging one answer against its fixture: status, citations and content."""

from __future__ import annotations

from collections.abc import Sequence

from bookchat.evals.rows import SourceRef


def source_matches(cited: SourceRef, expected: Sequence[SourceRef]) -> bool:
    """True when a cited (or retrieved) source is one of the expected ones.

    A selection is cited by its page alone (the service cannot know which section the reader
    selected from), so an empty cited section matches any expected section of that page. Some
    fixtures name only the page an answer is on; an empty expected section matches any cited
    section of that page.
    """
    for gold in expected:
        if cited["path"] != gold["path"]:
            continue
        if not cited["section"] or not gold.get("section") or cited["section"] == gold["section"]:
            return True
    return False


def gold_rank(ranked: Sequence[SourceRef], expected: Sequence[SourceRef]) -> int | None:
    """1-based rank of the first source matching an expected one, or None."""
    for rank, source in enumerate(ranked, start=1):
        if source_matches(source, expected):
            return rank
    return None


def nothing_shown(slice_name: str) -> bool:
    """Off-topic slices: the book does not touch the question, so no section may be shown."""
    return slice_name.endswith("off-topic")


def status_ok(slice_name: str, expected: str, actual: str) -> bool:
    """The status expected, or `related` where a decline is: the reader is told the book has
    no direct answer and shown where it comes closest (never on an off-topic slice)."""
    if actual == expected:
        return True
    return expected == "abstained" and actual == "related" and not nothing_shown(slice_name)


def found(passed: bool, shown: Sequence[SourceRef], expected: Sequence[SourceRef]) -> bool:
    """The reader is led to the answer: it passed, or a gold section is among those shown."""
    return passed or any(source_matches(s, expected) for s in shown)


def citation_ok(
    expected_status: str, cited: Sequence[SourceRef], expected: Sequence[SourceRef]
) -> bool:
    """Grounded rows: some citation is gold (or no gold is given). Abstained: nothing cited."""
    if expected_status == "abstained":
        return not cited
    if not expected:
        return True
    return any(source_matches(c, expected) for c in cited)


def overview_citations_ok(cited: Sequence[SourceRef], expected: Sequence[SourceRef]) -> bool:
    """An overview cites every expected source (a page, or a section) and nothing outside the
    pages they are on (no other chapter, no other page)."""
    pages = {gold["path"] for gold in expected}
    inside = all(c["path"] in pages for c in cited)
    return bool(cited) and inside and all(source_matches_any(gold, cited) for gold in expected)


def source_matches_any(gold: SourceRef, cited: Sequence[SourceRef]) -> bool:
    """True when some citation is this expected source (any section of it, if it names none)."""
    return any(source_matches(c, [gold]) for c in cited)


def content_ok(answer: str, expected_phrases: Sequence[str]) -> bool:
    """An expected phrase is in the answer, case-insensitively; true when none is expected."""
    if not expected_phrases:
        return True
    lowered = answer.lower()
    return any(phrase.lower() in lowered for phrase in expected_phrases)
