"""MDX syntax is removed while the text readers see is kept."""

from bookchat.ingest.mdx import clean_markdown, inline_text


def test_imports_and_multiline_exports_are_removed() -> None:
    body = (
        "import Tabs from '@theme/Tabs';\n"
        "import {\n  A,\n  B,\n} from './x';\n"
        "export const meta = {\n  a: 1,\n};\n"
        "Real text."
    )
    assert clean_markdown(body).strip() == "Real text."


def test_jsx_tags_are_dropped_and_their_children_kept() -> None:
    body = (
        '<Tabs groupId="os">\n<TabItem value="mac" label="macOS">\n'
        "Use Homebrew.\n</TabItem>\n</Tabs>\n<Partial />"
    )
    cleaned = clean_markdown(body)
    assert "Use Homebrew." in cleaned
    assert "<" not in cleaned and "TabItem" not in cleaned


def test_details_blocks_keep_summary_and_body() -> None:
    cleaned = clean_markdown(
        "<details>\n<summary>More formats</summary>\n\nUse --pretty.\n\n</details>"
    )
    assert "More formats" in cleaned and "Use --pretty." in cleaned and "details" not in cleaned


def test_admonitions_keep_title_and_body_without_fences() -> None:
    cleaned = clean_markdown(
        ":::tip[Use a pager]\nSet core.pager.\n:::\n\n:::warning\nCareful.\n:::"
    )
    assert "Tip: Use a pager" in cleaned
    assert "Set core.pager." in cleaned and "Careful." in cleaned
    assert ":::" not in cleaned


def test_code_fences_are_left_untouched() -> None:
    body = "```jsx\nimport React from 'react';\n<Button onClick={go}>Hi</Button>\n:::tip\n```"
    assert clean_markdown(body) == body


def test_comments_are_removed() -> None:
    assert clean_markdown("a {/* hidden */} b <!-- gone --> c").split() == ["a", "b", "c"]


def test_links_keep_their_text_only() -> None:
    cleaned = clean_markdown("See [merging](../03-branching/02-merging.md) and ![diagram](x.svg).")
    assert cleaned == "See merging and diagram."


def test_inline_text_renders_heading_markdown_as_plain_text() -> None:
    assert (
        inline_text("Using `git stash` **safely** with [docs](x.md)")
        == "Using git stash safely with docs"
    )


def test_angle_brackets_inside_inline_code_are_text_not_tags() -> None:
    cleaned = clean_markdown(
        "Run `git revert <commit>` or `git switch -c <branch>`, not <b>this</b>."
    )
    assert cleaned == "Run `git revert <commit>` or `git switch -c <branch>`, not this."
    assert inline_text("Using `git checkout <branch>`") == "Using git checkout <branch>"
