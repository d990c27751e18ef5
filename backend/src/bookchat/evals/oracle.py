"""The oracle: the best token F1 any short extract of the gold page reaches against the reference.

An extractive answer quotes a few consecutive sentences, so the best window of 1 to 3 of them
(at most 120 words, about an answer's length) bounds what quoting the right page can score. An
answer's F1 divided by this says how much of the reachable score it got, apart from how far the
author's wording is from the book's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from bookchat.evals.answer_words import overlap_f1, plain_text, words

MAX_SENTENCES = 3
MAX_WORDS = 120


def windows(
    sentences: Sequence[str], max_sentences: int = MAX_SENTENCES, max_words: int = MAX_WORDS
) -> Iterator[tuple[int, int]]:
    """(start, end) of every run of 1..max_sentences consecutive sentences within max_words."""
    lengths = [len(plain_text(s).split()) for s in sentences]
    for start in range(len(sentences)):
        used = 0
        for end in range(start + 1, min(start + max_sentences, len(sentences)) + 1):
            used += lengths[end - 1]
            if used > max_words:
                break  # longer windows from this start are longer still
            yield start, end


def best_window(sections: Sequence[Sequence[str]], reference: str) -> tuple[float, str]:
    """The highest F1 of any window of any section, and that window's text (0.0, "" if none)."""
    gold = Counter(words(reference))
    best, best_text = 0.0, ""
    for sentences in sections:
        bags = [Counter(words(s)) for s in sentences]
        for start, end in windows(sentences):
            f1 = overlap_f1(sum(bags[start:end], Counter()), gold)
            if f1 > best:
                best, best_text = f1, " ".join(sentences[start:end])
    return best, best_text


def oracle_f1(pages: Sequence[Sequence[Sequence[str]]], reference: str | None) -> float | None:
    """The best window F1 over the gold pages found; None without a reference or a page."""
    if reference is None or not pages:
        return None
    return round(max(best_window(sections, reference)[0] for sections in pages), 4)
