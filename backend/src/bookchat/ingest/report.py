"""What an ingest did, in all and per edition (docs version x locale)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from bookchat.ingest.manifest import CURRENT, PLAIN_LOCALE
from bookchat.ingest.pages import Skipped


def edition_of(payload: Mapping[str, Any], default_locale: str = PLAIN_LOCALE) -> str:
    """`version@locale` of a stored payload; one written before editions is the default one."""
    version = payload.get("version") or CURRENT
    locale = payload.get("locale") or default_locale
    return f"{version}@{locale}"


@dataclass(slots=True)
class EditionReport:
    """What a sync did to one edition."""

    edition: str
    pages: int = 0
    chunks: int = 0
    added: int = 0
    updated: int = 0
    deleted: int = 0
    unchanged: int = 0
    embedded: int = 0  # chunks of this edition whose text the model embedded in this run

    def line(self) -> str:
        """One plain line for terminals and logs."""
        return (
            f"{self.edition}: pages {self.pages}, chunks {self.chunks}; added {self.added}, "
            f"updated {self.updated}, deleted {self.deleted}, unchanged {self.unchanged}; "
            f"embedded {self.embedded}"
        )


def tally(
    editions: Iterable[tuple[str, int, int]],
    changes: Mapping[str, Iterable[str]],
    embedded: Iterable[str],
) -> list[EditionReport]:
    """Per-edition reports from (edition, pages, chunks) and the edition of each change."""
    reports = {key: EditionReport(key, pages, chunks) for key, pages, chunks in editions}
    for kind, keys in changes.items():
        for key, count in Counter(keys).items():
            report = reports.setdefault(key, EditionReport(key))
            setattr(report, kind, getattr(report, kind) + count)
    for key, count in Counter(embedded).items():
        reports.setdefault(key, EditionReport(key)).embedded += count
    for report in reports.values():
        report.unchanged = report.chunks - report.added - report.updated
    return list(reports.values())


@dataclass(slots=True)
class SyncReport:
    """What a sync did (or, for a dry run, would do)."""

    files_scanned: int
    pages: int
    skipped: list[Skipped]
    added: int
    updated: int
    deleted: int
    unchanged: int
    embedded: int
    reused_vectors: int
    corpus_version: str
    dry_run: bool
    seconds: float = 0.0
    model_loaded: bool = False
    embedded_sentences: int = 0  # unit rows made for the chunks written
    word_pieces: int = 0  # what the model read: each distinct text once, special tokens in
    changes: list[dict[str, str]] = field(default_factory=list)
    editions: list[EditionReport] = field(default_factory=list)

    def summary(self) -> str:
        """One plain line for logs and non-terminal output."""
        verb = "would be" if self.dry_run else ""
        return (
            f"files scanned {self.files_scanned}, pages {self.pages}, skipped {len(self.skipped)}; "
            f"chunks added {self.added}, updated {self.updated}, deleted {self.deleted}, "
            f"unchanged {self.unchanged}{' (' + verb.strip() + ')' if verb else ''}; "
            f"embedded {self.embedded} (sentences {self.embedded_sentences}, "
            f"{self.word_pieces:,} word pieces); corpus {self.corpus_version}; {self.seconds:.2f} s"
        )

    def to_json(self) -> dict[str, Any]:
        """The report as JSON-ready data."""
        data = asdict(self)
        data["skipped"] = [{"path": s.path, "reason": s.reason} for s in self.skipped]
        return data
