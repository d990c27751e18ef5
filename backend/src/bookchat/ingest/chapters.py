"""Chapters: each top-level folder of the docs is one, and so is each top-level page."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from bookchat.ingest import routes
from bookchat.ingest.anchors import github_slug
from bookchat.ingest.pages import Page


@dataclass(slots=True)
class Chapter:
    """A chapter of the book and its pages, in reading order."""

    key: str
    title: str
    position: tuple[float, str]
    pages: list[Page] = field(default_factory=list)

    @property
    def url(self) -> str:
        """The chapter's landing page: its index page, else its first page."""
        for page in self.pages:
            if routes.is_category_index(PurePosixPath(page.path)):
                return page.url
        return self.pages[0].url if self.pages else ""

    def to_json(self) -> dict[str, Any]:
        """The chapter as served by GET /api/chapters."""
        return {
            "key": self.key,
            "title": self.title,
            "url": self.url,
            "pages": [
                {"path": p.path, "doc_id": p.doc_id, "title": p.title, "url": p.url}
                for p in self.pages
            ],
        }


def _position(value: object, fallback_name: str) -> tuple[float, str]:
    number = value if isinstance(value, int | float) else routes.number_prefix(fallback_name)
    return (float(number) if number is not None else float("inf"), fallback_name)


def _reading_order(page: Page) -> tuple[object, ...]:
    """Sidebar order: the index page first, then by position, sub-folders by their prefix."""
    path = PurePosixPath(page.path)
    folders = tuple(_position(None, name) for name in path.parts[1:-1])
    return (not routes.is_category_index(path), *folders, page.position)


def _folder_title(folder: str, meta: dict[str, Any], pages: list[Page]) -> str:
    """_category_ label, else the folder's index page title, else the folder name."""
    if meta.get("label"):
        return str(meta["label"])
    for page in pages:
        if len(page.path.split("/")) == 2 and routes.is_category_index(PurePosixPath(page.path)):
            return page.title
    return routes.strip_number_prefix(folder)


def assign_chapters(pages: list[Page], categories: dict[str, dict[str, Any]]) -> dict[str, Chapter]:
    """Group pages into chapters, each chapter's pages in reading order.

    A frontmatter `chapter:` names an existing chapter by key or title, or starts a new one.
    """
    chapters: dict[str, Chapter] = {}
    folders: dict[str, str] = {}  # chapter key -> top-level folder it came from
    overridden: list[Page] = []
    for page in sorted(pages, key=lambda p: p.path):
        parts = page.path.split("/")
        if page.frontmatter.get("chapter"):
            overridden.append(page)
            continue
        if len(parts) == 1:
            key, title, position = page.doc_id, page.title, page.position
        else:
            key = routes.strip_number_prefix(parts[0])
            folders[key] = parts[0]
            title = ""
            position = _position(categories.get(parts[0], {}).get("position"), parts[0])
        chapter = chapters.setdefault(key, Chapter(key=key, title=title, position=position))
        chapter.pages.append(page)
    for key, chapter in chapters.items():
        chapter.pages.sort(key=_reading_order)
        if key in folders:
            folder = folders[key]
            chapter.title = _folder_title(folder, categories.get(folder, {}), chapter.pages)
    # Pages brought in by `chapter:` follow the chapter's own pages, in their reading order.
    for page in sorted(overridden, key=_reading_order):
        wanted = str(page.frontmatter["chapter"])
        match = next(
            (
                c
                for c in chapters.values()
                if wanted in (c.key, c.title) or wanted.lower() == c.title.lower()
            ),
            None,
        )
        if match is None:
            key = github_slug(wanted)
            match = chapters.setdefault(
                key, Chapter(key=key, title=wanted, position=(float("inf"), key))
            )
        match.pages.append(page)
    return dict(sorted(chapters.items(), key=lambda item: item[1].position))
