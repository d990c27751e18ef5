"""Broad topic questions ("Tell me about rebasing", "remotes?") written from a book's own
headings, for the answer model's coverage (training only).

A specific question has a unit that answers it; a topic question has none, so a coverage model
fitted on specific questions alone would take a book not to cover what its sections are about.
Each heading of a training book becomes one topic question, covered where retrieval proposes its
section; asked of another book, or naming a topic no training book covers, it is one the book
must decline.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from pathlib import Path

from bookchat.ingest.corpus import build_corpus

# How readers ask about a topic rather than a fact. Chosen per heading by a hash of its text,
# so every run writes the same questions.
TEMPLATES = (
    "Tell me about {topic}",
    "{topic}",
    "explain {topic}",
    "Can you explain {topic}?",
    "{topic}?",
    "I'd like to learn about {topic}",
    "What does the book say about {topic}?",
    "tell me more about {topic}",
)

# Headings that name a part of a page, not a topic a reader would ask about.
FURNITURE = frozenset(
    {
        "example",
        "examples",
        "exercise",
        "exercises",
        "summary",
        "key takeaways",
        "further reading",
        "next steps",
        "overview",
        "introduction",
        "conclusion",
        "prerequisites",
        "learning objectives",
        "review questions",
    }
)

# Software topics that neither training book covers (checked with grep over website/docs), and
# none that an evaluation row asks about: topic questions the sample book must decline although
# they sit near its subject, where the other book's headings are far from it.
UNCOVERED = (
    "Jenkins pipelines",
    "continuous integration servers",
    "unit testing frameworks",
    "compilers",
    "linkers and object files",
    "Perforce",
    "git subtree",
    "writing a changelog",
    "git bundle",
    "git archive",
    "rewriting history with filter-repo",
    "merge queues",
    "Emacs",
    "encryption at rest",
    "HTTP proxies",
    "Unicode normalization",
    "VS Code extensions",
    "virtual machines",
    "React hooks",
    "memory leaks",
    "load balancers",
    "OAuth tokens",
    "DNS records",
    "shell scripting",
    "cron jobs",
    "code coverage",
    "static analysis",
    "design patterns",
    "Scrum sprints",
    "Makefiles",
    "microservices",
    "GraphQL",
    "WebSockets",
    "TLS certificates",
)


@dataclass(frozen=True, slots=True)
class Topic:
    """One topic question and where its book answers it: a section, or a whole page."""

    text: str
    path: str | None
    section: str | None  # None: any section of `path` covers it (a page title's topic)
    book: str

    def answered_by(self, path: object, section: object) -> bool:
        """Whether a passage of (path, section) is one this topic question is about."""
        return self.path is not None and path == self.path and self.section in (None, section)


def _ask(topic: str) -> str:
    key = zlib.crc32(topic.encode())
    template = TEMPLATES[key % len(TEMPLATES)]
    # Readers type headings in lower case about as often as they copy them.
    words = topic if key // len(TEMPLATES) % 2 else topic.lower()
    return template.format(topic=words)


def _is_topic(heading: str) -> bool:
    text = heading.strip()
    return bool(text) and not text.endswith("?") and text.lower() not in FURNITURE


def book_topics(docs: Path, book: str, *, sections: bool = True) -> list[Topic]:
    """A topic question for each page title of the book at `docs` and, with `sections`, for
    each section heading (a page's "Part N" headings say nothing: squad-train10 asks titles)."""
    seen: set[tuple[str, str | None]] = set()
    out: list[Topic] = []
    for chunk in build_corpus(docs).chunks:
        path, title, section = (str(chunk.payload[k]) for k in ("path", "title", "section"))
        places: list[tuple[str, str | None]] = [(title, None)]
        if sections and section != title:
            places.append((section, section))
        for heading, where in places:
            if (path, where) in seen or not _is_topic(heading):
                continue
            seen.add((path, where))
            out.append(Topic(_ask(heading), path, where, book))
    return out


def uncovered_topics() -> list[Topic]:
    """Topic questions about software no training book covers."""
    return [Topic(_ask(topic), None, None, "uncovered") for topic in UNCOVERED]
