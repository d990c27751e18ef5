"""How a selection is kept: its start, at most SELECTION_MAX_CHARS, flagged when cut."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bookchat.history.records import SELECTION_MAX_CHARS, clip_selection


@given(st.text(max_size=SELECTION_MAX_CHARS * 2))
def test_a_clipped_selection_is_the_start_of_the_original(selection: str) -> None:
    kept, cut = clip_selection(selection)
    assert kept is not None
    assert selection.startswith(kept)
    assert len(kept) == min(len(selection), SELECTION_MAX_CHARS)
    assert cut == (len(selection) > SELECTION_MAX_CHARS)


def test_no_selection_stays_none() -> None:
    assert clip_selection(None) == (None, False)
