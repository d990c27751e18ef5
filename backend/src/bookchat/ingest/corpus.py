"""Build the desired index from a docs folder or a built site: every chunk with its stable id and
payload, in every edition (docs version x locale) the site has."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bookchat.ingest.chapters import Chapter, assign_chapters
from bookchat.ingest.chunker import chunk_section
from bookchat.ingest.manifest import CURRENT, PLAIN_LOCALE
from bookchat.ingest.outline import edition_outlines
from bookchat.ingest.pages import Page, Skipped, scan_docs
from bookchat.ingest.sections import split_sections
from bookchat.ingest.vocabulary import book_vocabulary
from bookchat.markdown.unit_layout import SENTENCE_LAYOUT
from bookchat.markdown.units import split_units, units_of_chunk
from bookchat.vectorstore.base import SENTENCE_LAYOUT_FIELD


@dataclass(frozen=True, slots=True)
class Chunk:
    """One chunk as it should be stored."""

    chunk_id: str
    embed_text: str
    payload: dict[str, Any]

    @property
    def content_hash(self) -> str:
        """Hash of the stored payload: a change means the point must be rewritten."""
        return str(self.payload["content_hash"])

    @property
    def text_hash(self) -> str:
        """Hash of the embedded text: a change means the vector must be recomputed."""
        return str(self.payload["text_hash"])


@dataclass(slots=True)
class EditionCorpus:
    """One docs version in one locale, as it should be indexed."""

    version: str
    locale: str
    label: str
    is_last: bool
    chapters: list[Chapter]
    chunks: int
    localized: dict[str, bool] = field(default_factory=dict)  # doc id -> a real translation

    @property
    def key(self) -> str:
        """`version@locale`."""
        return f"{self.version}@{self.locale}"

    def to_json(self) -> dict[str, Any]:
        """The edition as the catalog records it."""
        chapters = [chapter.to_json() for chapter in self.chapters]
        for chapter in chapters:
            for page in chapter["pages"]:
                page["localized"] = self.localized.get(str(page["doc_id"]), True)
        return {
            "version": self.version,
            "locale": self.locale,
            "label": self.label,
            "is_last": self.is_last,
            "chunks": self.chunks,
            "chapters": chapters,
        }


@dataclass(slots=True)
class Corpus:
    """The book as it should be indexed."""

    chunks: list[Chunk]
    chapters: list[Chapter]  # the default edition's
    skipped: list[Skipped]
    files_scanned: int
    version: str
    editions: list[EditionCorpus] = field(default_factory=list)
    default_version: str = CURRENT
    default_locale: str = PLAIN_LOCALE
    locales: list[str] = field(default_factory=lambda: [PLAIN_LOCALE])

    def catalog_fields(self) -> dict[str, Any]:
        """What the catalog records about editions, so the API can validate and default."""
        versions: dict[str, dict[str, Any]] = {}
        for edition in self.editions:
            info = {"name": edition.version, "label": edition.label, "is_last": edition.is_last}
            if edition.locale == self.default_locale or edition.version not in versions:
                versions[edition.version] = info
        return {
            "default_version": self.default_version,
            "default_locale": self.default_locale,
            "versions": list(versions.values()),
            "locales": self.locales,
            "editions": [edition.to_json() for edition in self.editions],
            # Each page's sections with their links and lead sentences: overviews are answered
            # from these, with no embedding (bookchat.overview).
            "outlines": edition_outlines(
                ((e.version, e.locale, e.chapters) for e in self.editions), self.chunks
            ),
            # The book's words: readers' typos are corrected towards them (retrieval.spelling).
            "vocabulary": book_vocabulary(chunk.embed_text for chunk in self.chunks),
        }


def _digest(*parts: str, size: int = 16) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode("utf-8"))
        h.update(b"\x1f")
    return h.hexdigest()[:size]


def make_chunk_id(
    doc_id: str,
    heading_path: tuple[str, ...],
    occurrence: int,
    position: int,
    edition: str = "",
) -> str:
    """Stable id: doc id + heading path (+ which repeat of that path) + position in the section,
    and the edition unless it is the current version in the default locale (whose ids are those
    of a plain docs folder, so an index made before editions keeps its points)."""
    scope = (edition,) if edition else ()
    return _digest(*scope, doc_id, *heading_path, str(occurrence), str(position), size=24)


@dataclass(frozen=True, slots=True)
class Chunking:
    """How sections are cut into chunks."""

    max_tokens: int = 256
    overlap: float = 0.18


def _page_chunks(
    page: Page, chapter: Chapter, fields: dict[str, Any], edition: str, chunking: Chunking
) -> list[Chunk]:
    chunks: list[Chunk] = []
    seen_paths: dict[tuple[str, ...], int] = {}
    for section in split_sections(page.title, page.body):
        occurrence = seen_paths.get(section.heading_path, 0)
        seen_paths[section.heading_path] = occurrence + 1
        url = f"{page.url}#{section.anchor}" if section.anchor else page.url
        pieces = chunk_section(
            section.heading_path, section.body, chunking.max_tokens, chunking.overlap
        )
        # Units are parsed from the whole section, so a chunk that starts inside a list or a
        # table still knows its lead-in or header.
        section_units = split_units(section.body, section.heading_path)
        for position, piece in enumerate(pieces):
            payload: dict[str, Any] = {
                "path": page.path,
                "doc_id": page.doc_id,
                "title": page.title,
                "chapter": chapter.key,
                "chapter_title": chapter.title,
                "section": section.heading,
                "heading_path": list(section.heading_path),
                "anchor": section.anchor or "",
                "url": url,
                "position": position,
                "text": piece.text,
                "units": [u.to_json() for u in units_of_chunk(section_units, piece.text)],
                # Inside the content hash: a new sentence layout rewrites every point.
                SENTENCE_LAYOUT_FIELD: SENTENCE_LAYOUT,
                **fields,
            }
            payload["text_hash"] = _digest(piece.embed_text, size=32)
            payload["content_hash"] = _digest(json.dumps(payload, sort_keys=True), size=32)
            chunk_id = make_chunk_id(
                page.doc_id, section.heading_path, occurrence, position, edition
            )
            chunks.append(Chunk(chunk_id=chunk_id, embed_text=piece.embed_text, payload=payload))
    return chunks


def edition_chunks(
    chapters: list[Chapter],
    version: str,
    locale: str,
    *,
    default_locale: str,
    localized: dict[str, bool] | None = None,
    chunking: Chunking = Chunking(),
) -> list[Chunk]:
    """Every chunk of one edition's chapters, each payload naming its edition."""
    edition = "" if (version, locale) == (CURRENT, default_locale) else f"{version}@{locale}"
    chunks: list[Chunk] = []
    for chapter in chapters:
        for page in chapter.pages:
            fields = {
                "version": version,
                "locale": locale,
                # False: the default locale's text served at this locale's URL (not translated).
                "localized": (localized or {}).get(page.doc_id, True),
            }
            chunks.extend(_page_chunks(page, chapter, fields, edition, chunking))
    return chunks


def corpus_version(chunks: list[Chunk]) -> str:
    return _digest(*sorted(f"{c.chunk_id}:{c.content_hash}" for c in chunks), size=12)


def build_corpus(
    docs_dir: Path,
    *,
    base_url: str = "/",
    route: str = "docs",
    max_tokens: int = 256,
    overlap: float = 0.18,
) -> Corpus:
    """Scan, clean, section and chunk a docs folder (one edition); no model is loaded."""
    scan = scan_docs(docs_dir, base_url, route)
    chapters = list(assign_chapters(scan.pages, scan.categories).values())
    chunks = edition_chunks(
        chapters,
        CURRENT,
        PLAIN_LOCALE,
        default_locale=PLAIN_LOCALE,
        chunking=Chunking(max_tokens, overlap),
    )
    edition = EditionCorpus(CURRENT, PLAIN_LOCALE, "Next", True, chapters, len(chunks))
    return Corpus(
        chunks=chunks,
        chapters=chapters,
        skipped=scan.skipped,
        files_scanned=scan.files_scanned,
        version=corpus_version(chunks),
        editions=[edition],
    )
