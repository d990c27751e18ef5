"""Features of a (question, unit) pair: what the learned scorer weighs to pick the answer.

Meaning (MiniLM similarity to the unit, its heading, title, passage and neighbours), shared rare
words, what the question asks for against what the unit offers, the unit's role and place. The
committed weights (answer/model.json) are stored by name, so a feature can be added without
shifting the others.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from bookchat.answer.asked import QUESTION_TYPES, Asked
from bookchat.answer.terms import content_terms, idf_weights, overlap
from bookchat.markdown.units import ROLES, Unit, announces

_NUMBER = re.compile(
    r"\b\d+(?:[.,]\d+)?\b|\b(one|two|three|four|five|six|seven|eight|nine|ten|"
    r"hundred|thousand|million|billion|dozen|percent)\b",
    re.I,
)
_YEAR = re.compile(
    r"\b(1[0-9]{3}|20[0-9]{2})s?\b|\b(century|decade|january|february|march|april|"
    r"may|june|july|august|september|october|november|december)\b",
    re.I,
)
_CAPNAME = re.compile(r"(?<=[a-z,;:] )[A-Z][a-z]+")
_CODE = re.compile(r"`[^`]+`|```")
_REASON = re.compile(
    r"\b(because|since|so that|in order to|to avoid|to prevent|therefore|thus|"
    r"reason|which means|otherwise|so you|this (lets|means|keeps|makes))\b",
    re.I,
)
_CONTRAST = re.compile(
    r"\b(while|whereas|unlike|instead|but|versus|both|rather than|differs?|"
    r"on the other hand|however)\b",
    re.I,
)


def listed_count(text: str) -> int:
    """How many things a sentence enumerates ("A, B, and C" -> 3; "A and B" -> 2; else 1)."""
    commas = text.count(", ")
    if re.search(r",\s+(?:and|or)\s", text):
        return commas + 1
    if re.search(r"\s(?:and|or)\s", text):
        return commas + 2
    return 1


FEATURES: tuple[str, ...] = (
    "bias",
    "sim",
    "sim_gap",
    "heading_sim",
    "title_sim",
    "passage_sim",
    "neighbour_sim",
    "lex",
    "lex_heading",
    "lex_lead",
    "lex_gap",
    "first_in_section",
    "relative_position",
    "passage_rank",
    "log_words",
    *(f"role_{r}" for r in ROLES),
    *(f"q_{t}" for t in QUESTION_TYPES),
    "has_number",
    "has_year",
    "has_capname",
    "has_code",
    "has_reason",
    "ends_colon",
    "when_x_year",
    "number_x_number",
    "who_x_capname",
    "where_x_capname",
    "howto_x_code",
    "why_x_reason",
    "define_x_definition",
    "compare_x_contrast",
    "sim_x_heading_sim",
    "count_match",
)
INDEX = {name: i for i, name in enumerate(FEATURES)}


@dataclass(frozen=True, slots=True)
class Candidate:
    """A unit that might answer, and where it stands."""

    unit: Unit
    source: int  # its passage's rank among those retrieved (0 = best)
    position: int  # its order among its passage's units
    count: int  # how many units its passage has
    heading: str  # the section heading ("" = the page's lead text)
    title: str  # the page title
    first_chunk: bool = True  # its passage opens its section


@dataclass(frozen=True, slots=True)
class Context:
    """What the features of one question's candidates are computed from."""

    asked: Asked
    question_vector: NDArray[np.float32]
    unit_vectors: NDArray[np.float32]  # one row per candidate
    heading_sims: NDArray[np.float32]  # cosine of the question with each candidate's heading
    title_sims: NDArray[np.float32]  # ... and with its page title
    passage_sims: Sequence[float]  # cosine of the question with each passage (by source)


def feature_matrix(candidates: Sequence[Candidate], ctx: Context) -> NDArray[np.float64]:
    """One row of FEATURES per candidate."""
    n = len(candidates)
    out = np.zeros((n, len(FEATURES)), dtype=np.float64)
    if n == 0:
        return out
    sims = (ctx.unit_vectors @ ctx.question_vector).astype(np.float64)
    # How many items each unit announces ("three steps:"), for "What are the three X?".
    listed = [listed_count(c.unit.plain) for c in candidates]
    pool = [content_terms(c.unit.plain) for c in candidates]
    idf = idf_weights(pool)
    unseen = math.log(1.0 + len(pool))
    q_terms = ctx.asked.terms
    lex = np.array([overlap(q_terms, terms, idf, unseen) for terms in pool])
    qtype = ctx.asked.kind
    wanted = ctx.asked.count
    items: dict[tuple[int, int], int] = {}
    for c in candidates:
        if c.unit.role == "list_item":
            items[(c.source, c.unit.block)] = items.get((c.source, c.unit.block), 0) + 1
    at = {(c.source, c.position): i for i, c in enumerate(candidates)}
    for i, c in enumerate(candidates):
        row = out[i]
        text = c.unit.plain
        neighbours = [at.get((c.source, c.position + step)) for step in (-1, 1)]
        flags = {
            "has_number": bool(_NUMBER.search(text)),
            "has_year": bool(_YEAR.search(text)),
            "has_capname": bool(_CAPNAME.search(text)),
            "has_code": bool(_CODE.search(c.unit.text)) or c.unit.role == "code",
            "has_reason": bool(_REASON.search(text)),
            "ends_colon": announces(c.unit.text),
        }
        values = {
            "bias": 1.0,
            "sim": sims[i],
            "sim_gap": sims[i] - sims.max(),
            "heading_sim": float(ctx.heading_sims[i]),
            "title_sim": float(ctx.title_sims[i]),
            "passage_sim": float(ctx.passage_sims[c.source]),
            "neighbour_sim": max((sims[j] for j in neighbours if j is not None), default=0.0),
            "lex": lex[i],
            "lex_heading": overlap(q_terms, content_terms(f"{c.heading} {c.title}"), idf, unseen),
            "lex_lead": overlap(q_terms, content_terms(c.unit.lead), idf, unseen),
            "lex_gap": lex[i] - lex.max(),
            "first_in_section": float(c.first_chunk and c.position == 0),
            "relative_position": c.position / max(1, c.count - 1),
            "passage_rank": 1.0 / (1.0 + c.source),
            "log_words": math.log1p(len(text.split())),
            f"role_{c.unit.role}": 1.0,
            f"q_{qtype}": 1.0,
            **{name: float(value) for name, value in flags.items()},
            "when_x_year": float(qtype == "when" and flags["has_year"]),
            "number_x_number": float(qtype == "number" and flags["has_number"]),
            "who_x_capname": float(qtype == "who" and flags["has_capname"]),
            "where_x_capname": float(qtype == "where" and flags["has_capname"]),
            "howto_x_code": float(qtype == "how_to" and (flags["has_code"] or flags["ends_colon"])),
            "why_x_reason": float(qtype == "why" and flags["has_reason"]),
            "define_x_definition": float(qtype == "define" and c.unit.role == "definition"),
            "compare_x_contrast": float(qtype == "compare" and bool(_CONTRAST.search(text))),
            "sim_x_heading_sim": sims[i] * float(ctx.heading_sims[i]),
            "count_match": float(
                wanted > 0 and wanted in (listed[i], items.get((c.source, c.unit.block), 0))
            ),
        }
        for name, value in values.items():
            row[INDEX[name]] = value
    return out
