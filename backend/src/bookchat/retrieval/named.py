"""Named things: the code and acronyms a question names, the term a "What is X?" question asks
to define, and whether a text or a heading names them.

Sentence similarity cannot tell "What does git rebase --onto do?" from the section on what
`git rebase` does: both are about rebasing, and the one token that matters is `--onto`. The
options, config keys, file names, paths, versions and acronyms a question names are therefore
read apart from its words: retrieval brings forward the sections whose heading names the
question's code, and coverage declines when the passages lack a term (answer/coverage.py).
Likewise a section titled "Shallow clone" is the book's own answer to "What is a shallow
clone?", whether or not its sentences repeat the words.
Capitalised names are not named terms: readers misspell them and take them from context the
passage leaves out, so requiring them would decline answerable questions
(specs/001-bookchat/decisions/0015-named-terms-must-be-in-the-passages.md).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

# A token keeps the punctuation that makes it code: --onto, pack.threads, .psd, 1.4.2, ~/work.
_TOKEN = re.compile(r"`[^`]+`|[~./-]*[A-Za-z0-9](?:[\w./:@~+=-]*[\w+])?")

# "a package named `robot_control`": a name the question makes up for its example, which no
# book can be expected to mention.
_INTRODUCED = re.compile(r"\b(?:named|called)\s+$", re.IGNORECASE)


def _is_code(token: str) -> bool:
    inner = token.strip(".")
    return token.startswith(("-", ".")) or any(ch in inner for ch in "./_:@~=")


def is_acronym(token: str) -> bool:
    """Whether a token is written as an acronym: two or more capitals and nothing but letters
    and digits (GPG, LFS, HTTP2)."""
    letters = [ch for ch in token if ch.isalpha()]
    return len(letters) >= 2 and all(ch.isupper() for ch in letters) and token.isalnum()


def key_terms(question: str) -> list[str]:
    """The code and acronyms a question names, in order, without repeats, less the names it
    introduces itself ("a package named `robot_control`")."""
    found: dict[str, None] = {}
    introduced: set[str] = set()
    for match in _TOKEN.finditer(question):
        quoted = match.group().startswith("`")
        token = match.group().strip("`").rstrip(".,;:!?")
        if _INTRODUCED.search(question[: match.start()]):
            introduced.add(token)
        if len(token) >= 2 and (quoted or _is_code(token) or is_acronym(token)):
            found[token] = None
    return [term for term in found if term not in introduced]


def code_terms(question: str) -> list[str]:
    """The code a question names (`--no-ff`, `core.autocrlf`, a quoted name): its key terms less
    acronyms, which plain prose spells out too ("U.S." for US)."""
    return [term for term in key_terms(question) if not is_acronym(term)]


def present(term: str, text: str, acronyms: Collection[str] = ()) -> bool:
    """Whether `text` names `term`; an acronym also counts as named when it is in `acronyms`
    (those the text spells out)."""
    if is_acronym(term):
        # Written in capitals (GPG, LFS): a shouted "SYSTEM" is not the word "system".
        return term in acronyms or re.search(rf"(?<!\w){re.escape(term)}(?!\w)", text) is not None
    # Short options are case-sensitive (-S is not -s); longer code is not (Node.js, node.js).
    flags = 0 if len(term) <= 3 else re.IGNORECASE
    return re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", text, flags) is not None


def names_all(terms: Sequence[str], text: str) -> bool:
    """Whether `text` names every one of `terms` (and there is at least one)."""
    return bool(terms) and all(present(term, text) for term in terms)


# "What is a fast-forward merge?", "What are remote-tracking branches in Git?": the term asked
# about, when that is all the question asks (a few words, nothing after but where it lives).
_DEFINED = re.compile(
    r"^\s*what(?:'s|\s+is|\s+are)\s+(?:an?\s+|the\s+)?"
    r"(?P<term>[\w`.'+-]+(?:\s+[\w`.'+-]+){0,3}?)(?:\s+in\s+[\w\s.-]+)?\s*\?\s*$",
    re.IGNORECASE,
)


def defined(question: str) -> str | None:
    """The term a "What is X?" question asks to define, else None."""
    found = _DEFINED.match(question)
    # Code marks are Markdown, not the term: "a `.gitignore` file" defines ".gitignore file".
    return found["term"].replace("`", "") if found else None


_ARTICLE = re.compile(r"^(?:an?|the)\s+", re.IGNORECASE)


def without_article(text: str) -> str:
    """`text` less a leading "a", "an" or "the"."""
    return _ARTICLE.sub("", text)
