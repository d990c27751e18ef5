"""Why a question cannot be answered; the API maps each to a status and a reader-safe detail."""

from __future__ import annotations


class IndexNotReady(Exception):
    """Nothing has been ingested yet, so the book cannot be searched."""


class UnknownChapter(Exception):
    """The chapter key is not in the catalog."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


class MissingInput(Exception):
    """A field the chosen mode needs is absent (e.g. `chapter` in chapter mode)."""

    def __init__(self, field: str, mode: str) -> None:
        super().__init__(field)
        self.field = field
        self.mode = mode
