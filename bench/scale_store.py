"""Store-level figures of bench/scale.py: search latency, recall@5 against brute force, disk."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from harness import percentiles
from scale_library import QUERIES, Json, Library

LIMIT = 5
# Per latency measurement: stop early when a slow engine has used this much time (n is reported).
MEASURE_BUDGET_S = 25.0


def disk_usage(folder: Path) -> Json:
    """Bytes the store's folder holds on disk, and its apparent size."""
    allocated = apparent = 0
    for dirpath, _, files in os.walk(folder):
        for name in files:
            st = os.lstat(os.path.join(dirpath, name))
            allocated += st.st_blocks * 512
            apparent += st.st_size
    # Edge preallocates sparse mmap files, so the apparent size overstates what the disk holds.
    return {"disk_bytes": allocated, "disk_apparent_bytes": apparent}


def _latency(run: Callable[[int], Any], n: int) -> Json:
    for i in range(min(5, n)):
        run(i)  # warm caches
    times = []
    started = time.perf_counter()
    for i in range(n):
        t0 = time.perf_counter()
        run(i)
        times.append(time.perf_counter() - t0)
        if time.perf_counter() - started > MEASURE_BUDGET_S:
            break
    return percentiles([t * 1000 for t in times], unit="_ms", digits=3, count="queries")


def _exact_top(vectors: np.ndarray, queries: np.ndarray, mask: np.ndarray | None) -> np.ndarray:
    scores = queries @ vectors.T
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    return np.argsort(-scores, axis=1)[:, :LIMIT]


def _recall(found: Sequence[list[int]], exact: np.ndarray) -> float:
    hits = [len(set(f) & set(exact[i].tolist())) / LIMIT for i, f in enumerate(found)]
    return round(float(np.mean(hits)), 4)


def measure(store: Any, lib: Library, n: int) -> Json:
    """Search/hybrid latency and recall@5 against brute force, over the first n points."""
    chapters = [lib.chapter((qi * 7_919) % n) for qi in range(QUERIES)]
    book_found: list[list[int]] = []
    chapter_found: list[list[int]] = []

    def ids(hits: Sequence[Any]) -> list[int]:
        return [int(h.chunk_id.removeprefix("syn-")) for h in hits]

    def book(i: int) -> None:
        book_found.append(ids(store.search(lib.queries[i].tolist(), limit=LIMIT)))

    def chapter(i: int) -> None:
        hits = store.search(lib.queries[i].tolist(), limit=LIMIT, where={"chapter": chapters[i]})
        chapter_found.append(ids(hits))

    def hybrid(i: int) -> None:
        store.hybrid_search(lib.queries[i].tolist(), lib.query_sparse[i], limit=LIMIT)

    book_latency = _latency(book, QUERIES)
    book_found = book_found[5:]  # the warm-up calls come first; drop them
    chapter_latency = _latency(chapter, QUERIES)
    chapter_found = chapter_found[5:]
    hybrid_latency = _latency(hybrid, QUERIES)
    vectors = lib.vectors[:n]
    exact = _exact_top(vectors, lib.queries[: len(book_found)], None)
    point_chapters = np.asarray([lib.chapter(i) for i in range(n)])
    mask = point_chapters[None, :] == np.asarray(chapters[: len(chapter_found)])[:, None]
    exact_chapter = _exact_top(vectors, lib.queries[: len(chapter_found)], mask)
    return {
        "search_book": book_latency,
        "search_chapter": chapter_latency,
        "hybrid_book": hybrid_latency,
        "recall_at_5": _recall(book_found, exact),
        "recall_at_5_chapter": _recall(chapter_found, exact_chapter),
        "recall_queries": len(book_found),
    }
