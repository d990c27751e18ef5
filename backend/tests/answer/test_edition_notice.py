"""The notice of an answer quoting a page the reader's locale has not translated yet."""

from __future__ import annotations

from bookchat.answer.compose import Source
from bookchat.answer.edition_notice import fallback_notice
from bookchat.answer.schema import Citation
from bookchat.retrieval.editions import Edition

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
