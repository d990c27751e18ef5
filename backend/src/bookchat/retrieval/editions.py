"""Editions (docs version x locale) as the catalog records them, and which one a request means.

A catalog written before editions existed (a plain docs folder indexed by an older bookchat) has
none: its whole index is the one default edition, `current` in English, searched unfiltered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# What an index from before editions is, and what a plain docs folder is indexed as.
CURRENT = "current"
PLAIN_LOCALE = "en"


def language_of(locale: str | None) -> str:
    """The primary language subtag of a Docusaurus locale, lower case ("" for None)."""
    return (locale or "").replace("_", "-").split("-", 1)[0].lower()


class UnknownEdition(LookupError):
    """A `version` or `locale` the index does not hold; `known` lists the ones it does."""

    def __init__(self, field: str, value: str, known: list[str]) -> None:
        super().__init__(field, value, known)
        self.field, self.value, self.known = field, value, known


@dataclass(frozen=True, slots=True)
class Edition:
    """The edition a request is answered from."""

    version: str
    locale: str
    default_locale: str
    filtered: bool  # False when the index holds this edition only: no filter needed
    chapters: tuple[dict[str, Any], ...]

    @property
    def where(self) -> dict[str, str] | None:
        """The store filter that keeps searches inside this edition."""
        return {"version": self.version, "locale": self.locale} if self.filtered else None

    @property
    def untranslated(self) -> frozenset[str]:
        """Doc ids this edition serves with the default locale's text (not yet translated)."""
        return frozenset(
            str(page.get("doc_id", ""))
            for chapter in self.chapters
            for page in chapter.get("pages", [])
            if page.get("localized") is False
        )


def _editions(data: dict[str, Any]) -> list[dict[str, Any]]:
    editions = data.get("editions")
    if isinstance(editions, list) and editions:
        return [e for e in editions if isinstance(e, dict)]
    return [
        {"version": CURRENT, "locale": PLAIN_LOCALE, "chapters": list(data.get("chapters", []))}
    ]


def versions_of(data: dict[str, Any]) -> list[str]:
    """Version names the index holds, in the site's order."""
    return list(dict.fromkeys(str(e.get("version")) for e in _editions(data)))


def locales_of(data: dict[str, Any]) -> list[str]:
    """Locales the index holds, the default first."""
    return list(dict.fromkeys(str(e.get("locale")) for e in _editions(data)))


def resolve(data: dict[str, Any], version: str | None, locale: str | None) -> Edition:
    """The edition `version`/`locale` name (absent: the defaults); raises UnknownEdition naming
    the known values when either is not in the index."""
    editions = _editions(data)
    default_version = str(data.get("default_version") or editions[0].get("version"))
    default_locale = str(data.get("default_locale") or editions[0].get("locale"))
    wanted_version = version or default_version
    wanted_locale = locale or default_locale
    if wanted_version not in versions_of(data):
        raise UnknownEdition("version", wanted_version, versions_of(data))
    if wanted_locale not in locales_of(data):
        raise UnknownEdition("locale", wanted_locale, locales_of(data))
    found = next(
        (
            e
            for e in editions
            if (e.get("version"), e.get("locale")) == (wanted_version, wanted_locale)
        ),
        None,
    )
    if found is None:  # a version not built in this locale
        known = [str(e.get("version")) for e in editions if e.get("locale") == wanted_locale]
        raise UnknownEdition("version", wanted_version, known)
    return Edition(
        version=wanted_version,
        locale=wanted_locale,
        default_locale=default_locale,
        filtered=len(editions) > 1,
        chapters=tuple(found.get("chapters", [])),
    )
