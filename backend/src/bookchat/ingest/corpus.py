"""Build the desired index from a docs folder: every chunk with its stable id and payload."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bookchat.answer.unit_vectors import SENTENCE_LAYOUT
from bookchat.answer.units import split_units, units_of_chunk
from bookchat.ingest.chapters import Chapter, assign_chapters
from bookchat.ingest.chunker import chunk_section
from bookchat.ingest.pages import Skipped, scan_docs
from bookchat.ingest.sections import split_sections
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
class Corpus:
    """The book as it should be indexed."""

    chunks: list[Chunk]
    chapters: list[Chapter]
    skipped: list[Skipped]
    files_scanned: int
    version: str


def _digest(*parts: str, size: int = 16) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode("utf-8"))
        h.update(b"\x1f")
    return h.hexdigest()[:size]


def make_chunk_id(
    doc_id: str, heading_path: tuple[str, ...], occurrence: int, position: int
) -> str:
    """Stable id: doc id + heading path (+ which repeat of that path) + position in the section."""
    return _digest(doc_id, *heading_path, str(occurrence), str(position), size=24)


def build_corpus(
    docs_dir: Path,
    *,
    base_url: str = "/",
    route: str = "docs",
    max_tokens: int = 256,
    overlap: float = 0.18,
) -> Corpus:
    """Scan, clean, section and chunk a docs folder; no model is loaded."""
    scan = scan_docs(docs_dir, base_url, route)
    chapters = assign_chapters(scan.pages, scan.categories)
    chunks: list[Chunk] = []
    for chapter in chapters.values():
        for page in chapter.pages:
            seen_paths: dict[tuple[str, ...], int] = {}
            for section in split_sections(page.title, page.body):
                occurrence = seen_paths.get(section.heading_path, 0)
                seen_paths[section.heading_path] = occurrence + 1
                url = f"{page.url}#{section.anchor}" if section.anchor else page.url
                pieces = chunk_section(section.heading_path, section.body, max_tokens, overlap)
                # Units are parsed from the whole section, so a chunk that starts inside a list
                # or a table still knows its lead-in or header.
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
                    }
                    payload["text_hash"] = _digest(piece.embed_text, size=32)
                    payload["content_hash"] = _digest(json.dumps(payload, sort_keys=True), size=32)
                    chunk_id = make_chunk_id(
                        page.doc_id, section.heading_path, occurrence, position
                    )
                    chunks.append(
                        Chunk(chunk_id=chunk_id, embed_text=piece.embed_text, payload=payload)
                    )
    version = _digest(*sorted(f"{c.chunk_id}:{c.content_hash}" for c in chunks), size=12)
    return Corpus(
        chunks=chunks,
        chapters=list(chapters.values()),
        skipped=scan.skipped,
        files_scanned=scan.files_scanned,
        version=version,
    )
