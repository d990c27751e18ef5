"""The sentences bookchat itself writes into answers, in the reader's language.

English and French; any other locale reads English. The request's `locale` (else its edition's)
picks the language; the book's own text is quoted as it is. Templates take named fields with
str.format, whose values are never re-read as templates, so a title with braces is safe.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass

from bookchat.answer.schema import Citation, QueryResponse
from bookchat.retrieval.editions import Edition, language_of

NBSP = "\u00a0"


@dataclass(frozen=True, slots=True)
class Phrases:
    """Every sentence of an answer that the book did not write, in one language."""

    language: str  # the language's English name, as the model is told it
    book_abstention: str
    selection_abstention: str
    chapter_abstention: str  # {chapter}
    nowhere_else: str
    related: str  # no passage answers, but the book comes close: the sections follow
    chapter_related: str  # {chapter}: the same, in chapter mode
    covered_in: str  # {where}: the chapter link, and maybe in_section
    in_section: str  # {section}: the section link
    passage_intro: str  # {section}
    continued_in_source: str  # after a quote ending on a lead-in whose script did not fit
    untranslated: str  # {locale}, {default_locale}
    model_failed: str
    model_unmatched: str
    attributed: str
    unsupported: str
    history_not_loaded: str
    history_not_saved: str


ENGLISH = Phrases(
    language="English",
    book_abstention="The book does not cover this question, so I cannot answer it from the book.",
    selection_abstention=(
        "The selected text does not answer this question. Try asking about the whole book instead."
    ),
    chapter_abstention="The chapter “{chapter}” does not cover this question.",
    nowhere_else=" Nothing else in the book seems to cover it either.",
    related="I couldn't find a direct answer in the book. These sections look closest:",
    chapter_related=(
        "I couldn't find a direct answer in the chapter “{chapter}”. These sections look closest:"
    ),
    covered_in=" The book covers it in the chapter {where}.",
    in_section=", in the section {section}",
    passage_intro="The most relevant passage, from “{section}”:",
    continued_in_source="(What it introduces is too long to quote here: see the cited section.)",
    untranslated=(
        "This answer comes from the {default_locale} text: the cited page is not translated "
        "into {locale} yet."
    ),
    model_failed=(
        "The language model could not answer, so this answer was taken from the book directly."
    ),
    model_unmatched=(
        "The language model's answer could not be matched to the book, so this answer was taken "
        "from the book directly."
    ),
    attributed=(
        "The language model did not cite its sources; each sentence is cited by the section it "
        "was matched to."
    ),
    unsupported="Some sentences of this answer could not be matched to the cited sections.",
    history_not_loaded=(
        "Earlier messages of this conversation could not be loaded; answered on its own."
    ),
    history_not_saved="This conversation could not be saved; the answer is not kept.",
)

FRENCH = Phrases(
    language="French",
    book_abstention=(
        "Le livre ne traite pas de cette question, je ne peux donc pas y répondre à partir du "
        "livre."
    ),
    selection_abstention=(
        "Le texte sélectionné ne répond pas à cette question. Essayez plutôt de la poser sur "
        "l'ensemble du livre."
    ),
    chapter_abstention=f"Le chapitre «{NBSP}{{chapter}}{NBSP}» ne traite pas de cette question.",
    nowhere_else=" Aucune autre partie du livre ne semble en traiter non plus.",
    related=(
        f"Je n'ai pas trouvé de réponse directe dans le livre. Voici les sections qui s'en "
        f"approchent le plus{NBSP}:"
    ),
    chapter_related=(
        f"Je n'ai pas trouvé de réponse directe dans le chapitre «{NBSP}{{chapter}}{NBSP}». "
        f"Voici les sections qui s'en approchent le plus{NBSP}:"
    ),
    covered_in=" Le livre en traite dans le chapitre {where}.",
    in_section=", dans la section {section}",
    passage_intro=f"Le passage le plus pertinent, tiré de «{NBSP}{{section}}{NBSP}»{NBSP}:",
    continued_in_source=(
        f"(La suite est trop longue pour être citée ici{NBSP}: voir la section citée.)"
    ),
    untranslated=(
        f"Cette réponse provient du texte original ({{default_locale}}){NBSP}: la page citée "
        "n'est pas encore traduite dans votre langue ({locale})."
    ),
    model_failed=(
        f"Le modèle de langage n'a pas pu répondre{NBSP}: cette réponse est donc tirée "
        "directement du livre."
    ),
    model_unmatched=(
        f"La réponse du modèle de langage n'a pas pu être rattachée au livre{NBSP}: cette "
        "réponse est donc tirée directement du livre."
    ),
    attributed=(
        f"Le modèle de langage n'a pas cité ses sources{NBSP}: chaque phrase est citée d'après "
        "la section à laquelle elle a été rattachée."
    ),
    unsupported=(
        "Certaines phrases de cette réponse n'ont pas pu être rattachées aux sections citées."
    ),
    history_not_loaded=(
        f"Les messages précédents de cette conversation n'ont pas pu être chargés{NBSP}: la "
        "question a été traitée sans eux."
    ),
    history_not_saved=(
        f"Cette conversation n'a pas pu être enregistrée{NBSP}: la réponse n'est pas conservée."
    ),
)

# By a locale's primary language subtag ("fr" for "fr", "fr-CA", "fr_BE").
CATALOGUE = {"en": ENGLISH, "fr": FRENCH}


def phrases_for(locale: str | None) -> Phrases:
    """The phrases for `locale`: its language's when catalogued, else English."""
    return CATALOGUE.get(language_of(locale), ENGLISH)


def untranslated_notice(locale: str, default_locale: str) -> str:
    """The notice for an answer drawn (at least partly) from untranslated pages, in `locale`."""
    return phrases_for(locale).untranslated.format(locale=locale, default_locale=default_locale)


def fallback_notice(
    citations: Sequence[Citation], edition: Edition | None
) -> tuple[list[Citation], str | None]:
    """The citations with `localized` set, and the notice when one cites an untranslated page."""
    if edition is None or edition.locale == edition.default_locale:
        return list(citations), None
    untranslated = edition.untranslated
    marked = [
        c.model_copy(update={"localized": False}) if c.doc_id in untranslated else c
        for c in citations
    ]
    if all(c.localized for c in marked):
        return marked, None
    return marked, untranslated_notice(edition.locale, edition.default_locale)


def localize(response: QueryResponse, edition: Edition | None) -> QueryResponse:
    """A generated answer's own citations marked, and the notice set, for untranslated pages."""
    citations, notice = fallback_notice(response.citations, edition)
    return response.model_copy(update={"citations": citations, "notice": notice})


async def localize_deltas(
    deltas: AsyncIterator[str | QueryResponse], edition: Edition | None
) -> AsyncIterator[str | QueryResponse]:
    """A streamed answer's deltas, its final response localized like `localize`."""
    async for item in deltas:
        yield item if isinstance(item, str) else localize(item, edition)
