"""What a question asks for, read once: the kind of answer, how many things, the term "What is
X?" defines, the sides a comparison sets apart, and the code and acronyms it names.

Every stage that weighs the question reads them from one `Asked` instead of parsing it again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bookchat.answer.terms import content_terms
from bookchat.retrieval.named import code_terms, defined, key_terms, without_article


@dataclass(frozen=True, slots=True)
class Asked:
    """One question and what it asks for."""

    text: str
    kind: str  # one of QUESTION_TYPES
    count: int  # how many things it asks for ("the three formats" -> 3), 0 when it does not say
    list_count: int  # how many items it asks for as a list ("What are the three X?"), else 0
    defined: str | None  # the term "What is X?" asks to define
    compared: tuple[str, ...]  # the sides "the difference between A and B" sets apart
    key: tuple[str, ...]  # the code and acronyms it names (retrieval.named.key_terms)
    code: tuple[str, ...]  # ... less the acronyms
    terms: frozenset[str]  # its content words (terms.content_terms)
    # ... with hyphenated words read apart ("fast-forward": "fast", "forward"), to match headings
    split_terms: frozenset[str]

    @classmethod
    def of(cls, question: str) -> Asked:
        """Read `question`."""
        return cls(
            question,
            question_type(question),
            asked_count(question),
            asked_list(question),
            defined(question),
            compared(question),
            tuple(key_terms(question)),
            tuple(code_terms(question)),
            content_terms(question),
            content_terms(question.replace("-", " ")),
        )


# "What's the difference between git fetch and git pull?", "… the working tree, the index and
# the repository?", "services vs. topics": the things compared, up to a qualifier (in / when /
# for …) or the question mark.
_COMPARED = re.compile(
    r"\bdifference between (?P<between>.+?)(?=\s+(?:in|when|for|on|with|inside|within)\s|\?|$)"
    r"|^(?:\w+\s+){0,3}?(?P<left>[\w'.+-]+(?:\s+[\w'.+-]+){0,2})\s+(?:vs\.?|versus)\s+"
    r"(?P<right>[^?:,]+?)(?=\s+(?:in|when|for|on)\s|[?:,]|$)",
    re.IGNORECASE,
)


def compared(question: str) -> tuple[str, ...]:
    """The things a comparison question sets side by side (two or more), else ()."""
    found = _COMPARED.search(question.strip())
    if found is None:
        return ()
    if found["between"]:
        parts = re.split(r",\s*(?:and\s+)?|\s+and\s+", found["between"])
    else:
        parts = [found["left"], found["right"]]
    terms = [without_article(p.strip(" `*\"'")) for p in parts if p.strip()]
    if len(terms) < 2:
        return ()
    # "the pre-receive and update hooks": the last term's extra words name what all of them are;
    # unless it extends another term ("git diff and git diff --staged"), which they tell apart.
    if not any(extends(terms[-1], t) for t in terms[:-1]):
        longest = max(len(t.split()) for t in terms[:-1])
        terms[-1] = " ".join(terms[-1].split()[:longest])
    return tuple(terms)


def extends(term: str, other: str) -> bool:
    """Whether `term` is `other` with more words after it ("git diff --staged", "git diff")."""
    return term.lower().startswith(other.lower() + " ")


QUESTION_TYPES = ("who", "when", "where", "number", "define", "how_to", "why", "compare", "other")

_QTYPE = (
    ("compare", re.compile(r"\b(difference|differ|versus|vs\.?|compared?|better than|or)\b.*\?")),
    (
        "why",
        re.compile(r"^\s*(why|what is the (reason|purpose|point)|explain why)\b|\bwhy\b", re.I),
    ),
    (
        "how_to",
        re.compile(
            r"\bhow (do|can|should|would|to|does one)\b|\bhow to\b|\bsteps?\b|"
            r"\b(command|way) to\b|\bwhat (do|should) i (run|type|do)\b",
            re.I,
        ),
    ),
    (
        "number",
        re.compile(
            r"\bhow (many|much|long|often|big|large|far|old)\b|\bwhat "
            r"(percentage|number|amount|size)\b",
            re.I,
        ),
    ),
    (
        "when",
        re.compile(r"\bwhen\b|\bwhat (year|date|time|century|decade)\b|\bin which year\b", re.I),
    ),
    ("who", re.compile(r"\bwho(m|se)?\b|\bwhich (person|people|company|group)\b", re.I)),
    (
        "where",
        re.compile(r"\bwhere\b|\bwhich (city|country|place|state|file|folder|directory)\b", re.I),
    ),
    ("define", re.compile(r"^\s*(what('s| is| are| does)|define|meaning of|explain)\b", re.I)),
)


def question_type(question: str) -> str:
    """What kind of answer the question asks for (one of QUESTION_TYPES)."""
    for name, pattern in _QTYPE:
        if pattern.search(question):
            return name
    return "other"


# "What are the three formats…?", "Name two kinds of…": the question asks for so many things.
_NUMBER_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_COUNT_WORDS = {word: n for n, word in enumerate(_NUMBER_WORDS, 2)}
_ASKS_COUNT = re.compile(
    r"\b(two|three|four|five|six|seven|eight|nine|ten|[2-9])\s+(?:[\w-]+\s+){0,2}?[\w-]+s\b", re.I
)


def _counted(match: re.Match[str] | None) -> int:
    if not match:
        return 0
    word = match.group(1).lower()
    return _COUNT_WORDS.get(word) or int(word)


def asked_count(question: str) -> int:
    """How many things the question asks for ("the three formats" -> 3), 0 when it does not say."""
    return _counted(_ASKS_COUNT.search(question))


# "What are the three components of an action?", "Name two kinds of hooks": a list is asked for.
_ASKS_LIST = re.compile(
    r"^\s*(?:(?:what|which)\s+(?:are|were)|name|list)\s+(?:the\s+)?"
    r"(two|three|four|five|six|seven|eight|nine|ten|[2-9])\s+\w",
    re.I,
)


def asked_list(question: str) -> int:
    """How many items a question asking for a list wants ("What are the three X?" -> 3), else 0."""
    return _counted(_ASKS_LIST.match(question))
