"""Answers cached in Redis and by generator: workers share them, a dying Redis costs only misses,
another generator never sees an extractive answer, and a failed model call is never kept."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bookchat.embedding.embedder import Embedder
from tests.api.test_llm_answers import llm_settings
from tests.cache.redis_servers import PrivateRedis
from tests.cache.test_answers import answer_of, ask
from tests.scripted_model import ScriptedModel, quoting
from tests.sse_events import sse_events
from tests.threaded_server import free_port, serving

BOOK = """---
title: Wombats
---

# Wombats

Wombats produce cube-shaped droppings, which they leave on rocks to mark their territory.
They dig long burrows with their strong front claws.
"""
WOMBATS = "What shape are wombat droppings?"


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    """A redis-server of this test's own (nothing left over from other runs)."""
    server = PrivateRedis(tmp_path)
    yield server
    server.stop()


@pytest.fixture
def scripted() -> Iterator[ScriptedModel]:
    """A scripted chat-completions server on 127.0.0.1."""
    server = ScriptedModel().start()
    yield server
    server.stop()


def test_redis_killed_mid_run_costs_misses_not_answers(
    make_client: Any, make_settings: Any, private_redis: PrivateRedis
) -> None:
    settings = make_settings(REDIS_URL=private_redis.url, BOOKCHAT_ANSWER_CACHE=None)
    with make_client(settings) as client:
        assert [ask(client)["cached"] for _ in range(2)] == [False, True]
        assert client.get("/health").json()["answer_cache"]["kind"] == "redis"
        private_redis.stop()
        after = [ask(client), ask(client, "How do I undo my last commit?")]
        health = client.get("/health")
        metrics = client.get("/metrics").text
    assert [b["cached"] for b in after] == [False, False]
    assert all(b["status"] == "grounded" for b in after)
    assert health.status_code == 200 and health.json()["status"] == "ok"
    assert health.json()["answer_cache"]["state"] == "unreachable"
    errors = next(
        line
        for line in metrics.splitlines()
        if line.startswith("bookchat_answer_cache_errors_total")
    )
    assert float(errors.split()[-1]) >= 1


def test_another_generator_does_not_get_an_extractive_answer(
    make_client: Any, make_settings: Any, private_redis: PrivateRedis, scripted: ScriptedModel
) -> None:
    settings = make_settings(REDIS_URL=private_redis.url, BOOKCHAT_ANSWER_CACHE=None)
    scripted.default = quoting(1)
    with make_client(settings) as client:
        extractive = [ask(client)["cached"] for _ in range(2)]
    with make_client(llm_settings(settings, scripted)) as client:
        generated = [ask(client) for _ in range(2)]
    assert extractive == [False, True]
    assert [(b["generator"], b["cached"]) for b in generated] == [("llm", False), ("llm", True)]
    assert len(scripted.requests) == 1  # the repeat cost no model call


def test_an_answer_whose_model_failed_is_not_kept(
    make_client: Any, make_settings: Any, scripted: ScriptedModel
) -> None:
    settings = llm_settings(make_settings(BOOKCHAT_ANSWER_CACHE="memory"), scripted)
    with make_client(settings) as client:
        failed = ask(client)  # the scripted server's default reply is a 500
        scripted.default = quoting(1)
        reached = ask(client)
        repeated = ask(client)
    assert failed["generator"] == "extractive" and failed["warnings"]
    assert (reached["generator"], reached["cached"]) == ("llm", False)
    assert repeated["cached"] is True and answer_of(repeated) == answer_of(reached)


def test_a_streamed_generated_answer_is_kept_once_final(
    make_client: Any, make_settings: Any, scripted: ScriptedModel
) -> None:
    settings = llm_settings(make_settings(BOOKCHAT_ANSWER_CACHE="memory"), scripted)
    scripted.default = quoting(1)
    with make_client(settings) as client:
        streamed = client.post("/api/query/stream", json={"question": "What does git revert do?"})
        events = sse_events(streamed.text)
        again = ask(client)
    assert [name for name, _ in events][-1] == "done"
    assert len([name for name, _ in events if name == "delta"]) > 1  # the model's own tokens
    done = events[-1][1]
    assert (done["generator"], done["cached"]) == ("llm", False)
    assert again["cached"] is True and answer_of(again) == answer_of(done)
    assert len(scripted.requests) == 1


def _serve_in_a_new_process(
    data: Path, docs: Path, redis_url: str
) -> tuple[subprocess.Popen[bytes], str]:
    """`bookchat ingest` then `bookchat serve` in processes of their own; the server's URL."""
    env = {
        **os.environ,
        "BOOKCHAT_DATA_DIR": str(data),
        "BOOKCHAT_DOCS_DIR": str(docs),
        "REDIS_URL": redis_url,
        "BOOKCHAT_RATE_LIMIT": "off",
        "BOOKCHAT_WARM_SENTENCE_CACHE": "false",
        "HF_HUB_OFFLINE": "1",
    }
    for name in ("BOOKCHAT_ANSWER_CACHE", "QDRANT_URL", "DATABASE_URL"):
        env.pop(name, None)
    cli = [sys.executable, "-m", "bookchat.cli"]
    # In the data folder: no developer's .env is read.
    subprocess.run(
        [*cli, "ingest"], env=env, cwd=data.parent, check=True, capture_output=True, timeout=300
    )
    port = free_port()
    server = subprocess.Popen(
        [*cli, "serve", "--port", str(port)],
        env=env,
        cwd=data.parent,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return server, url
        except httpx.HTTPError:
            pass
        if server.poll() is not None:
            break
        time.sleep(0.2)
    server.kill()
    raise RuntimeError("the second server did not come up")


def test_two_server_processes_sharing_redis_see_each_others_answers(
    tmp_path: Path, make_settings: Any, embedder: Embedder, private_redis: PrivateRedis
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "01-wombats.md").write_text(BOOK, encoding="utf-8")
    # This process: the same book, its own index (embedded stores are one process each).
    settings = make_settings(REDIS_URL=private_redis.url, BOOKCHAT_ANSWER_CACHE=None)
    with serving(settings, docs, embedder) as record:
        other, other_url = _serve_in_a_new_process(tmp_path / "other-data", docs, private_redis.url)
        try:
            here = httpx.post(f"{record.url}/api/query", json={"question": WOMBATS}, timeout=30)
            there = httpx.post(f"{other_url}/api/query", json={"question": WOMBATS}, timeout=30)
            back = httpx.post(
                f"{record.url}/api/query", json={"question": WOMBATS.lower()}, timeout=30
            )
        finally:
            other.terminate()
            other.wait(timeout=30)
    here_body, there_body = here.json(), there.json()
    assert here_body["cached"] is False
    assert there_body["cached"] is True and answer_of(there_body) == answer_of(here_body)
    assert back.json()["cached"] is True
    assert "cube-shaped" in here_body["answer"]
