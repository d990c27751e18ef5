"""What to do when an Edge store is opened where only the older qdrant-client folder exists."""

from __future__ import annotations

import logging
from pathlib import Path

logger = logging.getLogger("bookchat.vectorstore")

# The folder name qdrant-client's embedded store used beside `<data>/edge` (see Settings.store_dir).
OLD_LAYOUT_DIR = "qdrant"


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
