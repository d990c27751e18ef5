"""The citation check run on every generated answer before a reader sees it.

1. Markers must name a source the model was given: others are removed and flag hallucination.
2. The refusal sentence, or an answer left without any valid marker, is an abstention.
3. Citations are renumbered by first use, so the response lists exactly the cited sources.
4. Each sentence must be supported by what it cites (a sentence without a marker, by any cited
   source): its embedding's cosine with the source's closest sentence must reach
   BOOKCHAT_LLM_MIN_SENTENCE_SUPPORT (calibration in decisions.md, "LLM answers"). Sentences
   below it are reported in `unsupported_sentences`; they stay in the answer, flagged.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from bookchat.answer.llm.answer_sentences import answer_sentences
from bookchat.answer.llm.markers import cited, renumber, strip_markers
from bookchat.answer.llm.passages import Passage
from bookchat.answer.llm.prompt import REFUSAL
from bookchat.answer.schema import Citation, Status
from bookchat.answer.sentence_vectors import SentenceVectors
from bookchat.answer.sentences import split_sentences

EXCERPT_CHARS = 400
_LEADING_MARKERS = re.compile(r"^((?:\[\d+\]\s*)+)")


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
    if refused or not fixed.order:
        return _abstained(flag, refused)
    sources = [passages[n - 1] for n in fixed.order]
    per_source = [split_sentences(p.text) or [p.text.strip()] for p in sources]
    found = claims(fixed.text)
    rows = [s for group in per_source for s in group]
    _, matrix = await vectors.embed([embedding_key(c.text) for c in found] + rows)
    claim_vectors, source_matrix = matrix[: len(found)], matrix[len(found) :]
    spans = np.cumsum([0] + [len(group) for group in per_source])
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
