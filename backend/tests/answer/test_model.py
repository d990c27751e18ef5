"""The learned model: fitting is deterministic, predictions follow the weights by name."""

from __future__ import annotations

import numpy as np

from bookchat.answer.features import FEATURES
from bookchat.answer.model import COVERAGE_FEATURES, Logistic, default_model, fit_logistic


def _problem() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    x = rng.normal(size=(400, 2))
    y = (x[:, 0] - 0.5 * x[:, 1] + rng.normal(scale=0.3, size=400) > 0).astype(float)
    return np.column_stack([np.ones(400), x]), y


def test_fitting_separates_a_learnable_problem_and_is_deterministic() -> None:
    x, y = _problem()
    first = fit_logistic(("bias", "a", "b"), x, y)
    again = fit_logistic(("bias", "a", "b"), x, y)
    assert np.array_equal(first.weights, again.weights)
    accuracy = ((first.predict(x) >= 0.5) == (y == 1)).mean()
    assert accuracy > 0.9
    assert first.weights[1] > 0 > first.weights[2]


def test_weights_are_placed_by_name_and_unknown_features_weigh_nothing() -> None:
    x, y = _problem()
    fitted = fit_logistic(("bias", "a", "b"), x, y)
    reordered = Logistic.from_json(fitted.to_json(), ("b", "new", "bias", "a"))
    rows = np.column_stack([x[:, 2], np.full(400, 9.0), x[:, 0], x[:, 1]])
    assert np.allclose(reordered.predict(rows), fitted.predict(x), atol=1e-4)


def test_the_committed_model_covers_every_feature_and_has_calibrated_thresholds() -> None:
    model = default_model()
    assert model.scorer.names == FEATURES and model.coverage.names == COVERAGE_FEATURES
    assert 0 < model.coverage_threshold < 1 and 0 < model.span_threshold < 1
    assert model.trained_on.get("data"), "model.json says what it was trained on"
