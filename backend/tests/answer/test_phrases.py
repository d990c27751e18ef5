"""The sentences bookchat writes itself: English and French, English for any other locale."""

from __future__ import annotations

import string
from dataclasses import fields

import pytest

from bookchat.answer.phrases import ENGLISH, FRENCH, Phrases, phrases_for


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
