"""What to do when an Edge store is opened on an index of an older layout.

Two older layouts exist: the qdrant-client folder of the first embedded engine (left alone, the
next ingest rebuilds into `<data>/edge`), and Edge shards made before each chunk stored its
sentence vectors (served as they are; the next ingest copies their points into a shard with the
`sentences` vector and swaps it in).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
from pathlib import Path

import qdrant_edge as qe

logger = logging.getLogger("bookchat.vectorstore")

# The folder name qdrant-client's embedded store used beside `<data>/edge` (see Settings.store_dir).
OLD_LAYOUT_DIR = "qdrant"
# Beside `<data>/edge/<collection>` while a shard is rebuilt: the new shard, then the old one.
REBUILD_SUFFIX = ".rebuild"
REPLACED_SUFFIX = ".replaced"
_COPY_PAGE = 1_000


def warn_if_old_layout(edge_dir: Path) -> bool:
    """Log once that an old qdrant-client index will be rebuilt; True if one was found."""
    # Converting segments between engines is not worth the risk: ingest re-embeds into the new,
    # empty store, and the old folder is left untouched so switching back still works.
    old = edge_dir.parent / OLD_LAYOUT_DIR
    if edge_dir.exists() or not old.is_dir():
        return False
    logger.warning(
        "Found an index from the older embedded engine at %s; it is not converted and will be "
        "rebuilt in %s by the next ingest (the old folder is left as it is).",
        old,
        edge_dir,
    )
    return True


def has_vector(shard_dir: Path, name: str) -> bool:
    """Whether the shard in `shard_dir` has the named vector (a shard not made yet will have)."""
    try:
        saved = json.loads((shard_dir / "edge_config.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        return True
    except (OSError, ValueError):
        return True  # unreadable: loading it with the current config reports the real problem
    return name in saved.get("vectors", {})


def warn_without_sentences(shard_dir: Path) -> None:
    """Log that a shard predates stored sentence vectors and what the next ingest will do."""
    logger.warning(
        "The index at %s was built before sentence vectors were stored with each chunk: answers "
        "embed the sentences they need on the fly (slower) until the next `bookchat ingest`, "
        "which rebuilds it once, keeping its chunk vectors, and embeds only the sentences.",
        shard_dir,
    )


def _sibling(shard_dir: Path, suffix: str) -> Path:
    return shard_dir.with_name(shard_dir.name + suffix)


def finish_interrupted_rebuild(shard_dir: Path) -> None:
    """Complete or undo a rebuild that a crash interrupted, so the shard folder is whole."""
    rebuilt, replaced = _sibling(shard_dir, REBUILD_SUFFIX), _sibling(shard_dir, REPLACED_SUFFIX)
    if not shard_dir.exists() and replaced.exists() and rebuilt.exists():
        # Stopped between the two renames: the new shard was complete (closed before them).
        os.rename(rebuilt, shard_dir)
    if shard_dir.exists():
        # A copy that never finished, or an old shard that was already replaced.
        shutil.rmtree(rebuilt, ignore_errors=True)
        shutil.rmtree(replaced, ignore_errors=True)


def rebuild_shard(old: qe.EdgeShard, shard_dir: Path, config: qe.EdgeConfig) -> qe.EdgeShard:
    """Copy the points of `old` (in `shard_dir`) into a new shard with `config`, swap it in."""
    logger.warning(
        "Rebuilding the index at %s once so that it stores sentence vectors: chunk vectors are "
        "copied, sentences are embedded by this ingest; questions wait until the copy is done.",
        shard_dir,
    )
    rebuilt, replaced = _sibling(shard_dir, REBUILD_SUFFIX), _sibling(shard_dir, REPLACED_SUFFIX)
    shutil.rmtree(rebuilt, ignore_errors=True)
    new = qe.EdgeShard.create(str(rebuilt), config)
    try:
        offset = None
        while True:
            page = qe.ScrollRequest(
                offset=offset, limit=_COPY_PAGE, with_payload=True, with_vector=True
            )
            records, offset = old.scroll(page)
            if records:
                points = [qe.Point(r.id, r.vector or {}, r.payload) for r in records]
                new.update(qe.UpdateOperation.upsert_points(points))
            if offset is None:
                break
        new.optimize()  # one HNSW build for all the copied points
        new.flush()
    finally:
        new.close()
    old.flush()
    old.close()
    # Two renames, not one atomic swap: finish_interrupted_rebuild completes a crash in between.
    os.rename(shard_dir, replaced)
    os.rename(rebuilt, shard_dir)
    shutil.rmtree(replaced, ignore_errors=True)
    return qe.EdgeShard.load(str(shard_dir), config)
