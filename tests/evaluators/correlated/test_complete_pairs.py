"""Five binary classifiers with every pair correlated (K5): the reduction, exact round trips,
degenerate sketches.

Independent routes: the six reduced equations vanish exactly at the truth of exact simulations
(no solver involved); the linear recovery of the correlations from (P_b, delta) gives the truth
back exactly; the full route (msolve per sketch, then every point checked against the whole
generating set) returns the truth of an exact simulation among its points and decodes to it.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings

from evalgebra.data.point import EvaluationPoint
from evalgebra.data.simulate import expected_sketch
from evalgebra.errors import SpecError
from evalgebra.evaluators.correlated.complete_pairs import (
    PAIRS,
    CompletePairs,
    central_moments,
    is_complete_pairs,
    msolve_binary,
    point_from_delta,
    reduced_system,
)
from evalgebra.evaluators.dispatch import evaluate
from evalgebra.spec import EnsembleSpec
from evalgebra.testing.strategies import k5_points

K5 = ",".join(f"{i}-{j}" for i, j in PAIRS)
NEEDS_MSOLVE = pytest.mark.skipif(msolve_binary() is None, reason="msolve is not installed (make setup)")


def _unknowns(truth):
    """``p = P_b``, ``delta_i = P(b | b) - P(b | a)`` of the truth."""
    p = 1 - truth.prevalence_of(0)["a"]
    delta = [truth.accuracy(i, "b") - (1 - truth.accuracy(i, "a")) for i in range(5)]
    return p, delta


def _value(poly, point):
    total = 0
    for exponents, c in poly.items():
        term = Fraction(c)
        for x, e in zip(point, exponents):
            term *= x**e
        total += term
    return total


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
@given(k5_points())
def test_reduced_equations_vanish_at_the_truth(drawn):
    truth, sketch = drawn
    p, delta = _unknowns(truth)
    _, m = central_moments([int(c) for c in sketch.count_vector()])
    system = reduced_system(m)
    assert len(system) == 6
    assert all(_value(f, [p, *delta]) == 0 for f in system)
    # not vacuous: a wrong prevalence leaves some equation nonzero
    assert any(_value(f, [p + Fraction(1, 97), *delta]) != 0 for f in system)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
@given(k5_points())
def test_correlations_and_rates_follow_linearly_from_prevalence_and_delta(drawn):
    truth, sketch = drawn
    p, delta = _unknowns(truth)
    mu, m = central_moments([int(c) for c in sketch.count_vector()])
    made = point_from_delta(p, delta, mu, m)
    assert made is not None
    prevalence_a, accuracy, correlation = made
    assert prevalence_a == truth.prevalence_of(0)["a"]
    assert accuracy == [[truth.accuracy(i, "a"), truth.accuracy(i, "b")] for i in range(5)]
    for pair in PAIRS:
        assert correlation[pair] == [truth.correlation_value(pair, ell, (ell, ell)) for ell in "ab"]


def test_the_structure_is_recognised_up_to_order_only_on_five():
    assert is_complete_pairs(tuple(reversed(PAIRS)), 5)
    assert not is_complete_pairs(PAIRS[:-1], 5)
    assert not is_complete_pairs(tuple(combinations(range(4), 2)), 4)


def _check_round_trip(truth, sketch):
    result = evaluate(
        sketch, structure=K5, fit=False
    )  # the exact points alone (the fit appends the chosen one)
    names = [f"c{i}" for i in range(5)]
    want = {"a": truth.prevalence_of(0)["a"], "b": 1 - truth.prevalence_of(0)["a"]}
    exact = [e for e in result.points if isinstance(e.prevalence["a"], Fraction)]
    found = [e for e in exact if e.prevalence == want]
    assert len(found) == 1, "the truth is among the points, exactly"
    estimate = found[0]
    for i, c in enumerate(names):
        assert estimate.accuracy[c] == {"a": truth.accuracy(i, "a"), "b": truth.accuracy(i, "b")}
    for i, j in PAIRS:
        assert estimate.correlation[(names[i], names[j])] == {
            ell: truth.correlation_value((i, j), ell, (ell, ell)) for ell in "ab"
        }
    assert "empty_variety" not in result.alarm_kinds() and "irrational" not in result.alarm_kinds()
    # the irrational points carry their float correlations (not values rounded to exact zeros)
    floats = [e for e in result.points if not isinstance(e.prevalence["a"], Fraction)]
    values = [v for e in floats for g in e.correlation.values() for v in g.values()]
    assert floats and all(type(v) is float for v in values) and any(v != 0 for v in values)

    def total(e):
        return sum(
            e.prevalence["a"] * e.accuracy[c]["a"] + e.prevalence["b"] * e.accuracy[c]["b"] for c in names
        )

    def inside(e):
        values = [e.prevalence["a"], *(v for row in e.accuracy.values() for v in row.values())]
        return all(0 <= v <= 1 for v in values)

    rivals = [e for e in result.points if inside(e) and e is not estimate]
    if all(total(e) < total(estimate) for e in rivals):  # the decoding rule's assumption holds
        assert result.point is estimate
    return result


@NEEDS_MSOLVE
def test_exact_round_trip_on_one_test():
    spec = EnsembleSpec(5, 2, list(PAIRS))
    accuracy = {
        0: {"a": "3/4", "b": "4/5"},
        1: {"a": "7/10", "b": "3/4"},
        2: {"a": "4/5", "b": "13/20"},
        3: {"a": "17/20", "b": "7/10"},
        4: {"a": "13/20", "b": "9/10"},
    }
    steps = [1, -1, 2, -2, 1, 3, -1, 2, 1, -3]
    correlation = {
        pair: {"a": Fraction(steps[k], 400), "b": Fraction(-steps[-1 - k], 400)}
        for k, pair in enumerate(PAIRS)
    }
    truth = EvaluationPoint.from_values(spec, {"a": "7/20"}, accuracy=accuracy, correlation=correlation)
    result = _check_round_trip(truth, expected_sketch(truth).unlabelled())
    assert result.structure.count("-") == 10
    partition = result.partition
    counts = expected_sketch(truth).unlabelled().count_vector()
    assert [x + y for (_, x), (_, y) in zip(partition["a"], partition["b"])] == [int(c) for c in counts]


@NEEDS_MSOLVE
@pytest.mark.slow
@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
@given(k5_points())
def test_exact_round_trips(drawn):
    _check_round_trip(*drawn)


@NEEDS_MSOLVE
def test_a_degenerate_sketch_is_a_blind_spot_not_an_answer():
    points, alarms = CompletePairs(1).solve([7] * 32)  # answers independent of one another and of any truth
    assert points == [] and "blind_spot" in alarms


def test_without_msolve_the_message_says_how_to_install_it(monkeypatch):
    monkeypatch.setenv("EVALGEBRA_MSOLVE", "/nonexistent/msolve")
    with pytest.raises(SpecError, match="make setup"):
        CompletePairs(1).solve([3, 1, 2, 5, 1, 1, 4, 2] * 4)


def test_an_engine_failure_is_undecided_not_an_answer(monkeypatch):
    import evalgebra.evaluators.correlated.complete_pairs as module
    from evalgebra.errors import EvalgebraError

    def failing(system, threads):
        raise EvalgebraError("msolve failed at every precision (128 bits: exit 1, BUG)")

    monkeypatch.setattr(module, "solve_system", failing)
    points, alarms = CompletePairs(1).solve([3, 1, 2, 5, 1, 1, 4, 2] * 4)
    assert points == [] and "undecided" in alarms and "no point is claimed" in alarms["undecided"]
