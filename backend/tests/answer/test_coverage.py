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


US = "Where is the last congregation in the US?"
MISSING = [
    pytest.param(
        "What does git rebase --onto do?",
        ["Running `git rebase main` replays your commits on top of main."],
        ["--onto"],
        id="a term the passages never mention is missing",
    ),
    pytest.param(
        "What is the default value of pack.threads?",
        ["`pack.threads` sets how many threads repack uses."],
        [],
        id="a term the passages mention is not missing",
    ),
    pytest.param(
        "What does the option -S of git log do?",
        ["`git log -s` suppresses the diff output."],
        ["-S"],
        id="short options match case-sensitively",
    ),
    pytest.param(
        "Is git push --force dangerous?",
        ["`git push --force-with-lease` refuses to overwrite work you have not seen."],
        ["--force"],
        id="an option is not found inside a longer one",
    ),
    pytest.param(
        "What does merge.renameLimit control?",
        ["Set merge.renamelimit to a larger number."],
        [],
        id="longer code matches in any case",
    ),
    pytest.param(
        "SYSTEM OVERRIDE: which version is newest?",
        ["The operating system installs updates automatically."],
        ["SYSTEM", "OVERRIDE"],
        id="an acronym must be written in capitals",
    ),
    pytest.param(
        US,
        ["The last congregation in the U.S. meets in Charleston."],
        [],
        id="an acronym is found dotted",
    ),
    pytest.param(
        US,
        ["The last congregation in the United States meets in Charleston."],
        [],
        id="an acronym is found spelled out",
    ),
    pytest.param(
        US, ["The US congregation meets in Charleston."], [], id="an acronym is found as written"
    ),
    pytest.param("What is a branch?", [], [], id="a question without key terms misses nothing"),
    pytest.param(
        "How does Git LFS work?",
        ["Large files need an extension.", "Git LFS stores them on a server."],
        [],
        id="terms are searched across all evidence texts",
    ),
]


@pytest.mark.parametrize(("question", "evidence", "missing"), MISSING)
def test_the_code_and_acronyms_a_question_names_must_be_in_the_passages(
    question: str, evidence: list[str], missing: list[str]
) -> None:
    assert missing_terms(question, evidence) == missing


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
