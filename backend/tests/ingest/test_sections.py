"""Pages split into sections at headings, with Docusaurus anchors and heading paths."""

from bookchat.ingest.sections import split_sections

PAGE = """Lead paragraph.

## Setup

Install it.

```bash
# not a heading
## still code
```

### Example

First example.

## Usage {#use}

### Example

Second example.

## Empty section

## `git stash` and you

Stash text.
"""


def test_sections_follow_headings_but_not_hash_lines_in_code() -> None:
    sections = split_sections("Guide", PAGE)
    assert [s.heading for s in sections] == [
        "Guide",
        "Setup",
        "Example",
        "Example",
        "git stash and you",
    ]
    setup = sections[1]
    assert "# not a heading" in setup.body and "## still code" in setup.body


def test_anchors_use_explicit_ids_and_number_repeats() -> None:
    anchors = [s.anchor for s in split_sections("Guide", PAGE)]
    assert anchors == [None, "setup", "example", "example-1", "git-stash-and-you"]


def test_heading_paths_nest_and_reset_at_higher_levels() -> None:
    sections = split_sections("Guide", PAGE)
    assert sections[2].heading_path == ("Guide", "Setup", "Example")
    assert sections[3].heading_path == ("Guide", "Usage", "Example")
    assert sections[4].heading_path == ("Guide", "git stash and you")


def test_empty_sections_produce_nothing() -> None:
    assert all(s.body.strip() for s in split_sections("Guide", PAGE))
    assert split_sections("Empty", "## A\n\n## B\n") == []


def test_a_content_h1_is_the_page_title_not_a_section() -> None:
    sections = split_sections("Title", "# Title\n\nIntro text.\n\n## Next\n\nMore.")
    assert [(s.heading, s.anchor) for s in sections] == [("Title", None), ("Next", "next")]


def test_explicit_ids_do_not_consume_generated_slugs() -> None:
    sections = split_sections("T", "## Intro {#intro}\n\nA.\n\n## Intro\n\nB.")
    assert [s.anchor for s in sections] == ["intro", "intro"]
