"""Split a page's Markdown into sections at its headings, with Docusaurus's anchors."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bookchat.ingest.anchors import Slugger, split_explicit_id
from bookchat.ingest.fences import FenceTracker
from bookchat.ingest.mdx import inline_text

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")


@dataclass(frozen=True, slots=True)
class Section:
    """The text under one heading (up to the next heading of any level)."""

    heading: str  # plain text as rendered
    level: int  # 1 for the page's own title / lead text
    anchor: str | None  # None for the lead text before the first heading
    heading_path: tuple[str, ...]  # page title, then each enclosing heading
    body: str


def split_sections(title: str, markdown: str) -> list[Section]:
    """Sections of a page, in order; headings inside code fences are not headings."""
    slugger = Slugger()
    fences = FenceTracker()
    sections: list[Section] = []
    stack: list[tuple[int, str]] = []  # (level, heading) of enclosing headings
    current = Section(heading=title, level=1, anchor=None, heading_path=(title,), body="")
    lines: list[str] = []

    def close() -> None:
        body = "\n".join(lines).strip("\n")
        if body.strip():
            sections.append(
                Section(current.heading, current.level, current.anchor, current.heading_path, body)
            )
        lines.clear()

    for line in markdown.splitlines():
        match = None if fences.feed(line) else _ATX.match(line)
        if not match:
            lines.append(line)
            continue
        close()
        level = len(match.group(1))
        raw, explicit = split_explicit_id((match.group(2) or "").strip())
        heading = inline_text(raw)
        # Like Docusaurus, an explicit {#id} does not take a slot in the page's slug counter.
        anchor = explicit or slugger.slug(heading)
        if level == 1:
            # The page's `# Title` is the title Docusaurus shows; text under it is lead text.
            stack.clear()
            current = Section(heading=title, level=1, anchor=None, heading_path=(title,), body="")
            continue
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, heading))
        current = Section(
            heading=heading,
            level=level,
            anchor=anchor,
            heading_path=(title, *(h for _, h in stack)),
            body="",
        )
    close()
    return sections
