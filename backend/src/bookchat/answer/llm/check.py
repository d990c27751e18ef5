"""The check run on every generated answer before a reader sees it.

1. Markers must name a source the model was given: others are removed and flag hallucination.
2. The refusal sentence is an abstention. An answer without valid markers (small models write
   none) is attributed sentence by sentence; with no supported sentence it is an abstention.
3. Citations are renumbered by first use, so the response lists exactly the cited sources.
4. Each sentence's cosine with the closest sentence of what it cites must reach
   BOOKCHAT_LLM_MIN_SENTENCE_SUPPORT (specs/001-bookchat/decisions/0025-llm-answers.md);
   weaker ones stay in the answer, flagged in `unsupported_sentences`.

SentencePrefetch embeds sentences as they stream, so little is left to do after the last token.
"""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from bookchat.answer.llm.agent import REFUSAL, Passage
from bookchat.answer.schema import Citation, Status
from bookchat.markdown.units import FENCE, LIST_ITEM, split_units
from bookchat.retrieval.sentence_vectors import SentenceVectors

EXCERPT_CHARS = 400
# "[2]", "[2, 3]"; not "[2](url)", which is a Markdown link whose text happens to be a number.
_GROUP = re.compile(r"(\s*)\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\](?!\()")
_NUMBER = re.compile(r"\[(\d+)\]")
_LEADING_MARKERS = re.compile(r"^((?:\[\d+\]\s*)+)")
_BOUNDARY = re.compile(r"(?<=[.!?])[\"')*_`]*\s+")
_ABBREVIATION = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|cf)|\b[A-Z])\.[\"')*_`]*$", re.IGNORECASE)
# A streamed text ending in one of these probably ends a sentence (a full stop, or a marker).
_ENDINGS = (".", "!", "?", "]")


@dataclass(frozen=True, slots=True)
class Claim:
    """One sentence of the answer, without markers, and the (renumbered) sources it cites."""

    text: str
    cites: list[int]


@dataclass(frozen=True, slots=True)
class Checked:
    """A generated answer after the check: what the reader gets."""

    answer: str
    status: Status
    citations: list[Citation]
    hallucination_flag: bool
    unsupported_sentences: list[str]
    refused: bool
    weakest_support: float  # lowest support of any sentence; 0 when abstained
    attributed: bool = False  # the markers were placed by the check, not written by the model


def _excerpt(sentences: list[str]) -> str:
    text = " ".join(sentences)
    return text if len(text) <= EXCERPT_CHARS else text[: EXCERPT_CHARS - 2].rstrip() + " …"


def _abstained(flag: bool, refused: bool) -> Checked:
    return Checked(REFUSAL, "abstained", [], flag, [], refused, 0.0)


async def check(
    text: str, passages: Sequence[Passage], vectors: SentenceVectors, *, min_support: float
) -> Checked:
    """Check a generated answer against the passages it was given (numbered from 1)."""
    fixed = renumber(text, len(passages))
    flag = bool(fixed.invented)
    refused = is_refusal(fixed.text)
    if refused:
        return _abstained(flag, refused)
    if not fixed.order:
        attributed = await _attribute(fixed.text, passages, vectors, min_support)
        if attributed is None:
            return _abstained(flag, refused)
        result = await check(attributed, passages, vectors, min_support=min_support)
        return replace(
            result, hallucination_flag=flag or result.hallucination_flag, attributed=True
        )
    sources = [passages[n - 1] for n in fixed.order]
    found = claims(fixed.text)
    per_source, claim_vectors, source_matrix, spans = await _embedded(found, sources, vectors)
    quoted: list[set[int]] = [set() for _ in sources]
    unsupported: list[str] = []
    weakest = 1.0
    for claim, vector in zip(found, claim_vectors, strict=True):
        support, source, row = _best(claim, vector, source_matrix, spans)
        weakest = min(weakest, support)
        if support < min_support:
            unsupported.append(claim.text)
        elif source is not None:
            quoted[source].add(row)
    citations = [
        passage.source.citation(
            i + 1, _excerpt([per_source[i][r] for r in sorted(quoted[i])] or per_source[i][:1])
        )
        for i, passage in enumerate(sources)
    ]
    return Checked(
        answer=fixed.text,
        status="grounded",
        citations=citations,
        hallucination_flag=flag,
        unsupported_sentences=unsupported,
        refused=False,
        weakest_support=round(weakest if found else 0.0, 4),
    )


async def _embedded(
    found: list[Claim], sources: Sequence[Passage], vectors: SentenceVectors
) -> tuple[list[list[str]], NDArray[np.float32], NDArray[np.float32], NDArray[np.int64]]:
    """Per-source sentences, the claims' vectors, the sources' matrix and each source's rows."""
    per_source = [[u.plain for u in split_units(p.text)] or [p.text.strip()] for p in sources]
    rows = [s for group in per_source for s in group]
    _, matrix = await vectors.embed([embedding_key(c.text) for c in found] + rows)
    spans = np.cumsum([0] + [len(group) for group in per_source])
    return per_source, matrix[: len(found)], matrix[len(found) :], spans


async def _attribute(
    text: str, passages: Sequence[Passage], vectors: SentenceVectors, min_support: float
) -> str | None:
    """`text` with the marker of its best source after each supported sentence; None if none is."""
    found = claims(text)
    if not found or not passages:
        return None
    _, claim_vectors, source_matrix, spans = await _embedded(found, passages, vectors)
    placed: list[tuple[str, int]] = []
    for claim, vector in zip(found, claim_vectors, strict=True):
        support, source, _ = _best(claim, vector, source_matrix, spans)
        if support >= min_support and source is not None:
            placed.append((claim.text, source + 1))
    return with_markers(text, placed) if placed else None


def with_markers(text: str, placed: Sequence[tuple[str, int]]) -> str | None:
    """`text` with `[n]` at the end of each (sentence, n), before its final punctuation; None
    when no sentence could be found in the text."""
    out, cursor, found = text, 0, False
    for sentence, number in placed:
        words = sentence.split()
        # The sentence's last words, matched across any line breaks or spacing of the original.
        tail = r"\s+".join(re.escape(word) for word in words[-6:])
        match = re.compile(tail).search(out, cursor)
        if match is None:
            continue
        end = match.end()
        if out[end - 1] in ".!?:;":
            end -= 1
        marker = f" [{number}]"
        out = out[:end] + marker + out[end:]
        cursor, found = end + len(marker), True
    return out if found else None


def _best(
    claim: Claim,
    vector: NDArray[np.float32],
    source_matrix: NDArray[np.float32],
    spans: NDArray[np.int64],
) -> tuple[float, int | None, int]:
    """(support, source index, sentence row within it) of the closest sentence the claim may use."""
    allowed = [n - 1 for n in claim.cites] or list(range(len(spans) - 1))
    best: tuple[float, int | None, int] = (-1.0, None, 0)
    for source in allowed:
        block = source_matrix[spans[source] : spans[source + 1]]
        if len(block) == 0:
            continue
        similarities = block @ vector
        row = int(np.argmax(similarities))
        if float(similarities[row]) > best[0]:
            best = (float(similarities[row]), source, row)
    return best


def embedding_key(claim: str) -> str:
    """What is embedded for a claim: without its final punctuation, so a sentence embedded while
    streaming ("… history [1]") matches the finished one ("… history [1].")."""
    # Sources reach the model with < > & escaped, so it may write `&lt;branch&gt;` back.
    return html.unescape(claim).rstrip(" .!?;:")


def _normal(text: str) -> str:
    return " ".join(text.casefold().strip(" .!\n").split())


def is_refusal(text: str) -> bool:
    """True when the answer is the refusal sentence (markers and case aside)."""
    return _normal(strip_markers(text)) == _normal(REFUSAL)


def claims(answer: str) -> list[Claim]:
    """The answer's sentences; a marker opening one ("… commit. [2] Next") is the previous one's."""
    out: list[Claim] = []
    for sentence in answer_sentences(answer):
        lead = _LEADING_MARKERS.match(sentence)
        if lead and out:
            previous = out[-1]
            extra = [n for n in cited(lead.group(1)) if n not in previous.cites]
            out[-1] = Claim(previous.text, previous.cites + extra)
            sentence = sentence[lead.end() :]
        elif lead:
            sentence = sentence[lead.end() :]  # nothing before it to attach to
        text = strip_markers(sentence)
        if len(text.split()) >= 3:
            out.append(Claim(text, cited(sentence)))
    return out


def _paragraphs(answer: str) -> Iterator[str]:
    lines: list[str] = []
    in_fence = False
    for line in answer.splitlines():
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        stripped = line.strip()
        if in_fence:
            continue
        if not stripped or stripped.startswith("#") or LIST_ITEM.match(line):
            if lines:
                yield " ".join(lines)
            lines = [LIST_ITEM.sub("", line).strip()] if LIST_ITEM.match(line) else []
            continue
        lines.append(stripped)
    if lines:
        yield " ".join(lines)


def answer_sentences(answer: str) -> list[str]:
    """The answer's sentences in order (code blocks and headings left out)."""
    # Unlike the book's splitter (markdown/units.py), a sentence may start in lower case (models
    # begin sentences with `git ...`) and a lone marker run such as "[1][3]" is kept, because
    # it belongs to the sentence before it (see `claims`).
    out: list[str] = []
    for paragraph in _paragraphs(answer):
        pieces: list[str] = []
        for piece in _BOUNDARY.split(paragraph):
            if pieces and _ABBREVIATION.search(pieces[-1]):
                pieces[-1] = f"{pieces[-1]} {piece}"
            elif piece.strip():
                pieces.append(piece.strip())
        out.extend(pieces)
    return out


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


class SentencePrefetch:
    """Feed it the deltas; `settle()` before checking, `cancel()` if the answer is dropped."""

    def __init__(self, vectors: SentenceVectors) -> None:
        self._vectors = vectors
        self._text = ""
        self._requested: set[str] = set()
        self._tasks: list[asyncio.Task[object]] = []

    def feed(self, delta: str) -> None:
        """Add a delta; start embedding every sentence that is (or looks) complete."""
        self._text += delta
        found = claims(self._text)
        if not self._text.rstrip().endswith(_ENDINGS):
            found = found[:-1]  # the last sentence is still being written
        # A guess that the model then continues costs one wasted embedding of a short sentence.
        for claim in found:
            key = embedding_key(claim.text)
            if key not in self._requested:
                self._requested.add(key)
                self._tasks.append(asyncio.create_task(self._vectors.embed([key])))

    async def settle(self) -> None:
        """Wait for the embeddings started so far (their failures are the check's to meet)."""
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def cancel(self) -> None:
        """Stop embeddings nobody will use."""
        for task in self._tasks:
            task.cancel()
        self._tasks.clear()
