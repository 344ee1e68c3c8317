"""Derivations d05 (N = 3, R = 3; N = 4, R = 2) and d06 (Hui-Walter): committed results and closed form."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import assume, given

from evalgebra.data.simulate import expected_sketch
from evalgebra.groebner.backends import available_backends
from evalgebra.spec import EnsembleSpec
from evalgebra.testing.scripts import load_derivation
from evalgebra.testing.strategies import budget, rational_points

HUI_WALTER = EnsembleSpec(2, 2, populations=2)
CELLS = (("a", "a"), ("a", "b"), ("b", "a"), ("b", "b"))


d06 = load_derivation("d06_hui_walter")


def test_d05_matches_committed_result():
    # the committed text names the engine of part (a); flint's Buchberger does not finish it
    if "singular" not in available_backends():
        pytest.skip("d05 part (a) was produced with Singular, which is not installed here")
    assert load_derivation("d05_more_labels_and_classifiers").main(["--check"]) == 0


def test_d06_matches_committed_result():
    assert d06.main(["--check"]) == 0


def _frequencies(point):
    sketch = expected_sketch(point)
    return [
        [sketch.frequencies(pop).get(cell, Fraction(0)) for cell in CELLS] for pop in HUI_WALTER.populations
    ]


def _sign(truth):
    f = (
        (truth["theta1"] - truth["theta2"])
        * (1 - truth["alpha1"] - truth["beta1"])
        * (1 - truth["alpha2"] - truth["beta2"])
    )
    return 0 if f == 0 else (1 if f > 0 else -1)


@budget(0.5)
@given(rational_points(HUI_WALTER, use_accuracy=True))
def test_closed_form_recovers_truth_point(point):
    truth = d06.truth_of(point)
    sign = _sign(truth)
    assume(sign != 0)  # F = 0: equal prevalences or a test with Youden index 0 (blind spot)
    solutions = d06.closed_form(_frequencies(point))
    assert solutions is not None, "F^2 of an exact independent simulation is a rational square"
    assert solutions[0 if sign > 0 else 1] == truth


@budget(0.5)
@given(rational_points(HUI_WALTER, use_accuracy=True))
def test_closed_form_other_root_gives_mirror(point):
    truth = d06.truth_of(point)
    sign = _sign(truth)
    assume(sign != 0)
    solutions = d06.closed_form(_frequencies(point))
    mirror = {
        "theta1": 1 - truth["theta1"],
        "theta2": 1 - truth["theta2"],
        "alpha1": 1 - truth["beta1"],
        "alpha2": 1 - truth["beta2"],
        "beta1": 1 - truth["alpha1"],
        "beta2": 1 - truth["alpha2"],
    }
    assert solutions[1 if sign > 0 else 0] == mirror


@pytest.mark.parametrize(
    "prevalences, accuracy",
    [
        (("1/5", "1/5"), {0: {"a": "9/10", "b": "4/5"}, 1: {"a": "7/10", "b": "9/10"}}),  # equal prevalences
        (("1/5", "3/5"), {0: {"a": "1/2", "b": "1/2"}, 1: {"a": "7/10", "b": "9/10"}}),  # Youden index 0
    ],
)
def test_closed_form_silent_at_blind_spot(prevalences, accuracy):
    point = d06.EvaluationPoint.from_values(
        HUI_WALTER, {"p0": {"a": prevalences[0]}, "p1": {"a": prevalences[1]}}, accuracy=accuracy
    )
    assert d06.closed_form(_frequencies(point)) is None


def test_printed_theta_differs_from_truth():
    point = d06.EvaluationPoint.from_values(
        HUI_WALTER,
        {"p0": {"a": "1/5"}, "p1": {"a": "3/5"}},
        accuracy={0: {"a": "9/10", "b": "4/5"}, 1: {"a": "7/10", "b": "9/10"}},
    )
    one, two = (d06.cross_tab(cells) for cells in _frequencies(point))
    truth = d06.truth_of(point)
    root = (
        (truth["theta1"] - truth["theta2"])
        * (1 - truth["alpha1"] - truth["beta1"])
        * (1 - truth["alpha2"] - truth["beta2"])
    )
    assert root * root == d06.discriminant_squared(one, two)
    for sign in (1, -1):
        printed = {k: n / d for k, (n, d) in d06.estimators(one, two, sign * root, printed=True).items()}
        assert printed["theta1"] not in (truth["theta1"], 1 - truth["theta1"])
    printed = {k: n / d for k, (n, d) in d06.estimators(one, two, root, printed=True).items()}
    assert printed["alpha1"] == truth["alpha1"] and printed["alpha2"] == truth["alpha2"]
