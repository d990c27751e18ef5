"""Cut a section into overlapping chunks that fit MiniLM's 256 word pieces.

Units are sentences (prose), lines (code) and, for a unit that alone is too long, runs of whole
words. BERT's pre-tokenizer splits on white space and punctuation, so the word pieces of units
joined by white space add up exactly: chunks are packed from per-unit counts and never cut a word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bookchat.ingest.fences import FenceTracker
from bookchat.ingest.tokens import SPECIAL_TOKENS, count_many

_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[*`]?[A-Z0-9])")
_MAX_PREFIX_TOKENS = 48


@dataclass(frozen=True, slots=True)
class Unit:
    """A piece of text that stays whole, and what joins it to the next piece."""

    text: str
    joiner: str  # " " inside a paragraph, "\n" between code lines, "\n\n" between blocks
    tokens: int


@dataclass(frozen=True, slots=True)
class ChunkText:
    """One chunk: the section text it covers and the text that gets embedded."""

    text: str
    embed_text: str


def heading_prefix(heading_path: tuple[str, ...]) -> str:
    """The context line prepended to every chunk: `Page › Section › Subsection`."""
    return " › ".join(heading_path)


def _blocks(body: str) -> list[tuple[str, bool]]:
    """Paragraph-level blocks of a section: (text, is_code)."""
    blocks: list[tuple[str, bool]] = []
    current: list[str] = []
    current_code = False
    fences = FenceTracker()
    for line in body.splitlines():
        in_code = fences.feed(line)
        if in_code != current_code or (not in_code and not line.strip()):
            if current and "".join(current).strip():
                blocks.append(("\n".join(current), current_code))
            current = []
            current_code = in_code
            if not in_code and not line.strip():
                continue
        current.append(line)
    if current and "".join(current).strip():
        blocks.append(("\n".join(current), current_code))
    return blocks


def _split_words(text: str, budget: int) -> list[str]:
    """Runs of whole words, each within `budget` word pieces (a giant word stands alone)."""
    words = text.split()
    counts = count_many(words)
    runs: list[str] = []
    current: list[str] = []
    used = 0
    for word, tokens in zip(words, counts, strict=True):
        if current and used + tokens > budget:
            runs.append(" ".join(current))
            current, used = [], 0
        current.append(word)
        used += tokens
    if current:
        runs.append(" ".join(current))
    return runs


def _units(body: str, budget: int) -> list[Unit]:
    pieces: list[tuple[str, str]] = []
    for text, is_code in _blocks(body):
        if is_code:
            lines = text.split("\n")
            pieces.extend((line, "\n") for line in lines)
        elif text.lstrip().startswith("|"):
            pieces.extend((line, "\n") for line in text.split("\n"))
        else:
            sentences = _SENTENCE_END.split(" ".join(line.strip() for line in text.split("\n")))
            pieces.extend((s, " ") for s in sentences if s.strip())
        if pieces:
            pieces[-1] = (pieces[-1][0], "\n\n")
    units: list[Unit] = []
    for (text, joiner), tokens in zip(pieces, count_many([t for t, _ in pieces]), strict=True):
        if tokens <= budget:
            units.append(Unit(text, joiner, tokens))
            continue
        runs = _split_words(text, budget)
        for index, run in enumerate(runs):
            last = index == len(runs) - 1
            units.append(Unit(run, joiner if last else " ", count_many([run])[0]))
    return units


def _tail_words(text: str, budget: int) -> str:
    """The longest run of whole trailing words of `text` within `budget` word pieces."""
    words = text.split()
    counts = count_many(words)
    used = 0
    start = len(words)
    while start > 0 and used + counts[start - 1] <= budget:
        start -= 1
        used += counts[start]
    return " ".join(words[start:]) if start > 0 else ""


def _join(units: list[Unit]) -> str:
    text = "".join(u.text + u.joiner for u in units[:-1]) + units[-1].text
    return text.strip("\n")


def chunk_section(
    heading_path: tuple[str, ...], body: str, max_tokens: int = 256, overlap: float = 0.18
) -> list[ChunkText]:
    """Chunks of one section: each ≤ max_tokens with its heading prefix, ~overlap shared."""
    prefix = heading_prefix(heading_path)
    prefix_tokens = count_many([prefix])[0]
    if prefix_tokens > _MAX_PREFIX_TOKENS:
        prefix = heading_prefix(heading_path[-1:])[:200]
        prefix_tokens = count_many([prefix])[0]
    budget = max_tokens - SPECIAL_TOKENS - prefix_tokens
    units = _units(body, budget)
    if not units:
        return []
    overlap_budget = int(budget * overlap)
    chunks: list[list[Unit]] = []
    current: list[Unit] = []
    used = 0
    for unit in units:
        if current and used + unit.tokens > budget:
            chunks.append(current)
            # Carry whole trailing units (sentences, code lines) into the next chunk as overlap.
            carried: list[Unit] = []
            carried_tokens = 0
            for previous in reversed(current):
                if carried_tokens + previous.tokens > overlap_budget:
                    break
                carried.insert(0, previous)
                carried_tokens += previous.tokens
            if not carried and current[-1].joiner != "\n":
                # A long last sentence: overlap with its trailing words instead.
                tail = _tail_words(current[-1].text, overlap_budget)
                if tail:
                    carried, carried_tokens = [Unit(tail, " ", count_many([tail])[0])], 0
                    carried_tokens = carried[0].tokens
            if carried_tokens + unit.tokens > budget:
                carried, carried_tokens = [], 0
            current, used = carried, carried_tokens
        current.append(unit)
        used += unit.tokens
    chunks.append(current)
    return [ChunkText(text=_join(c), embed_text=f"{prefix}\n{_join(c)}") for c in chunks]
