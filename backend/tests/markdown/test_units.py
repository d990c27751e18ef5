"""Answer units: roles, lead-ins, headers, furniture, and chunks holding whole units."""

from __future__ import annotations

import pytest

from bookchat.markdown.units import (
    Unit,
    is_furniture_heading,
    payload_units,
    split_units,
    units_of_chunk,
)

SECTION = """A fast-forward merge is a merge that only moves the branch pointer. No commit is made.

Merge has three modes:

- `--ff` fast-forwards when it can.
- `--no-ff` always records a merge commit.

| Option | Behavior |
| --- | --- |
| `--ff-only` | Refuse unless a fast-forward is possible |

Sync the fork:

```bash
git merge --ff-only upstream/main
```

> Tip: a fast-forward never creates conflicts."""


def _roles(units: list[Unit]) -> list[str]:
    return [u.role for u in units]


def test_each_unit_knows_its_role() -> None:
    units = split_units(SECTION, ("Merging", "Fast-forward merges"))
    assert _roles(units) == [
        "definition",
        "prose",
        "prose",
        "list_item",
        "list_item",
        "table_row",
        "prose",
        "code",
        "admonition",
    ]


def test_list_items_and_table_rows_and_code_carry_what_introduces_them() -> None:
    units = split_units(SECTION)
    items = [u for u in units if u.role == "list_item"]
    assert {u.lead for u in items} == {"Merge has three modes:"}
    assert items[0].text == "- `--ff` fast-forwards when it can."  # markdown intact
    row = next(u for u in units if u.role == "table_row")
    assert row.lead == "| Option | Behavior |\n| --- | --- |"
    assert row.plain == "Option: `--ff-only`; Behavior: Refuse unless a fast-forward is possible"
    code = next(u for u in units if u.role == "code")
    assert code.lead == "Sync the fork:"


NESTED = """The workspace has four spaces:

1. **Source space (`src/`)**:
   - Where you create and edit your packages

2. **Install space (`install/`)**:
   - Setup scripts for sourcing your workspace
   - Generated automatically by colcon

3. **Log space** holds build logs.
   - Useful for debugging build failures"""


def test_a_nested_item_is_read_with_the_item_that_announces_it() -> None:
    units = {u.text: u for u in split_units(NESTED)}
    setup = units["- Setup scripts for sourcing your workspace"]
    assert setup.lead == "**Install space (`install/`)**:"
    assert setup.plain == (
        "**Install space (`install/`)**: Setup scripts for sourcing your workspace"
    )
    source = units["- Where you create and edit your packages"]
    assert source.lead == "**Source space (`src/`)**:"


def test_a_list_keeps_its_lead_in_across_blank_lines() -> None:
    units = {u.text: u for u in split_units(NESTED)}
    for item in ("1. **Source space (`src/`)**:", "2. **Install space (`install/`)**:"):
        assert units[item].lead == "The workspace has four spaces:"
    # An item that announces nothing leaves its nested items with the list's lead-in.
    assert units["- Useful for debugging build failures"].lead == "The workspace has four spaces:"
    # A heading ends the list: the next list has no lead-in of its own to take.
    after = split_units(f"{NESTED}\n\n## Next\n\n- A list that follows a heading")
    assert after[-1].text == "- A list that follows a heading"
    assert after[-1].lead == ""


def test_everything_under_a_furniture_heading_is_furniture() -> None:
    units = split_units(
        "- Explain what a node is.\n- Build a package.", ("Lesson", "Learning Objectives")
    )
    assert set(_roles(units)) == {"furniture"}
    assert is_furniture_heading("7. Additional Resources")
    assert is_furniture_heading("5. Hands-on Exercise: Create a Message Type")
    assert not is_furniture_heading("Sensor Fusion")


def test_objective_sentences_are_furniture_wherever_they_stand() -> None:
    units = split_units("After completing this lesson, you will be able to explain ROS 2 nodes.")
    assert _roles(units) == ["furniture"]


def test_a_chunk_holds_only_whole_units_never_a_carried_tail() -> None:
    units = split_units("First sentence is here. Second sentence follows it. Third one ends it.")
    chunk = "follows it. Third one ends it."  # starts with the tail of a cut sentence
    assert [u.text for u in units_of_chunk(units, chunk)] == ["Third one ends it."]


def test_stored_units_round_trip_and_old_payloads_are_parsed() -> None:
    units = split_units(SECTION)
    stored = payload_units({"units": [u.to_json() for u in units], "text": "ignored"})
    assert stored == units
    assert payload_units({"text": "An older payload has text only."})[0].role == "prose"


FIXUP = "`git commit --fixup=51b7d22` creates a commit titled `fixup! Add invoice model`; "
SENTENCES = [
    pytest.param(
        [
            "After rebasing you must force-push.",
            "git push --force overwrites the remote branch.",
            "Use a pager, e.g. less or more, to read it.",
        ],
        id="a selection without markup still splits before a lower-case command",
    ),
    pytest.param(
        [
            f"{FIXUP}`--squash=51b7d22` creates `squash! Add invoice model`.",
            "Rebasing with `--autosquash` moves it.",
        ],
        id="an end mark inside inline code ends no sentence",
    ),
    pytest.param(
        ['Git warns "You are in detached HEAD state."', "Then (as the book says.)", "It goes on."],
        id="a closing quote or bracket stays with the sentence it ends",
    ),
    pytest.param(
        [
            "The act was signed by governor John B. Weller in 1859.",
            "The U.S. Army left.",
            "Ask Dr. Smith first.",
            "Use a pager, e.g. Less, to read it.",
            "Git is written in C.",
            "It is fast.",
        ],
        id="no sentence ends after an initial, a title or e.g.",
    ),
]


@pytest.mark.parametrize("sentences", SENTENCES)
def test_prose_splits_into_its_sentences_and_nowhere_else(sentences: list[str]) -> None:
    assert [u.text for u in split_units(" ".join(sentences))] == sentences


def test_a_stray_backtick_does_not_glue_the_sentences_after_it() -> None:
    text = "Use the ` key to quote a command. Then run it. Git prints the result."
    assert len(split_units(text)) == 3


def test_a_sentence_opening_on_a_pronoun_keeps_the_sentence_it_leans_on() -> None:
    units = split_units("Git stores snapshots. It never stores diffs.\n\nThis is fast.")
    assert [(u.text, u.before) for u in units] == [
        ("Git stores snapshots.", ""),
        ("It never stores diffs.", "Git stores snapshots."),
        ("This is fast.", ""),  # it opens its paragraph: nothing before it in the paragraph
    ]


def test_units_stored_before_they_kept_the_sentence_leaned_on_still_load() -> None:
    unit = Unit.from_json(["It never stores diffs.", "prose", "", 0])
    assert unit.before == ""
    again = split_units("Git stores snapshots. It never stores diffs.")[1]
    assert Unit.from_json(again.to_json()) == again


def test_furniture_keeps_the_sentence_a_unit_leans_on() -> None:
    units = split_units(
        "Read the manual first. It explains every option.", ["Page", "Further Reading"]
    )
    assert [(u.role, u.before) for u in units][1] == ("furniture", "Read the manual first.")
