"""Query latency benchmark over HTTP: prints one JSON object.

For the sample book and for squad-dev10 (../shared), each in a temporary data folder: ingest with
`bookchat ingest`, start `bookchat serve` on a free 127.0.0.1 port (rate limit off), then ask
questions in book, chapter and selection mode with 1 client and with 8 concurrent clients.
Server-side latency is the response's `latency_ms`; the floor is the bare time to embed the same
questions with the same Embedder in this process.

    backend/.venv/bin/python bench/query.py [--questions 60]
    backend/.venv/bin/python bench/query.py --generator llm [--rounds 3]
    backend/.venv/bin/python bench/query.py --history [--rounds 3]

`--generator llm` measures bookchat's own overhead around a generated answer instead, against
the scripted model server (see bench/llm_overhead.py).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
from harness import REPO, Server, bench_env, ingest, percentiles, throwaway_postgres

SAMPLE = REPO / "website" / "docs"
SQUAD = REPO.parent / "shared" / "corpora" / "squad-dev10"
TARGETS = {
    "book_p50_ms_1_client": 20.0,
    "book_p95_ms_1_client": 40.0,
    "p50_over_bare_embedding": 3.0,
    "req_per_s_8_clients": 60.0,
}
SAMPLE_QUESTIONS = [
    ("What does git revert do?", "everyday-git"),
    ("How do I undo a commit that was already pushed?", "everyday-git"),
    ("What is a fast-forward merge?", "branching"),
    ("What are conflict markers?", "branching"),
    ("What does git rebase do?", "branching"),
    ("How do I create a new branch?", "branching"),
    ("When did Linus Torvalds write Git?", "intro"),
    ("How do I set my user name in Git?", "getting-started"),
    ("What does git stash do?", "everyday-git"),
    ("What is a pre-commit hook?", "hooks-and-automation"),
    ("How do I push a tag to a remote?", "collaboration"),
    ("What is a pull request?", "collaboration"),
    ("How are objects stored in Git?", "internals"),
    ("What is a remote-tracking branch?", "collaboration"),
    ("How do I see the history of a file?", "everyday-git"),
    ("How do I stage part of a file?", "everyday-git"),
    ("What is trunk-based development?", "workflows"),
    ("How do I install Git on macOS?", "getting-started"),
    ("What is the merge base?", "branching"),
    ("How do I delete a branch?", "branching"),
]


def _squad_questions(limit: int) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(question, chapter path) for book/chapter modes and (question, selection) pairs."""
    rows = [json.loads(line) for line in (SQUAD / "fixtures.jsonl").open(encoding="utf-8")]
    chapter_rows = [r for r in rows if r["slice"] == "chapter/answerable"][:limit]
    selection_rows = [r for r in rows if r["slice"] == "selection/answerable"][:limit]
    return (
        [(r["question"], r["chapter_path"]) for r in chapter_rows],
        [(r["question"], r["selection"]) for r in selection_rows],
    )


def _sample_selections() -> list[tuple[str, str]]:
    text = (SAMPLE / "intro.md").read_text(encoding="utf-8").split("---", 2)[2][:3000]
    return [(q, text) for q, _ in SAMPLE_QUESTIONS]


def _run(
    client_count: int, bodies: list[dict[str, Any]], url: str
) -> tuple[list[float], list[float], float]:
    """(server latencies, round trips, wall seconds) for all bodies spread over N clients."""
    clients = [httpx.Client(timeout=60) for _ in range(client_count)]

    def ask(i: int) -> tuple[float, float]:
        started = time.perf_counter()
        response = clients[i % client_count].post(f"{url}/api/query", json=bodies[i])
        response.raise_for_status()
        return float(response.json()["latency_ms"]), (time.perf_counter() - started) * 1000

    started = time.perf_counter()
    with ThreadPoolExecutor(client_count) as pool:
        results = list(pool.map(ask, range(len(bodies))))
    wall = time.perf_counter() - started
    for c in clients:
        c.close()
    return [r[0] for r in results], [r[1] for r in results], wall


def serve(data_dir: Path, extra: dict[str, str] | None = None) -> Server:
    """`bookchat serve` over an ingested data folder (use as a context manager)."""
    return Server(bench_env(data_dir, extra), cwd=data_dir)


def _bench_corpus(
    docs: Path,
    book_questions: list[tuple[str, str]],
    selections: list[tuple[str, str]],
    chapter_key: Callable[[dict[str, Any], str], str],
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bookchat-bench-") as tmp:
        data = Path(tmp)
        ingest(docs, bench_env(data))
        with serve(data) as server:
            url = server.url
            chapters = {"chapters": server.get("/api/chapters").json()}
            modes = {
                "book": [{"question": q} for q, _ in book_questions],
                "chapter": [
                    {"question": q, "mode": "chapter", "chapter": chapter_key(chapters, c)}
                    for q, c in book_questions
                ],
                "selection": [
                    {"question": q, "mode": "selection", "selection": s} for q, s in selections
                ],
            }
            # The server embeds the book's sentences in the background after start-up; measure
            # steady state, and report how long that took.
            started = time.perf_counter()
            server.wait_warm()
            out: dict[str, Any] = {"sentence_cache_warm_s": round(time.perf_counter() - started, 1)}
            _run(1, [{"question": "warm up the server please"}] * 3, url)
            for mode, bodies in modes.items():
                server_1, trip_1, _ = _run(1, bodies, url)
                server_8, trip_8, wall_8 = _run(8, bodies * 2, url)
                out[mode] = {
                    "server_ms_1_client": percentiles(server_1),
                    "round_trip_ms_1_client": percentiles(trip_1),
                    "server_ms_8_clients": percentiles(server_8),
                    "round_trip_ms_8_clients": percentiles(trip_8),
                    "req_per_s_8_clients": round(len(bodies) * 2 / wall_8, 1),
                }
            return out


def _bare_embedding(questions: list[str]) -> dict[str, float]:
    from bookchat.config import Settings
    from bookchat.retrieval.embedder import Embedder

    embedder = Embedder.from_settings(Settings(_env_file=None))  # type: ignore[call-arg]
    embedder.load()
    for q in questions[:5]:
        embedder.embed([q])
    times = []
    for q in questions:
        started = time.perf_counter()
        embedder.embed([q])
        times.append((time.perf_counter() - started) * 1000)
    return percentiles(times)


def _by_path(chapters: dict[str, Any], path: str) -> str:
    for chapter in chapters["chapters"]:
        if any(page["path"] == path for page in chapter["pages"]):
            return str(chapter["key"])
    return path


def ingest_sample(data: Path) -> None:
    """Ingest the sample book into the data folder."""
    ingest(SAMPLE, bench_env(data))


def _bench_llm(rounds: int) -> int:
    from llm_overhead import measure

    questions = [q for q, _ in SAMPLE_QUESTIONS]
    results = measure(questions, rounds)
    results["cpu_count"] = os.cpu_count()
    print(json.dumps(results, indent=2))
    return 0


def _conversation_round_trips(url: str, rounds: int) -> tuple[list[float], list[float]]:
    """Server latency and round trip of questions asked in conversations of five turns."""
    server: list[float] = []
    trips: list[float] = []
    with httpx.Client(timeout=60) as client:
        for _ in range(rounds):
            conversation = None
            for number, (question, _) in enumerate(SAMPLE_QUESTIONS):
                body: dict[str, Any] = {"question": question}
                if conversation and number % 5:
                    body["conversation_id"] = conversation
                started = time.perf_counter()
                response = client.post(f"{url}/api/query", json=body)
                response.raise_for_status()
                trips.append((time.perf_counter() - started) * 1000)
                data = response.json()
                server.append(float(data["latency_ms"]))
                conversation = data["conversation_id"]
    return server, trips


def _bench_history(rounds: int) -> int:
    """What saving conversations adds per query: SQLite (default) against Postgres."""
    out: dict[str, Any] = {"questions_per_backend": rounds * len(SAMPLE_QUESTIONS)}
    with tempfile.TemporaryDirectory(prefix="bookchat-bench-") as tmp, throwaway_postgres() as pg:
        data = Path(tmp)
        ingest_sample(data)
        backends = {"sqlite": {}, "postgres": {"DATABASE_URL": pg} if pg else None}
        for name, extra in backends.items():
            if extra is None:
                out[name] = "unavailable (no local Postgres)"
                continue
            with serve(data, extra) as running:
                running.wait_warm()
                _conversation_round_trips(running.url, 1)  # warm: connections, caches
                server, trips = _conversation_round_trips(running.url, rounds)
            # Round trip minus the answer itself: HTTP, conversation lookups and the save.
            extra_ms = [t - s for t, s in zip(trips, server, strict=True)]
            out[name] = {
                "server_answer_ms": percentiles(server),
                "round_trip_ms": percentiles(trips),
                "round_trip_minus_answer_ms": percentiles(extra_ms),
            }
    if isinstance(out.get("postgres"), dict):
        out["postgres_minus_sqlite_p50_ms"] = round(
            out["postgres"]["round_trip_minus_answer_ms"]["p50"]
            - out["sqlite"]["round_trip_minus_answer_ms"]["p50"],
            2,
        )
    print(json.dumps(out, indent=2))
    return 0


def main() -> int:
    """Run the benchmark and print its JSON."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--questions", type=int, default=60, help="squad questions per mode")
    parser.add_argument("--generator", choices=["extractive", "llm"], default="extractive")
    parser.add_argument("--rounds", type=int, default=3, help="passes over the questions")
    parser.add_argument(
        "--history", action="store_true", help="what saving conversations adds: SQLite vs Postgres"
    )
    args = parser.parse_args()
    if args.history:
        return _bench_history(args.rounds)
    if args.generator == "llm":
        return _bench_llm(args.rounds)
    squad_book, squad_selections = _squad_questions(args.questions)
    results: dict[str, Any] = {
        "sample_book": _bench_corpus(
            SAMPLE, SAMPLE_QUESTIONS, _sample_selections(), lambda _c, key: key
        ),
        "squad_dev10": _bench_corpus(SQUAD / "docs", squad_book, squad_selections, _by_path),
    }
    questions = [q for q, _ in SAMPLE_QUESTIONS] + [q for q, _ in squad_book]
    floor = _bare_embedding(questions)
    book = results["sample_book"]["book"]
    results["bare_embedding_ms"] = floor
    results["targets"] = TARGETS
    results["checks"] = {
        "book_p50_ms_1_client": book["server_ms_1_client"]["p50"],
        "book_p95_ms_1_client": book["server_ms_1_client"]["p95"],
        "p50_over_bare_embedding": round(book["server_ms_1_client"]["p50"] / floor["p50"], 2),
        "req_per_s_8_clients": book["req_per_s_8_clients"],
    }
    results["cpu_count"] = os.cpu_count()
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
