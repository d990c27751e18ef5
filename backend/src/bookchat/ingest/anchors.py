"""Heading anchors as Docusaurus generates them (github-slugger, `{#custom-id}`)."""

from __future__ import annotations

import re
import unicodedata

_EXPLICIT_ID = re.compile(r"\s*\{#([^}\s]+)\}\s*$")


def split_explicit_id(heading: str) -> tuple[str, str | None]:
    """`Launch files {#launch}` → (`Launch files`, `launch`)."""
    match = _EXPLICIT_ID.search(heading)
    if not match:
        return heading, None
    return heading[: match.start()].rstrip(), match.group(1)


def _kept(char: str) -> bool:
    # github-slugger keeps letters, numbers, marks, spaces, hyphens and underscores and drops
    # every other punctuation or symbol character.
    if char in " -_":
        return True
    return unicodedata.category(char)[0] in "LNM"


def github_slug(text: str) -> str:
    """github-slugger's `slug()`: lower-case, drop punctuation, each space becomes a hyphen."""
    return "".join(c for c in text.lower() if _kept(c)).replace(" ", "-")


class Slugger:
    """Unique anchors within one page: repeats get `-1`, `-2`... like github-slugger."""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}

    def slug(self, text: str) -> str:
        """The next unique anchor for a heading's plain text."""
        original = github_slug(text)
        result = original
        while result in self._seen:
            self._seen[original] += 1
            result = f"{original}-{self._seen[original]}"
        self._seen[result] = 0
        return result
