"""Fixture rows (the JSONL format in shared/README.md) and the requests they turn into."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bookchat.answer.schema import QueryRequest
from bookchat.retrieval.catalog import Catalog


@dataclass(frozen=True, slots=True)
class Turn:
    """An earlier turn of a follow-up fixture (fits the service's PriorTurn protocol)."""

    question: str
    answer: str = ""


@dataclass(frozen=True, slots=True)
class Fixture:
    """One evaluation question and what a correct answer looks like."""

    id: str
    slice: str
    question: str
    mode: str
    expected_status: str
    chapter_path: str | None = None
    selection: str | None = None
    expected_sources: list[tuple[str, str]] = field(default_factory=list)
    expected_answer_contains: list[str] = field(default_factory=list)
    dataset_version: str = ""
    history: tuple[Turn, ...] = ()
    reference_answer: str | None = None  # what a good answer says, scored by token F1
    page: str | None = None  # docs-relative path of the page the reader is on (any mode)
    # True: an overview question (answered from the book's outline, every expected source cited,
    # nothing outside their pages); False: a look-alike that must not be taken for one.
    overview: bool | None = None

    @classmethod
    def from_json(cls, row: dict[str, Any]) -> Fixture:
        """A fixture from one parsed JSONL row."""
        return cls(
            id=str(row["id"]),
            slice=str(row.get("slice") or row.get("mode") or "all"),
            question=str(row["question"]),
            mode=str(row.get("mode") or "book"),
            expected_status=str(row.get("expected_status") or "grounded"),
            chapter_path=row.get("chapter_path"),
            selection=row.get("selection"),
            # A null section means "any section of that page": "" (never the string "None").
            expected_sources=[
                (str(s.get("path") or ""), str(s.get("section") or ""))
                for s in row.get("expected_sources") or []
            ],
            expected_answer_contains=[str(s) for s in row.get("expected_answer_contains") or []],
            dataset_version=str(row.get("dataset_version") or ""),
            history=tuple(
                Turn(str(t.get("question", "")), str(t.get("answer", "")))
                for t in row.get("history") or []
            ),
            reference_answer=(
                str(row["reference_answer"]) if row.get("reference_answer") is not None else None
            ),
            page=row.get("page"),
            overview=row.get("overview"),
        )

    def request(self, catalog: Catalog) -> QueryRequest:
        """The API request this row asks; raises pydantic.ValidationError for invalid rows."""
        chapter = None
        if self.mode == "chapter" and self.chapter_path:
            found = catalog.chapter_of_path(self.chapter_path)
            # An unresolvable path stays visible: the service answers it with UnknownChapter.
            chapter = str(found["key"]) if found else self.chapter_path
        page = _page_url(catalog, self.page) if self.page else None
        if page is None and self.mode == "selection" and self.expected_sources:
            # The reader selected text on this page; the widget sends its URL, so do we.
            page = _page_url(catalog, self.expected_sources[0][0])
        return QueryRequest.model_validate(
            {
                "question": self.question,
                "mode": self.mode,
                "chapter": chapter,
                "selection": self.selection if self.mode == "selection" else None,
                "page": page,
            }
        )


def _page_url(catalog: Catalog, path: str) -> str | None:
    for chapter in catalog.chapters:
        for page in chapter.get("pages", []):
            if page.get("path") == path:
                return str(page.get("url", "")) or None
    return None


def load_fixtures(
    path: Path, *, slices: list[str] | None = None, limit: int | None = None
) -> list[Fixture]:
    """Rows of a fixture file, optionally only some slices and at most `limit` rows."""
    rows: list[Fixture] = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            fixture = Fixture.from_json(json.loads(line))
            if slices and fixture.slice not in slices:
                continue
            rows.append(fixture)
            if limit is not None and len(rows) >= limit:
                break
    return rows
