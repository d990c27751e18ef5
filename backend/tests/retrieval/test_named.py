"""Named things: which code and acronyms a question names, the term it asks to define, and
whether a text or a heading names them."""

from __future__ import annotations

import pytest

from bookchat.retrieval.named import code_terms, defined, key_terms, names_all


@pytest.mark.parametrize(
    ("question", "terms"),
    [
        ("What does git rebase --onto do?", ["--onto"]),
        ("What is the default value of pack.threads?", ["pack.threads"]),
        ("What command tells Git LFS to track all .psd files?", ["LFS", ".psd"]),
        ("What does the pickaxe option -S of git log search for?", ["-S"]),
        ("What does a clone made with --filter=blob:none download?", ["--filter=blob:none"]),
        ("How can I use my work email under ~/work?", ["~/work"]),
        ("Which number in a version like 1.4.2 should go up?", ["1.4.2"]),
        ("What does `git switch` replace?", ["git switch"]),
        ("How do I sign my commits with a GPG key?", ["GPG"]),
    ],
)
def test_key_terms_are_the_code_and_acronyms_a_question_names(
    question: str, terms: list[str]
) -> None:
    assert key_terms(question) == terms


@pytest.mark.parametrize(
    "question",
    [
        "Who originally wrote Git, and when?",  # a name: readers misspell them, so not checked
        "How do I install Git on FreeBSD?",
        "What is the golden rule of rebasing?",
        "How can I take back my latest save point but keep every edit?",
        "Is SHA-1 still safe?",  # a hyphen alone does not make code
        "What happened in 2005?",  # nor does a bare number
    ],
)
def test_plain_words_names_and_numbers_are_not_key_terms(question: str) -> None:
    assert key_terms(question) == []


def test_a_name_the_question_makes_up_for_its_example_is_not_a_key_term() -> None:
    question = (
        "If a package named `robot_control` depends on your interfaces package, what goes in "
        "`robot_control`'s package.xml?"
    )
    assert key_terms(question) == ["package.xml"]
    assert key_terms("How do I push a branch called `feature/login` with --force?") == ["--force"]


def test_the_code_a_question_names_leaves_its_acronyms_out() -> None:
    assert code_terms("Why would a team use --no-ff with GPG signing?") == ["--no-ff"]
    assert code_terms("What does the US government do?") == []


def test_a_text_names_all_terms_only_when_it_names_each_one() -> None:
    assert names_all(["package.xml"], "2.4 Understanding package.xml")
    assert names_all(["git blame"], "Finding who changed a line with `git blame`")
    assert not names_all(["--force"], "Force-pushing with `--force-with-lease`")
    assert not names_all(["package.xml", "setup.py"], "2.4 Understanding package.xml")
    assert not names_all([], "anything at all")


def test_a_what_is_question_names_the_term_it_asks_to_define() -> None:
    assert defined("What is a branch in Git?") == "branch"
    assert defined("What's a detached HEAD?") == "detached HEAD"
    assert defined("What are remote-tracking branches?") == "remote-tracking branches"
    assert defined("What is `git stash`?") == "git stash"
    assert defined("What is a `.gitignore` file?") == ".gitignore file"
    # A question that asks more than what the term is defines nothing.
    assert defined("What is the name of the king who ruled France in 1200?") is None
    assert defined("How do I create a branch?") is None
