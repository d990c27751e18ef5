"""Choosing what to quote: the best unit completed into a span, or the passage from it on."""

from __future__ import annotations

import numpy as np
import pytest

from bookchat.answer import select, shape
from bookchat.answer.features import Candidate
from bookchat.markdown.units import split_units
from tests.answer.candidates import SECTION, candidates_of, clone_sections, scored, texts_of

DEFINITION = "A fast-forward merge is a merge that only moves the pointer."
SPANS = [
    pytest.param(
        SECTION,
        "fast-forward merge is",
        120,
        [DEFINITION, "It never creates a merge commit."],
        id="a definition comes with the sentence after it",
    ),
    pytest.param(
        SECTION,
        "`--no-ff`",
        120,
        ["- `--no-ff` always creates a merge commit.", "- `--ff` fast-forwards when possible."],
        id="a list item whose lead announces the list brings the whole list",
    ),
    pytest.param(
        SECTION,
        "fast-forward merge is",
        14,
        [DEFINITION],
        id="nothing is cut: a unit over the budget is left out",
    ),
    pytest.param(
        SECTION,
        "It never creates",
        120,
        ["It never creates a merge commit.", DEFINITION],
        id="a sentence opening on a pronoun brings the sentence it leans on",
    ),
    pytest.param(
        "Rebasing rewrites history.\n\nThis is why you never rebase shared work.",
        "This is why",
        120,
        ["This is why you never rebase shared work."],
        id="a sentence opening on a pronoun stays alone when it opens its paragraph",
    ),
]


@pytest.mark.parametrize(("text", "best", "budget", "expected"), SPANS)
def test_a_span_is_the_best_unit_with_what_it_needs_to_be_read(
    text: str, best: str, budget: int, expected: list[str]
) -> None:
    candidates = candidates_of(text=text)
    assert texts_of(select.span(candidates, scored(candidates, best), budget)) == expected


def test_a_nested_item_brings_its_siblings_under_the_item_announcing_them_not_the_list() -> None:
    text = """The workspace has three spaces:

1. **Source space (`src/`)**:
   - Where you create and edit your packages
2. **Install space (`install/`)**:
   - Compiled executables and libraries
   - Setup scripts for sourcing your workspace
3. **Log space (`log/`)**:
   - Build logs and error messages"""
    candidates = candidates_of(text=text)
    chosen = select.span(candidates, scored(candidates, "Setup scripts"), 120)
    assert texts_of(chosen) == [
        "- Setup scripts for sourcing your workspace",
        "- Compiled executables and libraries",
    ]
    assert {c.unit.lead for c in chosen} == {"**Install space (`install/`)**:"}


def test_a_sentence_ending_in_a_colon_brings_the_command_it_introduces() -> None:
    candidates = candidates_of()
    chosen = select.span(candidates, scored(candidates, "Sync the fork"), 120)
    assert [c.unit.role for c in chosen] == ["prose", "code"]


def test_furniture_is_never_quoted_when_anything_else_could_be() -> None:
    candidates = candidates_of()
    furniture = candidates[0].unit.__class__(candidates[0].unit.text, "furniture", "", 0)
    candidates[0] = Candidate(furniture, 0, 0, len(candidates), "s", "t")
    scores = scored(candidates, "Learning about merges", 0.99)
    assert select.best_index(candidates, scores) != 0


def test_a_passage_answer_is_a_window_of_whole_units_around_the_best() -> None:
    candidates = candidates_of()
    chosen = select.passage(candidates, scored(candidates, "It never creates"), 40)
    texts = texts_of(chosen)
    # The best unit leans on the sentence before it: the window reads from there, then on.
    assert texts[:2] == [
        "A fast-forward merge is a merge that only moves the pointer.",
        "It never creates a merge commit.",
    ]
    lists = {c.unit.block for c in chosen if c.unit.role == "list_item"}
    others = [c for c in chosen if c.unit.role != "list_item"]
    # An announced list is one piece; the last piece taken may bring the list it introduces.
    assert texts[-3:] == [
        "Use these options:",
        "- `--ff` fast-forwards when possible.",
        "- `--no-ff` always creates a merge commit.",
    ]
    assert len(others) + len(lists) - 1 <= select.WINDOW
    assert all(c.source == 0 for c in chosen)
    leads = {c.unit.lead for c in chosen if c.unit.lead and c.unit.lead not in texts}
    assert sum(len(t.split()) for t in [*texts, *leads]) <= 40  # a lead-in shown once counts once


def test_a_passage_answer_reads_the_passage_of_the_best_unit_not_the_top_ranked_one() -> None:
    first = [
        Candidate(u, 0, i, 2, "a", "t")
        for i, u in enumerate(split_units("Alpha is here. Beta is there."))
    ]
    second = [
        Candidate(u, 1, i, 1, "b", "t") for i, u in enumerate(split_units("Gamma is elsewhere."))
    ]
    candidates = first + second
    assert {c.source for c in select.passage(candidates, np.array([0.2, 0.1, 0.25]), 40)} == {1}
    assert {c.source for c in select.passage(candidates, np.array([0.2, 0.1, 0.15]), 40)} == {0}


def test_a_passage_answer_skips_a_best_unit_too_long_to_quote() -> None:
    script = "```bash\n" + "\n".join(f"echo line {i} of a long script" for i in range(30)) + "\n```"
    units = split_units(
        f"Run the hook like this:\n\n{script}\n\nTest it with `git hook run pre-commit` today."
    )
    candidates = [Candidate(u, 0, i, len(units), "s", "t") for i, u in enumerate(units)]
    scores = np.array([0.1 if u.role != "code" else 0.3 for u in units])
    chosen = select.passage(candidates, scores, 120)
    assert chosen and all(c.unit.role != "code" for c in chosen)


def test_an_introduction_that_introduces_another_brings_the_command_at_the_end() -> None:
    candidates = candidates_of(
        text=(
            "**Causes and Solutions**:\n\n**1. Missing `generate_launch_description()`**:\n"
            "```python\ndef generate_launch_description():\n    return LaunchDescription([])\n```"
        )
    )
    chosen = select.span(candidates, np.array([0.9, 0.1, 0.1]), 120)
    assert [c.unit.role for c in chosen] == ["prose", "prose", "code"]


def test_a_sentence_ending_in_a_colon_is_left_out_when_what_it_introduces_does_not_fit() -> None:
    script = (
        "```python\n" + "\n".join(f"step_{i}()  # one of many steps" for i in range(40)) + "\n```"
    )
    candidates = candidates_of(
        text=(
            "Launch files start many nodes at once. They keep start-up reproducible.\n\n"
            "**Causes and Solutions**:\n\n"
            f"**1. Missing `generate_launch_description()`**:\n{script}"
        )
    )
    scores = np.array([0.3, 0.2, 0.25, 0.2, 0.1])
    for chosen in (select.passage(candidates, scores, 60), select.span(candidates, scores, 60)):
        assert chosen
        assert not any(c.unit.text.endswith(":") for c in chosen), texts_of(chosen)


def test_a_passage_whose_best_sentence_introduces_an_unquotable_script_reads_on_from_the_next() -> (
    None
):
    script = "```bash\n" + "\n".join(f"check_file {i} || exit 1" for i in range(40)) + "\n```"
    candidates = candidates_of(
        text=(
            "Hooks live in `.git/hooks`. A pre-commit hook runs before each commit.\n\n"
            f"This hook checks the staged content, not the working tree:\n\n{script}"
        )
    )
    scores = np.array([0.1, 0.2, 0.3, 0.05])  # the lead-in is the best unit
    chosen = select.passage(candidates, scores, 120)
    assert texts_of(chosen) == ["A pre-commit hook runs before each commit."]


def test_a_passage_that_is_only_a_lead_in_and_its_long_script_still_quotes_its_lead_in() -> None:
    script = "```bash\n" + "\n".join(f"check_file {i} || exit 1" for i in range(60)) + "\n```"
    hook = split_units(f"This hook checks the staged content, not the working tree:\n\n{script}")
    diff = split_units("`git diff --staged` shows what the next commit will contain.")
    candidates = [Candidate(u, 0, i, len(hook), "s", "t") for i, u in enumerate(hook)] + [
        Candidate(u, 1, i, len(diff), "s2", "t") for i, u in enumerate(diff)
    ]
    chosen = select.passage(candidates, np.array([0.3, 0.1, 0.2]), 120)
    # Another passage would cite a section that is not the one retrieval and the scorer chose.
    assert texts_of(chosen) == [hook[0].text]
    assert select.ends_on_lead_in(candidates, chosen)
    assert not select.ends_on_lead_in(candidates, candidates[2:])


def test_a_passage_answer_never_quotes_a_self_check_when_a_lesson_passage_follows() -> None:
    checks = split_units(
        "**Question 1**: What is a service?", ("Lesson", "Check Your Understanding")
    )
    lesson = split_units("A service answers one request with one response.")
    candidates = [
        Candidate(u, 0, i, 1, "Check Your Understanding", "t") for i, u in enumerate(checks)
    ]
    candidates += [Candidate(u, 1, i, 1, "Services", "t") for i, u in enumerate(lesson)]
    chosen = select.passage(candidates, np.array([0.3, 0.2]), 120)
    assert [c.unit.role for c in chosen] == ["prose"]


def test_a_passage_window_reads_an_announced_list_whole() -> None:
    text = (
        "Each entry point means:\n\n- Command name: `talker`.\n"
        "- Python module: `pkg.talker`.\n- Function to call: `main()`."
    )
    candidates = candidates_of(text=text)
    scores = np.array([0.3, 0.1, 0.1, 0.1])
    chosen = select.passage(candidates, scores, 120)
    assert [c.unit.role for c in chosen].count("list_item") == 3


def test_the_sentence_after_the_best_that_leans_on_it_continues_it_whatever_its_score() -> None:
    text = (
        "Launch files are scripts that start many nodes at once. They also set parameters and "
        "the start order. Nodes run on their own too."
    )
    candidates = candidates_of(text=text)
    # The scorer barely sees "They also set …": its pronoun hides the words the question shares.
    scores = np.array([0.9, 0.01, 0.01])
    assert texts_of(select.span(candidates, scores, 120)) == [
        "Launch files are scripts that start many nodes at once.",
        "They also set parameters and the start order.",
    ]


def test_a_paragraph_opening_on_a_pronoun_after_code_brings_the_code() -> None:
    code = "```bash\nsource install/setup.bash\n```"
    candidates = candidates_of(text=f"Source the workspace:\n\n{code}\n\nThis adds its packages.")
    chosen = select.span(candidates, scored(candidates, "This adds"), 120)
    assert texts_of(chosen) == ["This adds its packages.", code]
    assert chosen[1].unit.lead == "Source the workspace:"  # shown above the code


def test_an_announced_list_is_quoted_whole_or_not_at_all() -> None:
    text = (
        "Each link can have three components:\n\n"
        "1. **Visual**: How the link appears\n"
        "2. **Collision**: How the link interacts in physics simulation\n"
        "3. **Inertial**: Mass properties"
    )
    candidates = candidates_of(text=text)
    # Room for the lead-in, "3. Inertial" and "1. Visual", not for "2. Collision" as well.
    chosen = select.span(candidates, scored(candidates, "**Inertial**"), 18)
    assert texts_of(chosen) == ["3. **Inertial**: Mass properties"]
    whole = select.span(candidates, scored(candidates, "**Inertial**"), 120)
    assert len(whole) == 3  # with room, every item


def test_an_announced_list_longer_than_the_target_length_is_read_whole_within_the_cap() -> None:
    item = "stands for one long step the reader needs, worded at some length on purpose here"
    steps = "\n".join(f"{n}. **Step {n}**: {item}" for n in range(1, 6))
    candidates = candidates_of(text=f"The release takes five steps:\n\n{steps}")
    units = [c.unit for c in candidates]
    assert sum(len(u.text.split()) for u in units) > select.TARGET_WORDS
    chosen = select.span(candidates, scored(candidates, "**Step 3**"), 120)
    assert sorted(texts_of(chosen)) == [u.text for u in units if u.role == "list_item"]


def test_an_item_of_an_announced_list_joins_an_answer_only_with_its_whole_list() -> None:
    text = (
        "Git moves content between three places:\n\n"
        "1. The **working tree**: the files you edit.\n"
        "2. The **index**: what the next commit will contain.\n"
        "3. The **repository**: every commit.\n\n"
        "`git add` copies content from the working tree into the index."
    )
    candidates = candidates_of(text=text)
    units = [c.unit for c in candidates]
    scores = np.array(
        [0.9 if "git add" in u.text else 0.5 if "working tree**" in u.text else 0.05 for u in units]
    )
    chosen = texts_of(select.span(candidates, scores, 120))
    assert chosen[0].startswith("`git add`")
    assert [t for t in chosen if t[0].isdigit()] == [u.text for u in units if u.role == "list_item"]


def test_a_unit_joining_the_best_one_brings_the_list_it_introduces() -> None:
    text = (
        "Git opens an editor for commit messages. It picks the first that is set of:\n\n"
        "- the `GIT_EDITOR` variable\n- the `core.editor` setting\n- the `EDITOR` variable"
    )
    candidates = candidates_of(text=text)
    scores = np.array([0.9, 0.5, 0.1, 0.1, 0.1])
    assert texts_of(select.span(candidates, scores, 120)) == [c.unit.text for c in candidates]


def test_a_comparison_answer_that_names_one_side_only_brings_the_best_unit_naming_the_other() -> (
    None
):
    text = (
        "A node is a process that performs computation. Nodes are written in Python or C++.\n\n"
        "After completing this lesson, you will be able to explain what a topic is.\n\n"
        "A topic is a named channel that nodes publish messages to. Topics carry one type."
    )
    candidates = candidates_of(text=text)
    # The learning objective names "topic" and outscores the definition: it is furniture.
    scores = np.array([0.9, 0.5, 0.3, 0.2, 0.01])
    chosen = select.span(candidates, scores, 120)
    assert "topic" not in " ".join(texts_of(chosen))
    both = select.with_compared(
        candidates, scores, chosen, shape.sides_of(candidates, ("node", "topic")), 120
    )
    # The definition comes with the sentence after it, as any definition does.
    assert texts_of(both) == [
        *texts_of(chosen),
        "A topic is a named channel that nodes publish messages to.",
        "Topics carry one type.",
    ]
    # Nothing to add when every side is named, or when the sides cannot be told apart.
    assert (
        select.with_compared(
            candidates, scores, both, shape.sides_of(candidates, ("node", "topic")), 120
        )
        == both
    )
    assert (
        select.with_compared(
            candidates, scores, chosen, shape.sides_of(candidates, ("-s ours", "-X ours")), 120
        )
        == chosen
    )


def test_a_side_that_another_side_extends_is_named_only_on_its_own() -> None:
    text = """| Command | Compares |
| --- | --- |
| `git diff --staged` | Index with `HEAD` (staged changes) |
| `git diff A...B` | The merge base of `A` and `B` with `B` |
| `git diff` | Working tree with the index (unstaged changes) |"""
    candidates = candidates_of(text=text)
    scores = np.array([0.9, 0.05, 0.03])
    chosen = select.span(candidates, scores, 120)
    assert texts_of(chosen) == ["| `git diff --staged` | Index with `HEAD` (staged changes) |"]
    # "`git diff --staged`" and "`git diff A...B`" do not name `git diff`: its own row is added.
    both = select.with_compared(
        candidates,
        scores,
        chosen,
        shape.sides_of(candidates, ("git diff", "git diff --staged")),
        120,
    )
    assert texts_of(both) == [
        *texts_of(chosen),
        "| `git diff` | Working tree with the index (unstaged changes) |",
    ]


def test_sides_ending_on_the_same_word_are_told_apart_by_their_whole_names_and_sections() -> None:
    candidates = clone_sections()
    scores = np.array([0.9, 0.1])
    # An answer about the shallow clone alone gets the partial clone's opening too.
    terms = ("shallow clone", "partial clone")
    assert texts_of(
        select.with_compared(
            candidates, scores, candidates[:1], shape.sides_of(candidates, terms), 80
        )
    ) == [
        "`git clone --depth 1 <url>` fetches only the latest commit.",
        "Objects are fetched on demand from the server by such a clone.",
    ]


def test_choose_quotes_a_span_above_the_threshold_and_the_passage_below_it() -> None:
    candidates = candidates_of()
    scores = scored(candidates, "fast-forward merge is", 0.9)
    span = select.choose(candidates, scores, 120, span_threshold=0.5)
    assert span is not None and span.is_span
    assert texts_of(span.units) == texts_of(select.span(candidates, scores, 120))
    passage = select.choose(candidates, scores, 120, span_threshold=0.95)
    assert passage is not None and not passage.is_span
    assert texts_of(passage.units) == texts_of(select.passage(candidates, scores, 120))


def test_choose_quotes_the_readers_unit_first_whatever_its_score() -> None:
    candidates = candidates_of()
    scores = scored(candidates, "fast-forward merge is", 0.9)
    anchor = next(i for i, c in enumerate(candidates) if "`--no-ff`" in c.unit.text)
    choice = select.choose(candidates, scores, 120, span_threshold=0.5, anchor=anchor)
    assert choice is not None and choice.is_span
    assert "`--no-ff`" in choice.units[0].unit.text
    assert scores[anchor] == 0.05  # the caller's scores are left as they were


def test_a_readers_unit_leads_a_passage_where_no_unit_answers_on_its_own() -> None:
    # Book mode: the reader chooses where the quote is built, the answer model whether one unit
    # answers on its own; below the span threshold the answer stays a passage, around the anchor.
    candidates = candidates_of()
    scores = scored(candidates, "fast-forward merge is", 0.3)
    anchor = next(i for i, c in enumerate(candidates) if "`--no-ff`" in c.unit.text)
    kept = select.choose(
        candidates, scores, 120, span_threshold=0.5, anchor=anchor, anchor_answers=False
    )
    assert kept is not None and not kept.is_span
    assert any("`--no-ff`" in c.unit.text for c in kept.units)
    # Where the answer model's best unit answers on its own, the reader's unit leads a span.
    led = select.choose(
        candidates,
        scored(candidates, "fast-forward merge is", 0.9),
        120,
        span_threshold=0.5,
        anchor=anchor,
        anchor_answers=False,
    )
    assert led is not None and led.is_span and "`--no-ff`" in led.units[0].unit.text
    # A selection's reader decides both: its unit is a span whatever the scores.
    forced = select.choose(candidates, scores, 120, span_threshold=0.5, anchor=anchor)
    assert forced is not None and forced.is_span
