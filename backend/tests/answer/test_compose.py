"""Composing: whole units in reading order, Markdown intact, one marker per passage run."""

from __future__ import annotations

from bookchat.answer.compose import Source, compose
from bookchat.answer.features import Candidate
from bookchat.markdown.units import Unit, split_units


def _source(n: int) -> Source:
    return Source(f"c{n}", f"p{n}.md", f"d{n}", "ch", "Chapter", f"Section {n}", f"/p{n}#s", 0.5)


def _candidates(markdown: str, source: int = 0) -> list[Candidate]:
    units = split_units(markdown)
    return [
        Candidate(u, source, i, len(units), f"Section {source}", "Page")
        for i, u in enumerate(units)
    ]


def test_units_of_one_passage_share_a_marker_after_the_last() -> None:
    chosen = _candidates("A branch is a pointer. It moves with each commit.")
    comp = compose(chosen, [_source(0)], support=0.9)
    assert comp.answer == "A branch is a pointer. It moves with each commit. [1]"
    assert [c.index for c in comp.citations] == [1]


def test_the_best_units_passage_is_cited_first_and_only_cited_passages_appear() -> None:
    best = _candidates("Tags mark releases in history.", source=2)
    extra = _candidates("Remotes are other copies of a repository.", source=0)
    comp = compose([*best, *extra], [_source(0), _source(1), _source(2)], support=0.9)
    assert comp.answer == (
        "Tags mark releases in history. [1]\n\nRemotes are other copies of a repository. [2]"
    )
    assert [c.section for c in comp.citations] == ["Section 2", "Section 0"]


def test_a_table_row_is_shown_under_its_header_and_the_marker_stays_outside_the_table() -> None:
    table = "| Option | Behavior |\n| --- | --- |\n| `--ff` | Fast-forward when possible |\n"
    row = [c for c in _candidates(table) if c.unit.role == "table_row"]
    comp = compose(row, [_source(0)], support=0.9)
    assert comp.answer == (
        "| Option | Behavior |\n| --- | --- |\n| `--ff` | Fast-forward when possible |\n\n[1]"
    )


def test_a_list_item_is_shown_after_its_lead_in_with_its_markdown_intact() -> None:
    text = "Robots need:\n\n- **Perception**: sensing the world.\n- **Action**: moving in it."
    items = [c for c in _candidates(text) if c.unit.role == "list_item"]
    comp = compose(items[:1], [_source(0)], support=0.9)
    assert comp.answer == "Robots need:\n\n- **Perception**: sensing the world. [1]"


def test_a_code_block_follows_its_introduction_and_the_marker_goes_on_the_prose() -> None:
    text = "Fast-forward the fork:\n\n```bash\ngit merge --ff-only upstream/main\n```"
    code = [c for c in _candidates(text) if c.unit.role == "code"]
    comp = compose(code, [_source(0)], support=0.9)
    assert (
        comp.answer
        == "Fast-forward the fork: [1]\n\n```bash\ngit merge --ff-only upstream/main\n```"
    )


def test_a_passage_answer_is_introduced_as_such() -> None:
    chosen = _candidates("Rebasing rewrites history. Merging keeps it.")
    comp = compose(chosen, [_source(0)], support=0.7, kind="passage", intro="From the book:")
    assert comp.answer.startswith("From the book:\n\nRebasing rewrites history.")
    assert comp.kind == "passage"


def test_an_admonition_quote_stays_one_quote() -> None:
    units = [
        Unit("> Never rebase shared commits.", "admonition", "", 0),
        Unit("> Others lose work.", "admonition", "", 0),
    ]
    chosen = [Candidate(u, 0, i, 2, "s", "t") for i, u in enumerate(units)]
    assert compose(chosen, [_source(0)], support=0.9).answer == (
        "> Never rebase shared commits. Others lose work. [1]"
    )


def test_a_sentence_opening_on_a_pronoun_is_shown_after_the_one_it_leans_on() -> None:
    text = "Git stores snapshots, not diffs. It compresses them in packfiles."
    second = _candidates(text)[1:]  # as when a chunk starts between the two
    comp = compose(second, [_source(0)], support=0.9)
    assert comp.answer == "Git stores snapshots, not diffs. It compresses them in packfiles. [1]"


def test_the_sentence_leaned_on_is_shown_once_when_it_is_quoted_too() -> None:
    text = "Git stores snapshots, not diffs. It compresses them in packfiles."
    comp = compose(_candidates(text), [_source(0)], support=0.9)
    assert comp.answer == "Git stores snapshots, not diffs. It compresses them in packfiles. [1]"


def test_a_note_after_the_quote_comes_last_after_the_marker() -> None:
    chosen = _candidates("Run the whole check:")
    comp = compose(chosen, [_source(0)], support=0.9, kind="passage", outro="(See the section.)")
    assert comp.answer == "Run the whole check: [1]\n\n(See the section.)"
