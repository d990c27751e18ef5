"""The sentences bookchat writes itself: English and French, English for any other locale; and
the notice of an answer quoting a page the reader's locale has not translated yet."""

from __future__ import annotations

import string
from dataclasses import fields

import pytest

from bookchat.answer.compose import Source
from bookchat.answer.phrases import ENGLISH, FRENCH, Phrases, fallback_notice, phrases_for
from bookchat.answer.schema import Citation
from bookchat.retrieval.editions import Edition


@pytest.mark.parametrize("locale", ["fr", "fr-CA", "fr_BE", "FR"])
def test_a_french_locale_reads_french(locale: str) -> None:
    assert phrases_for(locale) is FRENCH


@pytest.mark.parametrize("locale", [None, "", "en", "en-GB", "de", "pt-BR", "zh-Hans"])
def test_english_and_every_uncatalogued_locale_read_english(locale: str | None) -> None:
    assert phrases_for(locale) is ENGLISH


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("field", [f.name for f in fields(Phrases)])
def test_french_translates_every_phrase_with_the_same_placeholders(field: str) -> None:
    english, french = getattr(ENGLISH, field), getattr(FRENCH, field)
    assert french.strip() and french != english
    assert _placeholders(french) == _placeholders(english)
    # A leading space joins a phrase to the one before it: both languages must agree.
    assert french.startswith((" ", ",")) == english.startswith((" ", ","))


def test_french_quotes_with_guillemets_and_keeps_no_english_quotes() -> None:
    for field in fields(Phrases):
        text = getattr(FRENCH, field.name)
        assert "“" not in text and "”" not in text
    assert FRENCH.passage_intro.format(section="Installer sous Windows") == (
        "Le passage le plus pertinent, tiré de «\u00a0Installer sous Windows\u00a0»\u00a0:"
    )


CHAPTERS = (
    {
        "key": "basics",
        "pages": [
            {"doc_id": "basics/install", "localized": False},
            {"doc_id": "basics/config", "localized": True},
        ],
    },
)


def _edition(locale: str) -> Edition:
    return Edition("current", locale, "en", filtered=True, chapters=CHAPTERS)


def _citation(doc_id: str) -> Citation:
    url = "/fr/docs/basics/install/#requirements"
    source = Source("c", "p.md", doc_id, "basics", "Basics", "Requirements", url, 0.7)
    return source.citation(1, "Git 2.45")


def test_a_french_reader_is_told_in_french() -> None:
    citations, notice = fallback_notice([_citation("basics/install")], _edition("fr"))
    assert [c.localized for c in citations] == [False]
    assert notice == (
        "Cette réponse provient du texte original (en)\u00a0: la page citée n'est pas encore "
        "traduite dans votre langue (fr)."
    )


def test_a_locale_without_phrases_is_told_in_english() -> None:
    _, notice = fallback_notice([_citation("basics/install")], _edition("de"))
    assert notice == (
        "This answer comes from the en text: the cited page is not translated into de yet."
    )


def test_a_translated_page_needs_no_notice() -> None:
    citations, notice = fallback_notice([_citation("basics/config")], _edition("fr"))
    assert notice is None and citations[0].localized is True
