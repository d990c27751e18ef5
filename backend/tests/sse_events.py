"""Reading a server-sent events body back into (event name, JSON data) pairs."""

from __future__ import annotations

import json
from typing import Any


def sse_events(text: str) -> list[tuple[str, dict[str, Any]]]:
    """Every event of an SSE body whose data lines are single-line JSON, in order."""
    events = []
    for block in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        events.append((lines["event"], json.loads(lines["data"])))
    return events
