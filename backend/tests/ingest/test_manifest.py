"""Reading the route manifests the theme package writes into each locale build."""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath

import pytest

from bookchat.ingest.manifest import ManifestDoc, ManifestError, read_site_routes
from tests.sites import write_site


def test_both_locale_builds_give_four_editions_default_locale_first(tmp_path: Path) -> None:
    routes = read_site_routes(write_site(tmp_path))
    assert [e.key for e in routes.editions] == ["current@en", "1.0@en", "current@fr", "1.0@fr"]
    assert (routes.default_version, routes.default_locale, routes.locales) == (
        "current",
        "en",
        ["en", "fr"],
    )
    assert [v["name"] for v in routes.versions()] == ["current", "1.0"]
    fr = next(e for e in routes.editions if e.key == "current@fr")
    config = next(d for d in fr.docs if d.doc_id == "basics/config")
    assert (config.localized, config.permalink, config.title) == (
        True,
        "/textbook/fr/docs/basics/config/",
        "Configurer Git",
    )


def test_a_source_splits_into_its_content_folder_and_path_by_the_doc_id() -> None:
    doc = ManifestDoc(
        doc_id="basics/config",
        source=PurePosixPath(
            "i18n/fr/docusaurus-plugin-content-docs/version-1.0/01-basics/02-c.md"
        ),
        localized=True,
        permalink="/fr/docs/1.0/basics/config",
        title="",
    )
    assert doc.root == PurePosixPath("i18n/fr/docusaurus-plugin-content-docs/version-1.0")
    assert doc.rel_path == PurePosixPath("01-basics/02-c.md")


def test_a_site_not_built_with_the_theme_says_to_build_it(tmp_path: Path) -> None:
    with pytest.raises(ManifestError, match=r"build the site first \(`npm run build`\)"):
        read_site_routes(tmp_path)


def test_build_dir_overrides_site_build(tmp_path: Path) -> None:
    site = write_site(tmp_path)
    (site / "build").rename(tmp_path / "elsewhere")
    assert len(read_site_routes(site, tmp_path / "elsewhere").editions) == 4


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "unreadable"),
        (json.dumps({"format": 2}), "format 1"),
        (json.dumps({"format": 1, "locale": "en"}), "`defaultLocale` must be"),
        (
            json.dumps(
                {
                    "format": 1,
                    "locale": "en",
                    "defaultLocale": "en",
                    "versions": [{"name": "x", "docs": [{"id": "a"}]}],
                }
            ),
            "`source` must be",
        ),
    ],
)
def test_a_broken_manifest_is_named_with_what_is_wrong(
    tmp_path: Path, content: str, message: str
) -> None:
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "bookchat-routes.json").write_text(content)
    with pytest.raises(ManifestError, match=message):
        read_site_routes(tmp_path)
