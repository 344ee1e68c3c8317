"""Derived relations hold at the exact evaluation points of random labelled tests."""

from __future__ import annotations

from fractions import Fraction

import flint
import hypothesis.strategies as st
from hypothesis import assume, given

from evalgebra.data.point import evaluation_point
from evalgebra.data.simulate import expected_sketch
from evalgebra.groebner.containing import containing_variety
from evalgebra.groebner.coordinates import frequencies_of, moments_of, sketch_moments
from evalgebra.groebner.elimination import eliminate, evaluation_ideal
from evalgebra.spec import EnsembleSpec
from evalgebra.testing.strategies import labelled_tests, rational_points, specs

_CONTAINING = {n: containing_variety(n) for n in (2, 3, 4)}
_QUADRATIC = eliminate(evaluation_ideal(EnsembleSpec(3, 2), coordinates="moments"), "accuracy")


def _evaluate(poly, ring, values):
    args = [flint.fmpq(values[name].numerator, values[name].denominator) for name in ring.names]
    return poly(*args)


def _point_values(sketch, structure="independent"):
    point = evaluation_point(sketch, structure=structure)
    values = {str(k): v for k, v in sketch_moments(sketch).items()}
    registry_values = point.free_values()
    from evalgebra.variables import VariableRegistry

    registry = VariableRegistry(point.spec)
    values.update({str(registry.symbol(k)): v for k, v in registry_values.items()})
    return point, values


@given(
    labelled_tests(specs(min_classifiers=2, max_classifiers=4, max_labels=2), min_items=2, absent_label=False)
)
def test_containing_variety_vanishes_at_true_point(test):
    sketch = test.sketch()
    _, values = _point_values(sketch)
    ideal = _CONTAINING[sketch.n_classifiers]
    assert all(_evaluate(p, ideal.ring, values) == 0 for p in ideal.generators)


@given(
    rational_points(
        specs(min_classifiers=3, max_classifiers=3, max_labels=2, structure_kinds=("independent",))
    )
)
def test_prevalence_quadratic_has_true_prevalence_as_root(point):
    sketch = expected_sketch(point)
    values = {str(k): v for k, v in sketch_moments(sketch).items()}
    values["prev_a"] = point.prevalence[0][0]
    assert _evaluate(_QUADRATIC.generators[0], _QUADRATIC.ring, values) == 0


@given(labelled_tests(specs(min_classifiers=2, max_classifiers=2, max_labels=2), min_items=2))
def test_pair_relation_vanishes_at_true_point(test):
    # rows of a label no item has are filled by free_values; P_l = 0 multiplies them
    sketch = test.sketch()
    ideal = eliminate(evaluation_ideal(EnsembleSpec(2, 2, "complete")), "correlation")
    _, values = _point_values(sketch)
    frequencies = sketch.frequencies()
    for pattern in ("aa", "ab", "ba", "bb"):
        values[f"f_{pattern}"] = frequencies.get(tuple(pattern), Fraction(0))
    assert all(_evaluate(p, ideal.ring, values) == 0 for p in ideal.generators)


@given(
    specs(max_classifiers=3, max_labels=3, max_populations=2),
    st.lists(st.integers(0, 20), min_size=27 * 2, max_size=27 * 2),
)
def test_moment_map_round_trip(spec, weights):
    size = spec.n_labels**spec.n_classifiers
    frequencies = []
    for s in range(spec.n_populations):
        chunk = weights[s * size : (s + 1) * size]
        assume(sum(chunk) > 0)
        frequencies += [Fraction(w, sum(chunk)) for w in chunk]
    assert frequencies_of(spec, moments_of(spec, frequencies)) == frequencies
