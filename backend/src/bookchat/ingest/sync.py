"""Incremental sync: make the store hold exactly the corpus, embedding only what changed.

The store itself is the record of what is indexed (each point carries its content and text
hashes), so there is no side file to go stale: an interrupted run leaves some points written and
some not, and the next run's diff picks up exactly the remainder. Point ids derive from chunk ids,
so re-upserting is idempotent and there are never duplicates. The catalog is written last.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from bookchat.ingest.chunk_vectors import ChunkVectors, embed_missing, reuse
from bookchat.ingest.corpus import Chunk, Corpus
from bookchat.ingest.pages import Skipped
from bookchat.retrieval.embedder import MODEL_NAME, Embedder
from bookchat.retrieval.sparse import sparse_document
from bookchat.vectorstore import Point, VectorStore

_BATCH = 64


@dataclass(slots=True)
class SyncPlan:
    """What a sync has to do."""

    add: list[Chunk]
    update: list[Chunk]
    delete: list[str]
    unchanged: int


@dataclass(slots=True)
class SyncReport:
    """What a sync did (or, for a dry run, would do)."""

    files_scanned: int
    pages: int
    skipped: list[Skipped]
    added: int
    updated: int
    deleted: int
    unchanged: int
    embedded: int
    reused_vectors: int
    corpus_version: str
    dry_run: bool
    seconds: float = 0.0
    model_loaded: bool = False
    embedded_sentences: int = 0  # distinct sentences embedded for the chunks written
    changes: list[dict[str, str]] = field(default_factory=list)

    def summary(self) -> str:
        """One plain line for logs and non-terminal output."""
        verb = "would be" if self.dry_run else ""
        return (
            f"files scanned {self.files_scanned}, pages {self.pages}, skipped {len(self.skipped)}; "
            f"chunks added {self.added}, updated {self.updated}, deleted {self.deleted}, "
            f"unchanged {self.unchanged}{' (' + verb.strip() + ')' if verb else ''}; "
            f"embedded {self.embedded} (sentences {self.embedded_sentences}); "
            f"corpus {self.corpus_version}; {self.seconds:.2f} s"
        )

    def to_json(self) -> dict[str, Any]:
        """The report as JSON-ready data."""
        data = asdict(self)
        data["skipped"] = [{"path": s.path, "reason": s.reason} for s in self.skipped]
        return data


def plan_sync(
    corpus: Corpus, stored: dict[str, tuple[str, str]], *, full: bool = False
) -> SyncPlan:
    """Diff the wanted chunks against the stored fingerprints."""
    wanted = {chunk.chunk_id: chunk for chunk in corpus.chunks}
    add = [c for cid, c in wanted.items() if cid not in stored]
    update = [
        c
        for cid, c in wanted.items()
        if cid in stored and (full or stored[cid][0] != c.content_hash)
    ]
    delete = [cid for cid in stored if cid not in wanted]
    unchanged = len(wanted) - len(add) - len(update)
    return SyncPlan(add=add, update=update, delete=delete, unchanged=unchanged)


@contextmanager
def _progress(total: int, enabled: bool) -> Iterator[Callable[[int], None]]:
    if not enabled or total == 0:
        yield lambda _n: None
        return
    from tqdm import tqdm

    with tqdm(total=total, unit="chunk", desc="Embedding", file=sys.stderr) as bar:
        yield bar.update


def _describe(plan: SyncPlan) -> list[dict[str, str]]:
    rows = [{"change": "add", "url": c.payload["url"], "chunk_id": c.chunk_id} for c in plan.add]
    rows += [
        {"change": "update", "url": c.payload["url"], "chunk_id": c.chunk_id} for c in plan.update
    ]
    rows += [{"change": "delete", "url": "", "chunk_id": cid} for cid in plan.delete]
    return rows


def _points(batch: Sequence[ChunkVectors], version: str) -> list[Point]:
    points = []
    for item in batch:
        chunk = item.chunk
        assert item.dense is not None  # only complete chunks are written
        points.append(
            Point(
                chunk_id=chunk.chunk_id,
                vector=item.dense,
                payload={**chunk.payload, "chunk_id": chunk.chunk_id, "corpus_version": version},
                sparse=sparse_document(chunk.embed_text),
                sentences=item.sentences,
            )
        )
    return points


def sync_corpus(
    corpus: Corpus,
    store: VectorStore,
    embedder: Callable[[], Embedder],
    *,
    dry_run: bool = False,
    full: bool = False,
    progress: bool = False,
) -> SyncReport:
    """Bring the store in line with the corpus; the embedder is only created if something is new."""
    started = time.perf_counter()
    if not dry_run:
        # An index from before stored sentence vectors gains room for them; its points keep
        # their dense vectors, and the plan below rewrites them all (their payloads lack the
        # sentence layout marker, so every content hash differs).
        store.upgrade_layout()
    stored = store.fingerprints()
    plan = plan_sync(corpus, stored, full=full)
    todo = plan.add + plan.update
    # A chunk whose embedded text already has a vector (moved, renamed, payload-only edit)
    # reuses it, and its sentence vectors, instead of running the model again.
    text_owner = {text_hash: cid for cid, (_, text_hash) in stored.items()}
    reusable = [] if full else [c for c in todo if c.text_hash in text_owner]
    reused_ids = {c.chunk_id for c in reusable}
    to_embed = [ChunkVectors(c) for c in todo if c.chunk_id not in reused_ids]
    report = SyncReport(
        files_scanned=corpus.files_scanned,
        pages=sum(len(ch.pages) for ch in corpus.chapters),
        skipped=corpus.skipped,
        added=len(plan.add),
        updated=len(plan.update),
        deleted=len(plan.delete),
        unchanged=plan.unchanged,
        embedded=len(to_embed),
        reused_vectors=len(reusable),
        corpus_version=corpus.version,
        dry_run=dry_run,
        changes=_describe(plan),
    )
    if dry_run:
        report.seconds = time.perf_counter() - started
        return report

    for start in range(0, len(reusable), _BATCH):
        found = reuse(store, reusable[start : start + _BATCH], text_owner)
        store.upsert(_points([f for f in found if f.complete], corpus.version))
        to_embed.extend(f for f in found if not f.complete)

    report.embedded = 0
    if to_embed:
        model = embedder()
        with _progress(len(to_embed), progress) as advance:
            for start in range(0, len(to_embed), _BATCH):
                batch = to_embed[start : start + _BATCH]
                chunks, sentences = embed_missing(model, batch)
                store.upsert(_points(batch, corpus.version))
                report.embedded += chunks
                report.embedded_sentences += sentences
                advance(len(batch))
        report.model_loaded = True
    report.reused_vectors = len(todo) - report.embedded

    for start in range(0, len(plan.delete), 1_000):
        store.delete(plan.delete[start : start + 1_000])

    store.write_catalog(
        {
            "corpus_version": corpus.version,
            "indexed_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "chunks": len(corpus.chunks),
            "embedding_model": MODEL_NAME,
            "chapters": [chapter.to_json() for chapter in corpus.chapters],
        }
    )
    report.seconds = time.perf_counter() - started
    return report
