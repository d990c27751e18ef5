"""The unit rows' layout: the number the unit split stands for."""

from __future__ import annotations

from bookchat.markdown.unit_layout import SENTENCE_LAYOUT, chunk_sentences

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
# SENTENCE_LAYOUT in bookchat/markdown/unit_layout.py and pin the new units here under the new
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
