"""An mdBook's HTML pages as Markdown: a second textbook for the answer reader's training.

    backend/.venv/bin/python backend/training/html_book.py SOURCE_DIR OUT_DIR

The Rust Programming Language ships as HTML with rustup's `rust-docs` component
(`<toolchain>/share/doc/rust/html/book`). Its chapters are a textbook in the register of the
books bookchat serves (explanations, how-to steps, commands and their output), so questions
written on them teach the reader what a textbook's answer looks like. Only the chapter pages
(`chNN-NN-*.html`, `appendix-NN-*.html`) are kept; the redirects from chapters' old names are not.
The output is Markdown that `ingest` reads like any Docusaurus page: headings, paragraphs with
inline code and emphasis, fenced code, lists, tables and notes.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

# rustup's `rust-docs` component installs its books beside the toolchain.
RUST_DOCS = Path.home() / ".rustup/toolchains/stable-x86_64-unknown-linux-gnu/share/doc/rust/html"
RUST_BOOK_HTML = RUST_DOCS / "book"
CHAPTER = re.compile(r"^(ch\d\d-\d\d|appendix-\d\d)-[a-z0-9-]+\.html$")
# Pages of an mdBook that are not chapters: the whole book on one page, its contents, not found.
NOT_CHAPTERS = frozenset({"print.html", "toc.html", "404.html"})
INLINE = {"code": "`", "em": "*", "strong": "**"}


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


def _chapters(source: Path) -> list[Path]:
    """The Rust book's chapter pages (it keeps redirects from old names beside them); any
    other mdBook's pages, in its folders, less the ones that are not chapters."""
    if source.name == "book":
        return sorted(p for p in source.iterdir() if CHAPTER.match(p.name))
    return sorted(p for p in source.rglob("*.html") if p.name not in NOT_CHAPTERS)


def page_name(source: Path, page: Path) -> str:
    """The Markdown file a page becomes: its path in the book, folders joined by "--"."""
    return "--".join(page.relative_to(source).with_suffix(".md").parts)


def convert(source: Path, out: Path) -> int:
    """Write every chapter page of `source` as Markdown into `out`; returns how many."""
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for page in _chapters(source):
        body = to_markdown(page.read_text(encoding="utf-8"))
        if not body.strip():
            continue  # a redirect from a chapter's old name
        written += 1
        title = next((h.lstrip("# ") for h in body.splitlines() if h.startswith("#")), page.stem)
        front = f"---\ntitle: {title!r}\nsidebar_position: {written}\n---\n\n"
        (out / page_name(source, page)).write_text(front + body, encoding="utf-8")
    return written


def mdbook_questions(
    folder: Path, scratch: Path
) -> Iterator[tuple[str, Path, list[dict[str, Any]]]]:
    """Each book of `folder` (one sub-folder of readers' questions per mdBook that rustup's
    `rust-docs` installs, named as its HTML folder): its name, its pages made Markdown under
    `scratch/<name>/docs`, and its rows."""
    for book in sorted(p for p in folder.glob("*") if p.is_dir()):
        docs = scratch / book.name / "docs"
        if (RUST_DOCS / book.name).is_dir():
            convert(RUST_DOCS / book.name, docs)
        rows = [
            json.loads(line)
            for file in sorted(book.glob("*.jsonl"))
            for line in file.read_text(encoding="utf-8").splitlines()
            if line.strip()
        ]
        yield book.name, docs, rows


def main() -> None:
    """Convert a book folder."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    if not args.source.is_dir():
        sys.exit(f"error: {args.source} is not a folder of HTML pages")
    print(f"{convert(args.source, args.out)} pages written to {args.out}")


if __name__ == "__main__":
    main()
