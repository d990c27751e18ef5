"""Track fenced code blocks line by line, so headings and JSX inside code are left alone."""

from __future__ import annotations

import re

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")


class FenceTracker:
    """Feed lines in order; `inside` tells whether the last line fed belongs to a code block."""

    def __init__(self) -> None:
        self._open: str | None = None
        self.inside = False

    def feed(self, line: str) -> bool:
        """Consume one line; True when it is part of a fenced block (fence lines included)."""
        match = _FENCE.match(line)
        if self._open is None:
            if match and not (match.group(1)[0] == "`" and "`" in match.group(2)):
                self._open = match.group(1)
                self.inside = True
                return True
            self.inside = False
            return False
        closes = match and match.group(1)[0] == self._open[0] and not match.group(2).strip()
        if closes and match and len(match.group(1)) >= len(self._open):
            self._open = None
        self.inside = True
        return True
