"""The indexed text of a gold page, read back from the store as sections of sentences.

The oracle scores the text the answerer could draw on, so it reads the stored chunks rather than
the Markdown files: whatever ingest cleaned away or skipped is not there either. Chunks of one
section overlap, so repeated sentences are dropped; the store keeps no order between the
sections of a page, so each section stays a list of its own and no window spans two of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bookchat.evals.sentence_split import split_sentences
from bookchat.vectorstore import VectorStore

_BATCH = 256  # payloads read per store call
Sections = list[list[str]]  # one list of sentences per section of a page


def _section_sentences(texts: Iterable[str]) -> list[str]:
    """Sentences of a section's chunks (in position order), each overlap read once."""
    sentences: list[str] = []
    seen: set[str] = set()
    previous = ""
    for text in texts:
        for index, sentence in enumerate(split_sentences(text)):
            # A long last sentence is carried over as its trailing words only: a fragment that
            # ends the previous chunk is overlap too.
            fragment = index == 0 and previous.rstrip().endswith(sentence)
            if sentence not in seen and not fragment:
                seen.add(sentence)
                sentences.append(sentence)
        previous = text
    return sentences


def pages_of(payloads: Iterable[Mapping[str, Any]]) -> dict[str, Sections]:
    """path -> its sections' sentences, from stored chunk payloads in any order."""
    chunks: dict[str, dict[tuple[str, ...], list[tuple[int, str]]]] = {}
    for payload in payloads:
        if "path" not in payload or "text" not in payload:
            continue
        # The anchor tells apart two sections with the same headings (Docusaurus numbers them).
        key = (*map(str, payload.get("heading_path") or []), str(payload.get("anchor", "")))
        section = chunks.setdefault(str(payload["path"]), {}).setdefault(key, [])
        section.append((int(payload.get("position", 0)), str(payload["text"])))
    return {
        path: [
            _section_sentences(text for _, text in sorted(sections[key]))
            for key in sorted(sections)
        ]
        for path, sections in chunks.items()
    }


class GoldPages:
    """Every indexed page as sections of sentences, read from the store on first use."""

    def __init__(self, store: VectorStore) -> None:
        self._store = store
        self._pages: dict[str, Sections] | None = None

    def sections(self, path: str) -> Sections | None:
        """The sections of the page at this docs-relative path; None when it is not indexed."""
        if self._pages is None:
            self._pages = pages_of(self._payloads())
        return self._pages.get(path)

    def _payloads(self) -> list[dict[str, Any]]:
        ids = list(self._store.fingerprints())
        out: list[dict[str, Any]] = []
        for start in range(0, len(ids), _BATCH):
            out.extend(self._store.payloads(ids[start : start + _BATCH]).values())
        return out
