"""The few words an overview adds around the book's own: its opening line, in the reader's
language (English and French, like bookchat.answer.phrases; other locales read English)."""

from __future__ import annotations

from dataclasses import dataclass

from bookchat.retrieval.editions import language_of

# French sets a no-break space before a colon and inside guillemets.
NBSP = "\u00a0"


@dataclass(frozen=True, slots=True)
class OverviewPhrases:
    """Opening lines of overview answers; templates take {title} or {count}."""

    chapter: str
    page: str
    section: str
    section_opening: str
    book: str
    summary: str
    more: str  # {count}: sections an outline had no room for


ENGLISH = OverviewPhrases(
    chapter="An outline of the chapter “{title}”:",
    page="An outline of the page “{title}”:",
    section="An outline of the section “{title}”:",
    section_opening="The opening of the section “{title}”:",
    book="The book's {count} chapters:",
    summary="The authors' own summary of “{title}”:",
    more="(…and {count} more sections: follow the links above to read them.)",
)
FRENCH = OverviewPhrases(
    chapter=f"Plan du chapitre « {{title}} »{NBSP}:",
    page=f"Plan de la page « {{title}} »{NBSP}:",
    section=f"Plan de la section « {{title}} »{NBSP}:",
    section_opening=f"Le début de la section « {{title}} »{NBSP}:",
    book=f"Les {{count}} chapitres du livre{NBSP}:",
    summary=f"Le résumé des auteurs pour « {{title}} »{NBSP}:",
    more="(…et {count} autres sections{NBSP}: suivez les liens ci-dessus pour les lire.)",
)


def overview_phrases(locale: str | None) -> OverviewPhrases:
    """The phrases for a locale: French for `fr` and its regional forms, English otherwise."""
    return FRENCH if language_of(locale) == "fr" else ENGLISH
