"""K5 by certified path tracking: the feature form of the equations, the proofs, and agreement with msolve.

Independent routes: the feature form against the polynomial equations (exact, and the Jacobian
against their exact derivatives); the stored start solutions proved again here in ball
arithmetic; the tracked route against msolve's parametrisation on the same sketch; the simplest
rational in an interval against a brute-force search.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from evalgebra.evaluators.correlated import complete_pairs_tracking as tracking
from evalgebra.evaluators.correlated.complete_pairs import CompletePairs, msolve_binary, reduced_system
from evalgebra.evaluators.correlated.complete_pairs_system import (
    central_moments,
    mirror,
    moment_matrix,
    residual,
    system,
)
from evalgebra.testing.strategies import k5_points

NEEDS_MSOLVE = pytest.mark.skipif(msolve_binary() is None, reason="msolve is not installed (make setup)")

counts32 = st.lists(st.integers(1, 40), min_size=32, max_size=32)
rationals = st.fractions(min_value=-2, max_value=2, max_denominator=12)


def _value(poly, x):
    return sum(c * np.prod([x[k] ** e for k, e in enumerate(ex)]) for ex, c in poly.items())


def _derivative(poly, k):
    out = {}
    for ex, c in poly.items():
        if ex[k]:
            lowered = tuple(e - 1 if j == k else e for j, e in enumerate(ex))
            out[lowered] = out.get(lowered, 0) + c * ex[k]
    return out


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(counts32, st.lists(rationals, min_size=6, max_size=6))
def test_feature_form_is_the_reduced_system_with_its_jacobian(counts, x):
    _, m = central_moments(counts)
    polys = reduced_system(m)
    f, jac = system(np.array([x], dtype=object), moment_matrix(m))
    reference = [_value(poly, x) for poly in polys]
    # each equation is the runtime's polynomial up to one nonzero constant factor
    # (the same for its derivatives)
    probe = [Fraction(1, 3), Fraction(2, 7), Fraction(-1, 5), Fraction(3, 4), Fraction(1, 9), Fraction(-2, 3)]
    ratio = [
        _value(poly, probe) / value
        for poly, value in zip(polys, system(np.array([probe], dtype=object), moment_matrix(m))[0][0])
    ]
    assert all(r != 0 for r in ratio)
    assert [r * v for r, v in zip(ratio, f[0])] == reference
    assert list(residual(np.array([x], dtype=object), moment_matrix(m))[0]) == list(f[0])
    for row, (poly, r) in enumerate(zip(polys, ratio)):
        assert [r * jac[0][row][k] for k in range(6)] == [_value(_derivative(poly, k), x) for k in range(6)]


@settings(max_examples=200, deadline=None)
@given(
    st.fractions(min_value=-5, max_value=5, max_denominator=50),
    st.fractions(min_value=0, max_value=1, max_denominator=50),
)
def test_simplest_between_is_the_smallest_denominator_in_the_interval(lo, width):
    hi = lo + width
    found = tracking.simplest_between(lo, hi)
    assert lo <= found <= hi
    for denominator in range(1, found.denominator):  # nothing simpler fits
        first = -(-lo.numerator * denominator // lo.denominator)  # ceil(lo * denominator)
        assert Fraction(first, denominator) > hi


def test_the_stored_start_solutions_are_proved_and_complete():
    moments, half = tracking.start_system()
    proved = tracking.certified(half, moments)
    assert proved is not None and len(proved.points) == 404
    assert np.all(proved.radius > 0) and np.all(proved.radius < 1e-4 * (1 + np.abs(proved.points)))
    f, _ = system(proved.points, moment_matrix({k: float(v) for k, v in moments.items()}).astype(complex))
    assert np.abs(f).max() < 1e-9
    # the label swap maps the set onto itself, and the real ones have real centres
    swapped = mirror(proved.points)
    assert all(np.abs(proved.points - z).max(axis=1).min() < 1e-9 for z in swapped)
    assert np.all(proved.points[proved.real].imag == 0)


def test_a_box_without_a_solution_is_not_proved():
    moments, half = tracking.start_system()
    moved = half[:3] + 0.01  # centres moved off the solutions
    radius = np.full(moved.shape, 1e-6)
    assert not tracking.certify(moved, moments, radius).any()
    assert (
        tracking.certified(np.vstack([half[:-1], half[:1]]), moments) is None
    )  # one solution twice, one missing


@settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    phases=[Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(k5_points())
def test_tracking_finds_the_truth_exactly(drawn):
    # (not shrunk: the simplest draws are symmetric, non-generic sketches,
    # which tracking leaves to msolve by design)
    truth, sketch = drawn
    solver = CompletePairs(1)
    points, alarms = solver.solve([int(c) for c in sketch.count_vector()])
    assert solver.route == "tracking" and solver.eliminant_degree == 404
    want = truth.prevalence_of(0)["a"]
    exact = [pt for pt in points if pt[0] is not None]
    assert any(pt[1] == want for pt in exact) and any(pt[1] == 1 - want for pt in exact)


@NEEDS_MSOLVE
def test_tracking_and_msolve_agree_on_a_sketch():
    from evalgebra.data.point import EvaluationPoint
    from evalgebra.data.simulate import expected_sketch
    from evalgebra.evaluators.correlated.complete_pairs import PAIRS
    from evalgebra.spec import EnsembleSpec

    accuracy = {
        0: {"a": "4/5", "b": "3/4"},
        1: {"a": "3/4", "b": "7/10"},
        2: {"a": "13/20", "b": "4/5"},
        3: {"a": "7/10", "b": "17/20"},
        4: {"a": "9/10", "b": "13/20"},
    }
    steps = [2, -1, 1, -2, 3, 1, -1, 2, -3, 1]
    correlation = {
        pair: {"a": Fraction(steps[k], 400), "b": Fraction(steps[-1 - k], 400)}
        for k, pair in enumerate(PAIRS)
    }
    truth = EvaluationPoint.from_values(
        EnsembleSpec(5, 2, list(PAIRS)), {"a": "2/5"}, accuracy=accuracy, correlation=correlation
    )
    counts = [int(c) for c in expected_sketch(truth).unlabelled().count_vector()]
    followed, reference = CompletePairs(1), CompletePairs(1, tracking=False)
    by_tracking, _ = followed.solve(counts)
    by_msolve, _ = reference.solve(counts)
    assert followed.route == "tracking" and reference.route == "msolve"
    assert followed.n_real == reference.n_real
    assert sorted(pt[1] for pt in by_tracking if pt[0] is not None) == sorted(
        pt[1] for pt in by_msolve if pt[0] is not None
    )
    ours = np.array([float(pt[1]) for pt in by_tracking])
    for pt in by_msolve:  # every msolve point (its certified box's midpoint) is one of ours
        assert np.abs(ours - float(pt[1])).min() < 1e-6


def test_without_a_rational_point_msolve_decides(monkeypatch):
    """Tracking proves every solution but cannot prove that none is rational: the exact route is asked."""
    import evalgebra.evaluators.correlated.complete_pairs as module

    asked = []

    def solved(self, mu, m):
        asked.append(True)
        return [], {"undecided": "stand-in"}

    monkeypatch.setattr(module.CompletePairs, "_solved", solved)
    monkeypatch.setattr(
        module, "simplest_between", lambda lo, hi: lo + (hi - lo) / 3
    )  # never an exact solution
    solver = module.CompletePairs(1)
    points, alarms = solver.solve([int(c) for c in tracking.start_data.COUNTS])
    assert asked and solver.route == "msolve" and points == [] and "undecided" in alarms


def test_a_failed_proof_falls_back_to_msolve(monkeypatch):
    import evalgebra.evaluators.correlated.complete_pairs as module

    monkeypatch.setattr(module, "tracked_solutions", lambda moments: None)
    monkeypatch.setattr(module.CompletePairs, "_solved", lambda self, mu, m: ([], {"undecided": "stand-in"}))
    solver = module.CompletePairs(1)
    assert solver.solve([int(c) for c in tracking.start_data.COUNTS]) == ([], {"undecided": "stand-in"})
    assert solver.route == "msolve"


def test_the_212_bit_proof_alone_proves_the_start(monkeypatch):
    """The route for ill-conditioned solutions (Newton and Krawczyk in 212 bits) proves every
    box by itself."""
    moments, half = tracking.start_system()
    by_doubles = tracking.certified(half, moments)
    monkeypatch.setattr(
        tracking, "certify", lambda points, moments, radius: np.zeros(len(points), dtype=bool)
    )
    by_balls = tracking.certified(half, moments)
    assert by_doubles is not None and by_balls is not None
    assert int(by_balls.real.sum()) == int(by_doubles.real.sum())
    assert np.abs(by_balls.points - by_doubles.points).max() < 1e-9 * (1 + np.abs(by_doubles.points).max())
