"""Tests of evalgebra.data.simulate: exact labelled tests realising rational points."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from evalgebra.builder import GeneratingSet
from evalgebra.data.point import EvaluationPoint, evaluation_point
from evalgebra.data.simulate import expected_sketch, labelled_test, smallest_test_size
from evalgebra.errors import PointError
from evalgebra.spec import EnsembleSpec
from evalgebra.testing import budget, labelled_tests, rational_points, specs

independent_points = rational_points(
    specs(max_patterns=256, structure_kinds=["independent"], named=None), absent_labels=True
)


def _pattern_probabilities(point, s):
    """``P^s_ell * pi_ell(d)`` straight from the definition, by label and pattern."""
    spec = point.spec
    n, r_count = spec.n_classifiers, spec.n_labels
    result = {}
    for ell, weight in enumerate(point.prevalence[s]):
        if weight == 0:
            continue
        rows = [point.response[i][ell] for i in range(n)]
        for pattern in itertools.product(range(r_count), repeat=n):
            total = math.prod((rows[i][pattern[i]] for i in range(n)), start=Fraction(1))
            for subset, tables in point.correlation.items():
                rest = math.prod(
                    (rows[i][pattern[i]] for i in range(n) if i not in subset), start=Fraction(1)
                )
                total += tables[ell][tuple(pattern[i] for i in subset)] * rest
            result[ell, pattern] = weight * total
    return result


def _assert_same_statistics(found, chosen):
    """``found`` (from a test) equals ``chosen`` wherever a label has items."""
    assert found.prevalence == chosen.prevalence
    for s_rows in found.prevalence:
        for ell, weight in enumerate(s_rows):
            for i in range(chosen.spec.n_classifiers):
                if weight == 0 and found.spec.n_populations == 1:
                    assert found.response[i][ell] is None
                else:
                    assert found.response[i][ell] == chosen.response[i][ell]


# -- exact independence ---------------------------------------------------------------------------
@given(independent_points)
def test_expected_sketch_of_an_independent_point_is_sample_independent(point):
    sketch = expected_sketch(point)
    assert sketch.Q == smallest_test_size(point)
    gs = GeneratingSet(point.spec)  # the independent generating set
    assert all(r == 0 for r in gs.residuals(point.free_values(), gs.observed_values(sketch)))
    found = evaluation_point(sketch, structure="complete")
    _assert_same_statistics(found, point)
    for subset, tables in found.correlation.items():
        for ell, table in enumerate(tables):
            if point.prevalence[0][ell] == 0:
                assert table is None
            else:
                assert all(v == 0 for v in table.values()), (subset, ell)


@given(rational_points(specs(max_patterns=81, named=None), correlated=True))
def test_smallest_test_size_is_the_lcm_of_count_denominators(point):
    expected = math.lcm(*(v.denominator for v in _pattern_probabilities(point, 0).values()))
    assert smallest_test_size(point) == expected


@given(independent_points, st.integers(2, 4))
def test_expected_sketch_sizes_are_the_multiples_of_the_smallest(point, k):
    q = smallest_test_size(point)
    base = expected_sketch(point)
    scaled = expected_sketch(point, Q=k * q)
    assert scaled.Q == k * q
    assert scaled.by_true_label() == {
        label: {p: k * c for p, c in table.items()} for label, table in base.by_true_label().items()
    }
    assert (
        evaluation_point(scaled, structure="independent").prevalence
        == evaluation_point(base, structure="independent").prevalence
    )
    for wrong in [x for x in (q + 1, k * q - 1, k * q + 1) if x % q]:
        with pytest.raises(
            PointError,
            match=rf"Q={wrong} cannot realise this point exactly; Q must be a positive multiple of {q}",
        ):
            expected_sketch(point, Q=wrong)


@given(independent_points, st.integers(0, 2**32 - 1))
def test_labelled_test_realises_the_expected_sketch(point, seed):
    q = smallest_test_size(point)
    assume(q <= 5000)
    shuffled = labelled_test(point, seed=seed)
    ordered = labelled_test(point)
    expected = expected_sketch(point)
    assert shuffled.sketch() == ordered.sketch() == expected
    assert shuffled.decisions.shape == (q, point.spec.n_classifiers)
    rows = lambda t: sorted(map(tuple, np.column_stack([t.decisions, t.truth]).tolist()))  # noqa: E731
    assert rows(shuffled) == rows(ordered)
    assert np.array_equal(labelled_test(point, seed=seed).decisions, shuffled.decisions)  # reproducible
    assert shuffled.decision_names().shape == shuffled.decisions.shape


# -- correlated points ------------------------------------------------------------------------------
@budget(0.75)
@given(rational_points(specs(max_patterns=256, named=None), correlated=True))
def test_expected_sketch_correlated_round_trip(point):
    sketch = expected_sketch(point)
    found = evaluation_point(sketch, structure=point.spec.structure)
    assert found.prevalence == point.prevalence
    assert found.response == point.response
    assert found.correlation == point.correlation
    assert found.sizes == (sketch.Q,)
    complete = evaluation_point(sketch, structure="complete")
    for subset, tables in complete.correlation.items():
        if subset not in point.spec.structure:
            assert all(v == 0 for table in tables for v in table.values())
    gs = GeneratingSet(point.spec)
    assert all(r == 0 for r in gs.residuals(point.free_values(), gs.observed_values(sketch)))


@given(labelled_tests(specs(max_patterns=256, named=None)))
def test_expected_sketch_inverts_evaluation_point(test):
    sketch = test.sketch()
    point = evaluation_point(sketch, structure="complete")
    assert sketch.Q % smallest_test_size(point) == 0
    assert expected_sketch(point, Q=sketch.Q) == sketch


# -- several populations (Hui-Walter) ------------------------------------------------------------------
@given(
    rational_points(specs(max_patterns=81, min_populations=2, max_populations=3, named=None), correlated=True)
)
def test_expected_sketch_hui_walter_round_trip(point):
    sizes = smallest_test_size(point)
    assert set(sizes) == set(point.spec.populations)
    sketch = expected_sketch(point)
    assert sketch.populations == point.spec.populations
    for s, population in enumerate(point.spec.populations):
        assert sketch.size(population) == sizes[population]
        assert sizes[population] == smallest_test_size(point, population)
        assert sizes[population] == math.lcm(
            *(v.denominator for v in _pattern_probabilities(point, s).values())
        )
    shared = evaluation_point(sketch, structure=point.spec.structure)
    assert shared.prevalence == point.prevalence
    assert shared.response == point.response
    assert shared.correlation == point.correlation
    assert shared.sizes == tuple(sizes[p] for p in point.spec.populations)
    gs = GeneratingSet(point.spec)
    observed = gs.observed_values(sketch)
    assert all(r == 0 for r in gs.residuals(point.free_values(), observed))
    assert all(r == 0 for r in gs.residuals(shared.free_values(), observed))
    doubled = expected_sketch(point, Q={p: 2 * q for p, q in sizes.items()})
    assert doubled.Q == 2 * sketch.Q
    with pytest.raises(PointError, match=r"several populations: give Q as a mapping population -> size"):
        expected_sketch(point, Q=sketch.Q)
    with pytest.raises(PointError, match=r"give a size for every population"):
        expected_sketch(point, Q={point.spec.populations[0]: sizes[point.spec.populations[0]]})


@given(
    rational_points(
        specs(max_patterns=81, min_populations=2, max_populations=3, named=None), denominators=(2, 4)
    ),
    st.integers(0, 2**32 - 1),
)
def test_labelled_test_realises_a_hui_walter_sketch(point, seed):
    sizes = smallest_test_size(point)
    assume(sum(sizes.values()) <= 5000)
    test = labelled_test(point, seed=seed)
    assert test.populations == point.spec.populations
    assert np.bincount(test.population, minlength=len(sizes)).tolist() == [
        sizes[p] for p in point.spec.populations
    ]
    assert test.sketch() == expected_sketch(point)


# -- errors ------------------------------------------------------------------------------------------
def _unrealisable():
    spec = EnsembleSpec(2, 2, "complete")
    return EvaluationPoint.from_values(
        spec,
        {"a": "1/2"},
        accuracy={0: {"a": 1, "b": "1/2"}, 1: {"a": 1, "b": "1/2"}},
        correlation={(0, 1): {"a": "1/4"}},
    )


@pytest.mark.parametrize("function", [smallest_test_size, expected_sketch, labelled_test])
def test_expected_sketch_rejects_unrealisable_points(function):
    message = (
        r"no labelled test realises this point: pattern \('a', 'b'\) would have frequency -1/4 "
        r"among items with true label 'a'"
    )
    with pytest.raises(PointError, match=message):
        function(_unrealisable())


@pytest.mark.parametrize("size", [0, -4, True, 4.0, "4", 6])
def test_expected_sketch_rejects_bad_sizes(size):
    point = EvaluationPoint.from_values(EnsembleSpec(1, 2), {"a": "1/2"}, accuracy={0: {"a": 1, "b": "1/2"}})
    assert smallest_test_size(point) == 4
    with pytest.raises(
        PointError,
        match=r"population 'all': Q=.* cannot realise this point exactly; Q must be a positive multiple of 4",
    ):
        expected_sketch(point, Q=size)
