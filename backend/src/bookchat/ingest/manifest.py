"""The route manifests the theme package writes at build time (`bookchat-routes.json`, format 1).

Docusaurus knows every doc's permalink in every version and locale; the theme's plugin writes
them into each locale build, so ingest reads the site's real routes instead of re-deriving
versioned and localized URLs (specs/001-bookchat/data-model.md, "Route manifest").
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

MANIFEST = "bookchat-routes.json"
FORMAT = 1
# A plain docs folder (`--docs`) is one edition: Docusaurus' unversioned docs in one language.
CURRENT = "current"
PLAIN_LOCALE = "en"


class ManifestError(ValueError):
    """No usable route manifest: the message says what to do."""


@dataclass(frozen=True, slots=True)
class ManifestDoc:
    """One doc of one edition, as the built site routes it."""

    doc_id: str
    source: PurePosixPath  # relative to the site folder
    localized: bool
    permalink: str
    title: str

    @property
    def rel_path(self) -> PurePosixPath:
        """The source path inside its content folder (`docs/`, `versioned_docs/version-1.0/`,
        `i18n/fr/docusaurus-plugin-content-docs/current/`): a doc id has exactly one segment per
        folder below that root, plus its own (Docusaurus forbids `/` in frontmatter ids)."""
        depth = len(self.doc_id.split("/"))
        return PurePosixPath(*self.source.parts[-depth:])

    @property
    def root(self) -> PurePosixPath:
        """The content folder the source lives in, relative to the site folder."""
        depth = len(self.doc_id.split("/"))
        return PurePosixPath(*self.source.parts[:-depth])


@dataclass(slots=True)
class Edition:
    """One docs version in one locale: the unit answers and citations are scoped to."""

    version: str
    locale: str
    label: str
    is_last: bool
    docs: list[ManifestDoc] = field(default_factory=list)

    @property
    def key(self) -> str:
        """`version@locale`, how reports and logs name an edition."""
        return f"{self.version}@{self.locale}"


@dataclass(slots=True)
class SiteRoutes:
    """Every edition of a site, and its defaults."""

    editions: list[Edition]
    default_locale: str
    locales: list[str]

    @property
    def default_version(self) -> str:
        """The version served at the docs root (`isLast`), else the first listed."""
        versions = [e for e in self.editions if e.locale == self.default_locale]
        last = next((e for e in versions if e.is_last), None)
        return (last or versions[0]).version if versions else CURRENT

    def versions(self) -> list[dict[str, Any]]:
        """Versions in the site's order, with their labels."""
        seen: dict[str, dict[str, Any]] = {}
        for edition in self.editions:
            if edition.locale == self.default_locale or edition.version not in seen:
                seen[edition.version] = {
                    "name": edition.version,
                    "label": edition.label,
                    "is_last": edition.is_last,
                }
        return list(seen.values())


def _text(data: dict[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise ManifestError(f"{where}: `{key}` must be a non-empty string")
    return value


def _doc(data: Any, where: str) -> ManifestDoc:
    if not isinstance(data, dict):
        raise ManifestError(f"{where}: each doc must be an object")
    source = _text(data, "source", where).removeprefix("@site/")
    return ManifestDoc(
        doc_id=_text(data, "id", where),
        source=PurePosixPath(source),
        localized=bool(data.get("localized", True)),
        permalink=_text(data, "permalink", where),
        title=str(data.get("title") or ""),
    )


def parse_manifest(data: Any, where: str) -> tuple[str, list[str], list[Edition]]:
    """(default locale, locales, editions) of one locale build's manifest."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ManifestError(f"{where}: not a bookchat route manifest of format {FORMAT}")
    locale = _text(data, "locale", where)
    default = _text(data, "defaultLocale", where)
    locales = [str(x) for x in data.get("locales") or [default]]
    editions = []
    for version in data.get("versions") or []:
        if not isinstance(version, dict):
            raise ManifestError(f"{where}: each version must be an object")
        name = _text(version, "name", where)
        docs = [_doc(d, f"{where} ({name})") for d in version.get("docs") or []]
        editions.append(
            Edition(
                version=name,
                locale=locale,
                label=str(version.get("label") or name),
                is_last=bool(version.get("isLast")),
                docs=docs,
            )
        )
    return default, locales, editions


def manifest_paths(build_dir: Path) -> list[Path]:
    """The manifests of a build: the default locale's, then one per other locale build."""
    paths = [build_dir / MANIFEST] if (build_dir / MANIFEST).is_file() else []
    paths += sorted(p for p in build_dir.glob(f"*/{MANIFEST}") if p.is_file())
    return paths


def read_site_routes(site_dir: Path, build_dir: Path | None = None) -> SiteRoutes:
    """Every edition the site's build lists; ManifestError when there is no manifest."""
    build = build_dir or site_dir / "build"
    paths = manifest_paths(build)
    if not paths:
        raise ManifestError(
            f"no {MANIFEST} in {build} or its locale folders: build the site first "
            "(`npm run build`) with @bookchat/docusaurus-theme in its `themes`"
        )
    editions: dict[tuple[str, str], Edition] = {}
    default_locale = ""
    locales: list[str] = []
    for path in paths:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise ManifestError(f"{path}: unreadable ({type(exc).__name__})") from exc
        default, listed, found = parse_manifest(data, str(path))
        default_locale = default_locale or default
        locales = locales or listed
        for edition in found:
            editions.setdefault((edition.version, edition.locale), edition)
    built = {locale for _, locale in editions}
    ordered = [loc for loc in locales if loc in built] + sorted(built - set(locales))
    order = {loc: i for i, loc in enumerate(ordered)}
    return SiteRoutes(
        editions=sorted(editions.values(), key=lambda e: order[e.locale]),
        default_locale=default_locale,
        locales=ordered,
    )
