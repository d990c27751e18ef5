"""The outline of a book as ingest stores it in the catalog: per edition, per page, its sections
in reading order, each with its link, lead sentence and lead passage.

Written by bookchat.ingest.outline, with the same parse that makes the chunks, so an
overview is answered from stored text alone: no embedding, no Markdown parsing at query time.
Catalog layout: `{"outlines": {"<version>@<locale>": {"<doc_id>": PageOutline.to_json()}}}`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

# What a section is to an overview: the authors' own summary of its page, page furniture
# (objectives, exercises, reading lists: listed last, if at all), or the body of the page.
Kind = Literal["summary", "furniture", "body"]
KINDS: tuple[Kind, ...] = ("summary", "furniture", "body")


@dataclass(frozen=True, slots=True)
class OutlineSection:
    """One section of a page as an outline lists it."""

    heading: str  # as rendered; the page title for the lead text before the first heading
    depth: int  # 0 for the lead text, 1 for a `##` heading, 2 for `###`, …
    url: str  # page URL + #anchor
    chunk_id: str  # the section's first chunk: what a citation of it names
    lead: str  # its first sentence that reads on its own ("" when it has none)
    passage: str  # its opening units, Markdown, about 60 words (a summary: up to ~200)
    kind: Kind = "body"

    def to_json(self) -> list[Any]:
        """Compact form stored in the catalog."""
        return [
            self.heading,
            self.depth,
            self.url,
            self.chunk_id,
            self.lead,
            self.passage,
            self.kind,
        ]

    @classmethod
    def from_json(cls, row: list[Any]) -> OutlineSection:
        """The section stored by `to_json`."""
        kind = str(row[6]) if len(row) > 6 and str(row[6]) in KINDS else "body"
        return cls(
            str(row[0]),
            int(row[1]),
            str(row[2]),
            str(row[3]),
            str(row[4]),
            str(row[5]),
            kind,  # type: ignore[arg-type]
        )


@dataclass(frozen=True, slots=True)
class PageOutline:
    """A page's frontmatter description and its sections in reading order."""

    description: str
    sections: tuple[OutlineSection, ...]

    def to_json(self) -> dict[str, Any]:
        """The page's outline as the catalog stores it."""
        return {"description": self.description, "sections": [s.to_json() for s in self.sections]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PageOutline:
        """The outline stored by `to_json`."""
        rows = data.get("sections") or []
        return cls(
            str(data.get("description") or ""),
            tuple(OutlineSection.from_json(r) for r in rows if isinstance(r, list) and len(r) >= 6),
        )

    @property
    def summary(self) -> OutlineSection | None:
        """The authors' own summary of the page, when it has one with text."""
        return next((s for s in self.sections if s.kind == "summary" and s.passage), None)

    @property
    def opening(self) -> OutlineSection | None:
        """The section a citation of the whole page names: its lead text, else its first."""
        return self.sections[0] if self.sections else None


def edition_key(version: str, locale: str) -> str:
    """How the catalog's `outlines` names an edition."""
    return f"{version}@{locale}"


def outlines_of(catalog: dict[str, Any], version: str, locale: str) -> dict[str, PageOutline]:
    """doc id -> outline of one edition's pages ({} when the index has no outlines yet)."""
    editions = catalog.get("outlines")
    if not isinstance(editions, dict):
        return {}
    pages = editions.get(edition_key(version, locale))
    if not isinstance(pages, dict):
        return {}
    return {str(k): PageOutline.from_json(v) for k, v in pages.items() if isinstance(v, dict)}
