"""A scratch book written from task-pairs: people's tasks in their own words, and the passages
that do them (training only).

The training books' questions are written in their books' words; readers ask in their own.
shared/corpora/task-pairs pairs a person's task or question with a text that answers it. From
its label-1 rows with prose, a seeded draw per source: Stack Overflow questions (SOSum) with all
their answers, the Python, curl and Go FAQs, and tldr's commands (one per tool, tasks no other
tool shares). Each becomes a section under a heading of its passage's first words (a tool's
name for tldr), never the question's; sections are grouped by source into pages of PER_PAGE.
Nothing about Git: the corpus leaves it out.
"""

from __future__ import annotations

import gzip
import json
import random
import re
from collections import defaultdict
from pathlib import Path

from train import Question

SEED = 61
# Sections drawn per source (all there are when fewer), and each source's page title.
DRAWN = {
    "stackoverflow (SOSum)": (500, "Programming questions answered"),
    "Python FAQ": (200, "Python FAQ"),
    "curl FAQ": (200, "curl FAQ"),
    "Go FAQ": (200, "Go FAQ"),
    "tldr": (400, "Command-line tools"),
}
PER_PAGE = 60


def _sections(pairs: Path) -> dict[str, list[tuple[str, str, str]]]:
    """Per source, every (question, heading, body) a section could be written from."""
    rows: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    with gzip.open(pairs, "rt", encoding="utf-8") as lines:
        for row in map(json.loads, lines):
            if row["label"] == 1 and row["source"] in DRAWN:
                rows[row["source"]][row["question"].strip()].append(row["passage"].strip())
    out: dict[str, list[tuple[str, str, str]]] = {}
    for source, asked in rows.items():
        if source == "tldr":  # a task several tools share says nothing of which one is asked
            tools: dict[str, tuple[str, str, str]] = {}
            for question, passages in sorted(asked.items()):
                about, _, command = passages[0].partition("\n")
                tool = about.split(":")[0]
                if len(passages) == 1 and tool not in tools:
                    tools[tool] = (question, tool, f"{about}\n\n```\n{command}\n```")
            out[source] = list(tools.values())
        else:
            out[source] = [(q, _heading(ps[0]), _prose(ps)) for q, ps in sorted(asked.items())]
    return out


def _heading(passage: str) -> str:
    """A section heading from a passage's first words, as a book might title it."""
    words = re.sub(r"[#`*_<>{}\[\]|]", " ", passage).split()[:6]
    return " ".join(words).rstrip(".,:;") + "…"


def _prose(passages: list[str]) -> str:
    """Passages as paragraphs, with no line read as a heading."""
    lines = "\n\n".join(passages).splitlines()
    return "\n".join("\\" + x if x.lstrip().startswith("#") else x for x in lines)


def task_book(pairs: Path, docs: Path) -> list[Question]:
    """Write the book into `docs`; its questions, each with its page and section."""
    rng = random.Random(SEED)
    docs.mkdir(parents=True, exist_ok=True)
    questions: list[Question] = []
    sections = _sections(pairs)
    for source, (count, title) in DRAWN.items():
        drawn = rng.sample(sections[source], min(count, len(sections[source])))
        for part, start in enumerate(range(0, len(drawn), PER_PAGE), start=1):
            number = len(list(docs.glob("*.md"))) + 1
            name = f"{title} ({part})"
            path = f"{number:02d}-{re.sub(r'[^a-z0-9]+', '-', name.lower()).strip('-')}.md"
            page = [f'---\ntitle: "{name}"\nsidebar_position: {number}\n---\n\n# {name}\n']
            for question, heading, body in drawn[start : start + PER_PAGE]:
                page.append(f"## {heading}\n\n{body}\n")
                questions.append(Question(question, path, heading, (body,), None, "tasks"))
            (docs / path).write_text("\n".join(page), encoding="utf-8")
    return questions
