"""Composing overview answers from the outline: summaries quoted, outlines within budget."""

from __future__ import annotations

import re

from bookchat.markdown.page_outline import OutlineSection, PageOutline
from bookchat.overview.compose import BUDGET, book_overview, chapter_overview, page_overview, words
from bookchat.overview.said import ENGLISH, FRENCH
from tests.overview.book import sample_book

CHAPTER = {"key": "tools", "title": "Tools"}
PAGE = {"path": "tools.md", "doc_id": "tools", "title": "Tools", "url": "/docs/tools"}


def _section(heading: str, depth: int = 1, kind: str = "body", lead: str = "") -> OutlineSection:
    url = "/docs/tools" + (f"#{heading.lower()}" if depth else "")
    return OutlineSection(heading, depth, url, f"id-{heading}", lead, lead or "Text.", kind)  # type: ignore[arg-type]


def test_a_page_with_its_authors_summary_is_answered_by_quoting_it() -> None:
    summary = OutlineSection(
        "Summary", 1, "/docs/tools#summary", "id-s", "", "Saws cut.", "summary"
    )
    outline = PageOutline("", (_section("Saws", lead="A saw cuts wood."), summary))
    found = page_overview(CHAPTER, PAGE, outline, ENGLISH)
    assert found is not None
    assert found.answer == "The authors' own summary of “Tools”:\n\nSaws cut. [1]"
    assert [c.section.heading for c in found.cited] == ["Summary"]


def test_a_page_outline_links_every_section_in_reading_order_with_its_lead() -> None:
    outline = PageOutline(
        "All about tools.",
        (
            _section("Tools", depth=0, lead="Tools help."),
            _section("Saws", lead="A saw cuts wood."),
            _section("Exercises", kind="furniture"),
            _section("Drills", lead="A drill bores holes."),
        ),
    )
    found = page_overview(CHAPTER, PAGE, outline, FRENCH)
    assert found is not None
    assert found.answer == (
        "Plan de la page « Tools »\u00a0:\n\n"
        "- [Tools](/docs/tools): All about tools. [1]\n"
        "- [Saws](/docs/tools#saws): A saw cuts wood. [2]\n"
        "- [Exercises](/docs/tools#exercises) [3]\n"
        "- [Drills](/docs/tools#drills): A drill bores holes. [4]"
    )


def test_an_outline_over_its_budget_keeps_the_broad_lines_and_counts_the_rest() -> None:
    long_lead = " ".join(["word"] * 40) + "."
    sections = tuple(_section(f"S{i}", lead=long_lead) for i in range(60))
    found = page_overview(CHAPTER, PAGE, PageOutline("", sections), ENGLISH)
    assert found is not None
    shown_text, note = found.answer.split("\n\n(")
    read = re.sub(r"\s\[\d+\]$|^- ", "", shown_text, flags=re.M)
    assert words(read) <= BUDGET["page"]
    assert "[S0](/docs/tools#s0): word" in shown_text  # the first sections keep their leads
    left = int(re.search(r"and (\d+) more sections", note).group(1))  # type: ignore[union-attr]
    assert shown_text.count("\n- ") + left == 60


def test_a_chapter_outline_lists_each_of_its_pages_and_nothing_else() -> None:
    catalog, outlines = sample_book()
    chapter = catalog.chapter("everyday-git")
    assert chapter is not None
    found = chapter_overview(chapter, outlines, ENGLISH)
    assert found is not None
    assert {c.page["path"] for c in found.cited} == {p["path"] for p in chapter["pages"]}
    assert all(c.chapter["key"] == "everyday-git" for c in found.cited)


def test_a_book_outline_describes_a_chapter_by_its_landing_page_or_its_pages() -> None:
    catalog, outlines = sample_book()
    found = book_overview(catalog.chapters, outlines, ENGLISH)
    assert found is not None
    lines = found.answer.splitlines()
    branching = next(x for x in lines if "[Branching and Merging]" in x)
    assert "Overview of branching and merging in Git" in branching  # its index page
    started = next(x for x in lines if "[Getting Started]" in x)
    assert "[Your First Repository](/docs/getting-started/first-repository)" in started
