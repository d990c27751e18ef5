"""Query latency benchmark over HTTP: prints one JSON object.

For the sample book (website/docs) and the robotics textbook (../shared), and with `--squad` for
squad-dev10 (../shared) too, each in a temporary data folder: ingest with `bookchat ingest`, start
`bookchat serve` on a free 127.0.0.1 port (rate limit off), then ask questions in book, chapter
and selection mode with 1 client (p50/p95 of the server-side `latency_ms` and of the client's
round trip) and with 4 concurrent clients (requests per second). Answers come from the reader,
which reads a handful of passages per question, so a query costs ~100-200 ms on the server.

Questions: a fixed list for the sample book; for the robotics textbook the book-mode rows of
../shared/corpora/robotics-review/fixtures.jsonl, their chapter-mode rows (`chapter_path` mapped
to its chapter) and, as selections, the text of those rows' pages; for squad-dev10 its
answerable chapter and selection rows. At most `--questions` of each per mode.

Targets (1 client, book mode): server-side p95 <= 200 ms on the sample book and <= 300 ms on the
robotics textbook. Requests per second at 4 clients are reported per corpus without a target.
These servers run with the answer cache off (bench/harness.py), so repeats are answered afresh.

The answer cache (`answer_cache`, or alone with `--cache`), on the sample book's book-mode
fixture questions: each asked once (misses) then again (hits) at 1 client, server-side and round
trip; then, in 3 paired rounds against a server with the cache off and one with it on (side by
side, alternating which goes first; new questions each round), 8 clients replay a mix where every
question is asked twice (half the requests repeat). Targets: a hit's server-side p95 <= 5 ms; the
median ratio of throughput with the cache to without >= 1.8.

    backend/.venv/bin/python bench/query.py [--questions 60] [--squad]
    backend/.venv/bin/python bench/query.py --generator llm [--rounds 3]
    backend/.venv/bin/python bench/query.py --history [--rounds 3]
    backend/.venv/bin/python bench/query.py --cache [--questions 60]
    backend/.venv/bin/python bench/query.py --overview [--rounds 3]

Overview questions (`overview`, or alone with `--overview`, issue #31): "Give me an overview of
this chapter." in chapter mode for every chapter, "Summarize this page" on every page (with its
`page`) and "What are the main topics of this book?", on the sample book and the robotics
textbook, at 1 client. Target: server-side p95 <= 50 ms (answered from the stored outline).

`--generator llm` measures bookchat's own overhead around a generated answer instead, against
the scripted model server (see bench/llm_overhead.py).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

import httpx
from harness import REPO, Server, bench_env, ingest, percentiles, throwaway_postgres

SAMPLE = REPO / "website" / "docs"
CORPORA = REPO.parent / "shared" / "corpora"
ROBOTICS = CORPORA / "robotics-textbook" / "docs"
ROBOTICS_FIXTURES = CORPORA / "robotics-review" / "fixtures.jsonl"
SQUAD = CORPORA / "squad-dev10"
# Server-side p95 in book mode with 1 client, per corpus (ms).
TARGETS = {
    "sample_book_book_p95_ms_1_client": 200.0,
    "robotics_textbook_book_p95_ms_1_client": 300.0,
}
THROUGHPUT_CLIENTS = 4
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


class Questions(NamedTuple):
    """What one corpus is asked, per mode."""

    book: list[str]
    chapter: list[tuple[str, str]]  # (question, chapter key or page path)
    selection: list[tuple[str, str]]  # (question, selected text)


def _rows(fixtures: Path) -> list[dict[str, Any]]:
    with fixtures.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _page_text(page: Path, limit: int = 3000) -> str:
    """A page's text without its front matter, cut to `limit` characters: a selection."""
    text = page.read_text(encoding="utf-8")
    if text.startswith("---"):
        text = text.split("---", 2)[2]
    return text.strip()[:limit]


def _sample_questions(limit: int) -> Questions:
    pairs = SAMPLE_QUESTIONS[:limit]
    intro = _page_text(SAMPLE / "intro.md")
    return Questions([q for q, _ in pairs], list(pairs), [(q, intro) for q, _ in pairs])


def _robotics_questions(limit: int) -> Questions:
    """Book-mode rows for book mode; chapter-mode rows (their page path) for chapter mode and,
    with their page's text as the selection, for selection mode (the fixtures have none)."""
    rows = _rows(ROBOTICS_FIXTURES)
    book = [r["question"] for r in rows if r["mode"] == "book"][:limit]
    chapter = [(r["question"], r["chapter_path"]) for r in rows if r["mode"] == "chapter"][:limit]
    selection = [(q, _page_text(ROBOTICS / path)) for q, path in chapter]
    return Questions(book, chapter, selection)


def _squad_questions(limit: int) -> Questions:
    """Answerable chapter rows for book and chapter modes, answerable selection rows."""
    rows = _rows(SQUAD / "fixtures.jsonl")
    chapter_rows = [r for r in rows if r["slice"] == "chapter/answerable"][:limit]
    selection_rows = [r for r in rows if r["slice"] == "selection/answerable"][:limit]
    return Questions(
        [r["question"] for r in chapter_rows],
        [(r["question"], r["chapter_path"]) for r in chapter_rows],
        [(r["question"], r["selection"]) for r in selection_rows],
    )


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
    docs: Path, questions: Questions, chapter_key: Callable[[dict[str, Any], str], str]
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bookchat-bench-") as tmp:
        data = Path(tmp)
        ingest(docs, bench_env(data))
        with serve(data) as server:
            url = server.url
            chapters = {"chapters": server.get("/api/chapters").json()}
            modes = {
                "book": [{"question": q} for q in questions.book],
                "chapter": [
                    {"question": q, "mode": "chapter", "chapter": chapter_key(chapters, c)}
                    for q, c in questions.chapter
                ],
                "selection": [
                    {"question": q, "mode": "selection", "selection": s}
                    for q, s in questions.selection
                ],
            }
            # The server embeds the book's sentences in the background after start-up; measure
            # steady state, and report how long that took.
            started = time.perf_counter()
            server.wait_warm()
            out: dict[str, Any] = {"sentence_cache_warm_s": round(time.perf_counter() - started, 1)}
            _run(1, [{"question": "warm up the server please"}] * 3, url)
            n = THROUGHPUT_CLIENTS
            for mode, bodies in modes.items():
                server_1, trip_1, _ = _run(1, bodies, url)
                server_n, trip_n, wall_n = _run(n, bodies * 2, url)
                out[mode] = {
                    "server_ms_1_client": percentiles(server_1),
                    "round_trip_ms_1_client": percentiles(trip_1),
                    f"server_ms_{n}_clients": percentiles(server_n),
                    f"round_trip_ms_{n}_clients": percentiles(trip_n),
                    f"req_per_s_{n}_clients": round(len(bodies) * 2 / wall_n, 1),
                }
            return out


CACHE_CLIENTS = 8
CACHE_ROUNDS = 3
# Answer cache targets (sample book): a hit's server-side p95, and throughput with the cache over
# throughput without it when half the questions repeat.
CACHE_TARGETS = {"cache_hit_p95_ms_1_client": 5.0, "cache_throughput_ratio_8_clients": 1.8}
SAMPLE_FIXTURES = REPO / "backend" / "evals" / "sample-book.jsonl"


def _half_repeated(questions: list[str], gap: int = 10) -> list[str]:
    """Each question asked twice, the repeat `2 * gap` requests after the first: half the mix
    repeats, and no repeat is still in flight with its first asking at 8 clients."""
    mix = questions[:gap]
    for i, question in enumerate(questions[gap:]):
        mix += [question, questions[i]]
    return mix + questions[len(questions) - gap :]


def _replay(client_count: int, bodies: list[dict[str, Any]], url: str) -> float:
    """Requests per second of `bodies` spread over N keep-alive connections (http.client, not
    httpx: at a cached answer's ~1 ms, httpx's own CPU on 2 cores would be what is measured)."""
    host, port = url.removeprefix("http://").split(":")
    payloads = [json.dumps(b).encode() for b in bodies]
    local = threading.local()

    def ask(i: int) -> None:
        if not hasattr(local, "conn"):
            local.conn = http.client.HTTPConnection(host, int(port), timeout=60)
        local.conn.request("POST", "/api/query", payloads[i], {"Content-Type": "application/json"})
        response = local.conn.getresponse()
        response.read()
        if response.status != 200:
            raise RuntimeError(f"HTTP {response.status}")

    started = time.perf_counter()
    with ThreadPoolExecutor(client_count) as pool:
        list(pool.map(ask, range(len(bodies))))
    return len(bodies) / (time.perf_counter() - started)


def _answered_from_cache(url: str, bodies: list[dict[str, Any]]) -> int:
    with httpx.Client(timeout=60) as client:
        return sum(bool(client.post(f"{url}/api/query", json=b).json()["cached"]) for b in bodies)


def _cache_latency(url: str, bodies: list[dict[str, Any]]) -> dict[str, Any]:
    """Each question once (misses) then again (hits), at 1 client."""
    miss_server, miss_trip, _ = _run(1, bodies, url)
    hit_server, hit_trip, _ = _run(1, bodies, url)
    return {
        "uncached_1_client": {
            "server_ms": percentiles(miss_server),
            "round_trip_ms": percentiles(miss_trip),
        },
        "cached_1_client": {
            "server_ms": percentiles(hit_server),
            "round_trip_ms": percentiles(hit_trip),
            "hits": _answered_from_cache(url, bodies),
        },
    }


def _bench_answer_cache(limit: int) -> dict[str, Any]:
    """Sample book: uncached against cached latency at 1 client; then, with the cache off and on
    (two servers side by side), rounds of 8 clients replaying a mix where half the questions
    repeat, alternating which server goes first; each round's questions are new to both."""
    rows = _rows(SAMPLE_FIXTURES)
    questions = list(dict.fromkeys(r["question"] for r in rows if r["mode"] == "book"))
    latency_set, rest = questions[:limit], questions[limit:]
    per_round = min(limit, len(rest) // CACHE_ROUNDS)
    with tempfile.TemporaryDirectory(prefix="bookchat-bench-") as tmp:
        on_data, off_data = Path(tmp) / "on", Path(tmp) / "off"
        ingest_sample(on_data)
        shutil.copytree(on_data, off_data)  # an embedded index is one process's: a copy each
        on = serve(on_data, {"BOOKCHAT_ANSWER_CACHE": "memory"})
        off = serve(off_data, {"BOOKCHAT_ANSWER_CACHE": "off"})
        with on, off:
            for server in (on, off):
                server.wait_warm()
                _run(1, [{"question": "warm up the server please"}] * 2, server.url)
            out = _cache_latency(on.url, [{"question": q} for q in latency_set])
            rounds = []
            for number in range(CACHE_ROUNDS):
                chosen = rest[number * per_round : (number + 1) * per_round]
                mix = [{"question": q} for q in _half_repeated(chosen)]
                order = (
                    [("off", off), ("on", on)] if number % 2 == 0 else [("on", on), ("off", off)]
                )
                rate = {}
                for name, server in order:
                    rate[name] = round(_replay(CACHE_CLIENTS, mix, server.url), 1)
                rounds.append({**rate, "ratio": round(rate["on"] / rate["off"], 2)})
    ratio = statistics.median(r["ratio"] for r in rounds)
    out[f"mix_{CACHE_CLIENTS}_clients"] = {
        "requests_per_round": len(mix),
        "rounds": rounds,
        "median_ratio": ratio,
    }
    hit_p95 = out["cached_1_client"]["server_ms"]["p95"]
    out["checks"] = {
        "cache_hit_p95_ms_1_client": {
            "measured": hit_p95,
            "met": hit_p95 <= CACHE_TARGETS["cache_hit_p95_ms_1_client"],
        },
        "cache_throughput_ratio_8_clients": {
            "measured": ratio,
            "met": ratio >= CACHE_TARGETS["cache_throughput_ratio_8_clients"],
        },
    }
    return out


OVERVIEW_TARGET_MS = 50.0


def _overview_bodies(chapters: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every chapter's, every page's and the book's overview question."""
    bodies: list[dict[str, Any]] = [{"question": "What are the main topics of this book?"}]
    for chapter in chapters:
        bodies.append(
            {
                "question": "Give me an overview of this chapter.",
                "mode": "chapter",
                "chapter": chapter["key"],
            }
        )
        bodies += [{"question": "Summarize this page", "page": p["url"]} for p in chapter["pages"]]
    return bodies


def _bench_overview(rounds: int) -> dict[str, Any]:
    """Server-side and round-trip latency of overview answers, per corpus, at 1 client."""
    out: dict[str, Any] = {}
    books = {"sample_book": SAMPLE, "robotics_textbook": ROBOTICS}
    for corpus, docs in books.items():
        if not docs.is_dir():
            continue
        with tempfile.TemporaryDirectory(prefix="bookchat-bench-") as tmp:
            data = Path(tmp)
            ingest(docs, bench_env(data))
            with serve(data) as server:
                bodies = _overview_bodies(server.get("/api/chapters").json())
                server.wait_warm()
                _run(1, bodies[:3], server.url)
                server_ms, trip_ms, _ = _run(1, bodies * rounds, server.url)
                out[corpus] = {
                    "questions": len(bodies),
                    "server_ms_1_client": percentiles(server_ms),
                    "round_trip_ms_1_client": percentiles(trip_ms),
                }
    worst = max(v["server_ms_1_client"]["p95"] for v in out.values())
    out["checks"] = {
        "overview_p95_ms_1_client": {"measured": worst, "met": worst <= OVERVIEW_TARGET_MS}
    }
    return out


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
    parser.add_argument(
        "--questions", type=int, default=60, help="at most this many questions per corpus and mode"
    )
    parser.add_argument("--squad", action="store_true", help="also benchmark squad-dev10")
    parser.add_argument("--generator", choices=["extractive", "llm"], default="extractive")
    parser.add_argument("--rounds", type=int, default=3, help="passes over the questions")
    parser.add_argument(
        "--history", action="store_true", help="what saving conversations adds: SQLite vs Postgres"
    )
    parser.add_argument(
        "--cache", action="store_true", help="only the answer cache (sample book): hits, throughput"
    )
    parser.add_argument(
        "--overview", action="store_true", help="only overview questions (issue #31)"
    )
    args = parser.parse_args()
    if args.overview:
        print(json.dumps({**_bench_overview(args.rounds), "cpu_count": os.cpu_count()}, indent=2))
        return 0
    if args.history:
        return _bench_history(args.rounds)
    if args.cache:
        print(
            json.dumps(
                {**_bench_answer_cache(args.questions), "cpu_count": os.cpu_count()}, indent=2
            )
        )
        return 0
    if args.generator == "llm":
        return _bench_llm(args.rounds)
    results: dict[str, Any] = {
        "sample_book": _bench_corpus(
            SAMPLE, _sample_questions(args.questions), lambda _c, key: key
        ),
        "robotics_textbook": _bench_corpus(ROBOTICS, _robotics_questions(args.questions), _by_path),
    }
    if args.squad:
        results["squad_dev10"] = _bench_corpus(
            SQUAD / "docs", _squad_questions(args.questions), _by_path
        )
    throughput = f"req_per_s_{THROUGHPUT_CLIENTS}_clients"
    measured = {
        f"{corpus}_book_p95_ms_1_client": results[corpus]["book"]["server_ms_1_client"]["p95"]
        for corpus in ("sample_book", "robotics_textbook")
    }
    results["answer_cache"] = _bench_answer_cache(args.questions)
    results["overview"] = _bench_overview(args.rounds)
    results["targets"] = {
        **TARGETS,
        **CACHE_TARGETS,
        "overview_p95_ms_1_client": OVERVIEW_TARGET_MS,
    }
    results["checks"] = {
        **{
            name: {"measured": measured[name], "met": measured[name] <= target}
            for name, target in TARGETS.items()
        },
        **results["answer_cache"].pop("checks"),
        **results["overview"].pop("checks"),
    }
    # Book mode, reported without a target.
    results[throughput] = {
        corpus: results[corpus]["book"][throughput]
        for corpus in ("sample_book", "robotics_textbook", "squad_dev10")
        if corpus in results
    }
    results["cpu_count"] = os.cpu_count()
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
