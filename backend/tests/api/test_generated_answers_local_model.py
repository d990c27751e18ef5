"""Generated answers end to end against a real model: llama.cpp's server with SmolLM2-135M.

SmolLM2 is far too small to judge answers by; it is here because it speaks the protocol as real
OpenAI-compatible servers do (and never writes a `[n]` marker on its own). Every exchange
bookchat has with it must be answered without a 5xx: each test checks the server's access log
for its own requests. The scripted server (test_llm_answers.py) covers the faults a real one
cannot be made to produce on demand.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from bookchat.answer.llm.check import strip_markers
from bookchat.answer.llm.writer import ATTRIBUTED, MODEL_FAILED
from bookchat.api.app import create_app
from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from tests.conftest import need_local_model
from tests.local_model import ALIAS, LocalModel, free_port
from tests.sse_events import sse_events

COVERED = "What does git revert do?"
# Two passages keep each prompt short: SmolLM2 on one thread reads ~100 tokens a second.
SMALL = {"top_k": 2}
_MARKER = re.compile(r"\[(\d+)\]")


def _settings(base: Settings, model: LocalModel, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "generator": "llm",
        "openai_base_url": model.base_url,
        "llm_model": ALIAS,
        "llm_timeout_s": 120.0,
        "llm_temperature": 0.0,  # repeatable answers
        "llm_probe": False,  # probed on purpose in the health test
    }
    return base.model_copy(update=values | overrides)


class Exchanges:
    """The model server's answers to the requests made since this object was created."""

    def __init__(self, model: LocalModel) -> None:
        self._model = model
        self._mark = len(model.exchanges())

    def since(self) -> list[tuple[str, str, int]]:
        """(method, path, status) of every request since the mark."""
        return self._model.exchanges()[self._mark :]

    def completions(self) -> list[int]:
        """Statuses of the chat completions since the mark, after checking none was a 5xx."""
        found = self.since()
        assert found, "bookchat sent the model server nothing"
        assert all(status < 500 for _, _, status in found), found
        return [status for method, path, status in found if path.endswith("/chat/completions")]


def _cited(body: dict[str, Any]) -> None:
    """A covered question's answer as the reader must get it: grounded and cited."""
    assert body["status"] == "grounded", body
    assert body["citations"], body
    numbers = {int(n) for n in _MARKER.findall(body["answer"])}
    assert numbers, body["answer"]
    assert numbers <= set(range(1, len(body["citations"]) + 1))


def test_health_reports_what_the_probe_found(
    make_client: Any, book_settings: Settings, local_model: LocalModel
) -> None:
    exchanges = Exchanges(local_model)
    with make_client(_settings(book_settings, local_model, llm_probe=True)) as client:
        generator = client.get("/health").json()["generator"]
        deadline = time.monotonic() + 60
        while generator["state"] == "probing" and time.monotonic() < deadline:
            time.sleep(0.2)
            generator = client.get("/health").json()["generator"]
    assert generator["kind"] == "llm" and generator["model"] == ALIAS
    assert generator["state"] == "ready"
    assert generator["capabilities"] == dict.fromkeys(
        ("reachable", "model", "chat", "streaming", "tools"), True
    )
    # The tool round trip is the exchange llama.cpp used to answer with HTTP 500.
    assert len(exchanges.completions()) == 5


def test_a_covered_question_is_answered_and_cited_though_the_model_writes_no_markers(
    make_client: Any, book_settings: Settings, local_model: LocalModel
) -> None:
    exchanges = Exchanges(local_model)
    with make_client(_settings(book_settings, local_model)) as client:
        body = client.post("/api/query", json={"question": COVERED, **SMALL}).json()
    _cited(body)
    assert body["generator"] == "llm" and body["model"] == ALIAS
    # SmolLM2 cites nothing by itself: the check placed the markers, and the answer says so.
    assert ATTRIBUTED in body["warnings"]
    assert exchanges.completions() == [200]


def test_a_streamed_answer_arrives_as_deltas_then_a_checked_done(
    make_client: Any, book_settings: Settings, local_model: LocalModel
) -> None:
    exchanges = Exchanges(local_model)
    with make_client(_settings(book_settings, local_model)) as client:
        response = client.post("/api/query/stream", json={"question": COVERED, **SMALL})
    assert response.status_code == 200
    events = sse_events(response.text)
    names = [name for name, _ in events]
    assert names[0] == "meta" and names[-1] == "done" and "delta" in names
    done = events[-1][1]
    _cited(done)
    assert done["generator"] == "llm"
    written = "".join(data["text"] for name, data in events if name == "delta")
    # The done event is what the model streamed, with the markers the check placed.
    assert " ".join(strip_markers(done["answer"]).split()) == " ".join(written.split())
    assert exchanges.completions() == [200]


def test_the_agent_searches_the_book_again_when_told_to(
    make_client: Any, book_settings: Settings, local_model: LocalModel
) -> None:
    exchanges = Exchanges(local_model)
    settings = _settings(book_settings, local_model, llm_search="first")
    with make_client(settings) as client:
        body = client.post("/api/query", json={"question": COVERED, **SMALL}).json()
    _cited(body)
    # The forced search, then the answer: the second request carries the tool call and result.
    assert exchanges.completions() == [200, 200]


def test_a_model_slower_than_the_time_limit_falls_back_to_the_books_answer(
    make_client: Any, book_settings: Settings, local_model: LocalModel, client: Any
) -> None:
    extractive = client.post("/api/query", json={"question": COVERED, **SMALL}).json()
    exchanges = Exchanges(local_model)
    with make_client(_settings(book_settings, local_model, llm_timeout_s=0.05)) as slow:
        body = slow.post("/api/query", json={"question": COVERED, **SMALL}).json()
    assert body["status"] == "grounded"
    assert body["generator"] == "extractive"
    assert body["warnings"] == [MODEL_FAILED]
    assert body["answer"] == extractive["answer"]
    assert all(status < 500 for _, _, status in exchanges.since())


@pytest.fixture
def live_api(
    book_settings: Settings, recording_store: Any, embedder: Embedder
) -> Iterator[Callable[[Settings], str]]:
    """Serve the app with uvicorn on a free port (SSE then reaches the client as written)."""
    servers: list[tuple[uvicorn.Server, threading.Thread]] = []

    def start(settings: Settings) -> str:
        port = free_port()
        app = create_app(settings, store=recording_store, embedder=embedder)
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 30
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.started, "the API did not start"
        servers.append((server, thread))
        return f"http://127.0.0.1:{port}"

    yield start
    for server, thread in servers:
        server.should_exit = True
        thread.join(15)


def test_a_model_server_killed_mid_answer_leaves_the_reader_the_books_answer(
    live_api: Callable[[Settings], str],
    book_settings: Settings,
    tmp_path: Path,
) -> None:
    need_local_model()
    doomed = LocalModel(tmp_path / "doomed.log").start()
    try:
        base = live_api(_settings(book_settings, doomed))
        events: list[tuple[str, dict[str, Any]]] = []
        body = {"question": COVERED, **SMALL}
        with httpx.stream("POST", f"{base}/api/query/stream", json=body, timeout=120) as response:
            assert response.status_code == 200
            name = ""
            for line in response.iter_lines():
                if line.startswith("event: "):
                    name = line.removeprefix("event: ")
                elif line.startswith("data: "):
                    events.append((name, json.loads(line.removeprefix("data: "))))
                    if name == "delta" and doomed.process and doomed.process.poll() is None:
                        doomed.kill()  # the model is mid-answer: its first text just arrived
        assert all(status < 500 for _, _, status in doomed.exchanges())
    finally:
        doomed.stop()
    names = [n for n, _ in events]
    assert names[0] == "meta" and "delta" in names and names[-1] == "done"
    done = events[-1][1]
    assert done["status"] == "grounded" and done["citations"]
    assert done["generator"] == "extractive"
    assert done["warnings"] == [MODEL_FAILED]
