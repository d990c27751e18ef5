"""What the model is shown: numbered passages, their tags, and the run's state."""

from __future__ import annotations

import html
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from bookchat.answer.compose import Source
from bookchat.vectorstore import Hit


@dataclass(frozen=True, slots=True)
class Passage:
    """A source and the text the model reads from it (a chunk, or the reader's selection)."""

    source: Source
    text: str

    @classmethod
    def from_hit(cls, hit: Hit) -> Passage:
        """The passage of a store hit."""
        return cls(
            Source.from_payload(hit.chunk_id, hit.score, hit.payload),
            str(hit.payload.get("text", "")),
        )

    @property
    def key(self) -> str:
        """What makes two passages the same passage."""
        return self.source.chunk_id


Search = Callable[[str], Awaitable[list[Passage]]]


def _attribute(value: str) -> str:
    return html.escape(" ".join(value.split()), quote=True)


def source_tag(number: int, passage: Passage) -> str:
    """One passage as `<source id=...>text</source>`; its text cannot open or close a tag."""
    attributes = [f'id="{number}"']
    if passage.source.chunk_id == "selection":
        attributes.append('kind="selection"')
    if passage.source.section:
        attributes.append(f'section="{_attribute(passage.source.section)}"')
    if passage.source.url:
        attributes.append(f'url="{_attribute(passage.source.url)}"')
    # Escaping every < and > (Markdown renders the entities back) means a chunk or selection
    # saying "</source><source id=9>" stays inert text inside its own tag.
    body = html.escape(passage.text.strip(), quote=False)
    return f"<source {' '.join(attributes)}>\n{body}\n</source>"


@dataclass(slots=True)
class Shown:
    """The passages shown to the model so far, numbered from 1, and the searches it used."""

    passages: list[Passage]
    searches: int = 0
    keys: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.keys = {p.key: i + 1 for i, p in enumerate(self.passages)}

    def add(self, found: Sequence[Passage]) -> list[tuple[int, Passage, bool]]:
        """Number new passages after the existing ones: (number, passage, is_new) per passage."""
        out = []
        for passage in found:
            known = self.keys.get(passage.key)
            if known is not None:
                out.append((known, self.passages[known - 1], False))
                continue
            self.passages.append(passage)
            self.keys[passage.key] = len(self.passages)
            out.append((len(self.passages), passage, True))
        return out
