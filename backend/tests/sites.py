"""A small built Docusaurus site on disk: two docs versions, two locales, hand-written manifests.

The manifests follow the contract the theme package writes at build time (notes: route manifest
format 1): `build/bookchat-routes.json` for English, `build/fr/bookchat-routes.json` for French.
Version 1.0 and current differ in facts (the default branch name, the Git version required);
French translates one page of current and nothing of 1.0.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

BASE = "/textbook/"

CATEGORY = {"label": "Basics", "position": 1}

CURRENT_EN = {
    "01-basics/01-install.md": (
        "---\ntitle: Installing Git\n---\n\nHow to get Git onto your machine.\n\n"
        "## Requirements\n\nThis book needs Git 2.45 or newer, because it uses the switch and "
        "restore commands throughout.\n\n## Checking the version\n\nRun git --version to print "
        "the installed version of Git.\n"
    ),
    "01-basics/02-config.md": (
        "---\ntitle: Configuring Git\n---\n\nSettings live in your global configuration.\n\n"
        "## Default branch {#default-branch}\n\nThe default branch of a new repository is "
        "called main. Set init.defaultBranch to choose another name.\n\n## Your identity\n\n"
        "Set user.name and user.email so that your commits carry your name and address.\n"
    ),
    "02-undo.md": (
        "---\ntitle: Undoing changes\n---\n\n## Discarding edits\n\nUse git restore with a file "
        "name to discard the uncommitted edits to that file.\n"
    ),
}

V1_EN = {
    "01-basics/01-install.md": (
        "---\ntitle: Installing Git\n---\n\nHow to get Git onto your machine.\n\n"
        "## Requirements\n\nThis book needs Git 2.20 or newer, because older versions lack "
        "some of the commands it uses.\n\n## Checking the version\n\nRun git --version to print "
        "the installed version of Git.\n"
    ),
    "01-basics/02-config.md": (
        "---\ntitle: Configuring Git\n---\n\nSettings live in your global configuration.\n\n"
        "## Default branch {#default-branch}\n\nThe default branch of a new repository is "
        "called master. Older tutorials all assume that name.\n\n## Your identity\n\n"
        "Set user.name and user.email so that your commits carry your name and address.\n"
    ),
    "02-undo.md": CURRENT_EN["02-undo.md"],
}

CURRENT_FR = {
    "01-basics/02-config.md": (
        "---\ntitle: Configurer Git\n---\n\nLes réglages vivent dans votre configuration "
        "globale.\n\n## Branche par défaut {#default-branch}\n\nLa branche par défaut d'un "
        "nouveau dépôt s'appelle main. Réglez init.defaultBranch pour choisir un autre nom.\n\n"
        "## Votre identité\n\nRéglez user.name et user.email pour que vos commits portent votre "
        "nom et votre adresse.\n"
    ),
}

DOC_IDS = {
    "01-basics/01-install.md": "basics/install",
    "01-basics/02-config.md": "basics/config",
    "02-undo.md": "undo",
}

FR_ROOT = "i18n/fr/docusaurus-plugin-content-docs"


def _title(text: str) -> str:
    return text.split("title: ", 1)[1].split("\n", 1)[0]


def _docs(
    pages: dict[str, str], root: str, translated: dict[str, str], fr_root: str, prefix: str
) -> list[dict[str, Any]]:
    docs = []
    for rel, text in pages.items():
        localized = rel in translated
        docs.append(
            {
                "id": DOC_IDS[rel],
                "source": f"@site/{fr_root if localized else root}/{rel}",
                "localized": localized or not fr_root,
                "permalink": f"{prefix}{DOC_IDS[rel]}/",
                "title": _title(translated.get(rel, text)),
            }
        )
    return docs


def _manifest(locale: str, versions: list[dict[str, Any]]) -> dict[str, Any]:
    base = BASE if locale == "en" else f"{BASE}{locale}/"
    return {
        "format": 1,
        "generator": "@bookchat/docusaurus-theme@0.1.0",
        "siteUrl": "https://example.org",
        "baseUrl": base,
        "trailingSlash": True,
        "locale": locale,
        "defaultLocale": "en",
        "locales": ["en", "fr"],
        "versions": versions,
    }


def write_manifests(site: Path, *, current: dict[str, str] | None = None) -> None:
    """(Re)write both locale builds' manifests from the pages on disk."""
    current = current if current is not None else CURRENT_EN
    for locale in ("en", "fr"):
        base = BASE if locale == "en" else f"{BASE}{locale}/"
        fr = locale == "fr"
        current_fr = CURRENT_FR if fr else {}
        versions = [
            {
                "name": "current",
                "label": "2.0",
                "isLast": True,
                "path": f"{base}docs/",
                "docs": _docs(
                    current, "docs", current_fr, f"{FR_ROOT}/current" if fr else "", f"{base}docs/"
                ),
            },
            {
                "name": "1.0",
                "label": "1.0",
                "isLast": False,
                "path": f"{base}docs/1.0/",
                "docs": _docs(
                    V1_EN,
                    "versioned_docs/version-1.0",
                    {},
                    f"{FR_ROOT}/version-1.0" if fr else "",
                    f"{base}docs/1.0/",
                ),
            },
        ]
        out = site / "build" / ("fr" if fr else "") / "bookchat-routes.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(_manifest(locale, versions), indent=2), encoding="utf-8")


def write_pages(folder: Path, pages: dict[str, str]) -> None:
    """Write each of `pages` (path under `folder`: text), making the folders it needs."""
    for rel, text in pages.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _write(folder: Path, pages: dict[str, str]) -> None:
    write_pages(folder, pages)
    (folder / "01-basics" / "_category_.json").write_text(json.dumps(CATEGORY))


def write_site(root: Path) -> Path:
    """The site folder, as after `npm run build` with the theme package."""
    site = root / "site"
    _write(site / "docs", CURRENT_EN)
    _write(site / "versioned_docs" / "version-1.0", V1_EN)
    write_pages(site / FR_ROOT / "current", CURRENT_FR)
    (site / FR_ROOT / "current.json").write_text(
        json.dumps({"sidebar.tutorialSidebar.category.Basics": {"message": "Les bases"}}),
        encoding="utf-8",
    )
    (site / "versions.json").write_text(json.dumps(["1.0"]))
    write_manifests(site)
    return site
