"""Choose what to quote: a coherent span around the best unit, or the most relevant passage.

A span is the best unit with what it needs to be read on its own (a lead-in with its list, a row
with its header) plus units nearly as good; when no unit answers on its own, a window of whole
units of the best unit's passage. Furniture is quoted only when nothing else is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from bookchat.answer.asked import extends
from bookchat.answer.features import Candidate
from bookchat.answer.shape import Side
from bookchat.answer.terms import either_number
from bookchat.markdown.units import ANAPHOR, Unit, announces

# Other units join the best one when their score is at least this share of its score.
NEAR_BEST = 0.3
MAX_EXTRA = 2
# The sentence before or after the best one, in its paragraph, comes along at this share.
NEIGHBOUR_SHARE = 0.15
# A quoted answer aims at this length: much more buries the answer. answer_max_words stays the
# hard cap.
TARGET_WORDS = 70
# A passage answer is a window of at most this many units, as a reader would quote it.
WINDOW = 3


@dataclass(frozen=True, slots=True)
class Choice:
    """What an answer quotes: a span, or else a passage (which may end on a cut lead-in)."""

    units: list[Candidate]
    is_span: bool
    cut: bool = False  # a quoted unit introduces a script, list or table left out


def choose(
    candidates: Sequence[Candidate],
    scores: NDArray[np.float64],
    max_words: int,
    *,
    span_threshold: float,
    sides: Sequence[Side] = (),
    anchor: int | None = None,
    anchor_answers: bool = True,
) -> Choice | None:
    """The units to quote (a span when the best unit reaches `span_threshold`, else its passage)
    plus the compared `sides` they leave out; None when nothing fits. `anchor`, the unit holding
    the reader's span, is quoted first, as a span when `anchor_answers`."""
    on_its_own = scores[best_index(candidates, scores)] >= span_threshold
    if anchor is not None:
        # The reader read the question with the words and points into this unit: the answer
        # model's scores only choose what is quoted around it.
        scores = scores.copy()
        scores[anchor] = max(float(scores.max()), span_threshold) + 1e-6
        on_its_own = on_its_own or anchor_answers
    if on_its_own:
        chosen = span(candidates, scores, max_words)
        if chosen:
            return Choice(with_compared(candidates, scores, chosen, sides, max_words), True)
    chosen = passage(candidates, scores, max_words)
    if not chosen:
        return None
    chosen = with_compared(candidates, scores, chosen, sides, max_words)
    return Choice(chosen, False, ends_on_lead_in(candidates, chosen))


def words(text: str) -> int:
    """Word count, as the answer budget counts."""
    return len(text.split())


def cost(unit: Unit, shown: set[str]) -> int:
    """Words a unit adds to an answer already showing `shown` (shared lead-ins count once)."""
    return sum(words(t) for t in (unit.text, unit.lead, unit.before) if t and t not in shown)


def best_index(candidates: Sequence[Candidate], scores: NDArray[np.float64]) -> int:
    """The best unit that is not furniture (unless all are); ties go to reading order."""
    order = sorted(
        range(len(candidates)),
        key=lambda i: (candidates[i].unit.role == "furniture", -scores[i], _place(candidates[i])),
    )
    return order[0]


def _place(c: Candidate) -> tuple[int, int]:
    return c.source, c.position


class _Budget:
    """Words an answer may use: `target` for what is chosen unit by unit, up to `cap` for a
    list that must be read whole."""

    def __init__(self, target: int, cap: int | None = None) -> None:
        self.target = target
        self.cap = max(cap or target, target)
        self.used = 0  # counted against the target
        self.shown_words = 0  # counted against the cap
        self.shown: set[str] = set()
        self.taken: list[Candidate] = []

    def take(self, c: Candidate, *, limit: int | None = None) -> bool:
        if c in self.taken:
            return True
        shown = cost(c.unit, self.shown)
        # The sentence a unit leans on is shown with it but not counted against the target: it
        # makes the unit readable and adds no answer. The cap still holds.
        leaned = c.unit.before and c.unit.before not in self.shown
        need = shown - (words(c.unit.before) if leaned else 0)
        if self.used + need > (limit or self.target) or self.shown_words + shown > self.cap:
            return False
        self.used += need
        self.shown_words += shown
        self.shown |= {c.unit.text, c.unit.lead, c.unit.before}
        self.taken.append(c)
        return True

    def take_all(self, cs: Sequence[Candidate]) -> bool:
        """Take every one of `cs` or none: an announced list is read whole (past the target,
        within the cap), never with an item left out."""
        shown, need = set(self.shown), 0
        for c in cs:
            if c not in self.taken:
                need += cost(c.unit, shown)
                shown |= {c.unit.text, c.unit.lead, c.unit.before}
        if self.shown_words + need > self.cap:
            return False
        return all([self.take(c, limit=self.cap) for c in cs])


def _block(candidates: Sequence[Candidate], of: Candidate) -> list[Candidate]:
    return [c for c in candidates if c.source == of.source and c.unit.block == of.unit.block]


def _next(candidates: Sequence[Candidate], of: Candidate, step: int = 1) -> Candidate | None:
    for c in candidates:
        if c.source == of.source and c.position == of.position + step:
            return c
    return None


def _complete(
    candidates: Sequence[Candidate], unit: Candidate, budget: _Budget, depth: int = 0
) -> None:
    """Add what `unit` needs to be read on its own."""
    role = unit.unit.role
    nxt = _next(candidates, unit)
    if _announced(unit):
        # The lead-in announces the list: the whole list answers, when it fits.
        budget.take_all(_list(candidates, unit))
    elif role == "definition" and nxt is not None and nxt.unit.block == unit.unit.block:
        budget.take(nxt)
    elif _introduces(unit) and nxt is not None:
        # "To sync the fork, fast-forward it:" holds no command; the block after it does.
        for item in _block(candidates, nxt)[:4]:
            if not budget.take(item):
                break
            if _introduces(item) and depth < 2:
                # "Causes and Solutions:" brings "1. Missing X:", which brings its command.
                _complete(candidates, item, budget, depth + 1)


def _antecedent(candidates: Sequence[Candidate], c: Candidate) -> Candidate | None:
    """What `c` points back at when it opens on a pronoun: the sentence before it in its
    paragraph, or the code block right above the paragraph it opens; else None."""
    if c.unit.role not in ("prose", "definition", "admonition"):
        return None
    if not ANAPHOR.match(c.unit.text.removeprefix("> ")):
        return None
    before = _next(candidates, c, -1)
    if before is None:
        return None
    if before.unit.block == c.unit.block or before.unit.role == "code":
        return before
    return None


def _with_antecedents(candidates: Sequence[Candidate], budget: _Budget) -> None:
    """Bring the sentence each quoted one leans on (when it fits)."""
    for c in list(budget.taken):
        if (before := _antecedent(candidates, c)) is not None:
            budget.take(before)


def _announced(c: Candidate) -> bool:
    """A list item whose lead-in announces the list ("Each link can have three components:")."""
    return c.unit.role == "list_item" and announces(c.unit.lead)


def _take(candidates: Sequence[Candidate], c: Candidate, budget: _Budget) -> bool:
    """Take `c`, or, for an item of an announced list, its whole list or nothing."""
    return budget.take_all(_list(candidates, c)) if _announced(c) else budget.take(c)


def _list(candidates: Sequence[Candidate], of: Candidate) -> list[Candidate]:
    """The items of `of`'s block under the same lead-in (a nested list without its parents)."""
    return [c for c in _block(candidates, of) if c.unit.lead == of.unit.lead]


def _introduces(c: Candidate) -> bool:
    return announces(c.unit.text)


def _without_dangling(candidates: Sequence[Candidate], taken: list[Candidate]) -> list[Candidate]:
    """`taken` less any lead-in whose list, table or command did not fit (it reads as a cut
    answer); empty when nothing else was taken."""
    kept = list(taken)
    # Repeated: dropping "1. Missing function:" leaves "Causes and Solutions:" dangling.
    while dangling := [c for c in kept if _introduces(c) and _next(candidates, c) not in kept]:
        kept = [c for c in kept if c not in dangling]
    return kept


def _neighbours(
    candidates: Sequence[Candidate], scores: NDArray[np.float64], best: int, budget: _Budget
) -> None:
    """The sentences either side of the best one, in its paragraph, scoring at least
    NEIGHBOUR_SHARE of it (an answer is often a topic sentence and its detail), and the one after
    it that leans on it whatever its score (its pronoun hides the question's words)."""
    here = candidates[best]
    for step in (1, -1):
        for i, c in enumerate(candidates):
            if (
                c.source == here.source
                and c.position == here.position + step
                and c.unit.block == here.unit.block
                and c.unit.role in ("prose", "definition", "admonition")
                and (
                    scores[i] >= NEIGHBOUR_SHARE * scores[best]
                    or (step == 1 and _antecedent(candidates, c) is here)
                )
            ):
                budget.take(c)


def span(
    candidates: Sequence[Candidate], scores: NDArray[np.float64], max_words: int
) -> list[Candidate]:
    """The best unit, completed, plus units nearly as good (at most MAX_EXTRA more)."""
    budget = _Budget(min(max_words, TARGET_WORDS), max_words)
    best = best_index(candidates, scores)
    if not budget.take(candidates[best]):
        budget = _Budget(max_words)  # a long best unit is still quoted whole
        if not budget.take(candidates[best]):
            return []
    _complete(candidates, candidates[best], budget)
    _with_antecedents(candidates, budget)
    for c in list(budget.taken[1:]):
        # A neighbour or extra ending in a colon ("It picks the first that is set of:") says
        # nothing without the list or command it introduces: that comes too, when it fits.
        if _introduces(c):
            _complete(candidates, c, budget)
    _with_antecedents(candidates, budget)  # the extras' too, now the best one's has room
    return _without_dangling(candidates, budget.taken)


def passage(
    candidates: Sequence[Candidate], scores: NDArray[np.float64], max_words: int
) -> list[Candidate]:
    """The passage answer (see `_window`); when the window is only a lead-in whose script is too
    long, the window around the passage's next best unit, else that lead-in alone."""
    taken = _window(candidates, scores, max_words)
    kept = _without_dangling(candidates, taken)
    if kept or not taken:
        return kept
    sources = {c.source for c in taken}
    left = [i for i, c in enumerate(candidates) if c.source in sources and c not in taken]
    retry = _window([candidates[i] for i in left], scores[left], max_words) if left else []
    return _without_dangling(candidates, retry) or taken


def _names(c: Candidate, key: re.Pattern[str]) -> bool:
    return bool(key.search(f"{c.unit.lead} {c.unit.text}"))


def _term_key(term: str, terms: Sequence[str] = ()) -> re.Pattern[str]:
    """What names a compared term: its last word, singular or plural; the whole term when another
    term ends on the same word; the whole term ending there when another term extends it."""
    if any(extends(t, term) for t in terms):
        ends = r"(?=`|\s*[|,;:)]|\.(?:\s|$)|\s*$)"
        return re.compile(rf"(?<![\w.-]){re.escape(term)}{ends}", re.IGNORECASE)
    *before, word = term.lower().split()
    if before and any(t != term and t.lower().split()[-1] == word for t in terms):
        words = r"[*_`\s]+".join(re.escape(w) for w in before)
        return re.compile(
            rf"(?<![\w.-]){words}[*_`\s]+{either_number(word)}(?![\w-])", re.IGNORECASE
        )
    return re.compile(rf"(?<![\w.-]){either_number(word)}(?![\w-])", re.IGNORECASE)


def with_compared(
    candidates: Sequence[Candidate],
    scores: NDArray[np.float64],
    chosen: list[Candidate],
    sides: Sequence[Side],
    max_words: int,
) -> list[Candidate]:
    """`chosen` plus, for each compared term it never names, the opening of the section titled
    with it or else the best unit naming it, when it fits: one side alone is half an answer."""
    terms = [side.term for side in sides]
    keys = {k.pattern: (s, k) for s, k in ((s, _term_key(s.term, terms)) for s in sides)}
    if len(keys) < 2:
        return chosen
    budget = _Budget(max_words)
    for c in chosen:
        budget.take(c)
    for side, key in keys.values():
        if any(_names(c, key) or c.heading in side.headings for c in budget.taken):
            continue
        first = side.opening
        order = [first] if first is not None else []
        for i in [*order, *(int(i) for i in np.argsort(-scores, kind="stable"))]:
            c = candidates[i]
            if i == first or (c.unit.role != "furniture" and _names(c, key)):
                if _take(candidates, c, budget):
                    _complete(candidates, c, budget)
                    _with_antecedents(candidates, budget)
                break
    return _without_dangling(candidates, budget.taken)


def ends_on_lead_in(candidates: Sequence[Candidate], chosen: Sequence[Candidate]) -> bool:
    """A quoted unit introduces a script, list or table that is not quoted (it did not fit)."""
    return any(_introduces(c) and _next(candidates, c) not in chosen for c in chosen)


def _window(
    candidates: Sequence[Candidate], scores: NDArray[np.float64], max_words: int
) -> list[Candidate]:
    """A window of whole units of the best unit's passage: from that unit on (then back), at
    most WINDOW units and TARGET_WORDS words. The passage is the best unit's even when its score
    is weak: the scorer already weighs each passage's retrieval rank."""
    # best_index skips furniture: a self-check or a reading list is no answer.
    best = candidates[best_index(candidates, scores)]
    own = [
        c
        for c in candidates
        if c.source == best.source and (c.unit.role != "furniture" or best.unit.role == "furniture")
    ]
    budget = _Budget(min(max_words, TARGET_WORDS), max_words)
    before = _antecedent(own, best)
    if before is not None and budget.take(before):
        best = before  # the window reads from the sentence the best one leans on
    elif not budget.take(best):
        # A long script is no passage to read out: the passage's best unit that fits instead.
        score_of = {id(c): float(scores[i]) for i, c in enumerate(candidates)}
        ranked = sorted(own, key=lambda c: -score_of[id(c)])
        best = next((c for c in ranked if budget.take(c)), best)
        if not budget.taken:
            return []
    _complete(own, best, budget)
    at = own.index(best)
    for c in [*own[at + 1 :], *reversed(own[:at])]:
        if c in budget.taken:
            continue
        # An announced list counts as one piece of the window: it is read as a whole.
        if _pieces(budget.taken) >= WINDOW:
            break
        if not _take(own, c, budget):
            break
        _complete(own, c, budget)
    return budget.taken


def _pieces(taken: Sequence[Candidate]) -> int:
    """Units of a window, a list under a lead-in ending in a colon counted once."""
    lists = {(c.source, c.unit.block) for c in taken if c.unit.role == "list_item"}
    items = sum(1 for c in taken if c.unit.role == "list_item")
    return len(taken) - items + len(lists)
