"""How the embedded vector stores behave at 1k, 10k and 50k chunks: latency, recall, disk, memory.

Builds a synthetic library from real text without hours of embedding: ~1,000 real paragraphs are
embedded once with MiniLM (cached in bench/.cache), and every synthetic chunk is a normalised
mixture of two or three of those vectors carrying a real paragraph's text, BM25 vector and
sentence vectors (the real MiniLM vectors of that paragraph's sentences, as ingest stores them,
also embedded once and cached). The points go in through the VectorStore interface, so the
figures include our wrapper's overhead.

Usage (from the repo root):  backend/.venv/bin/python bench/scale.py [--engine edge|local|all]
Prints one JSON object on stdout; progress goes to stderr. Each engine runs in its own child
process so resident-memory figures are not mixed up between engines.

End to end (edge, on by default; --no-e2e to skip): the largest store gets a catalog like
ingest's (200 chapters and their pages), is closed, and `bookchat serve` is started on it (rate
limit off). ~200 real SQuAD questions are asked over HTTP by one sequential client, in chapter
mode then book mode: once on a server with the sentence-cache warm-up off (cold: nothing is
prepared, answers read their sentence vectors from the store), once on a server whose /health
reports the cache warm (the warm-up copies stored sentence vectors into the cache selections
use). Reports client wall time and the server's latency_ms (p50/p95), start-up time to healthy
(the server reopens the store), the warm-up's duration and server RSS.

The parts: scale_library.py builds the library, scale_store.py measures a store, scale_e2e.py
measures `bookchat serve` on it; this file loads each engine in a child process and reports.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness import process_memory
from scale_e2e import E2E_TARGETS, WARM_CAP_S, catalog, run_e2e
from scale_library import (
    CHAPTERS,
    CORPORA,
    QUERIES,
    ROOT,
    Json,
    Library,
    load_chunks,
    log,
    real_sentence_vectors,
    real_vectors,
)
from scale_store import LIMIT, disk_usage, measure

from bookchat.embedding.embedder import DIMENSIONS

BATCH = 500
TARGETS = {"chapter_p95_ms": 5.0, "reopen_s": 2.0, "recall_at_5": 0.98}


def _opener(engine: str, folder: Path) -> Callable[[], Any]:
    if engine == "edge":
        from bookchat.vectorstore.edge_store import EdgeStore

        return lambda: EdgeStore.open(folder, "bench", DIMENSIONS)
    from bookchat.vectorstore.qdrant_client_store import QdrantClientStore

    return lambda: QdrantClientStore.open_local(folder, "bench", DIMENSIONS)


def run_engine(
    engine: str, sizes: list[int], budget_s: float, *, e2e: bool = False, warm_cap_s: float = 0
) -> Json:
    """Load the library into one engine in batches, measuring at each size in `sizes`.

    With `e2e` (edge only), the largest store also gets a catalog and is then served by
    `bookchat serve` for the HTTP measurement (see run_e2e).
    """
    chunks = load_chunks()
    real, _ = real_vectors(chunks)
    sentences, _ = real_sentence_vectors(chunks)
    lib = Library(chunks, real, sentences, max(sizes))
    baseline = process_memory()
    tmp = Path(tempfile.mkdtemp(prefix=f"bookchat-scale-{engine}-"))
    folder = tmp / engine
    open_store = _opener(engine, folder)
    result: Json = {"rss_baseline_mb": baseline["rss_mb"], "checkpoints": []}
    started = time.perf_counter()
    store = open_store()
    try:
        loaded = 0
        for size in sizes:
            load_s = 0.0
            for start in range(loaded, size, BATCH):
                batch = lib.points(start, min(start + BATCH, size))
                t0 = time.perf_counter()  # only the store's work; building payloads is ours
                store.upsert(batch)
                load_s += time.perf_counter() - t0
            added, loaded = size - loaded, size
            log(f"{engine}: {size} points loaded ({added / load_s:.0f} pts/s); measuring")
            point: Json = {"points": size, "count": store.count()}
            point["upsert_points_per_s"] = round(added / load_s, 1)
            small = lib.points(0, 20)  # re-upserting 20 existing chunks: an incremental re-ingest
            t0 = time.perf_counter()
            store.upsert(small)
            point["small_upsert_20_ms"] = round((time.perf_counter() - t0) * 1000, 2)
            point.update(measure(store, lib, size))
            point.update(disk_usage(folder))
            t0 = time.perf_counter()
            store.close()
            store = open_store()
            store.search(lib.queries[0].tolist(), limit=LIMIT)
            point["reopen_s"] = round(time.perf_counter() - t0, 3)
            point.update(process_memory())
            result["checkpoints"].append(point)
            log(f"{engine}: {json.dumps(point)}")
            elapsed = time.perf_counter() - started
            nxt = next((s for s in sizes if s > size), None)
            # Loading and measuring grow at least linearly with size for the slow engine.
            if nxt is not None and elapsed * nxt / size > budget_s:
                result["stopped_at"] = size
                result["note"] = (
                    f"stopped at {size} points: {nxt} would take about "
                    f"{elapsed * nxt / size / 60:.0f} min (> {budget_s / 60:.0f} min budget)"
                )
                log(f"{engine}: {result['note']}")
                break
        if e2e and engine == "edge" and loaded == max(sizes):
            store.write_catalog(catalog(loaded))
            store.close()  # the server must own the folder lock
            try:
                result["e2e"] = run_e2e(tmp, "bench", lib, loaded, warm_cap_s)
            except Exception as exc:  # keep the store-level figures; say what went wrong
                log(f"e2e failed: {exc}")
                result["e2e"] = {"error": f"{type(exc).__name__}: {exc}"}
        elif e2e:
            result["e2e"] = {"skipped": "end to end runs only for edge at the largest size"}
    finally:
        store.close()
        shutil.rmtree(tmp, ignore_errors=True)
    result["elapsed_s"] = round(time.perf_counter() - started, 1)
    last = result["checkpoints"][-1]
    if last["points"] == max(sizes):
        result["targets"] = {
            "chapter_p95_ms": [last["search_chapter"]["p95_ms"], TARGETS["chapter_p95_ms"]],
            "reopen_s": [last["reopen_s"], TARGETS["reopen_s"]],
            "recall_at_5": [last["recall_at_5"], TARGETS["recall_at_5"]],
        }
        result["meets_targets"] = (
            last["search_chapter"]["p95_ms"] <= TARGETS["chapter_p95_ms"]
            and last["reopen_s"] <= TARGETS["reopen_s"]
            and last["recall_at_5"] >= TARGETS["recall_at_5"]
        )
    return result


# ---------------------------------------------------------------------------- driver


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark for the chosen engines and print one JSON object."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--engine", choices=("edge", "local", "all"), default="all")
    parser.add_argument("--sizes", default="1000,10000,50000", help="comma-separated checkpoints")
    parser.add_argument(
        "--budget-s", type=float, default=600.0, help="per engine; skip a size that would overrun"
    )
    parser.add_argument(
        "--e2e",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="edge only: also measure POST /api/query through `bookchat serve` at the largest size",
    )
    parser.add_argument(
        "--warm-cap-s", type=float, default=WARM_CAP_S, help="e2e: longest wait for a warm cache"
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    sizes = sorted(int(s) for s in args.sizes.split(","))
    if args.child:
        result = run_engine(
            args.engine, sizes, args.budget_s, e2e=args.e2e, warm_cap_s=args.warm_cap_s
        )
        print(json.dumps(result))
        return
    started = time.perf_counter()
    chunks = load_chunks()
    _, cache = real_vectors(chunks)  # embed once here, so the children only read the cache
    _, sentence_cache = real_sentence_vectors(chunks)
    engines = ["edge", "local"] if args.engine == "all" else [args.engine]
    report: Json = {
        "corpus": {
            "real_chunks": len(chunks),
            "sources": [str(p.resolve().relative_to(ROOT.parent)) for p in CORPORA],
            **cache,
            **sentence_cache,
        },
        "synthetic": {
            "points": max(sizes),
            "chapters": CHAPTERS,
            "vectors": "normalised random mixtures of 2-3 real MiniLM vectors",
            "sentence_vectors": "the real ones of the paragraph whose text the chunk carries",
            "batch": BATCH,
        },
        "queries": {"count": QUERIES, "limit": LIMIT, "kind": "real vectors + small noise"},
        "targets_at_50k": TARGETS,
        "e2e_targets_at_50k": E2E_TARGETS if args.e2e and "edge" in engines else None,
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            # Other work on the machine skews the timings; the load average says how much.
            "load_avg_1m_at_start": round(os.getloadavg()[0], 2),
        },
        "engines": {},
    }
    for engine in engines:
        log(f"running {engine}")
        cmd = [sys.executable, __file__, "--child", "--engine", engine, "--sizes", args.sizes]
        cmd += ["--budget-s", str(args.budget_s), "--warm-cap-s", str(args.warm_cap_s)]
        cmd += ["--e2e" if args.e2e and engine == "edge" else "--no-e2e"]
        done = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, check=False)
        if done.returncode != 0:
            report["engines"][engine] = {"error": f"exited with {done.returncode}"}
            continue
        report["engines"][engine] = json.loads(done.stdout.strip().splitlines()[-1])
    report["machine"]["load_avg_1m_at_end"] = round(os.getloadavg()[0], 2)
    report["elapsed_s"] = round(time.perf_counter() - started, 1)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
