"""The answer reader: a MiniLM cross-encoder trained here that reads a question with a passage.

For each passage: a relevance score (does it answer the question?), used to rank passages and
judge coverage, and the likeliest answer span with how far it beats "no answer here" ([CLS]).
The shipped file holds only the tensors fine-tuning changed and the head, so the packaged
MiniLM checkpoint stays the one source of the word embeddings; the forward pass is
`embedding.minilm.TorchMiniLM` (no hub, no transformers).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from bookchat.embedding.minilm import TorchMiniLM, bf16_native, packaged_model_dir

WEIGHTS = Path(__file__).with_name("reader.safetensors")
CALIBRATION = Path(__file__).with_name("reader.json")
MAX_PIECES = 288  # question and passage together, [CLS] and both [SEP] included
MAX_QUESTION = 48  # a longer question (a pasted log) is cut: its start says what is asked
STRIDE = 96  # a passage longer than one window is read again from this many pieces back
MAX_ANSWER = 40  # word pieces in a predicted span
# Spans kept per passage, best first: when the best runs past a short answer's few words or
# across a table's cells, the next best often is one (short_answer.span_of).
SPANS = 20
BATCH = 16
# Readings kept per (question, passage), oldest dropped first: a class asks the same question of
# the same selection again, and chapter mode may read the book's answer beside the chapter's.
REMEMBERED = 512


@dataclass(frozen=True, slots=True)
class Window:
    """One (question, part of a passage) sequence as the model reads it."""

    ids: list[int]
    types: list[int]
    passage: int  # index of the passage it reads
    first: int  # sequence index of the passage's first word piece
    offsets: list[tuple[int, int]]  # character offsets in the passage of each passage piece


@dataclass(frozen=True, slots=True)
class Span:
    """One place in a passage the reader points at as the answer."""

    start: int  # character offsets in the passage
    end: int
    score: float  # its start + end logits minus the no-answer span's
    text: str


@dataclass(frozen=True, slots=True)
class Reading:
    """What the reader found in one passage."""

    passage: int
    relevance: float  # logit: how well the passage answers the question
    spans: tuple[Span, ...]  # its best spans, best first (at most SPANS)

    @property
    def probability(self) -> float:
        """The relevance as a probability."""
        return float(1.0 / (1.0 + np.exp(-self.relevance)))

    @property
    def span_score(self) -> float:
        """How far the best span beats "no answer here" (-inf in a passage without words)."""
        return self.spans[0].score if self.spans else float("-inf")

    @property
    def answer(self) -> str:
        """The best span's text ("" in a passage without words)."""
        return self.spans[0].text if self.spans else ""


def load_tokenizer() -> Any:
    """The packaged MiniLM tokenizer, without the file's own padding and truncation."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(packaged_model_dir() / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer


def encode_windows(
    tokenizer: Any,
    question: str,
    passages: Sequence[str],
    max_pieces: int = MAX_PIECES,
    stride: int = STRIDE,
) -> list[Window]:
    """`[CLS] question [SEP] passage [SEP]` windows of every passage (segment 1: the passage)."""
    cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    asked = tokenizer.encode(question, add_special_tokens=False).ids[:MAX_QUESTION]
    head = [cls, *asked, sep]
    room = max_pieces - len(head) - 1
    windows: list[Window] = []
    encoded = tokenizer.encode_batch(list(passages), add_special_tokens=False)
    for index, piece in enumerate(encoded):
        ids, offsets = piece.ids, piece.offsets
        begin = 0
        while True:
            part = slice(begin, begin + room)
            body = ids[part]
            windows.append(
                Window(
                    [*head, *body, sep],
                    [0] * len(head) + [1] * (len(body) + 1),
                    index,
                    len(head),
                    [(int(a), int(b)) for a, b in offsets[part]],
                )
            )
            if begin + room >= len(ids):
                break
            begin += max(room - stride, 1)
    return windows


def best_spans(
    start: NDArray[np.float32], end: NDArray[np.float32], k: int = SPANS
) -> list[tuple[int, int, float]]:
    """The `k` (first, last) pieces with the highest start + end logits, first ≤ last < first +
    MAX_ANSWER, best first, each with that sum."""
    pairs = start[:, None] + end[None, :]
    n = len(start)
    rows, cols = np.indices((n, n))
    pairs = np.where((cols >= rows) & (cols < rows + MAX_ANSWER), pairs, -np.inf).ravel()
    k = min(k, int(np.isfinite(pairs).sum()))
    top = np.argpartition(-pairs, k - 1)[:k] if k < len(pairs) else np.arange(len(pairs))
    top = top[np.argsort(-pairs[top], kind="stable")]
    return [(*divmod(int(flat), n), float(pairs[flat])) for flat in top]


class Reader:
    """The trained reader: `read(question, passages)` gives one Reading per passage."""

    def __init__(self, weights: Path = WEIGHTS, threads: int = 2) -> None:
        import torch
        from safetensors.torch import load_file

        tensors = load_file(str(weights))
        head_w = tensors.pop("head.weight").float().numpy()
        head_b = tensors.pop("head.bias").float().numpy()
        self._head = (head_w.T.astype(np.float32), head_b.astype(np.float32))
        self._model = TorchMiniLM(
            packaged_model_dir(), threads, overrides=tensors, bfloat16=bf16_native()
        )
        self._tokenizer = load_tokenizer()
        self._threads = threads
        self._torch = torch
        self._seen: OrderedDict[tuple[str, str], Reading] = OrderedDict()
        # One forward pass at a time: torch's thread pool is shared, and two reads at once
        # would each take twice as long.
        self._lock = threading.Lock()

    def logits(self, windows: Sequence[Window]) -> list[NDArray[np.float32]]:
        """Per window, its (pieces, 3) logits: start, end, relevance (read at [CLS])."""
        out: list[NDArray[np.float32]] = [np.zeros((0, 3), np.float32)] * len(windows)
        order = sorted(range(len(windows)), key=lambda i: len(windows[i].ids))
        w, b = self._head
        for at in range(0, len(order), BATCH):
            batch = order[at : at + BATCH]
            width = max(len(windows[i].ids) for i in batch)
            ids = np.zeros((len(batch), width), np.int64)
            types = np.zeros_like(ids)
            mask = np.zeros_like(ids)
            for row, i in enumerate(batch):
                n = len(windows[i].ids)
                ids[row, :n], types[row, :n], mask[row, :n] = windows[i].ids, windows[i].types, 1
            with self._lock:
                self._torch.set_num_threads(self._threads)
                hidden = self._model(ids, mask, types)
            scores = hidden @ w + b
            for row, i in enumerate(batch):
                out[i] = scores[row, : len(windows[i].ids)]
        return out

    def read(self, question: str, passages: Sequence[str]) -> list[Reading]:
        """How well each passage answers `question`, and where (best window per passage)."""
        with self._lock:
            known = [self._seen.get((question, text)) for text in passages]
        todo = [i for i, reading in enumerate(known) if reading is None]
        fresh = self._read(question, [passages[i] for i in todo]) if todo else []
        with self._lock:
            for i, reading in zip(todo, fresh, strict=True):
                known[i] = self._seen[(question, passages[i])] = replace(reading, passage=i)
            while len(self._seen) > REMEMBERED:
                self._seen.popitem(last=False)
        return [replace(r, passage=i) for i, r in enumerate(known) if r is not None]

    def _read(self, question: str, passages: Sequence[str]) -> list[Reading]:
        if not passages:
            return []
        windows = encode_windows(self._tokenizer, question, passages)
        relevance: dict[int, float] = {}
        spans: dict[int, dict[tuple[int, int], Span]] = {}
        for window, scores in zip(windows, self.logits(windows), strict=True):
            body = slice(window.first, window.first + len(window.offsets))
            null = float(scores[0, 0] + scores[0, 1])
            text = passages[window.passage]
            # The passage keeps its best score; its spans come from every window, each span
            # scored by the window that rates it highest (windows overlap).
            at = window.passage
            relevance[at] = max(relevance.get(at, -np.inf), float(scores[0, 2]))
            found = spans.setdefault(at, {})
            for first, last, value in best_spans(scores[body, 0], scores[body, 1]):
                start, end = window.offsets[first][0], window.offsets[last][1]
                if (start, end) not in found or found[start, end].score < value - null:
                    found[start, end] = Span(start, end, value - null, text[start:end])
        return [
            Reading(i, relevance[i], tuple(sorted(spans[i].values(), key=_by_score)[:SPANS]))
            for i in range(len(passages))
        ]


def _by_score(span: Span) -> float:
    return -span.score


def reader_version() -> str:
    """Short hash of the shipped weights and thresholds: a retrained reader is a new run version."""
    import hashlib

    digest = hashlib.sha256()
    for path in (WEIGHTS, CALIBRATION):
        digest.update(path.read_bytes() if path.exists() else b"")
    return digest.hexdigest()[:8]


def calibration() -> dict[str, Any]:
    """The thresholds backend/training/calibrate_reader.py fitted for the shipped weights."""
    if not CALIBRATION.exists():
        return {}
    data: dict[str, Any] = json.loads(CALIBRATION.read_text(encoding="utf-8"))
    return data
