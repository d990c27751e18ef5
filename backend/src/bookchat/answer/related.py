"""The places in the book a question comes closest to: shown beside an answer ("Also in the
book"), or instead of one when no passage answers but the book is close.

A place is a section: retrieval's passages grouped by the heading they sit under, best first,
each shown with the one or two of its sentences nearest the question, so the reader sees why it
was proposed before following the link.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Sequence

import numpy as np
from numpy.typing import NDArray

from bookchat.answer.compose import Source
from bookchat.answer.schema import Citation, RelatedSection
from bookchat.answer.terms import content_terms
from bookchat.markdown.units import Unit, payload_units
from bookchat.retrieval.sentence_vectors import SentenceVectors
from bookchat.vectorstore import Hit, VectorStore
from bookchat.vectorstore.base import StoredSentences, usable_rows

# Places shown beside a grounded answer ("Also in the book"), and instead of one.
ALSO_SHOWN = 2
RELATED_SHOWN = 3
# In chapter mode, when the chapter does not answer: its own closest section, then the book's
# best places (the answer is more often elsewhere than in the chapter that missed it).
CHAPTER_SHOWN = 1
# Sentences shown per place: enough to show what the section says about the question.
EXCERPT_UNITS = 2
# Furniture (reading lists, objectives) and code say little on their own in a card.
_SHOWN_ROLES = frozenset({"prose", "definition", "list_item", "table_row", "admonition"})


def section_key(path: str, section: str) -> tuple[str, str]:
    """What makes two passages one place: the page and the heading they sit under."""
    return (path, section)


CLOSENESS_FEATURES = ("bias", "cosine", "term_share")


def closeness(hits: Sequence[Hit]) -> float:
    """How close the book comes to the question in meaning: the best passage's dense cosine."""
    return max((h.score for h in hits), default=0.0)


def term_share(question: str, hits: Sequence[Hit]) -> float:
    """The share of the question's content words that the passages use: a question about
    something the book never names ("sourdough", "nginx") shares few of its words with it."""
    asked = content_terms(question)
    if not asked:
        return 1.0
    seen: set[str] = set()
    for hit in hits:
        p = hit.payload
        seen |= content_terms(f"{p.get('title', '')} {p.get('section', '')} {p.get('text', '')}")
    return len(asked & seen) / len(asked)


def closeness_row(question: str, hits: Sequence[Hit]) -> NDArray[np.float64]:
    """One row of CLOSENESS_FEATURES for a question and the passages retrieved for it."""
    return np.array([1.0, closeness(hits), term_share(question, hits)], dtype=np.float64)


class Places:
    """Finds the sections of retrieved passages and the sentences of each nearest a question."""

    def __init__(self, store: VectorStore, sentences: SentenceVectors) -> None:
        self._store = store
        self._sentences = sentences

    async def near(
        self,
        hits: Sequence[Hit],
        question: NDArray[np.float32],
        *,
        limit: int,
        exclude: Collection[tuple[str, str]] = (),
    ) -> list[RelatedSection]:
        """Up to `limit` sections of `hits` in their order, none of `exclude` (section_key)."""
        if limit <= 0:
            return []
        grouped: dict[tuple[str, str], list[Hit]] = {}
        for hit in hits:
            key = section_key(str(hit.payload.get("path", "")), str(hit.payload.get("section", "")))
            if key in exclude or (key not in grouped and len(grouped) == limit):
                continue
            grouped.setdefault(key, []).append(hit)
        if not grouped:
            return []
        chosen = [h for group in grouped.values() for h in group]
        stored = await asyncio.to_thread(self._store.sentence_vectors, [h.chunk_id for h in chosen])
        places = []
        for group in grouped.values():
            units, rows = await self._units(group, stored)
            places.append(_place(group, _excerpt(units, rows, question)))
        return places

    async def _units(
        self, group: Sequence[Hit], stored: dict[str, StoredSentences]
    ) -> tuple[list[Unit], NDArray[np.float32]]:
        """The section's units across its passages, each once, with one vector each."""
        units: list[Unit] = []
        vectors: list[NDArray[np.float32]] = []
        missing: list[int] = []
        seen: set[str] = set()
        for hit in group:
            found = payload_units(hit.payload)
            rows = usable_rows(stored.get(hit.chunk_id), [u.plain for u in found])
            for i, unit in enumerate(found):
                if unit.plain in seen:
                    continue
                seen.add(unit.plain)
                units.append(unit)
                if rows is None:
                    missing.append(len(vectors))
                    vectors.append(np.zeros(0, dtype=np.float32))
                else:
                    vectors.append(rows[i])
        if missing:
            _, fresh = await self._sentences.embed([units[i].plain for i in missing])
            for i, row in zip(missing, fresh, strict=True):
                vectors[i] = row
        matrix = np.stack(vectors) if vectors else np.zeros((0, 0), dtype=np.float32)
        return units, matrix


def cited_place(citation: Citation, title: str = "") -> RelatedSection:
    """A cited section shown as a place instead (a model found no answer in it)."""
    return _as_place(citation, title, citation.excerpt)


def _excerpt(
    units: Sequence[Unit], rows: NDArray[np.float32], question: NDArray[np.float32]
) -> str:
    """The EXCERPT_UNITS units nearest the question, in the book's order, as written."""
    if not units:
        return ""
    shown = [i for i, u in enumerate(units) if u.role in _SHOWN_ROLES] or list(range(len(units)))
    sims = rows[shown] @ question
    best = sorted(shown[j] for j in np.argsort(-sims, kind="stable")[:EXCERPT_UNITS])
    return " ".join(_shown(units[i]) for i in best)


def _shown(unit: Unit) -> str:
    # A table row alone reads as stray pipes: its cells are shown with their headers instead.
    return unit.plain if unit.role == "table_row" else unit.text.strip()


def _place(group: Sequence[Hit], excerpt: str) -> RelatedSection:
    payload = group[0].payload
    where = Source.from_payload(group[0].chunk_id, max(h.score for h in group), payload)
    return _as_place(where, str(payload.get("title", "")), excerpt)


def _as_place(where: Source | Citation, title: str, excerpt: str) -> RelatedSection:
    return RelatedSection(
        title=title,
        section=where.section,
        url=where.url,
        path=where.path,
        chapter=where.chapter,
        chapter_title=where.chapter_title,
        excerpt=excerpt,
        score=where.score,
    )
