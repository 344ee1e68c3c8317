"""Maximum likelihood on a correlated structure: the model's probabilities, its climb, its fits.

Checked by independent routes: the model's pattern probabilities against the exact generating set of
:class:`~evalgebra.data.point.EvaluationPoint` (rational points, exact arithmetic), its Jacobian
against finite differences; on exact sketches inside a structure's model the fit is the exact point
(from the exact points, and from the independent fit alone: it reaches the saturated likelihood); on
sampled correlated tests its likelihood is at least that of the truth's parameters (the labelled
sample's own statistics) and of every exact point inside the model.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from evalgebra.data.point import EvaluationPoint
from evalgebra.data.simulate import expected_sketch, labelled_test
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError, SpecError
from evalgebra.evaluators.correlated.structured import evaluate_structured
from evalgebra.evaluators.fitted.structure_choice import independent_start, structure_start
from evalgebra.evaluators.fitted.structures import StructureModel, StructurePoint, fit_structure
from evalgebra.spec import EnsembleSpec
from evalgebra.testing.strategies import correlation_bound

#: Structures with a generated exact evaluator on four classifiers (one of each class).
GENERATED = (((0, 1),), ((0, 1), (0, 2)), ((0, 1), (0, 2), (0, 3)), ((0, 1), (0, 2), (1, 3)))
_RATES = (Fraction(3, 5), Fraction(2, 3), Fraction(3, 4), Fraction(4, 5), Fraction(5, 6))


@st.composite
def correlated_points(draw, structure, n=4):
    """A rational point of ``structure``: prevalence not 1/2, accuracies above 1/2, nonzero correlations."""
    spec = EnsembleSpec(n, 2, list(structure))
    prevalence = draw(st.sampled_from([Fraction(1, 4), Fraction(1, 3), Fraction(2, 5), Fraction(3, 5)]))
    accuracy = {i: {"a": draw(st.sampled_from(_RATES)), "b": draw(st.sampled_from(_RATES))} for i in range(n)}
    rows = {
        "a": [(r["a"], 1 - r["a"]) for r in accuracy.values()],
        "b": [(1 - r["b"], r["b"]) for r in accuracy.values()],
    }
    unit = min(correlation_bound(rows[ell], list(structure), 2) for ell in "ab") / 4
    correlation = {
        s: {ell: unit * draw(st.sampled_from((-4, -3, -2, 2, 3, 4))) for ell in "ab"} for s in structure
    }
    return EvaluationPoint.from_values(spec, {"a": prevalence}, accuracy=accuracy, correlation=correlation)


def _as_structure_point(point: EvaluationPoint, structure) -> StructurePoint:
    n = point.spec.n_classifiers
    accuracy = np.array([[float(point.accuracy(i, t)) for t in "ab"] for i in range(n)])
    correlation = []
    for subset in structure:
        tables = point.correlation[tuple(subset)]
        # the scalar G^ell_T is the table's entry where every member answers ell (sign +1)
        correlation.append([float(tables[ell][(ell,) * len(subset)]) for ell in (0, 1)])
    return StructurePoint(float(point.prevalence_of(0)["a"]), accuracy, np.array(correlation).reshape(-1, 2))


# -- the model ------------------------------------------------------------------------------------
@settings(max_examples=10, deadline=None, derandomize=True)
@given(data=st.data(), structure=st.sampled_from([*GENERATED, ((0, 1, 2),), ((0, 1), (0, 1, 2, 3))]))
def test_model_probabilities_equal_the_exact_generating_set(data, structure):
    point = data.draw(correlated_points(structure))
    exact = point.expected_frequencies()
    model = StructureModel(4, structure)
    patterns = [tuple("ab"[(code >> (3 - i)) & 1] for i in range(4)) for code in range(16)]
    assert model.probabilities(_as_structure_point(point, structure)) == pytest.approx(
        [float(exact[p]) for p in patterns], abs=1e-14
    )


@pytest.mark.parametrize("structure", [(), ((0, 1),), ((0, 1), (0, 2), (1, 3)), ((0, 1, 2),), ((1, 2, 3),)])
def test_model_jacobian_equals_finite_differences_and_the_swap_keeps_the_distribution(structure):
    rng = np.random.default_rng(len(structure))
    model = StructureModel(4, structure)
    point = StructurePoint(
        0.35, rng.uniform(0.6, 0.9, (4, 2)), rng.uniform(-0.01, 0.01, (len(structure), 2)).reshape(-1, 2)
    )
    p, jacobian = model.jacobian(point)
    x = point.vector()
    numeric = np.empty_like(jacobian)
    for k in range(x.size):
        step = np.zeros_like(x)
        step[k] = 1e-6
        numeric[:, k] = (
            model.probabilities(model.point(x + step)) - model.probabilities(model.point(x - step))
        ) / 2e-6
    assert np.allclose(jacobian, numeric, atol=1e-9)
    assert p.sum() == pytest.approx(1.0, abs=1e-14)
    swapped = model.swapped(point)
    assert np.allclose(model.probabilities(swapped), p, atol=1e-15)
    assert np.allclose(model.swapped(swapped).vector(), x)
    assert model.oriented(swapped).total_accuracy() == pytest.approx(
        max(point.total_accuracy(), swapped.total_accuracy())
    )


def test_model_inside_shrinks_correlations_and_keeps_a_point_inside():
    model = StructureModel(4, ((0, 1),))
    inner = StructurePoint(0.3, np.full((4, 2), 0.75), np.array([[0.01, -0.02]]))
    assert np.array_equal(model.inside(inner).vector(), inner.vector())
    wild = StructurePoint(1.2, np.full((4, 2), 0.75), np.array([[0.9, -0.9]]))
    moved = model.inside(wild)
    assert model.is_inside(moved) and not model.is_inside(wild)
    assert 0 < abs(moved.correlation[0, 0]) < 0.9 and moved.prevalence < 1


def test_model_and_fit_refuse_bad_input():
    with pytest.raises(SpecError):
        StructureModel(4, ((0, 4),))
    with pytest.raises(SpecError):
        StructureModel(4, ((0, 1), (1, 0)))
    model = StructureModel(3, ())
    start = StructurePoint(0.5, np.full((3, 2), 0.7), np.zeros((0, 2)))
    with pytest.raises(SketchError):
        fit_structure(model, np.ones(7), [("s", start)])
    with pytest.raises(SketchError):
        fit_structure(model, np.zeros(8), [("s", start)])
    with pytest.raises(SpecError):
        fit_structure(model, np.ones(8), [])


# -- exact sketches inside the model: the fit is the exact point ----------------------------------
@settings(max_examples=8, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), structure=st.sampled_from(GENERATED))
def test_fit_on_an_exact_sketch_inside_the_structure_is_the_exact_point(data, structure):
    point = data.draw(correlated_points(structure))
    sketch = expected_sketch(point).unlabelled()
    exact = evaluate_structured(sketch, list(structure))
    assume(exact.point is not None and "blind_spot" not in exact.alarm_kinds())
    model = StructureModel(4, structure)
    counts = sketch.count_vector().astype(float)
    classifiers, labels = sketch.classifiers, sketch.labels
    start = structure_start(exact.point, structure, classifiers, labels)
    fit = fit_structure(model, counts, [("exact", start)])
    assert fit.log_likelihood == pytest.approx(fit.saturated_log_likelihood, abs=1e-7)
    assert np.allclose(fit.point.vector(), start.vector(), atol=1e-9)  # it does not move
    truth = _as_structure_point(point, structure)
    assert np.allclose(start.vector(), truth.vector(), atol=1e-12)  # and it is the truth (accuracies > 1/2)
    # from the independent fit alone (no correlation) the climb reaches the saturated likelihood, at an
    # exact point of the structure's variety
    alone = fit_structure(model, counts, [("independent", independent_start(sketch, structure))])
    assert alone.log_likelihood == pytest.approx(alone.saturated_log_likelihood, abs=1e-5)
    reached = model.oriented(alone.point)
    points = [structure_start(e, structure, classifiers, labels) for e in exact.points]
    assert min(np.abs(reached.vector() - p.vector()).max() for p in points if p is not None) < 1e-4


# -- sampled correlated tests: at least as likely as the truth and every exact point ------------------
def _sample_statistics(decisions, truth, structure) -> StructurePoint:
    """The labelled sample's own prevalence, accuracies and correlations on ``structure``."""
    n = decisions.shape[1]
    prevalence = float(np.mean(truth == 0))
    accuracy = np.array(
        [[float(np.mean(decisions[truth == ell, i] == ell)) for ell in (0, 1)] for i in range(n)]
    )
    correlation = []
    for subset in structure:
        row = []
        for ell in (0, 1):
            right = (decisions[truth == ell][:, list(subset)] == ell).astype(float)
            row.append(float(np.mean(np.prod(right - accuracy[list(subset), ell], axis=1))))
        correlation.append(row)
    return StructurePoint(prevalence, accuracy, np.array(correlation).reshape(-1, 2))


@settings(max_examples=8, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), structure=st.sampled_from(GENERATED), seed=st.integers(0, 2**32 - 1))
def test_fit_on_a_sampled_test_is_at_least_as_likely_as_the_truth_and_the_exact_points(data, structure, seed):
    point = data.draw(correlated_points(structure))
    rng = np.random.default_rng(seed)
    model = StructureModel(4, structure)
    items = 5000
    truth = (rng.random(items) >= float(point.prevalence_of(0)["a"])).astype(int)
    decisions = np.empty((items, 4), dtype=int)
    for ell in (0, 1):  # each item's pattern drawn from its label's distribution (classifier 0 slowest)
        conditional = np.array([float(v) for v in point.pattern_distribution(ell).ravel()])
        drawn = rng.choice(16, size=int(np.sum(truth == ell)), p=conditional / conditional.sum())
        decisions[truth == ell] = (drawn[:, None] >> (3 - np.arange(4))[None, :]) & 1
    sketch = Sketch.from_decisions(decisions, labels=["a", "b"])
    counts = sketch.count_vector().astype(float)
    exact = evaluate_structured(sketch, list(structure))
    starts = [("independent", independent_start(sketch, structure))]
    starts += [
        (f"exact {k}", s)
        for k, e in enumerate(exact.points)
        if (s := structure_start(e, structure, sketch.classifiers, sketch.labels)) is not None
    ]
    fit = fit_structure(model, counts, starts)
    slack = 1e-7 * abs(fit.log_likelihood)
    assert fit.log_likelihood <= fit.saturated_log_likelihood + slack
    sample = _sample_statistics(decisions, truth, structure)
    if model.is_inside(sample):
        assert fit.log_likelihood >= model.log_likelihood(counts, sample) - slack
    for _, start in starts:
        if model.is_inside(start):
            assert fit.log_likelihood >= model.log_likelihood(counts, start) - slack
    for run, (_, start) in zip(fit.runs, starts):
        assert run.log_likelihood >= model.log_likelihood(counts, model.inside(start)) - slack
    assert model.is_inside(fit.point)


def test_fit_of_a_larger_structure_is_at_least_as_likely_as_a_smaller_one():
    point = EvaluationPoint.from_values(
        EnsembleSpec(4, 2, [(0, 1)]),
        {"a": "1/3"},
        accuracy={i: {"a": "3/4", "b": "4/5"} for i in range(4)},
        correlation={(0, 1): {"a": "1/20", "b": "1/25"}},
    )
    test = labelled_test(point, Q=expected_sketch(point).Q * 4, seed=1)
    counts = test.sketch().count_vector().astype(float)
    small = StructureModel(4, ((0, 1),))
    start = StructurePoint(0.4, np.full((4, 2), 0.7), np.zeros((1, 2)))
    one = fit_structure(small, counts, [("s", start)])
    large = StructureModel(4, ((0, 1), (0, 2)))
    grown = StructurePoint(
        one.point.prevalence, one.point.accuracy, np.vstack([one.point.correlation, [[0, 0]]])
    )
    two = fit_structure(large, counts, [("grown", grown)])
    assert two.log_likelihood >= one.log_likelihood - 1e-9 * abs(one.log_likelihood)
    assert one.converged and two.converged
