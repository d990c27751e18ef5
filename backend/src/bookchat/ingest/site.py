"""Read the pages of one edition of a built Docusaurus site, at the routes its manifest lists."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath
from typing import Any

from bookchat.ingest.chapters import assign_chapters
from bookchat.ingest.corpus import (
    Chunk,
    Chunking,
    Corpus,
    EditionCorpus,
    corpus_version,
    edition_chunks,
)
from bookchat.ingest.manifest import CURRENT, Edition, SiteRoutes
from bookchat.ingest.pages import Page, Skipped, read_category, read_page


@dataclass(slots=True)
class EditionScan:
    """The pages of one edition, with what chapter grouping needs."""

    pages: list[Page]
    skipped: list[Skipped]
    categories: dict[str, dict[str, Any]]
    category_labels: dict[str, str]  # label -> translated label (sidebar translations)
    localized: dict[str, bool]  # doc id -> true when the page is a real translation


def _translation_file(site_dir: Path, edition: Edition) -> Path:
    name = "current" if edition.version == CURRENT else f"version-{edition.version}"
    return site_dir / "i18n" / edition.locale / "docusaurus-plugin-content-docs" / f"{name}.json"


def category_labels(site_dir: Path, edition: Edition) -> dict[str, str]:
    """Sidebar category labels translated for this edition (`write-translations` output)."""
    try:
        data = json.loads(_translation_file(site_dir, edition).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    labels: dict[str, str] = {}
    for key, value in data.items() if isinstance(data, dict) else ():
        _, found, label = str(key).partition(".category.")
        if found and isinstance(value, dict) and value.get("message"):
            labels[label] = str(value["message"])
    return labels


def _categories(site_dir: Path, roots: list[PurePosixPath], folders: set[str]) -> dict[str, Any]:
    # A translation may carry its own _category_ files; otherwise the untranslated folder's apply.
    out: dict[str, dict[str, Any]] = {}
    for folder in sorted(folders):
        for root in roots:
            meta = read_category(site_dir / root / folder)
            if meta:
                out[folder] = meta
                break
        out.setdefault(folder, {})
    return out


def scan_edition(
    site_dir: Path, edition: Edition, fallback_roots: list[PurePosixPath]
) -> EditionScan:
    """Read every doc the manifest lists for `edition` (permalink and title as built)."""
    pages: list[Page] = []
    skipped: list[Skipped] = []
    localized: dict[str, bool] = {}
    roots: list[PurePosixPath] = []
    for doc in edition.docs:
        if not (site_dir / doc.source).is_file():
            # The build is older than the docs folder (a page moved or deleted since).
            reason = "listed in the build's route manifest but missing: rebuild the site"
            skipped.append(Skipped(doc.source.as_posix(), reason))
            continue
        result = read_page(site_dir / doc.root, doc.rel_path, "/", "docs")
        if isinstance(result, Skipped):
            skipped.append(Skipped(doc.source.as_posix(), result.reason))
            continue
        # Docusaurus already decided the id, route and title: take them as built.
        pages.append(
            replace(result, doc_id=doc.doc_id, url=doc.permalink, title=doc.title or result.title)
        )
        localized[doc.doc_id] = doc.localized
        if doc.root not in roots:
            roots.insert(0 if doc.localized else len(roots), doc.root)
    folders = {p.path.split("/")[0] for p in pages if "/" in p.path}
    return EditionScan(
        pages=pages,
        skipped=skipped,
        categories=_categories(site_dir, roots + fallback_roots, folders),
        category_labels=category_labels(site_dir, edition),
        localized=localized,
    )


def build_site_corpus(
    site_dir: Path, routes: SiteRoutes, *, max_tokens: int = 256, overlap: float = 0.18
) -> Corpus:
    """Every edition the site's route manifests list, at its built permalinks."""
    chunking = Chunking(max_tokens, overlap)
    chunks: list[Chunk] = []
    editions: list[EditionCorpus] = []
    skipped: list[Skipped] = []
    sources: set[str] = set()
    default_roots = {
        e.version: [d.root for d in e.docs]
        for e in routes.editions
        if e.locale == routes.default_locale
    }
    for edition in routes.editions:
        scan = scan_edition(
            site_dir, edition, list(dict.fromkeys(default_roots.get(edition.version, [])))
        )
        chapters = list(assign_chapters(scan.pages, scan.categories).values())
        for chapter in chapters:
            chapter.title = scan.category_labels.get(chapter.title, chapter.title)
        found = edition_chunks(
            chapters,
            edition.version,
            edition.locale,
            default_locale=routes.default_locale,
            localized=scan.localized,
            chunking=chunking,
        )
        chunks.extend(found)
        skipped.extend(s for s in scan.skipped if s.path not in sources)
        sources.update(d.source.as_posix() for d in edition.docs)
        editions.append(
            EditionCorpus(
                edition.version,
                edition.locale,
                edition.label,
                edition.is_last,
                chapters,
                len(found),
                scan.localized,
            )
        )
    default = next(
        (
            e
            for e in editions
            if (e.version, e.locale) == (routes.default_version, routes.default_locale)
        ),
        None,
    )
    return Corpus(
        chunks=chunks,
        chapters=default.chapters if default else [],
        skipped=skipped,
        files_scanned=len(sources),
        version=corpus_version(chunks),
        editions=editions,
        default_version=routes.default_version,
        default_locale=routes.default_locale,
        locales=routes.locales,
    )
