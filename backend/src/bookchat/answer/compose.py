"""Turn chosen units into the answer a reader reads: whole units, Markdown intact, [n] markers.

A list item is shown after the sentence that introduces its list, a table row under its header,
a code block after the sentence that introduces it; consecutive units of one passage share one
marker. Nothing is cut inside a sentence: a unit that does not fit the word budget is left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from bookchat.answer.features import Candidate
from bookchat.answer.schema import Citation
from bookchat.markdown.units import Unit
from bookchat.overview.compose import Cited

EXCERPT_CHARS = 400
Kind = Literal["span", "passage"]


@dataclass(frozen=True, slots=True)
class Source:
    """A passage units were taken from: a stored chunk, or the reader's selection."""

    chunk_id: str
    path: str
    doc_id: str
    chapter: str
    chapter_title: str
    section: str
    url: str
    score: float

    @classmethod
    def from_payload(cls, chunk_id: str, score: float, payload: dict[str, Any]) -> Source:
        """A source from a store hit's payload."""
        return cls(
            chunk_id=chunk_id,
            path=str(payload.get("path", "")),
            doc_id=str(payload.get("doc_id", "")),
            chapter=str(payload.get("chapter", "")),
            chapter_title=str(payload.get("chapter_title", "")),
            section=str(payload.get("section", "")),
            url=str(payload.get("url", "")),
            score=round(float(score), 4),
        )

    @classmethod
    def from_cited(cls, cited: Cited) -> Source:
        """A section an overview cites: the book's own structure, so its score is 1."""
        return cls(
            chunk_id=cited.section.chunk_id,
            path=str(cited.page.get("path", "")),
            doc_id=str(cited.page.get("doc_id", "")),
            chapter=str(cited.chapter.get("key", "")),
            chapter_title=str(cited.chapter.get("title", "")),
            section=cited.section.heading,
            url=cited.section.url,
            score=1.0,
        )

    def citation(self, index: int, excerpt: str) -> Citation:
        """This source as the answer's citation number `index`."""
        return Citation(index=index, excerpt=excerpt, **asdict(self))


@dataclass(frozen=True, slots=True)
class Composition:
    """An extractive answer and its evidence."""

    answer: str
    citations: list[Citation]
    best_support: float  # the coverage probability the decision was made on
    kind: Kind = "span"


def _render(units: Sequence[Unit], marker: str) -> list[str]:
    """Paragraphs for one passage's run of units (reading order), the marker at its end."""
    paragraphs: list[str] = []
    shown: set[str] = set()
    current: list[str] = []
    kind = ""
    block = -1

    def close() -> None:
        if current:
            joiner = "\n" if kind in ("list_item", "table_row") else " "
            paragraphs.append(joiner.join(current))
            current.clear()

    for unit in units:
        role = _shape(unit)
        if unit.block != block or role != kind or role == "code":
            close()
            block, kind = unit.block, role
            if unit.lead and unit.lead not in shown:
                shown.add(unit.lead)
                # A table's header rows belong to the table; other leads are paragraphs.
                (current if role == "table_row" else paragraphs).append(unit.lead)
        if unit.before and unit.before not in shown:
            # Not shown yet (the chunk began after it): "It never stores diffs." needs it.
            shown.add(unit.before)
            current.append(unit.before)
        shown.add(unit.text)
        text = unit.text
        if role == "admonition" and current:
            text = text.removeprefix("> ")
        current.append(text)
    close()
    if not paragraphs:
        return []
    # A marker cannot follow a closing fence or sit inside a table: it goes after the last prose.
    for i in range(len(paragraphs) - 1, -1, -1):
        if not paragraphs[i].lstrip().startswith(("```", "~~~", "|")):
            paragraphs[i] += f" {marker}"
            return paragraphs
    return [*paragraphs, marker]


def _shape(unit: Unit) -> str:
    """How a unit is laid out, read from its Markdown (a furniture list item is still a list)."""
    text = unit.text.lstrip()
    if text.startswith(("```", "~~~")):
        return "code"
    if text.startswith("|"):
        return "table_row"
    if text.startswith(("- ", "* ", "+ ")) or text[:3].rstrip(".) ").isdigit():
        return "list_item"
    if text.startswith(">"):
        return "admonition"
    return "prose"


def compose(
    chosen: Sequence[Candidate],
    sources: Sequence[Source],
    *,
    support: float,
    kind: Kind = "span",
    intro: str = "",
    outro: str = "",
) -> Composition:
    """The answer from `chosen` units (best first), cited by passage, each in reading order."""
    # The passage of the first chosen unit (the best one) comes first and is cited [1]; each
    # passage's units keep their reading order.
    first = {c.source: i for i, c in reversed(list(enumerate(chosen)))}
    ordered = sorted(chosen, key=lambda c: (first[c.source], c.position))
    numbers: dict[int, int] = {}
    runs: dict[int, list[Unit]] = {}
    for c in ordered:
        numbers.setdefault(c.source, len(numbers) + 1)
        runs.setdefault(c.source, []).append(c.unit)
    paragraphs = [intro] if intro else []
    for source, units in runs.items():
        paragraphs += _render(units, f"[{numbers[source]}]")
    if outro:
        paragraphs.append(outro)
    citations = [
        sources[source].citation(numbers[source], _excerpt(runs[source])) for source in runs
    ]
    return Composition("\n\n".join(paragraphs), citations, support, kind)


def _excerpt(units: Sequence[Unit]) -> str:
    text = " ".join(u.plain for u in units)
    return text if len(text) <= EXCERPT_CHARS else text[: EXCERPT_CHARS - 2].rstrip() + " …"
