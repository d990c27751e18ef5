"""What the question's shape asks for: the units raised to the top before the span is chosen.

"What is X?" asks for X's definition (else the opening of the section titled X, else X in
bold), "What are the three X?" for a list of three, "the difference between A and B" for what
each side is. The learned scorer cannot see these shapes, so they are rules, each leaving the
scores unchanged when the book offers no such unit. Headings are read here too: what one is
about, and whether a question names it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from bookchat.answer.asked import Asked
from bookchat.answer.features import Candidate
from bookchat.answer.terms import content_terms, either_number
from bookchat.retrieval.named import without_article

# What a heading wraps around its subject: a number ("2.4", "3."), a question ("What are Launch
# Files?") and what it is done with ("Garbage collection with git gc"; stored headings are plain
# text).
_HEADING_NUMBER = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[A-Z]\.)\s+")
_HEADING_QUESTION = re.compile(r"^what(?:'s|\s+is|\s+are)\s+(?P<subject>.+?)\s*\?$", re.I)
_HEADING_MEANS = re.compile(r"^(?P<subject>.+?)\s+(?:with|using)\s+(?P<means>\S.*)$", re.I)


def heading_parts(heading: str) -> tuple[str, str]:
    """What a heading is about and what it is done with ("Removing untracked files", "git
    clean"); "" for the second when it does not say."""
    split = _HEADING_MEANS.match(heading)
    return (split["subject"], split["means"]) if split else (heading, "")


def names_heading(asked: Asked, heading: str) -> bool:
    """Whether the question names all the words of the heading, or of either part of a heading
    "<subject> with <means>" ("Removing untracked files with git clean")."""
    return any(
        (terms := content_terms(part.replace("-", " "))) and terms <= asked.split_terms
        for part in heading_parts(heading)
    )


def _singular(word: str) -> str:
    if word.endswith(("ses", "xes", "zes", "ches", "shes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _subject_words(text: str) -> list[str]:
    text = _HEADING_NUMBER.sub("", text.strip())
    asked = _HEADING_QUESTION.match(text)
    text = asked["subject"] if asked else text
    text = without_article(heading_parts(text)[0])
    words = re.sub(r"[`*_]", "", text).lower().split()
    if words:
        # Singular and plural title the same thing: "Fast-forward merges", "a fast-forward merge".
        words[-1] = _singular(words[-1])
    return words


def titled(term: str | None, heading: str) -> bool:
    """Whether `heading` is `term`'s own title ("What are Launch Files?" for "launch file")."""
    return bool(term) and bool(heading) and _subject_words(heading) == _subject_words(term or "")


def _defining(
    term: str, qualifiers: Sequence[str] = (), *, any_verb: bool = False
) -> re.Pattern[str]:
    """A unit whose subject is `term` ("A branch is …", "**Node**: …"), maybe after some of
    `qualifiers`; `any_verb` also takes the bare term then any lower-case verb."""
    words = "|".join(re.escape(w) for w in qualifiers)
    before = rf"(?:(?:{words})\s+){{0,3}}" if words else ""
    # Said of the term in general, not of one instance: "A rebase can stop once …" is not.
    article = "" if any_verb else r"(?:an?\s+|the\s+)?"
    verb = r"|\s+(?-i:[a-z])" if any_verb else ""
    return re.compile(
        rf"^(?:[-*+]\s+|\d+[.)]\s+)?[*_`\s]*{article}[*_`]*{before}"
        rf"{either_number(term)}[*_`]*\s*"
        r"(?:\([^)]*\)[*_`]*\s*)?"
        rf"(?:is|are|means|:|—{verb})",
        re.IGNORECASE,
    )


def _best_defining(
    candidates: Sequence[Candidate],
    scores: NDArray[np.float64],
    subject: re.Pattern[str],
    roles: Sequence[str] = ("definition",),
) -> int | None:
    defining = [
        i for i, c in enumerate(candidates) if c.unit.role in roles and subject.match(c.unit.text)
    ]
    return max(defining, key=lambda i: scores[i]) if defining else None


def _to_top(scores: NDArray[np.float64], order: Sequence[int]) -> NDArray[np.float64]:
    """`scores` with the units of `order` raised above every other, in that order."""
    raised = scores.copy()
    top = float(scores.max())
    for rank, i in enumerate(order):
        raised[i] = top + 1e-6 * (len(order) - rank)
    return raised


def definition_first(
    candidates: Sequence[Candidate], scores: NDArray[np.float64], term: str | None
) -> NDArray[np.float64]:
    """`scores` with `definition_of(term)` raised to the top: "What is X?" is answered by X's
    definition, not by the table row that names X most often."""
    best = definition_of(candidates, scores, term)
    return scores if best is None else _to_top(scores, [best])


def definition_of(
    candidates: Sequence[Candidate], scores: NDArray[np.float64], term: str | None
) -> int | None:
    """The best unit defining `term`, else the opening of the section titled `term`, else the
    best unit introducing `term` in bold, if any."""
    if not term:
        return None
    best = _best_defining(candidates, scores, _defining(term))
    if best is None:
        best = opening(candidates, term)
    return best if best is not None else _best_introducing(candidates, scores, term)


def _in_bold(term: str) -> re.Pattern[str]:
    # A textbook sets a term in bold where it introduces it.
    return re.compile(rf"\*\*`?{either_number(term)}`?\*\*", re.IGNORECASE)


def introduces(text: str, heading: str, term: str | None) -> bool:
    """Whether a passage (its Markdown and heading) is titled `term` or sets it in bold."""
    return bool(term) and (titled(term, heading) or bool(_in_bold(term or "").search(text)))


def _best_introducing(
    candidates: Sequence[Candidate], scores: NDArray[np.float64], term: str
) -> int | None:
    bold = _in_bold(term)
    found = [
        i
        for i, c in enumerate(candidates)
        if c.unit.role not in ("furniture", "code") and bold.search(c.unit.text)
    ]
    return max(found, key=lambda i: scores[i]) if found else None


def opening(candidates: Sequence[Candidate], term: str | None) -> int | None:
    """The first sentence (not a list item or row) of the section titled `term`, if any."""
    titled_here = [
        i
        for i, c in enumerate(candidates)
        if c.first_chunk and c.unit.role in ("prose", "definition") and titled(term, c.heading)
    ]
    return (
        min(titled_here, key=lambda i: (candidates[i].source, candidates[i].position))
        if titled_here
        else None
    )


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a comparison as the candidates hold it."""

    term: str  # as the question names it ("a shallow clone")
    opening: int | None  # the opening sentence of the section titled with it (`opening`)
    headings: frozenset[str]  # the candidates' headings that title it (`titled`)


@dataclass(frozen=True, slots=True)
class Shaped:
    """What the question's shape finds among the candidates."""

    defines: bool  # "What is X?": they hold X's definition, section or X in bold (`definition_of`)
    scores: NDArray[np.float64]  # the scores with those units on top (`shape_first`)
    sides: tuple[Side, ...] = ()  # the sides a comparison sets apart, each where it is titled


def read(candidates: Sequence[Candidate], scores: NDArray[np.float64], asked: Asked) -> Shaped:
    """The candidates read once for the question's shape (`Shaped`)."""
    return Shaped(
        definition_of(candidates, scores, asked.defined) is not None,
        shape_first(candidates, scores, asked),
        sides_of(candidates, asked.compared),
    )


def sides_of(candidates: Sequence[Candidate], terms: Sequence[str]) -> tuple[Side, ...]:
    """Each compared term with the opening of its section and the headings titling it."""
    return tuple(
        Side(
            term,
            opening(candidates, term),
            frozenset(c.heading for c in candidates if titled(term, c.heading)),
        )
        for term in terms
    )


def definitions_compared(
    candidates: Sequence[Candidate], scores: NDArray[np.float64], terms: Sequence[str]
) -> NDArray[np.float64]:
    """`scores` with each compared term's definition (else its section's opening, else a unit
    with it as subject) raised to the top in the question's order: a comparison is first what
    each side is. A side with none is left to `select.with_compared`."""
    found: list[int] = []
    for term in terms:
        *qualifiers, word = term.split()
        best = _best_defining(
            candidates, scores, _defining(word, qualifiers), ("definition", "list_item")
        )
        if best is None:
            best = opening(candidates, term)
        if best is None:
            subject = _defining(word, qualifiers, any_verb=True)
            best = _best_defining(candidates, scores, subject, ("definition", "list_item", "prose"))
        if best is not None and best not in found:
            found.append(best)
    return _to_top(scores, found) if len(terms) >= 2 and found else scores


def list_first(
    candidates: Sequence[Candidate], scores: NDArray[np.float64], asked: Asked
) -> NDArray[np.float64]:
    """`scores` with the best item of the list the question asks for raised to the top: a list
    of that many items whose lead-in or heading names what is counted (the lead-in naming most
    of it wins), not the sentence matching the words best."""
    wanted = asked.list_count
    if not wanted:
        return scores
    words = asked.terms
    lists: dict[tuple[int, int], list[int]] = {}
    for i, c in enumerate(candidates):
        if c.unit.role == "list_item":
            lists.setdefault((c.source, c.unit.block), []).append(i)
    fitting = []
    for items in lists.values():
        first = candidates[items[0]]
        by_lead = len(words & content_terms(first.unit.lead))
        by_heading = len(words & content_terms(first.heading))
        if len(items) == wanted and by_lead + by_heading:
            fitting.append((by_lead, by_heading, max(scores[i] for i in items), items))
    if not fitting:
        return scores
    items = max(fitting, key=lambda f: f[:3])[3]
    return _to_top(scores, [max(items, key=lambda i: scores[i])])


def shape_first(
    candidates: Sequence[Candidate], scores: NDArray[np.float64], asked: Asked
) -> NDArray[np.float64]:
    """`scores` with the units the question's shape asks for on top, if any."""
    scores = definition_first(candidates, scores, asked.defined)
    scores = list_first(candidates, scores, asked)
    return definitions_compared(candidates, scores, asked.compared)
