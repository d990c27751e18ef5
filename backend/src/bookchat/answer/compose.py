"""Turn supported sentences into an answer with [n] markers and the citations they point to."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bookchat.answer.schema import Citation
from bookchat.answer.support import Scored

# Sentences close to the best one also go in, so an answer spread over two sentences survives.
SUPPORT_MARGIN = 0.08
# The sentences either side of the best one come along within this margin of its support: an
# answer stated over two sentences often repeats the question's words in only one of them.
NEIGHBOUR_MARGIN = 0.15
MAX_SENTENCES = 3
# A chosen sentence ending in ":" introduces a list or table whose items hold the answer
# ("The widely used 50/72 rule:"); this many of the items that follow it come along.
FOLLOW_ITEMS = 3
EXCERPT_CHARS = 400


@dataclass(frozen=True, slots=True)
class Source:
    """A passage sentences were taken from: a stored chunk, or the reader's selection."""

    chunk_id: str
    path: str
    doc_id: str
    chapter: str
    chapter_title: str
    section: str
    url: str
    score: float

    @classmethod
    def from_payload(cls, chunk_id: str, score: float, payload: dict[str, Any]) -> Source:
        """A source from a store hit's payload."""
        return cls(
            chunk_id=chunk_id,
            path=str(payload.get("path", "")),
            doc_id=str(payload.get("doc_id", "")),
            chapter=str(payload.get("chapter", "")),
            chapter_title=str(payload.get("chapter_title", "")),
            section=str(payload.get("section", "")),
            url=str(payload.get("url", "")),
            score=round(float(score), 4),
        )

    def citation(self, index: int, excerpt: str) -> Citation:
        """This source as the answer's citation number `index`."""
        return Citation(
            index=index,
            chunk_id=self.chunk_id,
            path=self.path,
            doc_id=self.doc_id,
            chapter=self.chapter,
            chapter_title=self.chapter_title,
            section=self.section,
            url=self.url,
            excerpt=excerpt,
            score=self.score,
        )


@dataclass(frozen=True, slots=True)
class Composition:
    """An extractive answer and its evidence."""

    answer: str
    citations: list[Citation]
    best_support: float


def _words(text: str) -> int:
    return len(text.split())


def _choose(scored: Sequence[Scored], min_support: float, max_words: int) -> list[Scored]:
    # Ties break on reading order so the same question always gets the same answer.
    ranked = sorted(scored, key=lambda s: (-s.support, s.candidate.source, s.candidate.position))
    best = ranked[0]
    chosen = [best]
    budget = max_words - _words(best.candidate.text)
    floor = max(min_support, best.support - SUPPORT_MARGIN)
    for s in ranked[1:]:
        if len(chosen) >= MAX_SENTENCES or s.support < floor:
            break
        if _words(s.candidate.text) <= budget:
            chosen.append(s)
            budget -= _words(s.candidate.text)
    at = {_place(s): s for s in scored}
    neighbours = _neighbours(at, chosen, best, budget)
    chosen += neighbours
    budget -= sum(_words(s.candidate.text) for s in neighbours)
    chosen += _introduced(at, chosen, budget)
    return sorted(chosen, key=lambda s: (s.candidate.source, s.candidate.position))


def _place(s: Scored) -> tuple[int, int]:
    """Where a sentence stands: (its passage, its position in that passage)."""
    return s.candidate.source, s.candidate.position


def _neighbours(
    at: dict[tuple[int, int], Scored], chosen: list[Scored], best: Scored, budget: int
) -> list[Scored]:
    """The sentences either side of the best one, when nearly as relevant: an answer is often
    stated over two sentences, and the second may repeat fewer of the question's words."""
    taken = {_place(s) for s in chosen}
    extra: list[Scored] = []
    for step in (-1, 1):
        key = (best.candidate.source, best.candidate.position + step)
        item = at.get(key)
        if (
            item is None
            or key in taken
            or item.support < best.support - NEIGHBOUR_MARGIN
            or _words(item.candidate.text) > budget
        ):
            continue
        extra.append(item)
        budget -= _words(item.candidate.text)
    return extra


def _introduced(
    at: dict[tuple[int, int], Scored], chosen: list[Scored], budget: int
) -> list[Scored]:
    """The items that chosen sentences ending in a colon introduce, within the word budget."""
    taken = {_place(s) for s in chosen}
    extra: list[Scored] = []
    for s in chosen:
        if not s.candidate.text.rstrip("*_` ").endswith(":"):
            continue
        for step in range(1, FOLLOW_ITEMS + 1):
            key = (s.candidate.source, s.candidate.position + step)
            item = at.get(key)
            if item is None or _words(item.candidate.text) > budget:
                break
            if key not in taken:
                taken.add(key)
                extra.append(item)
                budget -= _words(item.candidate.text)
    return extra


def _clip(text: str, max_words: int) -> str:
    words = text.split()
    return text if len(words) <= max_words else " ".join(words[:max_words]) + " …"


def compose(
    scored: Sequence[Scored], sources: Sequence[Source], *, min_support: float, max_words: int
) -> Composition | None:
    """The answer built from the best-supported sentences, or None when none clears min_support."""
    if not scored:
        return None
    best_support = max(s.support for s in scored)
    if best_support < min_support:
        return None
    chosen = _choose(scored, min_support, max_words)
    numbers: dict[int, int] = {}
    quoted: dict[int, list[str]] = {}
    paragraphs: list[str] = []  # runs of sentences, and the code blocks between them
    run: list[str] = []
    code_budget = max_words - sum(_words(s.candidate.text) for s in chosen)
    for i, s in enumerate(chosen):
        source = s.candidate.source
        n = numbers.setdefault(source, len(numbers) + 1)
        quoted.setdefault(source, []).append(s.candidate.text)
        text = _clip(s.candidate.text, max_words)
        code = s.candidate.code if _words(s.candidate.code) <= code_budget else ""
        code_budget -= _words(code)
        # Consecutive sentences from one passage share a single marker, after the last of them;
        # a code block ends the run, since a marker cannot follow its closing fence.
        last_of_run = i + 1 == len(chosen) or chosen[i + 1].candidate.source != source
        run.append(f"{text} [{n}]" if last_of_run or code else text)
        if code:
            paragraphs += [" ".join(run), code]
            run = []
    if run:
        paragraphs.append(" ".join(run))
    citations = [
        sources[source].citation(
            n, _clip(" ".join(quoted[source]), EXCERPT_CHARS // 6)[:EXCERPT_CHARS]
        )
        for source, n in numbers.items()
    ]
    return Composition(
        answer="\n\n".join(paragraphs), citations=citations, best_support=best_support
    )
