"""The authors' gap report: what readers asked that the book did not answer, grouped.

Questions that were abstained, only partly covered (answered with the closest sections instead
of an answer) or rated down are clustered by meaning (MiniLM vectors, greedy
single pass against cluster centroids), so ten phrasings of one missing topic are one line of the
report, and the most frequent gaps come first.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from bookchat.history.records import GapRow

# Two questions this similar (cosine of MiniLM vectors) ask about the same thing.
SAME_TOPIC = 0.72
_EXAMPLES = 3


@dataclass(slots=True)
class Gap:
    """One missing topic: the questions about it and where they were asked from."""

    rows: list[GapRow] = field(default_factory=list)
    centroid: NDArray[np.float32] | None = None

    @property
    def representative(self) -> str:
        """The question that stands for the group (the first one asked)."""
        return min(self.rows, key=lambda r: r.created_at).question

    def to_json(self) -> dict[str, object]:
        """The group as report data."""
        chapters = Counter(r.chapter or "(whole book)" for r in self.rows)
        return {
            "question": self.representative,
            "asked": len(self.rows),
            "abstained": sum(r.status == "abstained" for r in self.rows),
            "partly_covered": sum(r.status == "related" for r in self.rows),
            "sections_shown": list(dict.fromkeys(s for r in self.rows for s in r.related_sections))[
                :_EXAMPLES
            ],
            "rated_down": sum(r.rating == "down" for r in self.rows),
            "chapters": dict(chapters.most_common()),
            "examples": list(dict.fromkeys(r.question for r in self.rows))[:_EXAMPLES],
            "comments": [r.comment for r in self.rows if r.comment][:_EXAMPLES],
            "last_asked": max(r.created_at for r in self.rows).isoformat(timespec="seconds"),
        }


def group_gaps(rows: Sequence[GapRow], vectors: NDArray[np.float32]) -> list[Gap]:
    """Cluster gap questions by meaning; biggest groups first, ties by most recent.

    Each question joins the group whose centroid (the sum of its questions' vectors) it is most
    like, at least SAME_TOPIC and the latest-made group among equals, or starts a new one. The
    centroids are rows of one matrix, so a question is compared with every group at once.
    """
    gaps: list[Gap] = []
    width = vectors.shape[1] if len(rows) else 0
    sums = np.zeros((len(rows), width), dtype=np.float32)
    # Each centroid divided by its length: one product scores a question against every group.
    units = np.zeros((len(rows), width), dtype=np.float32)
    for row, vector in zip(rows, vectors, strict=True):
        made = len(gaps)
        chosen = made
        if made:
            scores = units[:made] @ vector
            last_best = made - 1 - int(np.argmax(scores[::-1]))
            if scores[last_best] >= SAME_TOPIC:
                chosen = last_best
        if chosen == made:
            gaps.append(Gap())
        sums[chosen] += vector
        units[chosen] = sums[chosen] / max(float(np.linalg.norm(sums[chosen])), 1e-12)
        gaps[chosen].rows.append(row)
        gaps[chosen].centroid = sums[chosen]
    return sorted(
        gaps, key=lambda g: (-len(g.rows), -max(r.created_at for r in g.rows).timestamp())
    )


def render_markdown(gaps: Sequence[Gap], since_days: float) -> str:
    """The report as Markdown for authors."""
    if not gaps:
        return (
            "# Gaps in the book\n\n"
            f"No unanswered or down-rated questions in the last {since_days:g} days.\n"
        )
    lines = [
        "# Gaps in the book",
        "",
        f"Questions readers asked in the last {since_days:g} days that the book did not answer "
        "(abstained), covered only partly (shown the closest sections instead of an answer) or "
        "answered badly (rated down), grouped by meaning, most frequent first.",
        "",
        "| # | question | asked | abstained | partly covered | rated down | asked from "
        "| sections shown |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for number, gap in enumerate(gaps, start=1):
        data = gap.to_json()
        chapters = ", ".join(f"{k} ({v})" for k, v in data["chapters"].items())  # type: ignore[attr-defined]
        question = str(data["question"]).replace("|", "\\|")
        shown = "; ".join(data["sections_shown"]).replace("|", "\\|")  # type: ignore[arg-type]
        lines.append(
            f"| {number} | {question} | {data['asked']} | {data['abstained']} | "
            f"{data['partly_covered']} | {data['rated_down']} | {chapters} | {shown} |"
        )
    return "\n".join(lines) + "\n"


def render_json(gaps: Sequence[Gap], since_days: float) -> str:
    """The report as JSON."""
    return json.dumps({"since_days": since_days, "gaps": [g.to_json() for g in gaps]}, indent=2)
