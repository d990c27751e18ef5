"""Choosing what to quote: the best unit completed into a span, or the passage from it on."""

from __future__ import annotations

import numpy as np

from bookchat.answer import select
from bookchat.answer.features import Candidate
from bookchat.ingest.units import split_units

SECTION = """Learning about merges is useful.

A fast-forward merge is a merge that only moves the pointer. It never creates a merge commit.

Use these options:

- `--ff` fast-forwards when possible.
- `--no-ff` always creates a merge commit.

Sync the fork:

```bash
git merge --ff-only upstream/main
```"""


def _candidates(heading_path: tuple[str, ...] = (), text: str = SECTION) -> list[Candidate]:
    units = split_units(text, heading_path)
    return [Candidate(u, 0, i, len(units), "s", "t") for i, u in enumerate(units)]


def _scores(candidates: list[Candidate], best_text: str, value: float = 0.9) -> np.ndarray:
    return np.array([value if best_text in c.unit.text else 0.05 for c in candidates])


def _texts(chosen: list[Candidate]) -> list[str]:
    return [c.unit.text for c in chosen]


def _first(candidates: list[Candidate], scores: np.ndarray, n: int = 2) -> list[str]:
    return [candidates[int(i)].unit.text for i in np.argsort(-scores, kind="stable")[:n]]


def test_a_definition_comes_with_the_sentence_after_it() -> None:
    candidates = _candidates()
    chosen = select.span(candidates, _scores(candidates, "fast-forward merge is"), 120)
    assert _texts(chosen) == [
        "A fast-forward merge is a merge that only moves the pointer.",
        "It never creates a merge commit.",
    ]


def test_a_list_item_whose_lead_announces_the_list_brings_the_whole_list() -> None:
    candidates = _candidates()
    chosen = select.span(candidates, _scores(candidates, "`--no-ff`"), 120)
    assert _texts(chosen) == [
        "- `--no-ff` always creates a merge commit.",
        "- `--ff` fast-forwards when possible.",
    ]


def test_a_nested_item_brings_its_siblings_under_the_item_announcing_them_not_the_list() -> None:
    text = """The workspace has three spaces:

1. **Source space (`src/`)**:
   - Where you create and edit your packages
2. **Install space (`install/`)**:
   - Compiled executables and libraries
   - Setup scripts for sourcing your workspace
3. **Log space (`log/`)**:
   - Build logs and error messages"""
    candidates = _candidates(text=text)
    chosen = select.span(candidates, _scores(candidates, "Setup scripts"), 120)
    assert _texts(chosen) == [
        "- Setup scripts for sourcing your workspace",
        "- Compiled executables and libraries",
    ]
    assert {c.unit.lead for c in chosen} == {"**Install space (`install/`)**:"}


def test_a_sentence_ending_in_a_colon_brings_the_command_it_introduces() -> None:
    candidates = _candidates()
    chosen = select.span(candidates, _scores(candidates, "Sync the fork"), 120)
    assert [c.unit.role for c in chosen] == ["prose", "code"]


def test_nothing_is_cut_a_unit_over_the_budget_is_left_out() -> None:
    candidates = _candidates()
    chosen = select.span(candidates, _scores(candidates, "fast-forward merge is"), 14)
    assert _texts(chosen) == ["A fast-forward merge is a merge that only moves the pointer."]


def test_furniture_is_never_quoted_when_anything_else_could_be() -> None:
    candidates = _candidates()
    furniture = candidates[0].unit.__class__(candidates[0].unit.text, "furniture", "", 0)
    candidates[0] = Candidate(furniture, 0, 0, len(candidates), "s", "t")
    scores = _scores(candidates, "Learning about merges", 0.99)
    assert select.best_index(candidates, scores) != 0


def test_a_passage_answer_is_a_window_of_whole_units_around_the_best() -> None:
    candidates = _candidates()
    chosen = select.passage(candidates, _scores(candidates, "It never creates"), 40)
    texts = _texts(chosen)
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
    candidates = _candidates(
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
    candidates = _candidates(
        text=(
            "Launch files start many nodes at once. They keep start-up reproducible.\n\n"
            "**Causes and Solutions**:\n\n"
            f"**1. Missing `generate_launch_description()`**:\n{script}"
        )
    )
    scores = np.array([0.3, 0.2, 0.25, 0.2, 0.1])
    for chosen in (select.passage(candidates, scores, 60), select.span(candidates, scores, 60)):
        assert chosen
        assert not any(c.unit.text.endswith(":") for c in chosen), _texts(chosen)


def test_a_passage_whose_best_sentence_introduces_an_unquotable_script_reads_on_from_the_next() -> (
    None
):
    script = "```bash\n" + "\n".join(f"check_file {i} || exit 1" for i in range(40)) + "\n```"
    candidates = _candidates(
        text=(
            "Hooks live in `.git/hooks`. A pre-commit hook runs before each commit.\n\n"
            f"This hook checks the staged content, not the working tree:\n\n{script}"
        )
    )
    scores = np.array([0.1, 0.2, 0.3, 0.05])  # the lead-in is the best unit
    chosen = select.passage(candidates, scores, 120)
    assert _texts(chosen) == ["A pre-commit hook runs before each commit."]


def test_a_passage_that_is_only_a_lead_in_and_its_long_script_still_quotes_its_lead_in() -> None:
    script = "```bash\n" + "\n".join(f"check_file {i} || exit 1" for i in range(60)) + "\n```"
    hook = split_units(f"This hook checks the staged content, not the working tree:\n\n{script}")
    diff = split_units("`git diff --staged` shows what the next commit will contain.")
    candidates = [Candidate(u, 0, i, len(hook), "s", "t") for i, u in enumerate(hook)] + [
        Candidate(u, 1, i, len(diff), "s2", "t") for i, u in enumerate(diff)
    ]
    chosen = select.passage(candidates, np.array([0.3, 0.1, 0.2]), 120)
    # Another passage would cite a section that is not the one retrieval and the scorer chose.
    assert _texts(chosen) == [hook[0].text]
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
    candidates = _candidates(text=text)
    scores = np.array([0.3, 0.1, 0.1, 0.1])
    chosen = select.passage(candidates, scores, 120)
    assert [c.unit.role for c in chosen].count("list_item") == 3


def test_a_sentence_opening_on_a_pronoun_brings_the_sentence_it_leans_on() -> None:
    candidates = _candidates()
    chosen = select.span(candidates, _scores(candidates, "It never creates"), 120)
    # "It never creates a merge commit." alone does not say what never does.
    assert _texts(chosen) == [
        "It never creates a merge commit.",
        "A fast-forward merge is a merge that only moves the pointer.",
    ]


def test_the_sentence_after_the_best_that_leans_on_it_continues_it_whatever_its_score() -> None:
    text = (
        "Launch files are scripts that start many nodes at once. They also set parameters and "
        "the start order. Nodes run on their own too."
    )
    candidates = _candidates(text=text)
    # The scorer barely sees "They also set …": its pronoun hides the words the question shares.
    scores = np.array([0.9, 0.01, 0.01])
    assert _texts(select.span(candidates, scores, 120)) == [
        "Launch files are scripts that start many nodes at once.",
        "They also set parameters and the start order.",
    ]


def test_a_sentence_opening_on_a_pronoun_stays_alone_when_it_opens_its_paragraph() -> None:
    text = "Rebasing rewrites history.\n\nThis is why you never rebase shared work."
    candidates = _candidates(text=text)
    chosen = select.span(candidates, _scores(candidates, "This is why"), 120)
    assert _texts(chosen) == ["This is why you never rebase shared work."]


def test_a_paragraph_opening_on_a_pronoun_after_code_brings_the_code() -> None:
    code = "```bash\nsource install/setup.bash\n```"
    candidates = _candidates(text=f"Source the workspace:\n\n{code}\n\nThis adds its packages.")
    chosen = select.span(candidates, _scores(candidates, "This adds"), 120)
    assert _texts(chosen) == ["This adds its packages.", code]
    assert chosen[1].unit.lead == "Source the workspace:"  # shown above the code


def test_an_announced_list_is_quoted_whole_or_not_at_all() -> None:
    text = (
        "Each link can have three components:\n\n"
        "1. **Visual**: How the link appears\n"
        "2. **Collision**: How the link interacts in physics simulation\n"
        "3. **Inertial**: Mass properties"
    )
    candidates = _candidates(text=text)
    # Room for the lead-in, "3. Inertial" and "1. Visual", not for "2. Collision" as well.
    chosen = select.span(candidates, _scores(candidates, "**Inertial**"), 18)
    assert _texts(chosen) == ["3. **Inertial**: Mass properties"]
    whole = select.span(candidates, _scores(candidates, "**Inertial**"), 120)
    assert len(whole) == 3  # with room, every item


def test_an_announced_list_longer_than_the_target_length_is_read_whole_within_the_cap() -> None:
    item = "stands for one long step the reader needs, worded at some length on purpose here"
    steps = "\n".join(f"{n}. **Step {n}**: {item}" for n in range(1, 6))
    candidates = _candidates(text=f"The release takes five steps:\n\n{steps}")
    units = [c.unit for c in candidates]
    assert sum(len(u.text.split()) for u in units) > select.TARGET_WORDS
    chosen = select.span(candidates, _scores(candidates, "**Step 3**"), 120)
    assert sorted(_texts(chosen)) == [u.text for u in units if u.role == "list_item"]


def test_an_item_of_an_announced_list_joins_an_answer_only_with_its_whole_list() -> None:
    text = (
        "Git moves content between three places:\n\n"
        "1. The **working tree**: the files you edit.\n"
        "2. The **index**: what the next commit will contain.\n"
        "3. The **repository**: every commit.\n\n"
        "`git add` copies content from the working tree into the index."
    )
    candidates = _candidates(text=text)
    units = [c.unit for c in candidates]
    scores = np.array(
        [0.9 if "git add" in u.text else 0.5 if "working tree**" in u.text else 0.05 for u in units]
    )
    chosen = _texts(select.span(candidates, scores, 120))
    assert chosen[0].startswith("`git add`")
    assert [t for t in chosen if t[0].isdigit()] == [u.text for u in units if u.role == "list_item"]


def test_a_unit_joining_the_best_one_brings_the_list_it_introduces() -> None:
    text = (
        "Git opens an editor for commit messages. It picks the first that is set of:\n\n"
        "- the `GIT_EDITOR` variable\n- the `core.editor` setting\n- the `EDITOR` variable"
    )
    candidates = _candidates(text=text)
    scores = np.array([0.9, 0.5, 0.1, 0.1, 0.1])
    assert _texts(select.span(candidates, scores, 120)) == [c.unit.text for c in candidates]


def test_a_comparison_answer_that_names_one_side_only_brings_the_best_unit_naming_the_other() -> (
    None
):
    text = (
        "A node is a process that performs computation. Nodes are written in Python or C++.\n\n"
        "After completing this lesson, you will be able to explain what a topic is.\n\n"
        "A topic is a named channel that nodes publish messages to. Topics carry one type."
    )
    candidates = _candidates(text=text)
    # The learning objective names "topic" and outscores the definition: it is furniture.
    scores = np.array([0.9, 0.5, 0.3, 0.2, 0.01])
    chosen = select.span(candidates, scores, 120)
    assert "topic" not in " ".join(_texts(chosen))
    both = select.with_compared(candidates, scores, chosen, ("node", "topic"), 120)
    # The definition comes with the sentence after it, as any definition does.
    assert _texts(both) == [
        *_texts(chosen),
        "A topic is a named channel that nodes publish messages to.",
        "Topics carry one type.",
    ]
    # Nothing to add when every side is named, or when the sides cannot be told apart.
    assert select.with_compared(candidates, scores, both, ("node", "topic"), 120) == both
    assert select.with_compared(candidates, scores, chosen, ("-s ours", "-X ours"), 120) == chosen


def test_a_side_that_another_side_extends_is_named_only_on_its_own() -> None:
    text = """| Command | Compares |
| --- | --- |
| `git diff --staged` | Index with `HEAD` (staged changes) |
| `git diff A...B` | The merge base of `A` and `B` with `B` |
| `git diff` | Working tree with the index (unstaged changes) |"""
    candidates = _candidates(text=text)
    scores = np.array([0.9, 0.05, 0.03])
    chosen = select.span(candidates, scores, 120)
    assert _texts(chosen) == ["| `git diff --staged` | Index with `HEAD` (staged changes) |"]
    # "`git diff --staged`" and "`git diff A...B`" do not name `git diff`: its own row is added.
    both = select.with_compared(candidates, scores, chosen, ("git diff", "git diff --staged"), 120)
    assert _texts(both) == [
        *_texts(chosen),
        "| `git diff` | Working tree with the index (unstaged changes) |",
    ]


def test_what_is_x_is_answered_by_the_definition_of_x_over_a_higher_scored_row() -> None:
    text = (
        "| Command | Effect |\n| --- | --- |\n| `git branch topic` | Create a branch |\n\n"
        "A branch is a movable pointer to a commit. Creating one is cheap.\n\n"
        "A tag is a fixed pointer to a commit."
    )
    candidates = _candidates(text=text)
    scores = np.array([0.8, 0.3, 0.1, 0.35])
    raised = select.definition_first(candidates, scores, "branch")
    assert _texts(select.span(candidates, raised, 40))[:2] == [
        "A branch is a movable pointer to a commit.",
        "Creating one is cheap.",
    ]
    # Plural terms find singular definitions; no definition of the term, no change.
    assert select.definition_first(candidates, scores, "branches")[1] > scores[0]
    assert select.definition_first(candidates, scores, "remote") is scores
    assert select.definition_first(candidates, scores, None) is scores


def test_what_is_x_without_a_definition_is_answered_by_the_opening_of_the_section_titled_x() -> (
    None
):
    text = (
        "If the current tip is an ancestor of the other tip, Git just moves the branch forward. "
        "This fast-forward creates no commit.\n\n"
        "| Option | Behavior |\n| --- | --- |\n| `--ff` | Fast-forward when possible |"
    )
    units = split_units(text)
    candidates = [
        Candidate(u, 0, i, len(units), "Fast-forward merges", "Merging")
        for i, u in enumerate(units)
    ]
    scores = np.array([0.2, 0.1, 0.7])
    raised = select.definition_first(candidates, scores, "fast-forward merge")
    assert _texts(select.span(candidates, raised, 40))[:2] == [
        "If the current tip is an ancestor of the other tip, Git just moves the branch forward.",
        "This fast-forward creates no commit.",
    ]
    # A section that merely mentions the term is not its title.
    assert select.definition_first(candidates, scores, "merge") is scores


def test_a_section_titled_x_that_opens_on_a_list_is_not_read_as_defining_x() -> None:
    units = split_units("- Influential monocular SLAM system\n- Reality gap mitigation")
    candidates = [
        Candidate(u, 0, i, len(units), "Visual SLAM", "References") for i, u in enumerate(units)
    ]
    assert select.opening(candidates, "visual SLAM") is None


def test_what_are_the_three_x_is_answered_by_the_three_item_list_whose_lead_in_names_x() -> None:
    text = (
        "**Action (ROS 2)**: Long-running tasks with feedback and cancellation.\n\n"
        "**Action Components**:\n"
        "- **Goal**: The request sent to the server\n"
        "- **Feedback**: Messages sent during execution\n"
        "- **Result**: The final outcome\n\n"
        "**Action Structure**:\n"
        "- **Action Server**: Executes the task\n"
        "- **Action Client**: Sends goals\n"
        "- **Action Type**: Defines the formats\n\n"
        "**Typical Uses**:\n"
        "- Navigation\n"
        "- Arm motions\n"
        "- Downloads"
    )
    candidates = _candidates(text=text)
    scores = _scores(candidates, "Long-running tasks")
    question = "What are the three components of an action in ROS 2?"
    chosen = _texts(select.span(candidates, select.list_first(candidates, scores, question), 60))
    assert chosen[:3] == [
        "- **Goal**: The request sent to the server",
        "- **Feedback**: Messages sent during execution",
        "- **Result**: The final outcome",
    ]
    # Not a list question, no list of that length, or no list naming what is counted: no change.
    assert select.list_first(candidates, scores, "What is an action in ROS 2?") is scores
    assert select.list_first(candidates, scores, "What are the four components?") is scores
    assert select.list_first(candidates, scores, "What are the three colours of a flag?") is scores


def test_a_comparison_opens_on_the_definitions_of_what_it_compares() -> None:
    text = (
        "**Sourcing the Workspace**: After building, you must source the workspace.\n\n"
        "A **workspace** is a top-level directory that contains one or more packages.\n\n"
        "**Graph Components**:\n\n"
        "1. **Nodes**: Independent executables that perform computation\n"
        "2. **Topics**: Named channels for one-way data flow\n\n"
        "A **ROS 2 package** is a directory containing related code."
    )
    candidates = _candidates(text=text)
    scores = _scores(candidates, "Sourcing the Workspace")
    question_terms = ("ROS 2 workspace", "ROS 2 package")
    raised = select.definitions_compared(candidates, scores, question_terms)
    assert _texts(select.span(candidates, raised, 60))[:2] == [
        "A **workspace** is a top-level directory that contains one or more packages.",
        "A **ROS 2 package** is a directory containing related code.",
    ]
    raised = select.definitions_compared(candidates, scores, ("node", "topic"))
    assert _first(candidates, raised) == [
        "1. **Nodes**: Independent executables that perform computation",
        "2. **Topics**: Named channels for one-way data flow",
    ]
    # No definition of either side, or no comparison: no change.
    assert select.definitions_compared(candidates, scores, ("tag", "release")) is scores
    assert select.definitions_compared(candidates, scores, ()) is scores


def test_a_comparison_without_definitions_opens_on_what_is_said_of_each_side_in_general() -> None:
    text = (
        "**Service Server**: Node that implements the service.\n\n"
        "A rebase can stop once for each conflicting commit.\n\n"
        "Services provide synchronous request-response communication.\n\n"
        "Topics carry one-way messages to any subscriber.\n\n"
        "Rebasing rewrites history."
    )
    candidates = _candidates(text=text)
    scores = _scores(candidates, "Service Server")
    raised = select.definitions_compared(candidates, scores, ("ROS 2 services", "topics"))
    assert _first(candidates, raised) == [
        "Services provide synchronous request-response communication.",
        "Topics carry one-way messages to any subscriber.",
    ]
    # "A rebase can stop …" is said of one rebase, not of rebases: it defines nothing.
    assert select.definitions_compared(candidates, scores, ("rebase", "squash")) is scores


def test_a_comparison_without_definitions_opens_on_the_sections_titled_with_each_side() -> None:
    shallow = split_units("`git clone --depth 1 <url>` fetches only the latest commit.")
    partial = split_units("Objects are fetched on demand from the server by such a clone.")
    candidates = [
        Candidate(shallow[0], 0, 0, 1, "Shallow clone", "Monorepos"),
        Candidate(partial[0], 1, 0, 1, "Partial clone", "Monorepos"),
        *_candidates(),
    ]
    scores = _scores(candidates, "Sync the fork")
    raised = select.definitions_compared(candidates, scores, ("partial clone", "shallow clone"))
    assert _first(candidates, raised) == [
        "Objects are fetched on demand from the server by such a clone.",
        "`git clone --depth 1 <url>` fetches only the latest commit.",
    ]
    assert select.titled_openings(candidates, ("partial clone", "shallow clone")) == [1, 0]
    # Sides ending on the same word are told apart by their whole names and sections: an answer
    # about the shallow clone alone gets the partial clone's opening too.
    terms = ("shallow clone", "partial clone")
    assert _texts(select.with_compared(candidates, scores, candidates[:1], terms, 80)) == [
        "`git clone --depth 1 <url>` fetches only the latest commit.",
        "Objects are fetched on demand from the server by such a clone.",
    ]
    # Every side needs its section: one titled side alone says nothing of the other.
    assert select.titled_openings(candidates, ("partial clone", "sparse checkout")) == []
    assert select.titled_openings(candidates, ()) == []
