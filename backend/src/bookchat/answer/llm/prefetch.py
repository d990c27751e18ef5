"""Embed a streamed answer's sentences while the model is still writing the rest.

The citation check needs every sentence's vector; computing each one as soon as it looks
complete (the text ends in a full stop or a marker) leaves little or nothing for after the final
token, which is what the reader waits for. A guess that the model then continues costs one
wasted embedding of a short sentence.
"""

from __future__ import annotations

import asyncio

from bookchat.answer.llm.citations import claims, embedding_key
from bookchat.answer.sentence_vectors import SentenceVectors

_ENDINGS = (".", "!", "?", "]")


class SentencePrefetch:
    """Feed it the deltas; `settle()` before checking, `cancel()` if the answer is dropped."""

    def __init__(self, vectors: SentenceVectors) -> None:
        self._vectors = vectors
        self._text = ""
        self._requested: set[str] = set()
        self._tasks: list[asyncio.Task[object]] = []

    def feed(self, delta: str) -> None:
        """Add a delta; start embedding every sentence that is (or looks) complete."""
        self._text += delta
        found = claims(self._text)
        if not self._text.rstrip().endswith(_ENDINGS):
            found = found[:-1]  # the last sentence is still being written
        for claim in found:
            key = embedding_key(claim.text)
            if key not in self._requested:
                self._requested.add(key)
                self._tasks.append(asyncio.create_task(self._vectors.embed([key])))

    async def settle(self) -> None:
        """Wait for the embeddings started so far (their failures are the check's to meet)."""
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def cancel(self) -> None:
        """Stop embeddings nobody will use."""
        for task in self._tasks:
            task.cancel()
        self._tasks.clear()
