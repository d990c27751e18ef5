"""Candidate sentences for an answer, bounded because each one must be embedded."""

from __future__ import annotations

from collections.abc import Sequence

from bookchat.answer.lexical import content_terms
from bookchat.answer.sentences import sentences_with_code, split_sentences
from bookchat.answer.support import Candidate

MAX_CANDIDATES = 30
MAX_SELECTION_CANDIDATES = 40


def passage_candidates(
    texts: Sequence[str], headings: Sequence[str] | None = None
) -> list[Candidate]:
    """Sentences of the passages, best passage first, duplicates (chunk overlap) dropped."""
    seen: set[str] = set()
    out: list[Candidate] = []
    for source, text in enumerate(texts):
        heading = headings[source] if headings else ""
        for position, (sentence, code) in enumerate(sentences_with_code(text)):
            if sentence in seen:
                continue
            seen.add(sentence)
            out.append(Candidate(sentence, source, position, heading, code))
            if len(out) >= MAX_CANDIDATES:
                return out
    return out


def selection_candidates(question: str, selection: str) -> list[Candidate]:
    """Sentences of a selection; a long one keeps those sharing most words with the question."""
    sentences = list(dict.fromkeys(split_sentences(selection))) or [selection.strip()]
    if len(sentences) > MAX_SELECTION_CANDIDATES:
        q_terms = content_terms(question)
        ranked = sorted(
            range(len(sentences)),
            key=lambda i: (-len(q_terms & content_terms(sentences[i])), i),
        )
        keep = set(ranked[:MAX_SELECTION_CANDIDATES])
        sentences = [s for i, s in enumerate(sentences) if i in keep]
    return [Candidate(text, 0, position) for position, text in enumerate(sentences)]
