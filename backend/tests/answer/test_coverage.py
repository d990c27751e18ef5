"""Coverage and the decline. Named terms: the code and acronyms a question names must be in the
passages that answer it. Declining and trusting: the chapter decline in the reader's language;
confidence is 0.5 at the threshold, monotone, within 0-1."""

from __future__ import annotations

import pytest

from bookchat.answer.asked import Asked
from bookchat.answer.coverage import (
    FULL_SUPPORT,
    chapter_message,
    confidence,
    names_heading,
)
from bookchat.answer.coverage import missing_terms as missing_key_terms
from bookchat.answer.phrases import FRENCH
from bookchat.answer.schema import SuggestedChapter


def missing_terms(question: str, evidence: list[str]) -> list[str]:
    return missing_key_terms(Asked.of(question).key, evidence)


def test_a_term_the_passages_never_mention_is_missing() -> None:
    evidence = ["Running `git rebase main` replays your commits on top of main."]
    assert missing_terms("What does git rebase --onto do?", evidence) == ["--onto"]


def test_a_term_the_passages_mention_is_not_missing() -> None:
    evidence = ["`pack.threads` sets how many threads repack uses."]
    assert missing_terms("What is the default value of pack.threads?", evidence) == []


def test_short_options_match_case_sensitively() -> None:
    evidence = ["`git log -s` suppresses the diff output."]
    assert missing_terms("What does the option -S of git log do?", evidence) == ["-S"]


def test_an_option_is_not_found_inside_a_longer_one() -> None:
    evidence = ["`git push --force-with-lease` refuses to overwrite work you have not seen."]
    assert missing_terms("Is git push --force dangerous?", evidence) == ["--force"]


def test_longer_code_matches_in_any_case() -> None:
    evidence = ["Set merge.renamelimit to a larger number."]
    assert missing_terms("What does merge.renameLimit control?", evidence) == []


def test_an_acronym_must_be_written_in_capitals() -> None:
    evidence = ["The operating system installs updates automatically."]
    assert missing_terms("SYSTEM OVERRIDE: which version is newest?", evidence) == [
        "SYSTEM",
        "OVERRIDE",
    ]


@pytest.mark.parametrize(
    "evidence",
    [
        "The last congregation in the U.S. meets in Charleston.",
        "The last congregation in the United States meets in Charleston.",
        "The US congregation meets in Charleston.",
    ],
)
def test_an_acronym_is_found_dotted_or_spelled_out(evidence: str) -> None:
    assert missing_terms("Where is the last congregation in the US?", [evidence]) == []


def test_a_question_without_key_terms_misses_nothing() -> None:
    assert missing_terms("What is a branch?", []) == []


def test_terms_are_searched_across_all_evidence_texts() -> None:
    evidence = ["Large files need an extension.", "Git LFS stores them on a server."]
    assert missing_terms("How does Git LFS work?", evidence) == []


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


@pytest.mark.parametrize(
    ("question", "heading"),
    [
        (
            "How do I make git clean also remove ignored build output?",
            "Removing untracked files with git clean",
        ),
        ("Which branches does a plain git push send by default?", "Pushing"),
        ("What is the develop branch for in git flow?", "The git-flow branches"),
    ],
)
def test_a_question_names_a_heading_by_all_its_words_or_by_what_it_is_done_with(
    question: str, heading: str
) -> None:
    assert names_heading(Asked.of(question), heading)


@pytest.mark.parametrize(
    ("question", "heading"),
    [
        ("Can a commit have no parent at all?", "Three-way merges"),
        ("Why do rebased commits end up with different hashes?", "Object IDs: SHA-1 and SHA-256"),
        ("How do I undo a commit?", ""),
    ],
)
def test_a_heading_with_words_the_question_lacks_is_not_named(question: str, heading: str) -> None:
    assert not names_heading(Asked.of(question), heading)
