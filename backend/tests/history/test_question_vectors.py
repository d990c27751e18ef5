"""Question vectors are embedded once per text, in order, and the oldest forgotten first."""

from __future__ import annotations

import numpy as np

from bookchat.embedding.embedder import DIMENSIONS, Embedder
from bookchat.history.question_vectors import QuestionVectors


async def test_each_distinct_question_is_embedded_once_and_kept(embedder: Embedder) -> None:
    vectors = QuestionVectors(embedder)
    asked = ["What is a branch?", "What is a tag?", "What is a branch?"]
    first = await vectors.of(asked)
    assert first.shape == (3, DIMENSIONS)
    assert len(vectors) == 2
    np.testing.assert_array_equal(first[0], first[2])
    np.testing.assert_allclose(first[1], embedder.embed(["What is a tag?"])[0], atol=1e-5)
    again = await vectors.of(["What is a tag?"])
    np.testing.assert_array_equal(again[0], first[1])
    assert (await vectors.of([])).shape == (0, DIMENSIONS)


async def test_the_least_recently_used_go_when_full(embedder: Embedder) -> None:
    vectors = QuestionVectors(embedder, size=2)
    await vectors.of(["one?", "two?"])
    await vectors.of(["one?"])  # used again: "two?" is now the oldest
    await vectors.of(["three?"])
    assert len(vectors) == 2
    assert ("one?" in vectors, "two?" in vectors, "three?" in vectors) == (True, False, True)
