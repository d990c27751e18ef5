"""Confidence (0-1) from the support score of the best answer sentence; formula in decisions.md."""

from __future__ import annotations

# Support at which confidence reaches 1: a sentence that nearly restates the question.
FULL_SUPPORT = 0.85


def confidence(best_support: float, min_support: float) -> float:
    """0.5 exactly at the abstention threshold, linear to 0 below it and to 1 at FULL_SUPPORT."""
    if best_support <= 0:
        return 0.0
    if best_support < min_support:
        value = 0.5 * best_support / min_support if min_support > 0 else 0.0
    else:
        span = max(FULL_SUPPORT - min_support, 1e-6)
        value = 0.5 + 0.5 * (best_support - min_support) / span
    return round(min(1.0, max(0.0, value)), 3)
