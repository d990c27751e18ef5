"""Declining and trusting: the chapter decline in the reader's language; confidence is 0.5 at
the threshold, monotone, within 0-1."""

from __future__ import annotations

from bookchat.answer.decline import FULL_SUPPORT, chapter_message, confidence
from bookchat.answer.phrases import FRENCH
from bookchat.answer.schema import SuggestedChapter


def test_half_at_the_threshold_and_bounded() -> None:
    assert confidence(0.45, 0.45) == 0.5
    assert confidence(0.0, 0.45) == 0.0
    assert confidence(FULL_SUPPORT, 0.45) == 1.0
    assert confidence(5.0, 0.45) == 1.0


def test_monotone_in_support() -> None:
    values = [confidence(s / 100, 0.45) for s in range(0, 101)]
    assert values == sorted(values)
    assert all(0.0 <= v <= 1.0 for v in values)


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
