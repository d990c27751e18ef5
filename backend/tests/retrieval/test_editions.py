"""Which edition a request means, from catalogs with editions and from catalogs before them."""

from __future__ import annotations

from typing import Any

import pytest

from bookchat.retrieval.catalog import Catalog
from bookchat.retrieval.editions import UnknownEdition, resolve


def _chapters(prefix: str, localized: bool = True) -> list[dict[str, Any]]:
    page = {
        "path": "a.md",
        "doc_id": "a",
        "title": "A",
        "url": f"{prefix}a/",
        "localized": localized,
    }
    return [{"key": "a", "title": "A", "url": f"{prefix}a/", "pages": [page]}]


SITE: dict[str, Any] = {
    "chunks": 4,
    "chapters": _chapters("/docs/"),
    "default_version": "current",
    "default_locale": "en",
    "editions": [
        {"version": "current", "locale": "en", "chapters": _chapters("/docs/")},
        {"version": "1.0", "locale": "en", "chapters": _chapters("/docs/1.0/")},
        {"version": "current", "locale": "fr", "chapters": _chapters("/fr/docs/", False)},
    ],
}


def test_absent_fields_mean_the_default_version_and_locale() -> None:
    edition = resolve(SITE, None, None)
    assert (edition.version, edition.locale, edition.where) == (
        "current",
        "en",
        {"version": "current", "locale": "en"},
    )


def test_the_catalog_seen_from_an_edition_has_its_urls_and_translation_state() -> None:
    edition, seen = Catalog(SITE).edition(None, "fr")
    assert seen.chapter("a") is not None and seen.chapters[0]["url"] == "/fr/docs/a/"
    assert seen.page_at("https://example.org/fr/docs/a/#x") is not None
    assert edition.untranslated == {"a"}
    assert Catalog(SITE).edition("1.0", None)[1].chapters[0]["url"] == "/docs/1.0/a/"


@pytest.mark.parametrize(
    ("version", "locale", "field", "known"),
    [
        ("2.0", None, "version", ["current", "1.0"]),
        (None, "de", "locale", ["en", "fr"]),
        ("1.0", "fr", "version", ["current"]),  # 1.0 was not built in French
    ],
)
def test_an_edition_the_index_lacks_names_what_it_has(
    version: str | None, locale: str | None, field: str, known: list[str]
) -> None:
    with pytest.raises(UnknownEdition) as raised:
        resolve(SITE, version, locale)
    assert (raised.value.field, raised.value.known) == (field, known)


def test_a_catalog_from_before_editions_is_current_english_searched_unfiltered() -> None:
    legacy = {"chunks": 1, "chapters": _chapters("/docs/")}
    edition, seen = Catalog(legacy).edition("current", None)
    # Its points carry no version or locale: a filter would find none of them.
    assert (edition.version, edition.locale, edition.where) == ("current", "en", None)
    assert seen.chapters == legacy["chapters"]
    with pytest.raises(UnknownEdition):
        resolve(legacy, "1.0", None)
