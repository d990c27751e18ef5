"""Readers' typos corrected towards the book's own words, before the question is searched.

"how do i undo a comit" finds nothing by its words and little by its meaning: MiniLM cuts an
unknown word into pieces that mean something else. A question's word that is neither the book's
(the vocabulary ingest stores) nor English (pyspellchecker's word list) is replaced by the book's
most frequent word one edit away (a letter deleted, inserted, changed, or two swapped): "comit" →
"commit"; failing that, by the English word one edit away that is far commoner than any other
("diffrence" → "difference"). A word the list knows only as rare ("brach", a hound) is corrected
only towards a word the book uses often ("branch"). Left alone: code (text in backticks, words
joined to dots, dashes, slashes: `core.editor`, `--no-ff`), words of four letters or fewer (too
many neighbours to guess among), a word whose plural, singular or past form is known
("packfile" beside "packfiles"), and a question whose words are mostly unknown (another language,
or all code). A contraction typed without its apostrophe is restored ("cant" → "can't", never
"can").
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import lru_cache, partial

from bookchat.retrieval.catalog import Catalog
from bookchat.retrieval.editions import language_of

_LETTERS = "abcdefghijklmnopqrstuvwxyz"
# A plain word of four letters or more, not part of a code-like token (shorter ones are kept).
_WORD = re.compile(r"(?<![\w.\-/@#$%~=:'’])[A-Za-z]{4,}(?![\w\-/@='’]|\.\w)")
_CODE_SPAN = re.compile(r"(`[^`]*`)")
# Shorter words have too many neighbours one edit away to guess among.
_MIN_LETTERS = 5
# Contractions typed without their apostrophe, some one edit from a word of the opposite sense.
_NOT = "ca do does did is are was were have has had would should could must need"
_IS = "what that there here where who how it"
_CONTRACTIONS = (
    {f"{stem}nt": f"{stem}n't" for stem in _NOT.split()}
    | {f"{stem}s": f"{stem}'s" for stem in _IS.split()}
    | {"youre": "you're", "theyre": "they're", "youve": "you've", "theyve": "they've"}
)
_INFLECTIONS = ("s", "es", "ed", "d", "ing")
# Unknown words in a question, and more than half of its words, make it another language's.
_FOREIGN_WORDS = 3
# French function words: two of them make a question French, whatever its other words.
_FRENCH = re.compile(
    r"\b(?:le|la|les|ce|cet|cette|ces|du|des|une|est|sont|et|qui|que|quoi|quel|quels|quelle|"
    r"pour|dans|sur|pas|avec|mon|ma|mes|je|tu|nous|vous|il|elle)\b",
    re.IGNORECASE,
)
# pyspellchecker's list gives its rarest real words this count ("brach", "amendable").
RARE = 50
# How often the book must use a word for a rare real word to be read as a typo of it.
OFTEN = 5
# How much commoner an English correction must be than the next candidate to be chosen.
DOMINANT = 10


@lru_cache(maxsize=1)
def english_words() -> Mapping[str, int]:
    """English words and how common they are (pyspellchecker's list, offline)."""
    from spellchecker import SpellChecker

    words: Mapping[str, int] = SpellChecker(language="en", distance=1).word_frequency.dictionary
    return words


def _one_edit(word: str) -> Iterator[str]:
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    for left, right in splits:
        if right:
            yield left + right[1:]  # a letter deleted
            for c in _LETTERS:
                yield left + c + right[1:]  # changed
        if len(right) > 1:
            yield left + right[1] + right[0] + right[2:]  # two swapped
        for c in _LETTERS:
            yield left + c + right  # inserted


class Speller:
    """Corrects a question's misspelt words towards one book's vocabulary."""

    def __init__(self, vocabulary: Mapping[str, int], english: Mapping[str, int]) -> None:
        self._counts = vocabulary
        self._english = english

    def correct(self, text: str) -> str:
        """`text` with each misspelt plain word replaced (code spans untouched)."""
        if not self._counts:
            return text
        parts = _CODE_SPAN.split(text)
        plain = [w.lower() for p in parts if not p.startswith("`") for w in _WORD.findall(p)]
        unknown = [w for w in plain if not self.knows(w) and w not in _CONTRACTIONS]
        if len(unknown) >= _FOREIGN_WORDS and 2 * len(unknown) > len(plain):
            return text  # mostly unknown: another language, or code
        if len(_FRENCH.findall(text)) >= 2:
            return text  # French (the other language bookchat speaks): not this word list's
        # Accents: maybe not English, whose list would not know the word.
        fix = partial(self._fix, english=text.isascii())
        return "".join(part if part.startswith("`") else _WORD.sub(fix, part) for part in parts)

    def knows(self, word: str) -> bool:
        """True when `word` (lowercase) or its plural, singular or past form is a known word."""
        if self._is_word(word) or self._is_word(word + "s"):
            return True
        return any(word.endswith(end) and self._is_word(word[: -len(end)]) for end in _INFLECTIONS)

    def _is_word(self, word: str) -> bool:
        return word in self._counts or self._english.get(word, 0) > RARE

    def _fix(self, found: re.Match[str], *, english: bool) -> str:
        word = found.group(0)
        lower = word.lower()
        if lower in _CONTRACTIONS:
            return _CONTRACTIONS[lower]
        if len(lower) < _MIN_LETTERS or self.knows(lower):
            return word
        best = self.suggestion(lower, english=english)
        if best is None:
            return word
        return best.capitalize() if word[0].isupper() else best

    def suggestion(self, word: str, *, english: bool = True) -> str | None:
        """What `word` (lowercase, not a known word) was probably meant to be, or None; the book's
        words only unless `english`."""
        edits = set(_one_edit(word))
        rare = word in self._english  # a real word, if an uncommon one
        ranked = sorted(((self._counts[c], c) for c in edits if c in self._counts), reverse=True)
        if ranked and (len(ranked) == 1 or ranked[0][0] > ranked[1][0]):
            count, best = ranked[0]
            return best if not rare or count >= OFTEN else None
        if rare or ranked:
            return None  # a real word, or a tie between the book's words: no guess
        if not english:
            return None
        common = sorted(
            ((self._english[c], c) for c in edits if self._english.get(c, 0) > RARE), reverse=True
        )
        if common and (len(common) == 1 or common[0][0] >= DOMINANT * common[1][0]):
            return common[0][1]
        return None


class BookSpeller:
    """The speller of the indexed book's vocabulary, rebuilt when an ingest changes it."""

    def __init__(self) -> None:
        self._built: tuple[str | None, Speller] | None = None

    def correct(self, question: str, catalog: Catalog, locale: str | None) -> str:
        """`question` with the reader's typos corrected towards the book's words (in an English
        edition only: the word list is English)."""
        if language_of(locale) not in ("", "en"):
            return question
        if self._built is None or self._built[0] != catalog.corpus_version:
            vocabulary = catalog.data.get("vocabulary") or {}
            self._built = (catalog.corpus_version, Speller(vocabulary, english_words()))
        return self._built[1].correct(question)
