"""The outline of every page, built at ingest from the chunks it makes (stored in the catalog).

Each section of a page becomes an OutlineSection: its heading, link and first chunk (what an
overview cites), its lead sentence (what an outline line quotes, from the units ingest parsed for
the chunks) and its opening passage as written (what a model summarising the section reads, or,
for the authors' own "Summary", what is quoted: chunk text reflows lists, the section does not).
It is made from the same sections as the chunks, so it changes exactly when they do.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from bookchat.ingest.chapters import Chapter
from bookchat.ingest.pages import Page
from bookchat.ingest.sections import split_sections
from bookchat.markdown.page_outline import Kind, OutlineSection, PageOutline, edition_key
from bookchat.markdown.units import ANAPHOR, FENCE, LIST_ITEM, Unit, is_furniture_heading

# Headings of the authors' own summary of a page (English and French).
_SUMMARY_HEADING = re.compile(
    r"^(?:\d+(?:\.\d+)*\.?\s+)?(?:(?:chapter |lesson |module |page )?summary|in summary|"
    r"key (?:takeaways|points)|takeaways|recap|wrap[- ]up|conclusions?|tl;?dr|"
    r"r[ée]sum[ée]|en r[ée]sum[ée]|synth[èe]se|[àa] retenir|points? cl[ée]s|l'essentiel)"
    r"\s*[:!.]?$",
    re.IGNORECASE,
)
LEAD_WORDS = 60  # a section's opening passage, for a model's summary
SUMMARY_WORDS = 200  # the authors' summary, quoted whole up to this
_MIN_LEAD_WORDS = 4
_MAX_CODE_LINES = 8  # a short example belongs in a section's opening; a script does not


def is_summary_heading(heading: str) -> bool:
    """True for a heading of the authors' own summary ("Summary", "Key Takeaways", "Résumé")."""
    return bool(_SUMMARY_HEADING.match(heading.strip().strip("*").strip()))


def _kind(heading: str, depth: int) -> Kind:
    if depth > 0 and is_summary_heading(heading):
        return "summary"
    if depth > 0 and is_furniture_heading(heading):
        return "furniture"
    return "body"


def lead_sentence(units: Sequence[Unit]) -> str:
    """The first sentence that reads on its own: not a list, code or table, not a lead-in ending
    on a colon, not opening on a pronoun whose antecedent is elsewhere."""
    for unit in units:
        if unit.role not in ("prose", "definition", "furniture", "admonition"):
            continue
        text = re.sub(r"^\s*>\s?", "", unit.text).strip()
        # Furniture takes every role under its heading, code and tables included.
        if FENCE.match(text) or text.startswith("|") or LIST_ITEM.match(text):
            continue
        if text.endswith(":") or ANAPHOR.match(text):
            continue
        if len(text.split()) >= _MIN_LEAD_WORDS:
            return text
    return ""


def _paragraphs(markdown: str) -> list[str]:
    """Blank-line separated blocks of Markdown, a fenced block (blank lines and all) kept whole."""
    blocks: list[list[str]] = [[]]
    fenced = False
    for line in markdown.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        if not line.strip() and not fenced:
            blocks.append([])
        else:
            blocks[-1].append(line)
    return ["\n".join(b).strip("\n") for b in blocks if any(x.strip() for x in b)]


def opening_passage(markdown: str, max_words: int) -> str:
    """The section's opening paragraphs, lists and short examples as written, whole blocks up to
    about `max_words` (tables and long scripts left out), never ending on a lead-in."""
    kept: list[str] = []
    words = 0
    for block in _paragraphs(markdown):
        if words >= max_words:
            break
        if block.lstrip().startswith("|"):
            continue
        if FENCE.match(block) and block.count("\n") > _MAX_CODE_LINES + 1:
            continue
        kept.append(block)
        words += len(block.split())
    # A lead-in whose list or code was left out (too long, or past the budget) introduces nothing.
    out: list[str] = []
    for i, block in enumerate(kept):
        following = kept[i + 1] if i + 1 < len(kept) else ""
        last = block.rstrip().splitlines()[-1] if block.strip() else ""
        if last.rstrip().endswith(":") and not re.match(r"\s*(?:[-*+]|\d+[.)]|```|~~~)", following):
            block = "\n".join(block.rstrip().splitlines()[:-1]).rstrip()
        if block:
            out.append(block)
    return "\n\n".join(out)


def _first_chunks(
    chunks: Iterable[Any],
) -> dict[tuple[tuple[str, ...], int], tuple[Any, list[Unit]]]:
    """(heading path, nth time the page repeats it) -> the section's first chunk and its units."""
    found: dict[tuple[tuple[str, ...], int], tuple[Any, list[Unit]]] = {}
    seen_paths: dict[tuple[str, ...], int] = {}
    current: list[Unit] = []
    seen_units: set[tuple[str, int]] = set()
    for chunk in chunks:
        payload = chunk.payload
        if int(payload.get("position", 0)) == 0:
            path = tuple(str(h) for h in payload.get("heading_path") or ())
            nth = seen_paths.get(path, 0)
            seen_paths[path] = nth + 1
            current, seen_units = [], set()
            found[(path, nth)] = (chunk, current)
        for row in payload.get("units") or []:
            unit = Unit.from_json(row)
            if (unit.text, unit.block) not in seen_units:  # overlapping chunks repeat units
                seen_units.add((unit.text, unit.block))
                current.append(unit)
    return found


def page_outline(page: Page, chunks: Iterable[Any]) -> PageOutline:
    """A page's outline: its sections as split for its chunks (in `chunks`, corpus order), its
    frontmatter description."""
    firsts = _first_chunks(chunks)
    seen_paths: dict[tuple[str, ...], int] = {}
    sections = []
    for section in split_sections(page.title, page.body):
        nth = seen_paths.get(section.heading_path, 0)
        seen_paths[section.heading_path] = nth + 1
        found = firsts.get((section.heading_path, nth))
        if found is None:  # a section too empty to make a chunk
            continue
        chunk, units = found
        depth = len(section.heading_path) - 1
        kind = _kind(section.heading, depth)
        sections.append(
            OutlineSection(
                heading=section.heading,
                depth=depth,
                url=str(chunk.payload["url"]),
                chunk_id=str(chunk.chunk_id),
                lead=lead_sentence(units),
                passage=opening_passage(
                    section.body, SUMMARY_WORDS if kind == "summary" else LEAD_WORDS
                ),
                kind=kind,
            )
        )
    description = page.frontmatter.get("description")
    return PageOutline(description.strip() if isinstance(description, str) else "", tuple(sections))


def edition_outlines(
    editions: Iterable[tuple[str, str, Sequence[Chapter]]], chunks: Iterable[Any]
) -> dict[str, dict[str, Any]]:
    """`outlines` of the catalog: edition key -> doc id -> page outline, for every page of every
    (version, locale, chapters) given, from the chunks that hold it."""
    by_page: dict[tuple[str, str], list[Any]] = {}
    for chunk in chunks:
        payload = chunk.payload
        key = edition_key(str(payload.get("version")), str(payload.get("locale")))
        by_page.setdefault((key, str(payload["doc_id"])), []).append(chunk)
    out: dict[str, dict[str, Any]] = {}
    for version, locale, chapters in editions:
        key = edition_key(version, locale)
        pages = out.setdefault(key, {})
        for chapter in chapters:
            for page in chapter.pages:
                outline = page_outline(page, by_page.get((key, page.doc_id), []))
                pages[page.doc_id] = outline.to_json()
    return out
