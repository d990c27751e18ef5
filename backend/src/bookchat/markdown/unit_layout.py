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
# vectors are reused). 3: role-tagged answer units (list items read with the lead-in that
# announces them) instead of plain sentences. 4: a bold numbered step ("**1. Missing X**:")
# keeps its number with its text instead of losing it and breaking its bold. 5: an end mark
# inside inline code (`fixup! Add invoice model`) no longer ends a sentence, and a sentence opening
# on a pronoun keeps the one it leans on (`Unit.before`). 6: a piece with a backtick joins an
# open code span even when it opens another (`fixup! X`; `squash! X`). 7: a closing quote or
# bracket stays with its sentence, and no sentence ends after an initial ("John B. Weller"), a
# title ("Dr.") or "e.g.". 8: a nested list item is read with the item above it when that item
# announces it ("3. **Install space**:"), and a list keeps its lead-in across blank lines.
SENTENCE_LAYOUT = 8


def chunk_sentences(payload: Mapping[str, Any]) -> list[str]:
    """The texts of a chunk's units that its stored rows stand for, in row order."""
    return [unit.plain for unit in payload_units(payload)]
