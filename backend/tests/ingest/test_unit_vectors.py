"""Unit vectors: the stored layout, rows read from the store, the LRU cache and the warm-up."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from bookchat.answer.features import Candidate
from bookchat.answer.grounding import hit_candidates
from bookchat.ingest.unit_vectors import (
    SENTENCE_LAYOUT,
    PassageVectors,
    SentenceVectors,
    chunk_sentences,
    usable_rows,
    warm_sentences,
)
from bookchat.retrieval.embedder import DIMENSIONS, Embedder
from bookchat.retrieval.search import Retriever
from bookchat.vectorstore import Hit, Point, VectorStore
from bookchat.vectorstore.base import StoredSentences
from bookchat.vectorstore.edge_store import EdgeStore
from tests.vectorstore.legacy import write_legacy_edge

# Prose, a question, list items, a numbered item too short to keep, a table, a code fence, a
# fragment, abbreviations and quotes, a bold numbered step, a heading: what the unit split decides
# about each, and a list whose items are lists.
SAMPLE = """A branch is a movable pointer to a commit. Creating one is cheap!
Why does Git stay fast? Because it only writes a 41-byte file.

- `git switch -c topic` creates and checks out a branch.
- Delete it with `git branch -d topic` once merged.
1. Fetch first. Then merge.

| command | what it does |
| --- | --- |
| git merge | joins two histories into one |
| git rebase | replays commits on a new base |

```bash
git log --oneline. This is code, not prose.
```

Too short. See e.g. the manual (section 3.2) for details on "ours" and 'theirs' strategies.

**2. Missing upstream**: set it with `git push -u`.
## A heading is not a sentence
Version 2.23 added `git switch`. It splits checkout's jobs in two.

`git commit --fixup=51b7d22` titles a commit `fixup! Add invoice model`; `--squash` titles it \
`squash! Add invoice model`. Rebasing moves it up.

Torvalds wrote "I'm an egotistical bastard." Then Junio C. Hamano took over as maintainer.

The four spaces:

1. **Install space (`install/`)**:
   - Setup scripts for sourcing your workspace"""

# The units the current layout stands for. When the unit parser changes this, bump
# SENTENCE_LAYOUT in bookchat/ingest/unit_vectors.py and pin the new units here under the new
# number: indexes then re-embed their units at the next ingest instead of serving old rows.
PINNED = {
    # Answer units: list items, table rows read with their header, the code block, whole; a
    # numbered bold step keeps its number (and its bold) with its text; an end mark inside inline
    # code ends no sentence (5, 6); a closing quote stays with its sentence and an initial ends
    # none (7); a nested item is read with the item announcing it, which is read with the list's
    # lead-in (8).
    8: [
        "A branch is a movable pointer to a commit.",
        "Creating one is cheap!",
        "Why does Git stay fast?",
        "Because it only writes a 41-byte file.",
        "`git switch -c topic` creates and checks out a branch.",
        "Delete it with `git branch -d topic` once merged.",
        "Fetch first. Then merge.",
        "command: git merge; what it does: joins two histories into one",
        "command: git rebase; what it does: replays commits on a new base",
        "git log --oneline. This is code, not prose.",
        "See e.g. the manual (section 3.2) for details on \"ours\" and 'theirs' strategies.",
        "**2. Missing upstream**: set it with `git push -u`.",
        "Version 2.23 added `git switch`.",
        "It splits checkout's jobs in two.",
        "`git commit --fixup=51b7d22` titles a commit `fixup! Add invoice model`; `--squash` "
        "titles it `squash! Add invoice model`.",
        "Rebasing moves it up.",
        'Torvalds wrote "I\'m an egotistical bastard."',
        "Then Junio C. Hamano took over as maintainer.",
        "The four spaces:",
        "The four spaces: **Install space (`install/`)**:",
        "**Install space (`install/`)**: Setup scripts for sourcing your workspace",
    ],
}


def test_the_sentence_split_is_the_one_the_layout_number_stands_for() -> None:
    assert chunk_sentences({"text": SAMPLE}) == PINNED[SENTENCE_LAYOUT], (
        "the units changed: bump SENTENCE_LAYOUT and pin the new units in PINNED"
    )


def _stored(rows: int, layout: int | None = SENTENCE_LAYOUT) -> StoredSentences:
    return StoredSentences(layout, np.ones((rows, 4), dtype=np.float32))


def test_rows_are_used_only_with_the_current_layout_and_one_row_per_sentence() -> None:
    sentences = ["One whole sentence here.", "And another one here."]
    assert usable_rows(_stored(2), sentences) is not None
    assert usable_rows(_stored(2, layout=SENTENCE_LAYOUT + 1), sentences) is None
    assert usable_rows(_stored(2, layout=None), sentences) is None  # written before markers
    assert usable_rows(_stored(3), sentences) is None
    assert usable_rows(_stored(0), sentences) is None  # an index without sentence vectors
    assert usable_rows(None, sentences) is None
    assert usable_rows(_stored(0), []) is not None  # nothing to embed for a chunk without any


QUESTION = "How do I resolve a merge conflict?"


def _hits(store: VectorStore, embedder: Embedder) -> list[Hit]:
    vector = embedder.embed([QUESTION])[0]
    return Retriever(store, hybrid=True).search(QUESTION, vector.tolist(), limit=4)


def _candidates(hits: Sequence[Hit]) -> list[Candidate]:
    return hit_candidates(hits)


def _assert_same_vectors(matrix: np.ndarray, embedder: Embedder, texts: list[str]) -> None:
    fresh = embedder.embed(texts)
    assert matrix.shape == fresh.shape
    assert float((matrix * fresh).sum(axis=1).min()) >= 0.999  # float16 storage at most


async def test_an_ingested_book_answers_without_embedding_any_sentence(
    book_store: VectorStore, embedder: Embedder
) -> None:
    hits = _hits(book_store, embedder)
    candidates = _candidates(hits)
    assert len(candidates) > 10
    cache = SentenceVectors(embedder)
    matrix = await PassageVectors(book_store, cache).matrix(hits, candidates)
    assert len(cache) == 0  # every row came from the store: no model call for book text
    _assert_same_vectors(matrix, embedder, [c.unit.plain for c in candidates])


async def test_a_passage_whose_rows_no_longer_fit_its_sentences_is_embedded_on_the_fly(
    book_store: VectorStore, embedder: Embedder
) -> None:
    hits = _hits(book_store, embedder)
    first = hits[0]
    # The chunk as a changed parser (or text) would see it: one unit more than its rows.
    extra = ["An extra opening sentence written for this test.", "prose", "", 0]
    units = [extra, *first.payload["units"]]
    passages = [Hit(first.chunk_id, first.score, {**first.payload, "units": units}), *hits[1:]]
    candidates = _candidates(passages)
    cache = SentenceVectors(embedder)
    matrix = await PassageVectors(book_store, cache).matrix(passages, candidates)
    own = [c.unit.plain for c in candidates if c.source == 0]
    assert len(cache) == len(own) and cache.missing(own) == []  # only that passage was embedded
    _assert_same_vectors(matrix, embedder, [c.unit.plain for c in candidates])


async def test_no_candidates_read_nothing(book_store: VectorStore, embedder: Embedder) -> None:
    matrix = await PassageVectors(book_store, SentenceVectors(embedder)).matrix([], [])
    assert matrix.shape == (0, 0)


@pytest.fixture
def old_index(book_store: VectorStore, tmp_path: Path) -> Iterator[VectorStore]:
    """The sample book as an index built before sentence vectors were stored, open."""
    ids = sorted(book_store.fingerprints())
    vectors, payloads = book_store.vectors(ids), book_store.payloads(ids)
    write_legacy_edge(
        tmp_path / "edge" / "book",
        DIMENSIONS,
        [Point(cid, vectors[cid], payloads[cid]) for cid in ids],
    )
    store = EdgeStore.open(tmp_path / "edge", "book", DIMENSIONS)
    yield store
    store.close()


async def test_warm_up_copies_stored_sentence_vectors_without_embedding_them(
    book_store: VectorStore, embedder: Embedder
) -> None:
    vectors = SentenceVectors(embedder)
    assert await warm_sentences(book_store, vectors) == len(vectors) > 100
    ids = sorted(book_store.fingerprints())[:10]
    payloads, stored = book_store.payloads(ids), book_store.sentence_vectors(ids)
    for chunk_id in ids:
        sentences = chunk_sentences(payloads[chunk_id])
        assert vectors.missing(sentences) == []
        _, cached = await vectors.embed(sentences)
        # The stored float16 rows themselves, not the model's float32 output: nothing was embedded.
        assert np.array_equal(cached, stored[chunk_id].vectors) or not sentences


def test_warm_up_embeds_the_sentences_of_every_passage_of_an_older_index(
    old_index: VectorStore, embedder: Embedder
) -> None:
    vectors = SentenceVectors(embedder)
    embedded = asyncio.run(warm_sentences(old_index, vectors))
    assert embedded == len(vectors) > 100
    payloads = old_index.payloads(sorted(old_index.fingerprints())[:10])
    for payload in payloads.values():
        assert vectors.missing(chunk_sentences(payload)) == []


@pytest.mark.parametrize("index", ["book_store", "old_index"])
def test_warm_up_stops_at_the_cache_capacity(
    index: str, embedder: Embedder, request: pytest.FixtureRequest
) -> None:
    vectors = SentenceVectors(embedder, capacity=20)
    asyncio.run(warm_sentences(request.getfixturevalue(index), vectors))
    assert 0 < len(vectors) <= 20
