"""The coverage model's row. Named terms: the code and acronyms a question names must be in the
passages that answer it; a question names a heading by all its words or by what it is done
with."""

from __future__ import annotations

import pytest

from bookchat.answer.asked import Asked
from bookchat.answer.coverage_row import missing_terms as missing_key_terms


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
