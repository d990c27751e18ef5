"""Declining and trusting: confidence is 0.5 at the threshold, monotone, within 0-1."""

from __future__ import annotations

from bookchat.answer.decline import FULL_SUPPORT, confidence


def test_half_at_the_threshold_and_bounded() -> None:
    assert confidence(0.45, 0.45) == 0.5
    assert confidence(0.0, 0.45) == 0.0
    assert confidence(FULL_SUPPORT, 0.45) == 1.0
    assert confidence(5.0, 0.45) == 1.0


def test_monotone_in_support() -> None:
    values = [confidence(s / 100, 0.45) for s in range(0, 101)]
    assert values == sorted(values)
    assert all(0.0 <= v <= 1.0 for v in values)
