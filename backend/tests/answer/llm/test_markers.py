"""[n] markers: unknown ones removed, the rest renumbered by first use."""

from __future__ import annotations

from bookchat.answer.llm.markers import cited, renumber, strip_markers


def test_known_markers_are_renumbered_by_first_use() -> None:
    out = renumber("Merges combine work [3]. Rebases replay it [1]. Both exist [3][1].", 3)
    assert out.text == "Merges combine work [1]. Rebases replay it [2]. Both exist [1][2]."
    assert out.order == [3, 1]
    assert out.invented == []


def test_invented_markers_are_removed_with_their_space() -> None:
    out = renumber("Revert adds a commit [1]. It was invented in 1999 [7].", 2)
    assert out.text == "Revert adds a commit [1]. It was invented in 1999."
    assert out.invented == [7]


def test_grouped_markers_are_split_and_filtered() -> None:
    out = renumber("Both say so [2, 9, 1].", 2)
    assert out.text == "Both say so [1][2]."
    assert out.order == [2, 1]
    assert out.invented == [9]


def test_a_repeated_marker_in_one_group_is_kept_once() -> None:
    assert renumber("Twice [1][1].", 1).text == "Twice [1][1]."
    assert renumber("Twice [1, 1].", 1).text == "Twice [1]."


def test_markdown_links_and_zero_are_not_markers() -> None:
    out = renumber("See [1](https://example.com) and item [0].", 1)
    assert out.text == "See [1](https://example.com) and item."
    assert out.invented == [0]
    assert out.order == []


def test_cited_and_strip() -> None:
    assert cited("A [2] b [1][2].") == [2, 1]
    assert strip_markers("A [2] b [1][2].") == "A b."
