"""Recognising an overview question and the part of the book it asks about.

"Summarize this chapter", "what does the page on rebasing cover?", "main topics of the book",
"TL;DR", "Résume ce chapitre": a request for an overview, and its target. A question that only
uses the words ("What does `git log --stat` summarize?", "the summary line of a commit", "the
main branch", "an overview of what changed") is not one: the overview word must be asked for (an
imperative, "a summary of …", "main points", "what does this chapter cover"), and its target must
be a part of the book (this chapter, the book, a title), not a clause ("how X differs from Y").
Written from invented phrasings (tests/overview/test_ask.py), never from the evaluation rows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Scope = Literal["chapter", "page", "section", "book"]


@dataclass(frozen=True, slots=True)
class OverviewAsk:
    """An overview question: the scope it names ("this chapter"), or the title it names
    ("the chapter on branching"), or neither (the mode's own scope)."""

    scope: Scope | None = None  # named by a word: this chapter / the book / this page
    here: bool = False  # "this …": the reader's current chapter, page or section
    name: str = ""  # a title to find ("branching and merging"), "" when none


_POLITE = (
    r"(?:(?:ok|okay|so|hey|hi|hello|please|pls|now|then|quickly|briefly)[,!]?\s+)*"
    r"(?:(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+)?|"
    r"i(?:'d|\s+would)\s+like\s+(?:you\s+to\s+)?|i\s+want\s+(?:you\s+to\s+)?|i\s+need\s+|"
    r"help\s+me\s+|let's\s+|lets\s+|"
    r"(?:peux|pourrais)[- ]tu\s+|pouvez[- ]vous\s+|pourriez[- ]vous\s+|"
    r"je\s+(?:voudrais|veux)\s+|j'aimerais\s+)?"
)
_NOUN = (
    r"(?:quick\s+|short\s+|brief\s+|high[- ]level\s+|general\s+|bird's[- ]eye\s+)?"
    r"(?:summary|overview|outline|recap|rundown|run-down|synopsis|tl;?dr|gist|digest|"
    r"breakdown)"
)
_NOUN_FR = r"(?:résumé|synthèse|récap(?:itulatif)?|aperçu|vue\s+d'ensemble|survol)"
_POINTS = (
    r"(?:main|key|core|central|important|essential|major|big|principal)\s+"
    r"(?:points|topics|ideas|takeaways|themes|concepts|lessons|messages|subjects|sections)"
)
_POINTS_FR = (
    r"(?:points|idées|thèmes|sujets|notions|concepts|messages)\s+"
    r"(?:clés|clefs|principaux|principales|essentiels|essentielles|importants|importantes|"
    r"majeurs|majeures)"
)
_OF = r"(?:\s+(?:of|for|on|about|from|in|covered\s+in|de|du|des|d'|sur|pour)\s*)"
_COVER = (
    r"(?:cover|covers|teach|teaches|discuss|discusses|talk\s+about|talks\s+about|go\s+over|"
    r"goes\s+over|deal\s+with|deals\s+with|contain|contains|include|includes|explain|explains|"
    r"address|addresses)"
)

# Each pattern yields the question's target (maybe empty) in the group "t".
_ASKS = [
    re.compile(p)
    for p in (
        # Requests: "summarize X", "can you recap X", "give me an overview of X", "TL;DR X".
        rf"^{_POLITE}(?:summari[sz]e|sum\s+up|recap|outline|go\s+over|walk\s+me\s+through)"
        rf"(?:\s+(?P<t>.*))?$",
        rf"^{_POLITE}(?:give|show|get|write|provide|make)\s+(?:me|us)?\s*(?:an?\s+|the\s+)?"
        rf"{_NOUN}(?:{_OF}(?P<t>.*))?$",
        rf"^{_POLITE}(?:me\s+|nous\s+)?(?:résume[rz]?|récapitule[rz]?)(?:[- ](?:moi|nous))?"
        rf"(?:\s+(?P<t>.*))?$",
        rf"^{_POLITE}(?:me\s+|nous\s+)?(?:fais|faites|faire|donne|donnez|donner)"
        rf"(?:[- ](?:moi|nous))?\s+(?:(?:un|une|le|la|les)\s+)?(?:{_NOUN_FR}|{_POINTS_FR})"
        rf"(?:{_OF}(?P<t>.*))?$",
        # "tl;dr", "overview of X", "summary of X", "X summary please", "résumé de X".
        r"^(?:tl;?dr|tldr)\b[:,]?\s*(?:(?:of|for|on)\s+)?(?P<t>.*)$",
        rf"^(?:(?:an?|the|a\s+quick)\s+)?{_NOUN}(?:{_OF}(?P<t>.*))?$",
        rf"\b(?:an?|the|your)\s+{_NOUN}{_OF}(?P<t>.*)$",
        rf"^(?P<t>.*?)\s+(?:{_NOUN}|{_NOUN_FR}|tl;?dr)(?:\s+(?:please|pls|svp))?$",
        rf"\b(?:un|une|le|la)\s+{_NOUN_FR}{_OF}(?P<t>.*)$",
        rf"^(?:{_NOUN_FR}|tl;?dr)(?:{_OF}(?P<t>.*))?$",
        # "main points of X", "key takeaways", "points clés de X", "à retenir de X".
        rf"\b(?:{_POINTS}|takeaways|highlights){_OF}?(?P<t>.*)$",
        rf"\b{_POINTS_FR}{_OF}?(?P<t>.*)$",
        r"\b(?:ce\s+qu'il\s+faut\s+retenir|à\s+retenir|l'essentiel)(?:\s+(?:de|du|des|d'|sur))?\s*(?P<t>.*)$",
        # "what does X cover", "what is X about", "what is covered in X", "what will I learn".
        rf"^what\s+(?:does|do|will|did|would)\s+(?P<t>.+?)\s+{_COVER}\b",
        r"^what(?:\s+is|'s|\s+are)\s+(?P<t>.+?)\s+about$",
        r"^what(?:\s+topics)?\s+(?:is|are)\s+covered\s+(?:in|by)\s+(?P<t>.*)$",
        r"^what\s+topics\s+(?:does|do)\s+(?P<t>.+?)\s+" + _COVER + r"\b",
        r"^what\s+(?:will|do|can|would|shall|should)\s+(?:i|we|you|students|readers)\s+"
        r"(?:learn|take\s+away|get\s+out)(?:\s+(?:of|in|from|by\s+reading))?\s*(?P<t>.*)$",
        r"^what\s+am\s+i\s+(?:going\s+to|gonna)\s+learn(?:\s+(?:in|from))?\s*(?P<t>.*)$",
        r"^(?:de\s+quoi|sur\s+quoi)\s+(?:parle|traite|porte)(?:nt)?(?:[- ]t[- ](?:il|elle))?\s+"
        r"(?P<t>.*)$",
        r"^(?:que|qu')\s*(?:couvre|couvrent|traite|traitent|aborde|abordent|contient)\s+(?P<t>.*)$",
        r"^qu'est[- ]ce\s+que\s+(?P<t>.+?)\s+(?:couvre|traite|aborde|explique|contient)$",
        r"^(?:qu'est[- ]ce\s+que\s+(?:je\s+vais|j'vais|nous\s+allons|on\s+va)|que\s+vais[- ]je|"
        r"qu'allons[- ]nous|qu'est[- ]ce\s+qu'on\s+va)\s+apprendre(?:\s+(?:dans|de|du|avec))?\s*"
        r"(?P<t>.*)$",
    )
]

_UNITS = {
    "chapter": "chapter",
    "chapitre": "chapter",
    "module": "chapter",
    "part": "chapter",
    "partie": "chapter",
    "unit": "chapter",
    "page": "page",
    "lesson": "page",
    "leçon": "page",
    "article": "page",
    "doc": "page",
    "section": "section",
    "passage": "section",
}
_UNIT = "(?:" + "|".join(_UNITS) + ")"
_BOOK = (
    r"(?:the\s+|this\s+|ce\s+|le\s+|tout\s+le\s+)?(?:whole\s+|entire\s+)?"
    r"(?:book|textbook|course|guide|manual|tutorial|documentation|docs|livre|manuel|cours)"
)
_HERE = re.compile(
    rf"^(?:this|the\s+current|the\s+present|current|ce|cet|cette|le\s+présent|la\s+présente)"
    rf"\s+(?P<u>{_UNIT})$"
)
_NAMED_KIND = re.compile(
    rf"^(?:the\s+|le\s+|la\s+|l')?(?P<u>{_UNIT})\s+(?:on|about|called|named|titled|for|of|"
    rf"sur|consacrée?\s+à|à\s+propos\s+de|intitulée?|de|du|des|d')\s*(?P<n>.+)$"
)
_KIND_NAMED = re.compile(rf"^(?:the\s+)?(?P<n>.+?)\s+(?P<u>{_UNIT})$")
# A target that is a clause asks for an explanation, not an overview of a part of the book.
_CLAUSE = re.compile(
    r"^(?:how|why|what|when|where|which|who|whether|if|that|the\s+differences?|"
    r"comment|pourquoi|quand|où|ce\s+que|ce\s+qui|la\s+différence|si)\b"
)
_FILLER = re.compile(
    r"(?:\s+(?:please|pls|for\s+me|for\s+us|in\s+(?:a\s+)?(?:few|short|brief|simple)\s+\w+|"
    r"briefly|quickly|again|so\s+far|svp|s'il\s+(?:te|vous)\s+plaît|stp|en\s+bref|rapidement|"
    r"to\s+me|here|ici))+$"
)
_MAX_NAME_WORDS = 8
# Questions about how, why or whether something happens use overview words for something else
# ("How does git diff --stat give an overview of a change?").
_NOT_ASKING = re.compile(
    r"^(?:how|why|where|when|who|whose|does|do|did|is|are|was|were|should|shall|can\s+i|"
    r"could\s+i|comment|pourquoi|où|quand|est[- ]ce\s+que)\b"
)


def _normalise(question: str) -> str:
    text = question.strip().lower().replace("’", "'").replace("`", "")
    text = re.sub(r"\s+", " ", text)
    return re.sub(r"[\s?!.…:;,]+$", "", text).strip()


def _target(raw: str) -> OverviewAsk | None:
    """What a recognised phrasing's target names; None when it is not a part of the book."""
    text = _FILLER.sub("", " " + raw.strip(" ,:-")).strip(" ,:-")
    text = re.sub(r"^(?:(?:of|for|on|about|de|du|des|d')\s+)", "", text)
    if not text or text in ("it", "this", "that", "all", "everything", "tout", "ça", "cela"):
        return OverviewAsk(scope="book" if text in ("everything", "all", "tout") else None)
    if re.fullmatch(_BOOK, text):
        return OverviewAsk(scope="book")
    here = _HERE.match(text)
    if here:
        return OverviewAsk(scope=_UNITS[here.group("u")], here=True)  # type: ignore[arg-type]
    named = _NAMED_KIND.match(text) or _KIND_NAMED.match(text)
    if named:
        name, scope = named.group("n"), _UNITS[named.group("u")]
    else:
        name, scope = text, None
    name = re.sub(r"^(?:the|a|an|le|la|les|l')\s+", "", name.strip(" \"'“”«»")).strip()
    if not name or _CLAUSE.match(name) or len(name.split()) > _MAX_NAME_WORDS:
        return None
    return OverviewAsk(scope=scope, name=name)  # type: ignore[arg-type]


def recognise(question: str) -> OverviewAsk | None:
    """The overview a question asks for, or None when it is not an overview question."""
    text = _normalise(question)
    if not text or len(text) > 200 or _NOT_ASKING.match(text):
        return None
    for pattern in _ASKS:
        found = pattern.search(text)
        if found is None:
            continue
        ask = _target(found.group("t") or "")
        if ask is not None:
            return ask
    return None
