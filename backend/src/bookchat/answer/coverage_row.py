"""What the coverage model reads: one row of model.COVERAGE_FEATURES per question and the
passages (or selection) it is asked of, including the named terms the passages lack (an option,
file or acronym: the book then answers a nearby question, not this one).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import NDArray

from bookchat.answer.asked import Asked
from bookchat.answer.features import FEATURES, Candidate
from bookchat.answer.model import COVERAGE_FEATURES
from bookchat.answer.terms import content_terms, idf_weights, overlap
from bookchat.retrieval.named import present

_CAPITALISED_RUN = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+")
_DOTTED_ACRONYM = re.compile(r"\b(?:[A-Z]\.){2,}")


def _acronyms(text: str) -> set[str]:
    """Acronyms the text spells out or implies: GPG, U.S. (as US), United Kingdom (as UK)."""
    found = {m.group().replace(".", "") for m in _DOTTED_ACRONYM.finditer(text)}
    for run in _CAPITALISED_RUN.finditer(text):
        initials = "".join(word[0] for word in run.group().split())
        # Every stretch of the run: "the European Union Court" implies EU as well as EUC.
        found.update(
            initials[i:j] for i in range(len(initials)) for j in range(i + 2, len(initials) + 1)
        )
    return found


def missing_terms(terms: Sequence[str], evidence: Iterable[str]) -> list[str]:
    """The question's key `terms` (`Asked.key`) that none of the evidence texts mention."""
    if not terms:
        return []
    text = "\n".join(evidence)
    acronyms = _acronyms(text)
    return [term for term in terms if not present(term, text, acronyms)]


def score_margin(scores: NDArray[np.float64]) -> float:
    """How far the best unit's score stands above the runner-up's (the best score alone)."""
    # One unit far ahead of the rest is what an answerable question looks like; an answer-less
    # passage (another paragraph, a near-miss question) tends to offer several middling units.
    top = np.sort(scores)[::-1]
    return float(top[0] - top[1]) if len(top) > 1 else float(top[0]) if len(top) else 0.0


def coverage_features(
    asked: Asked,
    features: NDArray[np.float64],
    scores: NDArray[np.float64],
    candidates: Sequence[Candidate],
    evidence: Sequence[str],
    *,
    selection: bool = False,
) -> NDArray[np.float64]:
    """One row of model.COVERAGE_FEATURES: what the best unit and its passage offer."""
    if not candidates:
        # Passages with nothing quotable (a heading over a lone code line) cover nothing.
        return np.array([float(n == "bias") for n in COVERAGE_FEATURES], dtype=np.float64)
    col = {name: i for i, name in enumerate(FEATURES)}
    margin = score_margin(scores)
    missing = missing_terms(asked.key, evidence)
    best = int(np.argmax(scores))
    source = candidates[best].source
    own = [c for c in candidates if c.source == source]
    q_terms = asked.terms
    pool = [content_terms(c.unit.plain) for c in candidates]
    idf = idf_weights(pool)
    unseen = math.log(1.0 + len(pool))
    passage_terms = set().union(*(content_terms(c.unit.plain) for c in own)) | content_terms(
        f"{own[0].heading} {own[0].title}"
    )
    everywhere = set().union(*pool, *(content_terms(text) for text in evidence))
    values = {
        "bias": 1.0,
        "best_score": float(scores[best]),
        "best_score_margin": margin,
        "best_sim": float(features[:, col["sim"]].max()),
        "passage_sim": float(features[best, col["passage_sim"]]),
        "heading_sim": float(features[:, col["heading_sim"]].max()),
        "best_lex": float(features[:, col["lex"]].max()),
        "passage_lex": overlap(q_terms, passage_terms, idf, unseen),
        "unseen_share": len(q_terms - everywhere) / len(q_terms) if q_terms else 0.0,
        "missing_terms": float(bool(missing)),
        "selection": float(selection),
    }
    return np.array([values[name] for name in COVERAGE_FEATURES], dtype=np.float64)
