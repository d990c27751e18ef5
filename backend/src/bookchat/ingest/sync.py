"""Incremental sync: make the store hold exactly the corpus, embedding only what changed.

The store itself is the record of what is indexed (each point carries its content and text
hashes), so there is no side file to go stale: an interrupted run leaves some points written and
some not, and the next run's diff picks up exactly the remainder. Point ids derive from chunk ids,
so re-upserting is idempotent and there are never duplicates. The catalog is written last.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bookchat.embedding.embedder import MAX_TOKENS, MODEL_NAME, Embedder
from bookchat.ingest.chunk_vectors import ChunkVectors, Memo, embed_missing, reuse
from bookchat.ingest.corpus import Chunk, Corpus
from bookchat.ingest.report import SyncReport, edition_of, tally
from bookchat.ingest.tokens import model_pieces
from bookchat.markdown.unit_layout import chunk_sentences
from bookchat.vectorstore import Point, VectorStore
from bookchat.vectorstore.sparse import sparse_document

_BATCH = 64

# Word pieces the model reads of each of some texts (see count_pieces).
PieceCounter = Callable[[Sequence[str]], Mapping[str, int]]


def count_pieces(texts: Sequence[str]) -> Mapping[str, int]:
    """Word pieces the model reads of each distinct text: at most MAX_TOKENS, the rest is cut."""
    return model_pieces(texts, MAX_TOKENS)


@dataclass(slots=True)
class SyncPlan:
    """What a sync has to do."""

    add: list[Chunk]
    update: list[Chunk]
    delete: list[str]
    unchanged: int


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

    # Word pieces, not chunks: the model's time goes by pieces, so the rate and ETA hold even
    # when short chunks (a glossary) come before long ones (code).
    with tqdm(total=total, unit="piece", unit_scale=True, desc="Embedding", file=sys.stderr) as bar:
        yield bar.update


def _describe(plan: SyncPlan, deleted: dict[str, str]) -> list[dict[str, str]]:
    rows = [
        {
            "change": kind,
            "url": c.payload["url"],
            "chunk_id": c.chunk_id,
            "edition": edition_of(c.payload),
        }
        for kind, chunks in (("add", plan.add), ("update", plan.update))
        for c in chunks
    ]
    rows += [
        {"change": "delete", "url": "", "chunk_id": cid, "edition": deleted[cid]}
        for cid in plan.delete
    ]
    return rows


def _deleted_editions(store: VectorStore, plan: SyncPlan, default_locale: str) -> dict[str, str]:
    """chunk id -> edition of every point the sync deletes (read from its stored payload)."""
    found: dict[str, str] = {}
    for start in range(0, len(plan.delete), 1_000):
        ids = plan.delete[start : start + 1_000]
        payloads = store.payloads(ids)
        for cid in ids:
            found[cid] = edition_of(payloads.get(cid, {}), default_locale)
    return found


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
    pieces: PieceCounter = count_pieces,
    catalog_fields: Callable[[], Mapping[str, Any]] | None = None,
) -> SyncReport:
    """Bring the store in line with the corpus; the embedder is only created if something is new.
    `pieces` and `catalog_fields` may hand in what another process computed for the corpus."""
    started = time.perf_counter()
    if not dry_run:
        # An index from before stored sentence vectors gains room for them; its points keep
        # their dense vectors, and the plan below rewrites them all (their payloads lack the
        # sentence layout marker, so every content hash differs).
        store.upgrade_layout()
    stored = store.fingerprints()
    plan = plan_sync(corpus, stored, full=full)
    todo = plan.add + plan.update
    # A chunk whose embedded text already has a vector (moved, renamed, payload-only edit, the
    # same text in another edition) reuses it, and its sentence vectors, instead of running the
    # model again.
    text_owner = {text_hash: cid for cid, (_, text_hash) in stored.items()}
    reusable = [] if full else [c for c in todo if c.text_hash in text_owner]
    reused_ids = {c.chunk_id for c in reusable}
    to_embed = [ChunkVectors(c) for c in todo if c.chunk_id not in reused_ids]
    deleted = _deleted_editions(store, plan, corpus.default_locale)
    report = SyncReport(
        files_scanned=corpus.files_scanned,
        pages=sum(len(ch.pages) for e in corpus.editions for ch in e.chapters),
        skipped=corpus.skipped,
        added=len(plan.add),
        updated=len(plan.update),
        deleted=len(plan.delete),
        unchanged=plan.unchanged,
        embedded=len({c.chunk.text_hash for c in to_embed}),
        reused_vectors=len(reusable),
        corpus_version=corpus.version,
        dry_run=dry_run,
        changes=_describe(plan, deleted),
    )
    embedded_in: list[str] = []
    if not dry_run:
        for start in range(0, len(reusable), _BATCH):
            found = reuse(store, reusable[start : start + _BATCH], text_owner)
            store.upsert(_points([f for f in found if f.complete], corpus.version))
            to_embed.extend(f for f in found if not f.complete)
        report.embedded = 0
        if to_embed:
            _embed(
                store, embedder(), to_embed, corpus.version, report, embedded_in, progress, pieces
            )
        report.reused_vectors = len(todo) - report.embedded
        for start in range(0, len(plan.delete), 1_000):
            store.delete(plan.delete[start : start + 1_000])
        store.write_catalog(_catalog(corpus, catalog_fields))
    report.editions = tally(
        [(e.key, sum(len(ch.pages) for ch in e.chapters), e.chunks) for e in corpus.editions],
        {
            "added": [edition_of(c.payload) for c in plan.add],
            "updated": [edition_of(c.payload) for c in plan.update],
            "deleted": list(deleted.values()),
        },
        embedded_in if not dry_run else _first_editions(to_embed),
    )
    report.seconds = time.perf_counter() - started
    return report


def _first_editions(to_embed: list[ChunkVectors]) -> list[str]:
    """The edition that would embed each distinct text (its first chunk, in corpus order)."""
    first: dict[str, str] = {}
    for item in to_embed:
        first.setdefault(item.chunk.text_hash, edition_of(item.chunk.payload))
    return list(first.values())


def _embed(
    store: VectorStore,
    model: Embedder,
    to_embed: list[ChunkVectors],
    version: str,
    report: SyncReport,
    embedded_in: list[str],
    progress: bool,
    count: PieceCounter,
) -> None:
    # Batches in corpus order keep one edition's chunks together; the memo carries each text's
    # vector on to the next edition that repeats it.
    memo = Memo()
    texts = [_texts_to_embed(item) for item in to_embed]
    pieces = dict(count(list(dict.fromkeys(t for of in texts for t in of))))
    report.word_pieces = sum(pieces.values())
    model.expect(report.word_pieces)
    with _progress(report.word_pieces, progress) as advance:
        for start in range(0, len(to_embed), _BATCH):
            batch = to_embed[start : start + _BATCH]
            fresh = {item.chunk.embed_text for item in batch if item.dense is None}
            fresh = {t for t in fresh if memo.get(t) is None}
            chunks, sentences = embed_missing(model, batch, memo)
            store.upsert(_points(batch, version))
            for item in batch:
                if item.chunk.embed_text in fresh:
                    fresh.discard(item.chunk.embed_text)
                    embedded_in.append(edition_of(item.chunk.payload))
            report.embedded += chunks
            report.embedded_sentences += sentences
            advance(sum(pieces.pop(t, 0) for of in texts[start : start + _BATCH] for t in of))
    report.model_loaded = True


def _texts_to_embed(item: ChunkVectors) -> list[str]:
    """What the model reads for `item`: its text unless reused, its units unless reused."""
    return ([item.chunk.embed_text] if item.dense is None else []) + (
        chunk_sentences(item.chunk.payload) if item.sentences is None else []
    )


def _catalog(
    corpus: Corpus, fields: Callable[[], Mapping[str, Any]] | None = None
) -> dict[str, object]:
    return {
        "corpus_version": corpus.version,
        "indexed_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "chunks": len(corpus.chunks),
        "embedding_model": MODEL_NAME,
        # The default edition's chapters, where readers of an index before editions look.
        "chapters": [chapter.to_json() for chapter in corpus.chapters],
        **(fields() if fields is not None else corpus.catalog_fields()),
    }
