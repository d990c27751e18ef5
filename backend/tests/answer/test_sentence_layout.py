"""The sentence layout: stored rows are used only while they match today's sentence split."""

from __future__ import annotations

import numpy as np

from bookchat.answer.sentence_layout import SENTENCE_LAYOUT, chunk_sentences, usable_rows
from bookchat.vectorstore.base import StoredSentences

# Prose, a question, list items, a numbered item too short to keep, a table, a code fence, a
# fragment, abbreviations and quotes, a heading: what split_sentences decides about each.
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
## A heading is not a sentence
Version 2.23 added `git switch`. It splits checkout's jobs in two."""

# The split each layout stands for. When split_sentences changes this, bump SENTENCE_LAYOUT in
# bookchat/answer/sentence_layout.py and pin the new split here under the new number: indexes
# then re-embed their sentences at the next ingest instead of serving rows of the old split.
PINNED = {
    1: [
        "A branch is a movable pointer to a commit.",
        "Creating one is cheap!",
        "Why does Git stay fast?",
        "Because it only writes a 41-byte file.",
        "`git switch -c topic` creates and checks out a branch.",
        "Delete it with `git branch -d topic` once merged.",
        "git merge: joins two histories into one",
        "git rebase: replays commits on a new base",
        "See e.g. the manual (section 3.2) for details on \"ours\" and 'theirs' strategies.",
        "Version 2.23 added `git switch`.",
        "It splits checkout's jobs in two.",
    ],
}


def test_the_sentence_split_is_the_one_the_layout_number_stands_for() -> None:
    assert chunk_sentences(SAMPLE) == PINNED[SENTENCE_LAYOUT], (
        "split_sentences changed: bump SENTENCE_LAYOUT and pin the new split in PINNED"
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
