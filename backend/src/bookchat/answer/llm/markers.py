"""[n] markers in a generated answer: find them, drop unknown ones, renumber the rest."""

from __future__ import annotations

import re
from dataclasses import dataclass

# "[2]", "[2, 3]"; not "[2](url)", which is a Markdown link whose text happens to be a number.
_GROUP = re.compile(r"(\s*)\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\](?!\()")
_NUMBER = re.compile(r"\[(\d+)\]")


@dataclass(frozen=True, slots=True)
class Renumbered:
    """The answer with markers rewritten; `order` lists the given numbers cited, new order."""

    text: str
    order: list[int]
    invented: list[int]


def renumber(text: str, known: int) -> Renumbered:
    """Keep markers 1..known (renumbered by first use, as [a][b]), remove all others."""
    order: list[int] = []
    invented: list[int] = []

    def rewrite(match: re.Match[str]) -> str:
        kept: list[int] = []
        for part in match.group(2).split(","):
            n = int(part)
            if not 1 <= n <= known:
                invented.append(n)
                continue
            if n not in order:
                order.append(n)
            if order.index(n) + 1 not in kept:
                kept.append(order.index(n) + 1)
        # A removed marker takes its leading space with it, so "text [7]." becomes "text.".
        return match.group(1) + "".join(f"[{k}]" for k in kept) if kept else ""

    rewritten = _GROUP.sub(rewrite, text)
    return Renumbered(text=rewritten.strip(), order=order, invented=invented)


def cited(sentence: str) -> list[int]:
    """The (already renumbered) markers in a sentence, in order, without repeats."""
    return list(dict.fromkeys(int(n) for n in _NUMBER.findall(sentence)))


def strip_markers(text: str) -> str:
    """The text without its markers (what is embedded to check support)."""
    return " ".join(_GROUP.sub("", text).split())
