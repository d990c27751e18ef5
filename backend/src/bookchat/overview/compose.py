"""An overview answer from the stored outline: the authors' own summary when the scope has one,
otherwise an outline, each line a link to its section with its lead sentence, every line cited.

An outline keeps reading order but, when the scope is larger than its word budget, keeps the
broad lines first: a chapter's pages before their sections, `##` sections before `###`, the
body before the furniture (objectives, exercises, reading lists), and says how many it left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bookchat.markdown.page_outline import OutlineSection, PageOutline
from bookchat.overview.said import OverviewPhrases
from bookchat.overview.scope import Target

# Words an answer may spend, by scope: a book outline lists every chapter, a chapter its pages
# and what room is left for their sections.
BUDGET = {"section": 120, "page": 180, "chapter": 300, "book": 350}
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_INDEX_STEMS = ("index", "intro", "introduction", "overview", "readme")


@dataclass(frozen=True, slots=True)
class Cited:
    """A section an overview cites, with the page and chapter it is in."""

    section: OutlineSection
    page: dict[str, Any]
    chapter: dict[str, Any]
    excerpt: str  # what the answer quotes of it


@dataclass(frozen=True, slots=True)
class Overview:
    """An overview answer: Markdown with [n] markers, and the sections they refer to (n - 1)."""

    answer: str
    cited: list[Cited]


@dataclass(frozen=True, slots=True)
class _Line:
    cited: Cited
    text: str  # without its marker
    short: str  # the same line without its lead sentence, when room runs out
    indent: int
    order: int  # reading order
    priority: int  # lower first when the budget is short
    counted: bool = True  # a section the "more" note counts when left out


def words(text: str) -> int:
    """Words a reader reads: links count their text only."""
    return len(_LINK_TARGET.sub("]", text).split())


def _link(title: str, url: str) -> str:
    return f"[{title.replace('[', '(').replace(']', ')')}]({url})"


def _render(intro: str, lines: list[_Line], budget: int, said: OverviewPhrases) -> Overview:
    chosen: dict[int, str] = {}
    spent = words(intro)
    for line in sorted(lines, key=lambda x: (x.priority, x.order)):
        for text in (line.text, line.short):
            if spent + words(text) <= budget or not chosen:
                chosen[line.order] = text
                spent += words(text)
                break
    kept = sorted((x for x in lines if x.order in chosen), key=lambda x: x.order)
    cited: list[Cited] = []
    index: dict[str, int] = {}
    rendered = []
    for line in kept:
        key = line.cited.section.chunk_id
        if key not in index:
            cited.append(line.cited)
            index[key] = len(cited)
        rendered.append(f"{'  ' * line.indent}- {chosen[line.order]} [{index[key]}]")
    left = sum(1 for x in lines if x.order not in chosen and x.counted)
    tail = f"\n\n{said.more.format(count=left)}" if left else ""
    return Overview(f"{intro}\n\n" + "\n".join(rendered) + tail, cited)


def _quote(intro: str, cited: Cited) -> Overview:
    return Overview(f"{intro}\n\n{cited.section.passage} [1]", [cited])


def _section_lines(
    page: dict[str, Any],
    chapter: dict[str, Any],
    sections: list[OutlineSection],
    *,
    base_depth: int,
    start: int,
    page_rank: int = 0,
) -> list[_Line]:
    """Outline lines of sections (depth > base_depth), indented under their parents."""
    lines = []
    for i, section in enumerate(sections):
        if section.depth <= base_depth or section.kind == "summary":
            continue
        short = _link(section.heading, section.url)
        text = f"{short}: {section.lead}" if section.lead else short
        level = section.depth - base_depth - 1
        furniture = 10 if section.kind == "furniture" else 0
        cited = Cited(section, page, chapter, section.lead or section.passage[:300])
        lines.append(_Line(cited, text, short, level, start + i, furniture + level * 2 + page_rank))
    return lines


def page_overview(
    chapter: dict[str, Any],
    page: dict[str, Any],
    outline: PageOutline,
    said: OverviewPhrases,
    budget: int = BUDGET["page"],
    intro: str | None = None,
) -> Overview | None:
    """A page's own summary, quoted, or its outline: its description, then its sections."""
    title = str(page.get("title", ""))
    summary = outline.summary
    if summary is not None:
        return _quote(
            said.summary.format(title=title), Cited(summary, page, chapter, summary.passage)
        )
    sections = list(outline.sections)
    lines = _section_lines(page, chapter, sections, base_depth=0, start=1)
    opening = outline.opening
    lead = outline.description or (opening.lead if opening and opening.depth == 0 else "")
    if opening is not None and lead and opening.depth == 0:
        cited = Cited(opening, page, chapter, lead)
        text = f"{_link(title, str(page.get('url', '')))}: {lead}"
        lines.insert(0, _Line(cited, text, text, 0, 0, -1, counted=False))
    if not lines:
        return None
    return _render(intro or said.page.format(title=title), lines, budget, said)


def section_overview(
    chapter: dict[str, Any],
    page: dict[str, Any],
    outline: PageOutline,
    index: int,
    said: OverviewPhrases,
) -> Overview | None:
    """A section's subsections as an outline, or, when it has none, its opening passage."""
    head = outline.sections[index]
    below = []
    for section in outline.sections[index + 1 :]:
        if section.depth <= head.depth:
            break
        below.append(section)
    if head.kind == "summary" or not below:
        if not head.passage:
            return None
        intro = said.section_opening.format(title=head.heading)
        return _quote(intro, Cited(head, page, chapter, head.passage))
    lines = _section_lines(page, chapter, below, base_depth=head.depth, start=1)
    if head.lead:
        cited = Cited(head, page, chapter, head.lead)
        text = f"{_link(head.heading, head.url)}: {head.lead}"
        lines.insert(0, _Line(cited, text, text, 0, 0, -1, counted=False))
    return _render(said.section.format(title=head.heading), lines, BUDGET["section"], said)


def _page_line(
    chapter: dict[str, Any], page: dict[str, Any], outline: PageOutline, order: int
) -> _Line | None:
    opening = outline.opening
    if opening is None:
        return None
    lead = outline.description or opening.lead
    short = f"**{_link(str(page.get('title', '')), str(page.get('url', '')))}**"
    text = f"{short}: {lead}" if lead else short
    return _Line(
        Cited(opening, page, chapter, lead or opening.passage[:300]), text, short, 0, order, -1
    )


def chapter_overview(
    chapter: dict[str, Any], outlines: dict[str, PageOutline], said: OverviewPhrases
) -> Overview | None:
    """A chapter's outline: each page with its description, then as many of their sections as
    the budget holds (the first sections of every page before the later ones)."""
    pages = [(p, outlines.get(str(p.get("doc_id")))) for p in chapter.get("pages", [])]
    present = [(p, o) for p, o in pages if o is not None and o.sections]
    title = str(chapter.get("title", ""))
    intro = said.chapter.format(title=title)
    if len(present) == 1:
        page, outline = present[0]
        return page_overview(chapter, page, outline, said, BUDGET["chapter"], intro)
    lines: list[_Line] = []
    for rank, (page, outline) in enumerate(present):
        start = (rank + 1) * 1000
        line = _page_line(chapter, page, outline, start)
        if line is not None:
            lines.append(line)
        sections = [s for s in outline.sections if s.depth == 1]
        for nth, section in enumerate(
            _section_lines(page, chapter, sections, base_depth=0, start=start + 1)
        ):
            # The nth section of every page before the (n+1)th of any: no page is left bare.
            lines.append(
                _Line(
                    section.cited,
                    section.text,
                    section.short,
                    1,
                    section.order,
                    section.priority + nth * 3,
                )
            )
    if not lines:
        return None
    return _render(intro, lines, BUDGET["chapter"], said)


def _chapter_description(chapter: dict[str, Any], outlines: dict[str, PageOutline]) -> str:
    pages = list(chapter.get("pages", []))
    first = pages[0] if pages else {}
    outline = outlines.get(str(first.get("doc_id")))
    stem = str(first.get("path", "")).rsplit("/", 1)[-1].split(".")[0].lstrip("0123456789-_")
    # A landing page (index, intro, or titled as the chapter) describes the chapter; any other
    # first page describes only itself, so the chapter is described by its pages' titles.
    lands = len(pages) == 1 or stem in _INDEX_STEMS or first.get("title") == chapter.get("title")
    if outline is not None and lands:
        opening = outline.opening
        return outline.description or (opening.lead if opening is not None else "")
    links = [_link(str(p.get("title", "")), str(p.get("url", ""))) for p in pages]
    return ", ".join(links)


def book_overview(
    chapters: list[dict[str, Any]], outlines: dict[str, PageOutline], said: OverviewPhrases
) -> Overview | None:
    """The book's chapters in order, each a link with its one-line description."""
    lines = []
    for order, chapter in enumerate(chapters):
        pages = list(chapter.get("pages", []))
        outline = outlines.get(str(pages[0].get("doc_id"))) if pages else None
        if outline is None or outline.opening is None:
            continue
        short = f"**{_link(str(chapter.get('title', '')), str(chapter.get('url', '')))}**"
        description = _chapter_description(chapter, outlines)
        text = f"{short}: {description}" if description else short
        cited = Cited(outline.opening, pages[0], chapter, description or outline.opening.lead)
        lines.append(_Line(cited, text, short, 0, order, 0))
    if not lines:
        return None
    return _render(said.book.format(count=len(lines)), lines, BUDGET["book"], said)


def compose(
    target: Target,
    catalog_chapters: list[dict[str, Any]],
    outlines: dict[str, PageOutline],
    said: OverviewPhrases,
) -> Overview | None:
    """The overview of a target; None when its outline holds nothing to show."""
    if target.scope == "book":
        return book_overview(catalog_chapters, outlines, said)
    chapter = target.chapter or {}
    if target.scope == "chapter":
        return chapter_overview(chapter, outlines, said)
    page = target.page or {}
    outline = outlines.get(str(page.get("doc_id")))
    if outline is None:
        return None
    if target.scope == "section" and target.section is not None:
        return section_overview(chapter, page, outline, target.section, said)
    return page_overview(chapter, page, outline, said)
