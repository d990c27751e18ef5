"""Content words: the lower-cased, stemmed words of a text that carry meaning, how much of a
question's (IDF-weighted) words a text shares, and a term's singular and plural as one pattern.

What the features, coverage and shape rules compare between a question and the book.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from functools import lru_cache

_TOKEN = re.compile(r"[a-z0-9][a-z0-9_+.-]*[a-z0-9+]|[a-z0-9]")

# The last line is the frame of a comparison ("What's the difference between A and B?"): never
# in the passages that answer it, it made every comparison look a third unseen to coverage.
_STOPWORD_TEXT = """
    a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing done down during each
    either else ever few for from further get gets got had has have having he her here hers
    him his how i if in into is it its itself just me more most my no nor not now of off on
    once only or other our ours out over own same she should so some such than that the
    their theirs them then there these they this those through to too under until up upon us
    use used uses using very was we were what whatever when where whether which while who
    whom whose why will with would you your yours one ones thing things way ways kind called
    name named many much
    difference differences differ differs versus vs compare compared comparison
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def _stem(word: str) -> str:
    # Crude suffix stripping, applied identically to both sides: enough to match
    # "merge"/"merges"/"merged"/"merging" without a stemming library.
    for suffix in ("ing", "ed", "es", "s"):
        if suffix == "es" and not word.endswith(("ses", "xes", "zes", "ches", "shes")):
            continue
        if suffix == "s" and word.endswith("ss"):
            continue
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


@lru_cache(maxsize=8192)
def content_terms(text: str) -> frozenset[str]:
    """Lower-cased, stemmed words of `text` that carry meaning (cached: units recur)."""
    return frozenset(_stem(tok) for tok in _TOKEN.findall(text.lower()) if tok not in STOPWORDS)


def idf_weights(pool: Sequence[AbstractSet[str]]) -> dict[str, float]:
    """Inverse document frequency of every term over a pool of sentences."""
    df: dict[str, int] = {}
    for terms in pool:
        for term in terms:
            df[term] = df.get(term, 0) + 1
    n = len(pool)
    return {term: math.log(1.0 + n / (count + 1.0)) for term, count in df.items()}


def overlap(
    question: AbstractSet[str], sentence: AbstractSet[str], idf: dict[str, float], unseen: float
) -> float:
    """Share of the question's (IDF-weighted) content the sentence contains, 0-1."""
    if not question:
        return 0.0
    # Sorted, so float sums do not depend on set order (hash seed): answers stay deterministic.
    terms = sorted(question)
    total = sum(idf.get(term, unseen) for term in terms)
    found = sum(idf.get(term, unseen) for term in terms if term in sentence)
    return min(1.0, found / total) if total else 0.0


def either_number(term: str) -> str:
    """A pattern for `term` singular or plural: "branches" also finds "branch", "types" "type"."""
    plural = len(term) > 3 and term.lower().endswith("s") and not term.lower().endswith("ss")
    stem = re.sub(r"e?s$", "", term) if plural else term
    return rf"{re.escape(stem)}(?:e|es|s)?"
