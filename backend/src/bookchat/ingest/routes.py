"""Docusaurus's routing rules: number prefixes, doc ids, slugs and permalinks.

Mirrors @docusaurus/plugin-content-docs (docs.ts, slug.ts, numberPrefix.ts) so that every URL
bookchat cites lands on the page the built site serves.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import PurePosixPath

# A date-like or version-like leading number is not a sidebar-ordering prefix.
_IGNORED_PREFIX = re.compile(
    r"^((\d{2}|\d{4})[-_.]\d{2}([-_.](\d{2}|\d{4}))?)(.*)$|^(\d+[-_.]\d+)(.*)$"
)
_NUMBER_PREFIX = re.compile(r"^(?P<number>\d+)(?P<sep>\s*[-_.]+\s*)(?P<suffix>.*)$")


def strip_number_prefix(name: str) -> str:
    """`01-intro` → `intro`, like Docusaurus's default number-prefix parser."""
    if _IGNORED_PREFIX.match(name):
        return name
    match = _NUMBER_PREFIX.match(name)
    return match.group("suffix") if match else name


def number_prefix(name: str) -> int | None:
    """The ordering number of `01-intro` (1), or None."""
    if _IGNORED_PREFIX.match(name):
        return None
    match = _NUMBER_PREFIX.match(name)
    return int(match.group("number")) if match else None


def strip_path_number_prefixes(path: str) -> str:
    """Strip the number prefix of every segment of a folder path."""
    return "/".join(strip_number_prefix(segment) for segment in path.split("/"))


def doc_id(rel_path: PurePosixPath, frontmatter_id: str | None) -> str:
    """The doc id Docusaurus assigns: stripped folder path + (frontmatter id or stripped name)."""
    base = frontmatter_id or strip_number_prefix(rel_path.stem)
    folder = rel_path.parent.as_posix()
    return base if folder == "." else f"{strip_path_number_prefixes(folder)}/{base}"


def is_category_index(rel_path: PurePosixPath) -> bool:
    """index.md, README.md or folder/folder.md serve as their folder's page."""
    name = rel_path.stem.lower()
    folder = rel_path.parent.name.lower()
    return name in {"index", "readme"} or (bool(folder) and name == folder)


def doc_slug(
    rel_path: PurePosixPath, frontmatter_id: str | None, frontmatter_slug: str | None
) -> str:
    """The slug of a doc inside the docs route, always starting with `/`."""
    if frontmatter_slug and frontmatter_slug.startswith("/"):
        return frontmatter_slug
    folder = rel_path.parent.as_posix()
    dir_slug = "/" if folder == "." else "/" + strip_path_number_prefixes(folder).strip("/") + "/"
    if not frontmatter_slug and is_category_index(rel_path):
        return dir_slug
    base = frontmatter_slug or frontmatter_id or strip_number_prefix(rel_path.stem)
    return posixpath.normpath(posixpath.join(dir_slug, base)) + ("/" if base.endswith("/") else "")


def permalink(site_base_url: str, route_base_path: str, slug: str) -> str:
    """Join baseUrl, the docs route and the slug the way Docusaurus's normalizeUrl does."""
    parts = [site_base_url.strip("/"), route_base_path.strip("/"), slug.strip("/")]
    url = "/" + "/".join(part for part in parts if part)
    return url + "/" if slug.endswith("/") and not url.endswith("/") else url
