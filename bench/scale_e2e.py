"""End to end for bench/scale.py: `bookchat serve` on the built store, asked real questions.

~200 real SQuAD questions are asked over HTTP by one sequential client, in chapter mode then book
mode: once on a server with the sentence-cache warm-up off (cold), once on a server whose /health
reports the cache warm. Reports client wall time and the server's latency_ms, start-up time to
healthy, the warm-up's duration, server CPU and memory.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

import httpx
import numpy as np
from harness import Server, bench_env, percentiles
from scale_library import CHAPTERS, DOC_CHUNKS, ROOT, SEED, Json, Library, log

SQUAD_QUESTIONS = ROOT / "../shared/corpora/squad-dev10/questions.jsonl"
E2E_QUESTIONS = 200
E2E_TARGETS = {"chapter_p95_ms": 50.0}
HEALTHY_CAP_S = 180.0
WARM_CAP_S = 420.0


def catalog(n: int) -> Json:
    """A catalog shaped like ingest's for the first n synthetic chunks: chapters and pages."""
    from bookchat.embedding.embedder import MODEL_NAME

    docs = -(-n // DOC_CHUNKS)
    chapters = []
    for part in range(CHAPTERS):  # chunk i's chapter is the part of its document (see payload)
        pages = [
            {
                "path": f"docs/part-{part:03d}/doc-{doc:05d}.md",
                "doc_id": f"part-{part:03d}/doc-{doc:05d}",
                "title": f"Document {doc}",
                "url": f"/docs/part-{part:03d}/doc-{doc:05d}",
            }
            for doc in range(part, docs, CHAPTERS)
        ]
        if pages:
            key = Library.chapter(part * DOC_CHUNKS)
            chapters.append(
                {"key": key, "title": f"Part {part}", "url": pages[0]["url"], "pages": pages}
            )
    return {
        "corpus_version": hashlib.sha256(f"scale-{SEED}-{n}".encode()).hexdigest()[:16],
        "indexed_at": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime()),
        "chunks": n,
        "embedding_model": MODEL_NAME,
        "chapters": chapters,
    }


def _questions(lib: Library, n: int) -> list[tuple[str, str]]:
    """(question, chapter) for E2E_QUESTIONS SQuAD questions whose paragraph is in the library.

    The chapter is the one holding a synthetic chunk made mostly of that paragraph: a reader
    asking about what they read. Questions SQuAD marks unanswerable are kept (they abstain, and a
    chapter abstention also searches the whole book for a suggestion, as in production).
    """
    first_words = {}
    for k, text in enumerate(lib.chunks):
        first_words.setdefault(" ".join(text.split()[:12]), k)
    home: dict[int, int] = {}
    for i in range(n - 1, -1, -1):
        home[int(lib.source[i])] = i
    if not SQUAD_QUESTIONS.is_file():
        raise RuntimeError(f"questions not found: {SQUAD_QUESTIONS.resolve()}")
    rows = [json.loads(line) for line in SQUAD_QUESTIONS.open(encoding="utf-8")]
    found = []
    for row in rows:
        k = first_words.get(" ".join(row["selected_text"].split()[:12]))
        if k is not None and k in home:
            found.append((row["question"], lib.chapter(home[k])))
    if not found:
        raise RuntimeError(f"no question of {SQUAD_QUESTIONS} matches the library's paragraphs")
    keep = np.linspace(0, len(found) - 1, min(E2E_QUESTIONS, len(found))).round().astype(int)
    return [found[i] for i in keep]


def _summary(values: list[float]) -> Json:
    return percentiles(values, unit="_ms", with_max=True)


def _ask_all(url: str, bodies: list[Json]) -> Json:
    """POST each body in turn (1 client, keep-alive): client wall time and server latency_ms."""
    wall: list[float] = []
    server: list[float] = []
    statuses: dict[str, int] = {}
    errors: list[str] = []
    with httpx.Client(timeout=60, trust_env=False) as client:
        for body in bodies:
            t0 = time.perf_counter()
            response = client.post(f"{url}/api/query", json=body)
            elapsed = (time.perf_counter() - t0) * 1000
            if response.status_code != 200:
                errors.append(f"{response.status_code}: {response.text[:200]}")
                continue
            data = response.json()
            wall.append(elapsed)
            server.append(float(data["latency_ms"]))
            statuses[str(data["status"])] = statuses.get(str(data["status"]), 0) + 1
    out: Json = {
        "client_wall": _summary(wall),
        "server_latency": _summary(server),
        "first_request_ms": round(wall[0], 2) if wall else None,
        "statuses": statuses,
    }
    if len(wall) >= 100:  # a cold cache fills as questions arrive: compare the two halves
        half = len(wall) // 2
        out["client_wall_p95_first_half_ms"] = _summary(wall[:half])["p95_ms"]
        out["client_wall_p95_second_half_ms"] = _summary(wall[half:])["p95_ms"]
    if errors:
        out["errors"] = {"count": len(errors), "first": errors[0]}
    return out


def _server_run(
    data_dir: Path, collection: str, bodies: dict[str, list[Json]], *, warm: bool, warm_cap_s: float
) -> Json:
    """One server start: start-up, (warm-up), then each mode's questions once, in order."""
    kind = "warm" if warm else "cold"
    log(f"e2e {kind}: starting bookchat serve")
    env = bench_env(
        data_dir,
        {
            "BOOKCHAT_COLLECTION": collection,
            "BOOKCHAT_EMBEDDED_ENGINE": "edge",
            "BOOKCHAT_GENERATOR": "extractive",
            "BOOKCHAT_WARM_SENTENCE_CACHE": "true" if warm else "false",
        },
    )
    server = Server(env, cwd=data_dir, log=data_dir / f"serve-{kind}.log")
    try:
        out: Json = {"startup_to_healthy_s": round(server.wait_healthy(HEALTHY_CAP_S), 2)}
        out["server_memory_after_start"] = server.memory()
        out["sentence_cache_at_start"] = server.cache_state()
        if warm:
            started = time.perf_counter()
            state = server.wait_warm(warm_cap_s)
            waited = round(time.perf_counter() - started, 1)
            out["warm_up"] = {
                "reached_warm": state == "warm",
                "waited_s": waited,
                "cap_s": warm_cap_s,
            }
            out["server_memory_after_warm_up"] = server.memory()
            log(f"e2e warm: sentence cache {state} after {waited} s")
        out["load_avg_1m_before_queries"] = round(os.getloadavg()[0], 2)
        for mode, mode_bodies in bodies.items():
            cpu = server.cpu_s()
            out[mode] = _ask_all(server.url, mode_bodies)
            cpu_ms = (server.cpu_s() - cpu) * 1000 / max(1, len(mode_bodies))
            out[mode]["server_cpu_ms_per_request"] = round(cpu_ms, 2)
            out[mode]["load_avg_1m_after"] = round(os.getloadavg()[0], 2)
            log(f"e2e {kind} {mode}: {json.dumps(out[mode])}")
        out["sentence_cache_at_end"] = server.cache_state()
        out["server_memory_at_end"] = server.memory()
        return out
    finally:
        server.stop()


def run_e2e(data_dir: Path, collection: str, lib: Library, n: int, warm_cap_s: float) -> Json:
    """`POST /api/query` latency through `bookchat serve` on the closed n-point store."""
    questions = _questions(lib, n)
    bodies = {
        # chapter first: on the cold server it meets the emptiest process
        "chapter": [{"question": q, "mode": "chapter", "chapter": c} for q, c in questions],
        "book": [{"question": q} for q, _ in questions],
    }
    out: Json = {
        "points": n,
        "questions": len(questions),
        "question_source": str(SQUAD_QUESTIONS.resolve().relative_to(ROOT.parent)),
        "clients": 1,
        "order": "all chapter-mode questions, then the same questions in book mode",
    }
    out["cold"] = _server_run(data_dir, collection, bodies, warm=False, warm_cap_s=warm_cap_s)
    out["warm"] = _server_run(data_dir, collection, bodies, warm=True, warm_cap_s=warm_cap_s)
    target = E2E_TARGETS["chapter_p95_ms"]
    out["target_chapter_p95_ms"] = target
    for kind in ("cold", "warm"):
        wall = out[kind]["chapter"]["client_wall"]
        errors = out[kind]["chapter"].get("errors")
        out[f"meets_target_{kind}"] = bool(
            wall.get("n") and not errors and wall["p95_ms"] <= target
        )
    return out
