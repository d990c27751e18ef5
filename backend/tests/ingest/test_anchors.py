"""Heading anchors match github-slugger as Docusaurus uses it."""

import pytest

from bookchat.ingest.anchors import Slugger, github_slug, split_explicit_id


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("Launch files", "launch-files"),
        ("What's in a commit?", "whats-in-a-commit"),
        ("Using git stash", "using-git-stash"),
        ("C++ & Rust: a comparison", "c--rust-a-comparison"),
        ("reset --soft/--mixed/--hard", "reset---soft--mixed--hard"),
        ("snake_case stays", "snake_case-stays"),
        ("Ünïcödé Überschrift", "ünïcödé-überschrift"),
        ("  spaced  out ", "--spaced--out-"),
        ("Emoji 🚀 rocket", "emoji--rocket"),
    ],
)
def test_github_slug(heading: str, anchor: str) -> None:
    assert github_slug(heading) == anchor


def test_repeated_headings_get_numbered_suffixes() -> None:
    slugger = Slugger()
    assert [slugger.slug("Example") for _ in range(3)] == ["example", "example-1", "example-2"]
    assert slugger.slug("Example 1") == "example-1-1"


def test_explicit_ids_are_split_from_the_heading() -> None:
    assert split_explicit_id("Launch files {#launch}") == ("Launch files", "launch")
    assert split_explicit_id("No id here") == ("No id here", None)
