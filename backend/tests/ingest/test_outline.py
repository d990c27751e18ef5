"""The outline ingest stores with the catalog: every page's sections, links, leads, summaries."""

from __future__ import annotations

from pathlib import Path

from bookchat.ingest.corpus import build_corpus
from bookchat.ingest.outline import is_summary_heading, lead_sentence, opening_passage
from bookchat.markdown.page_outline import PageOutline, outlines_of
from bookchat.markdown.units import split_units
from tests.conftest import SAMPLE_BOOK
from tests.sites import write_pages


def _outline(docs: Path, doc_id: str) -> PageOutline:
    fields = build_corpus(docs).catalog_fields()
    return outlines_of(fields, "current", "en")[doc_id]


def test_every_published_page_of_the_sample_book_has_its_sections_in_reading_order() -> None:
    corpus = build_corpus(SAMPLE_BOOK)
    outlines = outlines_of(corpus.catalog_fields(), "current", "en")
    pages = [page for chapter in corpus.chapters for page in chapter.pages]
    assert set(outlines) == {page.doc_id for page in pages}
    assert "troubleshooting" not in outlines  # a draft
    firsts = [c for c in corpus.chunks if c.payload["position"] == 0]
    for page in pages:
        sections = outlines[page.doc_id].sections
        expected = [c for c in firsts if c.payload["doc_id"] == page.doc_id]
        assert [s.chunk_id for s in sections] == [c.chunk_id for c in expected]
        assert [s.url for s in sections] == [c.payload["url"] for c in expected]


def test_a_page_keeps_its_frontmatter_description_and_heading_depths(tmp_path: Path) -> None:
    write_pages(
        tmp_path,
        {
            "tools.md": "---\ntitle: Tools\ndescription: The tools of the trade.\n---\n\n"
            "Tools make work easier for everyone.\n\n## Hammers\n\nA hammer drives nails into wood."
            "\n\n### Claw hammers\n\nA claw hammer also pulls nails out.\n"
        },
    )
    outline = _outline(tmp_path, "tools")
    assert outline.description == "The tools of the trade."
    assert [(s.heading, s.depth) for s in outline.sections] == [
        ("Tools", 0),
        ("Hammers", 1),
        ("Claw hammers", 2),
    ]
    assert outline.sections[2].url == "/docs/tools#claw-hammers"
    assert outline.sections[1].lead == "A hammer drives nails into wood."


def test_the_authors_summary_is_kept_whole_and_an_empty_one_is_not_a_summary(
    tmp_path: Path,
) -> None:
    write_pages(
        tmp_path,
        {
            "a.md": "# Lesson A\n\n## Saws\n\nA saw cuts wood along a line.\n\n## Key Takeaways\n\n"
            "Remember three things:\n\n- Measure twice.\n- Cut once.\n- Sand the edges.\n",
            "b.md": "# Lesson B\n\n## Drills\n\nA drill bores holes.\n\n## Summary\n",
        },
    )
    summary = _outline(tmp_path, "a").summary
    assert summary is not None and summary.heading == "Key Takeaways"
    assert summary.passage == (
        "Remember three things:\n\n- Measure twice.\n- Cut once.\n- Sand the edges."
    )
    assert _outline(tmp_path, "b").summary is None


def test_summary_headings_are_the_authors_recaps_not_every_key_heading() -> None:
    for heading in ("Summary", "7. Summary", "Key Takeaways", "Recap", "En résumé", "À retenir"):
        assert is_summary_heading(heading), heading
    for heading in ("Key Concepts", "Summary of Architecture", "Technical Requirements Summary"):
        assert not is_summary_heading(heading), heading


def test_a_lead_sentence_reads_on_its_own() -> None:
    units = split_units(
        "It is fast.\n\nGit moves content between three places:\n\n- the tree\n- the index\n\n"
        "```bash\ngit status\n```\n\nThe index records the next commit."
    )
    assert lead_sentence(units) == "The index records the next commit."


def test_an_opening_passage_never_ends_on_a_lead_in_whose_code_was_left_out() -> None:
    script = "\n".join(f"echo {i}" for i in range(20))
    long = f"Run this script to set up the machine:\n\n```bash\n{script}\n```\n\nThen reboot it."
    assert opening_passage(long, 60) == "Then reboot it."
    short = "Check the version with:\n\n```bash\ngit --version\n```\n\n| a | b |\n| - | - |\n"
    assert opening_passage(short, 60) == "Check the version with:\n\n```bash\ngit --version\n```"


def test_an_opening_passage_stops_at_its_budget_in_whole_blocks() -> None:
    text = "One two three four five.\n\nSix seven eight nine ten.\n\nEleven twelve."
    assert opening_passage(text, 5) == "One two three four five."
