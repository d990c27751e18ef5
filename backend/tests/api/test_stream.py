"""POST /api/query/stream: SSE events in order, errors as plain JSON before the first byte."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.sse_events import sse_events

API_MD = Path(__file__).resolve().parents[3] / "specs" / "001-bookchat" / "api.md"


def _documented_meta_fields() -> set[str]:
    """The fields api.md lists for the stream's first event."""
    found = re.search(r"`event: meta` — `\{(.*?)\}`", API_MD.read_text(encoding="utf-8"))
    assert found, "api.md no longer documents the meta event"
    return set(re.findall(r'"(\w+)"', found[1]))


def test_stream_sends_meta_deltas_then_done_with_no_buffering_headers(client: Any) -> None:
    response = client.post("/api/query/stream", json={"question": "What does git revert do?"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    assert response.headers["cache-control"] == "no-cache"
    assert response.headers["x-accel-buffering"] == "no"
    events = sse_events(response.text)
    names = [name for name, _ in events]
    assert names[0] == "meta"
    assert names[-1] == "done"
    assert set(names[1:-1]) == {"delta"}
    meta, done = events[0][1], events[-1][1]
    assert set(meta) == _documented_meta_fields()
    assert meta["message_id"] == done["message_id"]
    assert "".join(data["text"] for name, data in events if name == "delta") == done["answer"]
    assert done["status"] == "grounded"
    assert done["citations"] == meta["citations"]


def test_stream_abstention_still_ends_with_done(client: Any) -> None:
    response = client.post(
        "/api/query/stream", json={"question": "Who won the 2018 FIFA World Cup?"}
    )
    events = sse_events(response.text)
    assert events[-1][0] == "done"
    assert events[-1][1]["status"] == "abstained"


def test_stream_errors_are_ordinary_json_responses(client: Any) -> None:
    unknown = client.post(
        "/api/query/stream", json={"question": "What?", "mode": "chapter", "chapter": "nope"}
    )
    assert unknown.status_code == 404
    assert unknown.headers["content-type"] == "application/json"
    invalid = client.post("/api/query/stream", json={"question": ""})
    assert invalid.status_code == 422


def test_stream_done_carries_the_short_answer_as_the_json_response_does(client: Any) -> None:
    question = {"question": "What does git revert do?"}
    name, done = sse_events(client.post("/api/query/stream", json=question).text)[-1]
    whole = client.post("/api/query", json=question).json()
    assert name == "done"
    assert set(done) == set(whole)
    assert "short_answer" in done
    assert done["short_answer"] is None or isinstance(done["short_answer"], str)


def test_stream_done_carries_the_places_shown_as_the_json_response_does(client: Any) -> None:
    question = {"question": "How do I see which files I have changed?"}
    name, done = sse_events(client.post("/api/query/stream", json=question).text)[-1]
    whole = client.post("/api/query", json=question).json()
    assert name == "done" and done["status"] == whole["status"] == "grounded"
    assert done["related"] == whole["related"] and whole["related"]
    assert {"title", "section", "url", "path", "chapter_title", "excerpt"} <= set(
        done["related"][0]
    )
