"""What keeps an answer from reading whole, found from its text alone."""

from __future__ import annotations

import pytest

from bookchat.answer.phrases import ENGLISH, FRENCH
from bookchat.evals.reads_whole import read_faults

CLEAN = [
    "A fast-forward merge moves the branch pointer forward. [1]",
    "Each link has three components: [1]\n\n1. **Visual**: what is drawn\n2. **Collision**: what"
    " touches\n3. **Inertial**: how it moves",
    "Install the hook once:\n\n```bash\ngit config core.hooksPath .githooks\n```\n\n"
    "This makes Git read hooks from the repository. [1]",
    "`git blame` shows who last changed each line. [1]",
    "| Option | Effect |\n| --- | --- |\n| `--ff` | Fast-forward when possible |",
]


@pytest.mark.parametrize("answer", CLEAN)
def test_a_whole_answer_has_no_faults(answer: str) -> None:
    assert read_faults(answer) == []


def test_the_passage_introduction_is_not_a_dangling_lead_in_either_language() -> None:
    for phrases in (ENGLISH, FRENCH):
        intro = phrases.passage_intro.format(section="Remotes")
        assert read_faults(f"{intro}\n\nA remote is a named URL. [1]") == []


def test_an_answer_opening_on_a_pronoun_leans_on_what_the_reader_was_not_shown() -> None:
    assert read_faults("It picks the first that is set. [1]") == ["opens_on_pronoun"]
    intro = ENGLISH.passage_intro.format(section="Hooks")
    assert read_faults(f"{intro}\n\nThis hook checks the staged content. [1]") == [
        "opens_on_pronoun"
    ]


def test_a_pronoun_after_what_it_points_at_is_fine() -> None:
    assert read_faults("Git stores snapshots. It never stores diffs. [1]") == []


def test_a_paragraph_opening_in_lower_case_or_on_a_bracket_was_cut() -> None:
    assert read_faults("(one repository) or in the global file. [1]") == ["starts_mid_sentence"]
    assert read_faults("Ignore files.\n\nor in the global file. [1]") == ["starts_mid_sentence"]


def test_a_selection_quoted_as_plain_text_may_open_on_a_bare_command() -> None:
    answer = "git clone never copies .git/hooks, deliberately. [1]"
    assert read_faults(answer) == ["starts_mid_sentence"]
    assert read_faults(answer, markup=False) == []
    assert read_faults("(one repository) or in it. [1]", markup=False) == ["starts_mid_sentence"]


def test_a_lead_in_with_nothing_after_it_dangles() -> None:
    assert read_faults("Run these commands: [1]") == ["dangling_lead"]
    assert read_faults("Run these commands:\n\nThen push. [1]") == ["dangling_lead"]
    assert read_faults("**Action Components**:\n- **Goal**: the request") == []


def test_a_numbered_list_that_skips_an_item_has_a_gap() -> None:
    answer = "Three links:\n\n1. **Visual**: drawn\n3. **Inertial**: moves"
    assert read_faults(answer) == ["list_gap"]
    assert read_faults("Steps:\n\n2. Commit\n3. Push") == ["list_gap"]


def test_two_lists_each_counting_from_one_have_no_gap() -> None:
    answer = "First:\n\n1. a\n2. b\n\nThen:\n\n1. c\n2. d"
    assert read_faults(answer) == []


@pytest.mark.parametrize(
    "answer",
    [
        "Perception**: The ability to sense the world. [1]",
        "Add invoice model`. `git rebase -i --autosquash main` then moves it. [1]",
        "Run:\n\n```bash\ngit status",
    ],
)
def test_unpaired_markup_is_broken(answer: str) -> None:
    assert "broken_markup" in read_faults(answer)


def test_markup_inside_a_code_block_is_not_judged() -> None:
    answer = "Run:\n\n```python\nprint('**' + '`')\n```"
    assert read_faults(answer) == []


def test_a_lead_in_followed_by_the_note_that_its_script_is_in_the_source_does_not_dangle() -> None:
    for phrases in (ENGLISH, FRENCH):
        answer = f"This hook checks the staged content: [1]\n\n{phrases.continued_in_source}"
        assert "dangling_lead" not in read_faults(answer)
