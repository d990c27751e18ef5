"""The learned answer model: which unit answers a question, and whether the book covers it.

Two logistic regressions, trained by `backend/training/train.py` on public data only (never the
evaluation rows) and committed as `model.json`: a unit scorer over answer/features.py and a
coverage model over what the best passage offers. Prediction is a dot product: no library.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
from numpy.typing import NDArray

COVERAGE_FEATURES: tuple[str, ...] = (
    "bias",
    "best_score",
    "best_score_margin",
    "best_sim",
    "passage_sim",
    "heading_sim",
    "best_lex",
    "passage_lex",
    "unseen_share",
    "missing_terms",
    "selection",
)


@dataclass(frozen=True, slots=True)
class Logistic:
    """A standardised logistic regression stored by feature name."""

    names: tuple[str, ...]
    weights: NDArray[np.float64]
    mean: NDArray[np.float64]
    scale: NDArray[np.float64]

    def predict(self, rows: NDArray[np.float64]) -> NDArray[np.float64]:
        """P(positive) of every row (columns in `names` order)."""
        if rows.size == 0:
            return np.zeros(len(rows))
        z = ((rows - self.mean) / self.scale) @ self.weights
        return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (weights by name)."""
        return {
            "features": list(self.names),
            "weights": [round(float(w), 6) for w in self.weights],
            "mean": [round(float(m), 6) for m in self.mean],
            "scale": [round(float(s), 6) for s in self.scale],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], names: Sequence[str]) -> Logistic:
        """Load weights, placed by name into today's feature order (unknown names weigh 0)."""
        by_name = {
            n: (w, m, s)
            for n, w, m, s in zip(
                data["features"], data["weights"], data["mean"], data["scale"], strict=True
            )
        }
        rows = [by_name.get(n, (0.0, 0.0, 1.0)) for n in names]
        return cls(
            tuple(names),
            np.array([r[0] for r in rows], dtype=np.float64),
            np.array([r[1] for r in rows], dtype=np.float64),
            np.array([r[2] or 1.0 for r in rows], dtype=np.float64),
        )


@dataclass(frozen=True, slots=True)
class AnswerModel:
    """The unit scorer, the coverage models and the thresholds fitted with them. A selection has
    its own coverage model: with no heading or retrieval behind it, the features mean something
    else."""

    scorer: Logistic
    coverage: Logistic
    coverage_threshold: float  # P(covered) below this: decline
    span_threshold: float  # best unit score below this: answer with the passage, not a span
    trained_on: dict[str, Any]
    selection_coverage: Logistic | None = None
    selection_threshold: float = 0.5
    # P(the book comes close to the question) over related.CLOSENESS_FEATURES, and the
    # threshold below which nothing is shown: no answer and no related sections.
    closeness: Logistic | None = None
    close_threshold: float = 0.0

    def close(self, row: NDArray[np.float64]) -> bool:
        """True when the book comes close enough to the question to show where."""
        if self.closeness is None:
            return True
        return float(self.closeness.predict(row.reshape(1, -1))[0]) >= self.close_threshold

    def covered(self, features: NDArray[np.float64]) -> float:
        """P(the passages cover the question), from one row of COVERAGE_FEATURES."""
        model = self.coverage
        if self.selection_coverage is not None and _is_selection(features):
            model = self.selection_coverage
        return float(model.predict(features.reshape(1, -1))[0])

    def threshold(self, features: NDArray[np.float64]) -> float:
        """The calibrated P(covered) threshold for the mode this coverage row belongs to."""
        if self.selection_coverage is not None and _is_selection(features):
            return self.selection_threshold
        return self.coverage_threshold


def _is_selection(features: NDArray[np.float64]) -> bool:
    return bool(features[COVERAGE_FEATURES.index("selection")] > 0)


def load_model(data: dict[str, Any]) -> AnswerModel:
    """The model from its JSON form."""
    from bookchat.answer.features import FEATURES
    from bookchat.answer.related import CLOSENESS_FEATURES

    selection = data.get("selection_coverage")
    return AnswerModel(
        scorer=Logistic.from_json(data["scorer"], FEATURES),
        coverage=Logistic.from_json(data["coverage"], COVERAGE_FEATURES),
        coverage_threshold=float(data["coverage_threshold"]),
        span_threshold=float(data["span_threshold"]),
        trained_on=dict(data.get("trained_on", {})),
        selection_coverage=(
            Logistic.from_json(selection, COVERAGE_FEATURES) if selection else None
        ),
        selection_threshold=float(data.get("selection_threshold", data["coverage_threshold"])),
        closeness=(
            Logistic.from_json(data["closeness"], CLOSENESS_FEATURES)
            if "closeness" in data
            else None
        ),
        close_threshold=float(data.get("close_threshold", 0.0)),
    )


@cache
def default_model() -> AnswerModel:
    """The committed model (answer/model.json)."""
    text = resources.files("bookchat.answer").joinpath("model.json").read_text(encoding="utf-8")
    return load_model(json.loads(text))


def fit_logistic(
    names: Sequence[str],
    rows: NDArray[np.float64],
    labels: NDArray[np.float64],
    *,
    l2: float = 1.0,
    iterations: int = 50,
    weights: NDArray[np.float64] | None = None,
) -> Logistic:
    """L2-regularised logistic regression by Newton's method (deterministic, numpy only)."""
    mean = rows.mean(axis=0)
    scale = rows.std(axis=0)
    bias = [i for i, n in enumerate(names) if n == "bias"]
    mean[bias] = 0.0
    scale[bias] = 1.0
    scale[scale < 1e-9] = 1.0
    x = (rows - mean) / scale
    sample = np.ones(len(x)) if weights is None else weights
    w = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], l2)
    penalty[bias] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        gradient = x.T @ (sample * (p - labels)) + penalty * w
        hessian = (x * (sample * p * (1 - p))[:, None]).T @ x + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if math.sqrt(float(step @ step)) < 1e-8:
            break
    return Logistic(tuple(names), w, mean, scale)


def answer_model_version() -> str:
    """Short hash of the committed model: a retrained model is a new run version."""
    import hashlib

    text = resources.files("bookchat.answer").joinpath("model.json").read_bytes()
    return hashlib.sha256(text).hexdigest()[:8]
