"""Distance to the containing variety: true points on it, nearest point on it, brute-force minimum."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalgebra.data.point import evaluation_point
from evalgebra.data.sketch import Sketch
from evalgebra.errors import PointError, SpecError
from evalgebra.evaluators.dispatch import evaluate
from evalgebra.evaluators.independent.distance import containing_distance, containing_residuals
from evalgebra.generated import containing_variety
from evalgebra.results import Estimate
from evalgebra.spec import EnsembleSpec
from evalgebra.testing.strategies import labelled_tests

unit = st.floats(0.01, 0.99)


def _squared(t, estimate, sketch):
    first, second = sketch.labels
    counts = sketch.counts()
    q = sum(counts.values())
    total = (t - float(estimate.prevalence[first])) ** 2
    for i, c in enumerate(sketch.classifiers):
        m = sum(v for p, v in counts.items() if p[i] == second) / q
        a, b, g = containing_variety.line(t, m)
        h = a * float(estimate.accuracy[c][first]) + b * float(estimate.accuracy[c][second]) + g
        total += h * h / (a * a + b * b)
    return total


@given(labelled_tests(EnsembleSpec(3, 2, "complete"), min_items=2))
def test_containing_residuals_vanish_at_true_points(test):
    sketch = test.sketch()
    truth = evaluation_point(sketch)
    estimate = Estimate(
        truth.prevalence_of(),
        {c: {label: truth.accuracy(c, label) for label in sketch.labels} for c in sketch.classifiers},
    )
    if None in estimate.values():
        return
    assert set(containing_residuals(estimate, sketch).values()) == {Fraction(0)}
    assert containing_distance(estimate, sketch).distance == pytest.approx(0.0, abs=1e-7)


@given(
    labelled_tests(EnsembleSpec(4, 2, "complete"), min_items=4), unit, st.lists(unit, min_size=8, max_size=8)
)
def test_containing_distance_is_the_minimum_and_nearest_point_is_on_the_variety(test, p, accs):
    sketch = test.sketch().unlabelled()
    estimate = Estimate(
        {"a": p, "b": 1 - p},
        {c: {"a": accs[2 * i], "b": accs[2 * i + 1]} for i, c in enumerate(sketch.classifiers)},
    )
    result = containing_distance(estimate, sketch)
    for residual in containing_residuals(result.nearest, sketch).values():
        assert residual == pytest.approx(0.0, abs=1e-9)
    # the nearest point is at the reported distance
    gap = [float(result.nearest.prevalence["a"]) - p]
    for i, c in enumerate(sketch.classifiers):
        gap += [
            result.nearest.accuracy[c]["a"] - accs[2 * i],
            result.nearest.accuracy[c]["b"] - accs[2 * i + 1],
        ]
    assert np.hypot.reduce(gap) == pytest.approx(result.distance, rel=1e-6, abs=1e-9)
    # and no prevalence on a fine grid does better (brute force over t)
    grid = min(_squared(t, estimate, sketch) for t in np.linspace(-2, 3, 2001))
    assert result.distance**2 <= grid + 1e-9


def test_containing_distance_positive_for_a_correlated_ensemble():
    rng = np.random.default_rng(3)
    truth = rng.integers(0, 2, size=4000)
    shared = rng.random(4000) < 0.3  # a common failure on 30% of items: correlated errors
    decisions = np.empty((4000, 4), dtype=np.int64)
    for i in range(4):
        right = rng.random(4000) < 0.8
        decisions[:, i] = np.where(right & ~shared, truth, 1 - truth)
    sketch = Sketch.from_decisions(decisions, labels=["a", "b"])
    combined = evaluate(sketch, method="algebraic", fit=False).point  # the exact combination of the trios
    assert containing_distance(combined, sketch).distance > 1e-3


def test_containing_distance_rejects_bad_input():
    three = Sketch.from_decisions(np.array([[0, 1, 2], [2, 1, 0]]), labels=["a", "b", "c"])
    with pytest.raises(SpecError):
        containing_residuals(Estimate({"a": 0.5}, {}), three)
    two = Sketch.from_decisions(np.array([[0, 1, 1], [1, 1, 0]]), labels=["a", "b"])
    with pytest.raises(PointError):
        containing_distance(
            Estimate({"a": None, "b": None}, {c: {"a": 0.5, "b": 0.5} for c in two.classifiers}), two
        )


def test_containing_distance_says_what_it_expects():
    from evalgebra.errors import SketchError

    sketch = Sketch.from_counts({"aaa": 3, "abb": 2, "bbb": 4}, labels=["a", "b"])
    estimate = Estimate(
        {"a": Fraction(1, 2), "b": Fraction(1, 2)},
        {c: {"a": Fraction(3, 4), "b": Fraction(3, 4)} for c in sketch.classifiers},
    )
    with pytest.raises(SketchError, match=r"containing_distance needs a Sketch .*got NoneType"):
        containing_distance(estimate, None)
    with pytest.raises(PointError, match=r"containing_distance needs an Estimate .*got dict"):
        containing_distance({"a": 1}, sketch)
    nan = Estimate({"a": float("nan"), "b": 0.5}, estimate.accuracy)
    with pytest.raises(PointError, match=r"the estimate holds nan, not a finite real number"):
        containing_distance(nan, sketch)
    junk = Estimate({"a": "x", "b": 0.5}, estimate.accuracy)
    with pytest.raises(PointError, match=r"the estimate holds 'x', not a finite real number"):
        containing_residuals(junk, sketch)
