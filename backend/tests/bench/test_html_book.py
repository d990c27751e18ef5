"""The Rust book's HTML pages as Markdown (bench/html_book.py), on pages written here."""

from __future__ import annotations

from pathlib import Path

from html_book import convert, to_markdown

PAGE = """<html><body><nav>Contents, never content</nav><main>
<h1 id="ownership"><a class="header" href="#ownership">Ownership</a></h1>
<p><em>Ownership</em> is a set of rules that govern
how a Rust program manages memory.</p>
<ul><li>Each value has an <strong>owner</strong>.</li><li>There can only be one owner.</li></ul>
<pre><code class="language-rust"><span class="boring">fn main() {
</span>let s = String::from("hi");
<span class="boring">}</span></code></pre>
<table><tr><th>Op</th><th>Trait</th></tr><tr><td><code>+</code></td><td>Add</td></tr></table>
</main><footer>never content either</footer></body></html>"""


def test_a_page_s_main_becomes_headings_paragraphs_lists_code_and_tables() -> None:
    assert to_markdown(PAGE) == (
        "# Ownership\n\n"
        "*Ownership* is a set of rules that govern how a Rust program manages memory.\n\n"
        "- Each value has an **owner**.\n"
        "- There can only be one owner.\n\n"
        '```rust\nlet s = String::from("hi");\n```\n\n'
        "| Op | Trait |\n| --- | --- |\n| `+` | Add |\n"
    )


def test_only_chapter_pages_with_content_are_written_with_their_title(tmp_path: Path) -> None:
    html = tmp_path / "html"
    html.mkdir()
    (html / "ch04-01-what-is-ownership.html").write_text(PAGE, encoding="utf-8")
    (html / "ch04-02-old-name.html").write_text("<main></main>", encoding="utf-8")  # a redirect
    (html / "print.html").write_text(PAGE, encoding="utf-8")  # the whole book on one page
    out = tmp_path / "docs"
    assert convert(html, out) == 1
    assert [p.name for p in out.iterdir()] == ["ch04-01-what-is-ownership.md"]
    page = (out / "ch04-01-what-is-ownership.md").read_text(encoding="utf-8")
    assert page.startswith("---\ntitle: 'Ownership'\nsidebar_position: 1\n---\n\n# Ownership\n")
