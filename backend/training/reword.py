"""Questions reworded away from their paragraph: readers rarely use the book's own words.

A SQuAD question shares most of its content words with its paragraph, so a reader trained on
SQuAD learns that shared words answer, and then prefers a book passage that repeats a reader's
words over the one that answers them in its own (decisions.md, "The neighbours and the ranking
loss as a continued stage"). Here the lower-case content words a question shares with its
paragraph are swapped, at most two, for near words the paragraph does not use, each time the one
that keeps the question's sentence embedding closest, and only while it stays within KEEP:
"How has L.A. Reid described her?" → "How has L.A. Reid characterized her?".

The near words come from MiniLM itself (each vocabulary word embedded alone, mean-pooled as
the sentence model pools): no word list installs here and nothing is downloaded. A word sharing
the original's stem (its first four letters, or one inside the other) is not near: "famous" →
"fame" keeps the match this is meant to break. About half the rewordings read as a reader's
words and a third change the meaning (decisions.md, "Questions reworded away from their
paragraph", where the reader trained on them is measured).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).parent))
from reader_data import STOP, words

WORD_PIECE = re.compile(r"^[a-z]{3,}$")
QUESTION_WORD = re.compile(r"[A-Za-z]+")
NEAREST, MIN_COSINE, STEM = 8, 0.55, 4
# At most two words swapped, and only while the question's embedding stays this close.
SWAPS, KEEP = 2, 0.9
# Numbers and order words carry the answer's conditions: "once" → "twice" asks something else.
KEPT = STOP | frozenset(
    (  # noqa: SIM905 - one readable paragraph beats a word a line
        "one two three four five six seven eight nine ten first second third last once twice "
        "many much more most less least few have has had having being"
    ).split()
)
# A swap keeps the word's ending ("sent" → "sending" reads as a slip, not as a reader's word).
ENDINGS = ("ing", "ed", "ly", "s")


class Rewording:
    """MiniLM's nearest different words for each vocabulary word asked about, and MiniLM's
    sentence embedding to pick the swap that keeps the question's meaning."""

    def __init__(self, base: Path, asked: Iterable[str]) -> None:
        from transformers import AutoTokenizer, BertModel

        self.tokenizer = AutoTokenizer.from_pretrained(str(base))
        # from_pretrained returns the model in eval mode: no dropout in the embeddings.
        self.model = BertModel.from_pretrained(str(base), add_pooling_layer=False)
        vocab = sorted(
            w for w in self.tokenizer.get_vocab() if WORD_PIECE.match(w) and w not in KEPT
        )
        vectors = self.embed(vocab)
        index = {w: i for i, w in enumerate(vocab)}
        wanted = sorted({w for w in asked if w in index})
        self.neighbours: dict[str, list[str]] = {}
        for at in range(0, len(wanted), 512):
            block = wanted[at : at + 512]
            top = (vectors[[index[w] for w in block]] @ vectors.T).topk(NEAREST * 4, dim=1)
            for row, word in enumerate(block):
                pairs = zip(top.values[row].tolist(), top.indices[row].tolist(), strict=True)
                self.neighbours[word] = [
                    vocab[j] for s, j in pairs if s >= MIN_COSINE and not _same_stem(word, vocab[j])
                ][:NEAREST]

    def reword(self, question: str, paragraph: str) -> str | None:
        """`question` with up to SWAPS of the lower-case content words its paragraph uses
        swapped, each for the near word (not in the paragraph) that keeps the question's
        sentence embedding closest; None when no swap keeps it within KEEP."""
        used = words(paragraph)
        target = self.embed([question])[0]
        current = question
        for _ in range(SWAPS):
            options = []
            for m in QUESTION_WORD.finditer(current):
                word = m.group()
                if word != word.lower() or word not in used or word in KEPT:
                    continue  # names and capitals stay: readers keep them
                options += [
                    current[: m.start()] + n + current[m.end() :]
                    for n in self.neighbours.get(word, ())
                    if n not in used and _ending(n) == _ending(word)
                ]
            if not options:
                break
            sims = self.embed(options) @ target
            best = int(sims.argmax())
            if float(sims[best]) < KEEP:
                break
            current = options[best]
        return current if current != question else None

    def embed(self, texts: list[str]) -> torch.Tensor:
        """Each text through MiniLM, mean-pooled and normalised (the sentence model's way)."""
        out = []
        with torch.inference_mode():
            for at in range(0, len(texts), 512):
                batch = self.tokenizer(texts[at : at + 512], padding=True, return_tensors="pt")
                hidden = self.model(**batch).last_hidden_state
                mask = batch["attention_mask"].unsqueeze(-1).float()
                pooled = (hidden * mask).sum(1) / mask.sum(1)
                out.append(torch.nn.functional.normalize(pooled, dim=1))
        return torch.cat(out)


def _ending(word: str) -> str:
    return next((e for e in ENDINGS if word.endswith(e)), "")


def _same_stem(a: str, b: str) -> bool:
    return a[:STEM] == b[:STEM] or a in b or b in a
