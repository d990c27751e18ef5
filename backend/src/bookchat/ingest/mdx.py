"""Turn Docusaurus Markdown/MDX into plain Markdown text worth embedding.

Drops MDX `import`/`export` statements, JSX/HTML tags (keeping their text children), comments and
admonition fences (keeping their bodies and titles); code blocks and tables stay as they are.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bookchat.ingest.fences import FenceTracker

_IMPORT_EXPORT = re.compile(r"^(import|export)\s")
_ADMONITION_OPEN = re.compile(r"^\s*:{3,}\s*([A-Za-z]+)(?:\[(.*?)\]|\s+(.*?))?\s*(\{.*\})?\s*$")
_ADMONITION_CLOSE = re.compile(r"^\s*:{3,}\s*$")
_TAG = re.compile(r"</?[A-Za-z][\w.:-]*(?:\s+(?:[^<>{}\"']|\"[^\"]*\"|'[^']*'|\{[^{}]*\})*)?\s*/?>")
_JSX_COMMENT = re.compile(r"\{/\*.*?\*/\}", re.DOTALL)
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]+)\]\((?:[^()\s]|\([^)]*\))*(?:\s+\"[^\"]*\")?\)")
_BLOCK_TAGS = re.compile(r"^(?:details|summary|div|p|section|table|tr|td|th|ul|ol|li|br)$", re.I)


def _strip_statement(lines: list[str], start: int) -> int:
    """Index just past an import/export statement that may span lines (balanced braces)."""
    depth = 0
    for index in range(start, len(lines)):
        depth += lines[index].count("{") + lines[index].count("(")
        depth -= lines[index].count("}") + lines[index].count(")")
        if depth <= 0 and not lines[index].rstrip().endswith((",", "{", "(")):
            return index + 1
    return len(lines)


def _strip_tags(line: str) -> str:
    def replace(match: re.Match[str]) -> str:
        name = re.match(r"</?([\w.:-]+)", match.group(0))
        # Block-level tags separate words; inline ones (`<kbd>`) must not glue words together.
        return " " if name and _BLOCK_TAGS.match(name.group(1)) else ""

    return _TAG.sub(replace, line)


_CODE_SPAN = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)")


def _outside_code(line: str, transform: Callable[[str], str]) -> str:
    """Apply `transform` to the parts of a line that are not inline code (`<commit>` is text)."""
    out: list[str] = []
    last = 0
    for match in _CODE_SPAN.finditer(line):
        out.append(transform(line[last : match.start()]))
        out.append(match.group(0))
        last = match.end()
    out.append(transform(line[last:]))
    return "".join(out)


def _plain_links(text: str) -> str:
    return _LINK.sub(r"\1", _IMAGE.sub(r"\1", _strip_tags(text)))


def inline_text(markdown: str) -> str:
    """Inline Markdown → plain text (links and images → their text, emphasis and code marks off)."""
    text = _outside_code(markdown, _plain_links)
    text = re.sub(r"(\*\*|__)(.+?)\1", r"\2", text)
    text = re.sub(r"(?<![\w*])([*_])(?!\s)(.+?)(?<!\s)\1(?![\w*])", r"\2", text)
    text = re.sub(r"`+([^`]+?)`+", r"\1", text)
    text = text.replace("\\", "")
    return re.sub(r"\s+", " ", text).strip()


def clean_markdown(body: str) -> str:
    """Docusaurus Markdown/MDX body → Markdown text with no MDX syntax, fence-aware."""
    body = _HTML_COMMENT.sub("", _JSX_COMMENT.sub("", body))
    lines = body.splitlines()
    out: list[str] = []
    fences = FenceTracker()
    depth = 0  # admonitions nest
    index = 0
    while index < len(lines):
        line = lines[index]
        if fences.feed(line):
            out.append(line)
            index += 1
            continue
        if _IMPORT_EXPORT.match(line):
            index = _strip_statement(lines, index)
            continue
        opened = _ADMONITION_OPEN.match(line)
        if opened:
            kind = opened.group(1).capitalize()
            title = (opened.group(2) or opened.group(3) or "").strip()
            depth += 1
            # An untitled admonition's kind ("Tip") says nothing a reader would ask about.
            out.extend([f"> {kind}: {inline_text(title)}", ""] if title else [""])
        elif _ADMONITION_CLOSE.match(line):
            depth = max(0, depth - 1)
            out.append("")
        else:
            stripped = _outside_code(line, _plain_links).rstrip()
            # An admonition's prose is kept as a quote, so answers know it is an aside.
            if depth and stripped.strip() and not stripped.lstrip().startswith(("```", "~~~")):
                stripped = "> " + stripped.lstrip()
            out.append(stripped if stripped.strip() else "")
        index += 1
    return "\n".join(out)
