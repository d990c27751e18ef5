"""Find the pages of a docs folder and read them the way Docusaurus does."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import frontmatter
import yaml

from bookchat.ingest import routes
from bookchat.ingest.mdx import clean_markdown, inline_text

MARKDOWN_SUFFIXES = (".md", ".mdx")
_CATEGORY_FILES = ("_category_.json", "_category_.yml", "_category_.yaml")
_IGNORED_DIRS = {"node_modules", "__tests__"}


@dataclass(frozen=True, slots=True)
class Skipped:
    """A file or folder ingestion left out, and why."""

    path: str
    reason: str


@dataclass(slots=True)
class Page:
    """One routable doc page with its Docusaurus identity and cleaned Markdown body."""

    path: str  # relative to the docs folder, POSIX separators
    doc_id: str
    title: str
    url: str
    body: str
    position: tuple[float, str]
    frontmatter: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Scan:
    """Everything found in a docs folder."""

    pages: list[Page]
    skipped: list[Skipped]
    categories: dict[str, dict[str, Any]]  # top-level folder name -> _category_ metadata
    files_scanned: int


def _first_h1(body: str) -> str | None:
    for line in body.splitlines():
        stripped = line.strip()
        if stripped.startswith("# "):
            return inline_text(stripped[2:].strip().rstrip("#").strip())
        if stripped and not stripped.startswith(("import ", "export ")):
            return None
    return None


def read_category(folder: Path) -> dict[str, Any]:
    """The `_category_.json`/`.yml` metadata of a folder ({} when absent or unreadable)."""
    for name in _CATEGORY_FILES:
        path = folder / name
        if path.is_file():
            try:
                data = yaml.safe_load(path.read_text(encoding="utf-8"))  # JSON is YAML too
            except (yaml.YAMLError, UnicodeDecodeError):
                return {}
            return data if isinstance(data, dict) else {}
    return {}


def read_page(docs_dir: Path, rel: PurePosixPath, base_url: str, route: str) -> Page | Skipped:
    """One page of a docs folder as Docusaurus reads it, or why it is skipped."""
    try:
        post = frontmatter.loads((docs_dir / rel).read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        return Skipped(rel.as_posix(), "not UTF-8 text")
    except Exception as exc:  # python-frontmatter raises YAML errors of several kinds
        return Skipped(rel.as_posix(), f"invalid frontmatter ({type(exc).__name__})")
    meta = dict(post.metadata)
    if meta.get("draft") is True:
        return Skipped(rel.as_posix(), "draft: true")
    fm_id = str(meta["id"]) if meta.get("id") is not None else None
    fm_slug = str(meta["slug"]) if meta.get("slug") is not None else None
    identity = routes.doc_id(rel, fm_id)
    slug = routes.doc_slug(rel, fm_id, fm_slug)
    title = (
        str(meta["title"])
        if meta.get("title")
        else _first_h1(post.content) or identity.split("/")[-1]
    )
    position = meta.get("sidebar_position", routes.number_prefix(rel.stem))
    return Page(
        path=rel.as_posix(),
        doc_id=identity,
        title=title,
        url=routes.permalink(base_url, route, slug),
        body=clean_markdown(post.content),
        position=(float(position) if isinstance(position, int | float) else float("inf"), rel.name),
        frontmatter=meta,
    )


def scan_docs(docs_dir: Path, base_url: str = "/", route: str = "docs") -> Scan:
    """Walk a docs folder: pages to index, and every file or folder skipped with its reason."""
    if not docs_dir.is_dir():
        raise FileNotFoundError(f"Docs folder not found: {docs_dir}")
    pages: list[Page] = []
    skipped: list[Skipped] = []
    categories: dict[str, dict[str, Any]] = {}
    scanned = 0
    for root, dirs, files in os.walk(docs_dir):
        root_path = Path(root)
        rel_root = PurePosixPath(root_path.relative_to(docs_dir).as_posix())
        kept_dirs = []
        for name in sorted(dirs):
            if name.startswith("_"):
                skipped.append(
                    Skipped(f"{(rel_root / name).as_posix()}/", "folder name starts with _")
                )
            elif name.startswith(".") or name in _IGNORED_DIRS:
                continue
            else:
                kept_dirs.append(name)
        dirs[:] = kept_dirs
        if len(rel_root.parts) == 1:
            categories[rel_root.parts[0]] = read_category(root_path)
        for name in sorted(files):
            rel = rel_root / name
            if name in _CATEGORY_FILES or name.startswith("."):
                continue
            scanned += 1
            if not name.endswith(MARKDOWN_SUFFIXES):
                skipped.append(Skipped(rel.as_posix(), "not a Markdown file"))
            elif name.startswith("_"):
                skipped.append(Skipped(rel.as_posix(), "partial (file name starts with _)"))
            else:
                result = read_page(docs_dir, rel, base_url, route)
                (skipped if isinstance(result, Skipped) else pages).append(result)  # type: ignore[arg-type]
    return Scan(pages=pages, skipped=skipped, categories=categories, files_scanned=scanned)
