"""bookchat's own overhead around a generated answer, against the scripted model server.

Used by `bench/query.py --generator llm`. The scripted OpenAI-compatible server (the one the
tests use) runs in this process and answers every question after a fixed first-token delay,
quoting its first source with a fresh prefix (so the citation check must embed a sentence it has
not seen, as with a real model). `bookchat serve` runs as a subprocess with BOOKCHAT_GENERATOR=llm.
For each streamed question:

- before_first_delta_ms: time to the first `delta` event minus the scripted first-token delay
  (retrieval, prompt, agent start-up and relaying the token);
- after_last_token_ms: from the server sending its last token to the `done` event arriving
  (the end of the model's stream, the citation check, saving, serialising).
"""

from __future__ import annotations

import itertools
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from harness import REPO, Server, bench_env, ingest, percentiles

SAMPLE = REPO / "website" / "docs"
sys.path.insert(0, str(REPO / "backend"))

from tests.scripted_model import Reply, ScriptedModel, quoting  # noqa: E402

FIRST_TOKEN_DELAY_S = 0.2
# 10 ms a token: the fast end of hosted models (~100 tokens/s); local models are slower.
TOKEN_DELAY_S = 0.01
TARGETS = {"before_first_delta_p50_ms": 30.0, "after_last_token_p50_ms": 15.0}


def _responder() -> Callable[[dict[str, Any]], Reply]:
    counter = itertools.count(1)

    def reply(request: dict[str, Any]) -> Reply:
        quoted = quoting(1)(request).text
        return Reply(
            text=f"In answer {next(counter)}, {quoted}",
            first_token_delay=FIRST_TOKEN_DELAY_S,
            token_delay=TOKEN_DELAY_S,
        )

    return reply


def _one(client: httpx.Client, url: str, body: dict[str, Any]) -> tuple[float, float] | None:
    """(time to first delta, time of done) in perf_counter seconds; None without a delta."""
    started = time.perf_counter()
    first: float | None = None
    done: float | None = None
    name = ""
    with client.stream("POST", f"{url}/api/query/stream", json=body) as response:
        response.raise_for_status()
        for line in response.iter_lines():
            if line.startswith("event: "):
                name = line.removeprefix("event: ")
            elif line.startswith("data: "):
                now = time.perf_counter()
                if name == "delta" and first is None:
                    first = now
                elif name == "done":
                    done = now
                    if json.loads(line.removeprefix("data: "))["generator"] != "llm":
                        return None
    if first is None or done is None:
        return None
    return first - started, done


def measure(questions: list[str], rounds: int) -> dict[str, Any]:
    """Run the questions `rounds` times over the stream endpoint and summarise the overheads."""
    scripted = ScriptedModel().start()
    scripted.default = _responder()
    extra = {
        "BOOKCHAT_GENERATOR": "llm",
        "OPENAI_BASE_URL": scripted.base_url,
        "OPENAI_API_KEY": "bench",
        "BOOKCHAT_LLM_MODEL": "scripted-model",
        # The scripted responder answers questions with sources, not the start-up probe's.
        "BOOKCHAT_LLM_PROBE": "false",
    }
    before: list[float] = []
    after: list[float] = []
    skipped = 0
    try:
        with tempfile.TemporaryDirectory(prefix="bookchat-bench-llm-") as tmp:
            data = Path(tmp)
            ingest(SAMPLE, bench_env(data))
            with Server(bench_env(data, extra), cwd=data) as server:
                server.wait_warm()
                url = server.url
                with httpx.Client(timeout=60) as client:
                    _one(client, url, {"question": "What does git revert do?"})  # warm up
                    for question in questions * rounds:
                        seen = len(scripted.last_token_at)
                        timing = _one(client, url, {"question": question})
                        if timing is None or len(scripted.last_token_at) != seen + 1:
                            skipped += 1
                            continue
                        first_delta, done = timing
                        before.append((first_delta - FIRST_TOKEN_DELAY_S) * 1000)
                        after.append((done - scripted.last_token_at[-1]) * 1000)
    finally:
        scripted.stop()
    out: dict[str, Any] = {
        "scripted_first_token_delay_ms": FIRST_TOKEN_DELAY_S * 1000,
        "scripted_token_delay_ms": TOKEN_DELAY_S * 1000,
        "before_first_delta_ms": percentiles(before),
        "after_last_token_ms": percentiles(after),
        "questions_without_model_call": skipped,
        "targets": TARGETS,
    }
    out["checks"] = {
        "before_first_delta_p50_ms": out["before_first_delta_ms"]["p50"],
        "after_last_token_p50_ms": out["after_last_token_ms"]["p50"],
    }
    return out
