"""Chapter mode's decline in the reader's language, naming the chapter that covers it."""

from __future__ import annotations

from bookchat.answer.declined import chapter_message
from bookchat.answer.phrases import FRENCH
from bookchat.answer.schema import SuggestedChapter

SUGGESTION = SuggestedChapter(
    key="basics",
    title="Les bases",
    url="/fr/docs/basics/install/",
    section="Branche par défaut",
    section_url="/fr/docs/basics/config/#default-branch",
)


def test_a_chapter_decline_names_the_better_chapter_in_english() -> None:
    assert chapter_message("Undoing changes", SUGGESTION) == (
        "The chapter “Undoing changes” does not cover this question. The book covers it in the "
        "chapter [Les bases](/fr/docs/basics/install/), in the section "
        "[Branche par défaut](/fr/docs/basics/config/#default-branch)."
    )
    assert chapter_message("Undoing changes", None) == (
        "The chapter “Undoing changes” does not cover this question. Nothing else in the book "
        "seems to cover it either."
    )


def test_a_chapter_decline_names_the_better_chapter_in_french() -> None:
    assert chapter_message("Annuler", SUGGESTION, FRENCH) == (
        "Le chapitre «\u00a0Annuler\u00a0» ne traite pas de cette question. Le livre en traite "
        "dans le chapitre [Les bases](/fr/docs/basics/install/), dans la section "
        "[Branche par défaut](/fr/docs/basics/config/#default-branch)."
    )
    assert chapter_message("Annuler", None, FRENCH) == (
        "Le chapitre «\u00a0Annuler\u00a0» ne traite pas de cette question. Aucune autre partie "
        "du livre ne semble en traiter non plus."
    )


def test_a_title_with_braces_is_quoted_as_it_is() -> None:
    assert chapter_message("Sets {a, b}", None, FRENCH).startswith(
        "Le chapitre «\u00a0Sets {a, b}\u00a0»"
    )
