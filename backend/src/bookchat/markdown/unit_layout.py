"""The layout of the unit rows ingest stores: which version of the unit parser they stand for.

Ingest stores with every chunk one vector per answer unit of its payload (`payload_units`), in
that order, and marks the payload with SENTENCE_LAYOUT. Answers use the rows only while the
marker and the number of rows agree with the units the payload holds today
(`vectorstore.base.usable_rows`); otherwise the units are embedded on the fly
(bookchat.retrieval.sentence_vectors), so a changed parser costs time, never a wrong vector.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bookchat.markdown.units import payload_units

# Bump whenever the units of a chunk may change for the same text: the marker is part of every
# payload, so each point's content hash changes and the next ingest re-embeds the units (chunk
# vectors are reused). What each version changed is in git history.
SENTENCE_LAYOUT = 8


def chunk_sentences(payload: Mapping[str, Any]) -> list[str]:
    """The texts of a chunk's units that its stored rows stand for, in row order."""
    return [unit.plain for unit in payload_units(payload)]
