"""The reference route for correlated structures: exact points, the truth among them, refusals."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalgebra.builder import GeneratingSet
from evalgebra.data.point import EvaluationPoint
from evalgebra.data.simulate import expected_sketch, smallest_test_size
from evalgebra.errors import PointError, SpecError
from evalgebra.groebner.identifiability import random_point
from evalgebra.groebner.structured_route import structured_solution, unknown_names
from evalgebra.spec import EnsembleSpec

FINITE_PAIRS = [
    ((0, 1),),
    ((0, 1), (0, 2)),
    ((0, 1), (0, 2), (0, 3)),
    ((0, 1), (0, 2), (1, 3)),
    ((0, 1), (0, 2), (1, 2)),
]
POINTS = {
    ((0, 1),): 2,
    ((0, 1), (0, 2)): 2,
    ((0, 1), (0, 2), (0, 3)): 2,
    ((0, 1), (0, 2), (1, 3)): 4,
    ((0, 1), (0, 2), (1, 2)): 6,
}


def _free_values(point):
    registry = GeneratingSet(point.spec).registry
    return {str(registry.symbol(k)): v for k, v in point.free_values().items()}


def _model_frequencies(spec, values):
    """The generating set evaluated at a point given by registry names (an independent route)."""
    gs = GeneratingSet(spec)
    return gs.model(lambda key: values[str(gs.registry.symbol(key))], Fraction(1))


@pytest.mark.parametrize("structure", FINITE_PAIRS)
def test_structured_solution_contains_truth_and_every_point_explains_the_sketch(structure):
    spec = EnsembleSpec(4, 2, structure)
    point = random_point(spec, 3)
    sketch = expected_sketch(point)
    solution = structured_solution(spec, sketch)
    assert solution.dimension == 0 and solution.shape
    assert sum(c.degree for c in solution.components) == solution.degree == POINTS[structure]
    truth = _free_values(point)
    assert truth in solution.points
    observed = [Fraction(int(c), sketch.Q) for c in sketch.count_vector()]
    for found in solution.points:
        assert set(found) == set(unknown_names(spec))
        assert _model_frequencies(spec, found) == observed


@pytest.mark.parametrize("structure", FINITE_PAIRS[:3])
def test_structured_solution_label_swap_pairs_the_points(structure):
    spec = EnsembleSpec(4, 2, structure)
    solution = structured_solution(spec, expected_sketch(random_point(spec, 5)))
    prevalences = sorted(p["prev_a"] for p in solution.points)
    assert prevalences == sorted(1 - p for p in prevalences)
    low, high = solution.points
    for i in range(4):
        assert low[f"acc_{i}_a"] == 1 - high[f"acc_{i}_b"]


@settings(max_examples=6, deadline=None, derandomize=True)
@given(
    st.integers(3, 14),
    st.lists(st.integers(23, 36), min_size=8, max_size=8),
    st.lists(st.integers(-9, 9).filter(bool), min_size=2, max_size=2),
)
def test_structured_solution_round_trip_one_pair(prevalence, accuracies, correlations):
    spec = EnsembleSpec(4, 2, [(0, 1)])
    accuracy = {
        i: {"a": Fraction(accuracies[2 * i], 40), "b": Fraction(accuracies[2 * i + 1], 40)} for i in range(4)
    }
    correlation = {(0, 1): {"a": Fraction(correlations[0], 400), "b": Fraction(correlations[1], 400)}}
    try:
        point = EvaluationPoint.from_values(
            spec, {"a": Fraction(prevalence, 17)}, accuracy=accuracy, correlation=correlation
        )
        smallest_test_size(point)
    except PointError:
        return
    solution = structured_solution(spec, expected_sketch(point))
    assert _free_values(point) in solution.points


def test_structured_solution_refuses_a_family_naming_its_dimension():
    spec = EnsembleSpec(4, 2, [(0, 1), (2, 3)])
    with pytest.raises(SpecError, match="1-dimensional"):
        structured_solution(spec, expected_sketch(random_point(spec, 0)))
    with pytest.raises(SpecError, match="two labels"):
        structured_solution(EnsembleSpec(3, 3), None)


def test_structured_solution_higher_order_subset():
    spec = EnsembleSpec(4, 2, [(0, 1, 2)])
    point = random_point(spec, 2)
    solution = structured_solution(spec, expected_sketch(point))
    assert solution.degree == 2 and _free_values(point) in solution.points


def test_structured_solution_free_correlations_leave_the_basic_statistics_finite():
    spec = EnsembleSpec(4, 2, [(0, 1, 2, 3)])  # rank_c 1 < 2 correlations (atlas d04)
    point = random_point(spec, 0)
    solution = structured_solution(spec, expected_sketch(point))
    assert solution.correlation_freedom == 1 and solution.degree == 2
    truth = {k: v for k, v in _free_values(point).items() if not k.startswith("corr")}
    assert truth in solution.points and "corr_0_1_2_3_a" not in solution.unknowns
