"""Candidates built from Markdown, and what the selection tests read of them."""

from __future__ import annotations

import numpy as np

from bookchat.answer.features import Candidate
from bookchat.markdown.units import split_units

SECTION = """Learning about merges is useful.

A fast-forward merge is a merge that only moves the pointer. It never creates a merge commit.

Use these options:

- `--ff` fast-forwards when possible.
- `--no-ff` always creates a merge commit.

Sync the fork:

```bash
git merge --ff-only upstream/main
```"""


def candidates_of(heading_path: tuple[str, ...] = (), text: str = SECTION) -> list[Candidate]:
    """The units of `text` as one passage's candidates, in reading order."""
    units = split_units(text, heading_path)
    return [Candidate(u, 0, i, len(units), "s", "t") for i, u in enumerate(units)]


def scored(candidates: list[Candidate], best_text: str, value: float = 0.9) -> np.ndarray:
    """`value` for the units holding `best_text`, a low score for the rest."""
    return np.array([value if best_text in c.unit.text else 0.05 for c in candidates])


def texts_of(chosen: list[Candidate]) -> list[str]:
    """The Markdown of each chosen unit."""
    return [c.unit.text for c in chosen]


def top_texts(candidates: list[Candidate], scores: np.ndarray, n: int = 2) -> list[str]:
    """The Markdown of the `n` best-scored units, best first."""
    return [candidates[int(i)].unit.text for i in np.argsort(-scores, kind="stable")[:n]]


def clone_sections() -> list[Candidate]:
    """The opening sentences of sections titled "Shallow clone" and "Partial clone", each its
    own passage; neither names its own title."""
    shallow = split_units("`git clone --depth 1 <url>` fetches only the latest commit.")
    partial = split_units("Objects are fetched on demand from the server by such a clone.")
    return [
        Candidate(shallow[0], 0, 0, 1, "Shallow clone", "Monorepos"),
        Candidate(partial[0], 1, 0, 1, "Partial clone", "Monorepos"),
    ]
