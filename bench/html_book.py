"""The Rust Programming Language's HTML pages as Markdown, for the Rust-book evaluation.

    backend/.venv/bin/python bench/html_book.py [SOURCE_DIR] OUT_DIR

The book ships as HTML with rustup's `rust-docs` component (`<toolchain>/share/doc/rust/html/book`),
so any machine with a Rust toolchain can rebuild it offline. Only the chapter pages
(`chNN-NN-*.html`, `appendix-NN-*.html`) are kept; the redirects from chapters' old names are not.
The output is Markdown that `ingest` reads like any Docusaurus page: headings, paragraphs with
inline code and emphasis, fenced code, lists, tables and notes.
"""

from __future__ import annotations

import argparse
import html
import os
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

CHAPTER = re.compile(r"^(ch\d\d-\d\d|appendix-\d\d)-[a-z0-9-]+\.html$")
INLINE = {"code": "`", "em": "*", "strong": "**"}


def rust_book_html() -> Path | None:
    """The Rust book's HTML folder of an installed toolchain (stable first), or None."""
    home = Path(os.environ.get("RUSTUP_HOME") or Path.home() / ".rustup")
    found = sorted((home / "toolchains").glob("*/share/doc/rust/html/book"))
    stable = [p for p in found if p.parts[-6].startswith("stable-")]
    return (stable or found)[0] if found else None


class _Markdown(HTMLParser):
    """Collects `<main>`'s blocks as Markdown lines."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.inside_main = False
        self.lines: list[str] = []
        self.text: list[str] = []
        self.pre = False
        self.lists: list[str] = []
        self.row: list[str] = []
        self.rows = 0
        self.heading = 0
        self.skip = 0  # depth inside elements whose text is not content (buttons, hidden lines)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Open a block or an inline mark."""
        if tag == "main":
            self.inside_main = True
        if not self.inside_main:
            return
        classes = dict(attrs).get("class") or ""
        if self.skip or tag == "button" or "boring" in classes:
            self.skip += 1
            return
        if tag == "pre":
            self.pre = True
            self.text = ["```\n"]
        elif tag == "code" and self.pre:
            # mdBook marks the language on the <code> inside <pre>.
            language = re.search(r"language-([a-z]+)", classes)
            if language and self.text == ["```\n"]:
                self.text = [f"```{language.group(1)}\n"]
        elif tag in ("ul", "ol"):
            self.lists.append(tag)
        elif tag == "tr":
            self.row = []
        elif re.fullmatch(r"h[1-5]", tag):
            self.heading = int(tag[1])
            self.text = []
        elif tag in INLINE and not self.pre:
            self.text.append(INLINE[tag])
        elif tag == "br":
            self.text.append(" ")

    def handle_endtag(self, tag: str) -> None:
        """Close a block: write it out."""
        if not self.inside_main:
            return
        if self.skip:
            self.skip -= 1
            return
        if tag == "main":
            self.inside_main = False
        elif tag == "pre":
            self.pre = False
            code = "".join(self.text).rstrip("\n")
            self.lines += [code + "\n```", ""]
            self.text = []
        elif tag in ("ul", "ol") and self.lists:
            self.lists.pop()
            if not self.lists:
                self.lines.append("")
        elif tag in ("td", "th"):
            self.row.append(self._flush())
        elif tag == "tr":
            self.lines.append("| " + " | ".join(self.row) + " |")
            if self.rows == 0:
                self.lines.append("|" + " --- |" * len(self.row))
            self.rows += 1
        elif tag == "table":
            self.lines.append("")
            self.rows = 0
        elif re.fullmatch(r"h[1-5]", tag):
            self.lines += ["#" * self.heading + " " + self._flush(), ""]
            self.heading = 0
        elif tag == "li":
            depth = max(0, len(self.lists) - 1)
            mark = "1." if self.lists and self.lists[-1] == "ol" else "-"
            item = self._flush()
            if item:
                self.lines.append("  " * depth + f"{mark} {item}")
        elif tag in ("p", "dt", "dd", "blockquote", "figcaption"):
            text = self._flush()
            if text:
                self.lines += [text] if self.lists else [text, ""]
        elif tag in INLINE and not self.pre:
            self.text.append(INLINE[tag])

    def handle_data(self, data: str) -> None:
        """Keep text; outside code, runs of white space read as one space."""
        if self.inside_main and not self.skip:
            self.text.append(data if self.pre else re.sub(r"\s+", " ", data))

    def _flush(self) -> str:
        text = re.sub(r"\s+", " ", "".join(self.text)).strip()
        self.text = []
        return text.replace("** ", "**").replace(" **", "**") if text.count("**") == 1 else text


def to_markdown(page: str) -> str:
    """One mdBook page's `<main>` as Markdown."""
    parser = _Markdown()
    parser.feed(page)
    text = "\n".join(parser.lines)
    return re.sub(r"\n{3,}", "\n\n", html.unescape(text)).strip() + "\n"


def chapters(source: Path) -> list[Path]:
    """The book's chapter pages, in order (it keeps redirects from old names beside them)."""
    return sorted(p for p in source.iterdir() if CHAPTER.match(p.name))


def convert(source: Path, out: Path) -> int:
    """Write every chapter page of `source` as Markdown into `out`; returns how many."""
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for page in chapters(source):
        body = to_markdown(page.read_text(encoding="utf-8"))
        if not body.strip():
            continue  # a redirect from a chapter's old name
        written += 1
        title = next((h.lstrip("# ") for h in body.splitlines() if h.startswith("#")), page.stem)
        front = f"---\ntitle: {title!r}\nsidebar_position: {written}\n---\n\n"
        (out / f"{page.stem}.md").write_text(front + body, encoding="utf-8")
    return written


def main() -> None:
    """Convert the book's folder."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "source",
        type=Path,
        nargs="?",
        help="the book's HTML folder (default: an installed toolchain's, stable first)",
    )
    parser.add_argument("out", type=Path, help="the folder to write the Markdown pages into")
    args = parser.parse_args()
    source = args.source or rust_book_html()
    if source is None or not source.is_dir():
        sys.exit(f"error: {source or 'rustup docs'} is not a folder of HTML pages")
    print(f"{convert(source, args.out)} pages written to {args.out}")


if __name__ == "__main__":
    main()
