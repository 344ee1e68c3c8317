"""Interpolation on exact model points, the substitution proof, and degree bounds (issue 26)."""

from __future__ import annotations

import flint
import pytest

from evalgebra.groebner.invariants.checks import model_frequencies, random_frequencies
from evalgebra.groebner.invariants.flattenings import flattening_minors, observed_ring
from evalgebra.groebner.invariants.interpolation import (
    degree_bounds,
    grading_blocks,
    interpolate,
    model_points,
    multidegree,
    vanishes_on_model,
)
from evalgebra.spec import EnsembleSpec


def _span_rank(polys):
    monomials = sorted({m for p in polys for m in p.monoms()})
    index = {m: k for k, m in enumerate(monomials)}
    rows = []
    for p in polys:
        row = [0] * len(monomials)
        for m, c in zip(p.monoms(), p.coeffs()):
            row[index[m]] = c
        rows.append(row)
    return flint.fmpq_mat(rows).rank()


def test_grading_blocks_free_classifiers_and_complete_blocks():
    assert grading_blocks(EnsembleSpec(3, 2)) == [(0,), (1,), (2,)]
    assert grading_blocks(EnsembleSpec(4, 2, [(1, 2)])) == [(0,), (1, 2), (3,)]
    assert grading_blocks(EnsembleSpec(3, 2, [(0, 1), (1, 2)])) == []


def test_multidegree_counts_responses_per_block():
    spec = EnsembleSpec(2, 3)
    exps = [0] * 9
    exps[1] = 2  # f_ab twice
    assert multidegree(spec, exps) == (2, 0, 0, 0, 2, 0)


def test_model_points_lie_on_the_model():
    spec = EnsembleSpec(4, 2)
    _, minors = flattening_minors(spec)
    for point in model_points(spec, 4, seed=5):
        assert sum(point) == 1
        assert all(p(*[flint.fmpq(v) for v in point]) == 0 for p in minors)


@pytest.mark.parametrize("spec", [EnsembleSpec(4, 2), EnsembleSpec(4, 2, [(0, 1)])], ids=str)
def test_interpolation_spans_the_flattening_minors(spec):
    """Two routes to the cubic invariants: the rank argument and interpolation give one space."""
    _, minors = flattening_minors(spec)
    cubics = interpolate(spec, 3)
    assert all(vanishes_on_model(spec, cubics))
    assert _span_rank(minors) == _span_rank(cubics) == _span_rank(minors + cubics)


def test_interpolation_proves_absence_in_low_degree():
    assert interpolate(EnsembleSpec(4, 2), 2) == []
    assert interpolate(EnsembleSpec(3, 3), 3) == []


def test_substitution_rejects_what_is_not_an_invariant():
    spec = EnsembleSpec(4, 2)
    ring = observed_ring(spec)
    cubic = interpolate(spec, 3)[0]
    assert vanishes_on_model(
        spec, [cubic, cubic + ring.gens()[0] ** 3, ring.parse("f_aaaa*f_bbbb - f_aaab*f_bbba")]
    ) == [
        True,
        False,
        False,
    ]


@pytest.mark.parametrize("seed", range(3))
def test_proved_invariants_vanish_on_the_generating_set(seed):
    """The substitution proof's parametrisation contains the generating set's model points."""
    spec = EnsembleSpec(4, 2, [(0, 1)])
    cubics = interpolate(spec, 3, seed=seed)
    x = model_frequencies(spec, seed)
    assert all(p(*x) == 0 for p in cubics)
    assert any(p(*random_frequencies(spec, seed)) != 0 for p in cubics)


def test_degree_bounds_meet_when_the_cubics_generate():
    spec = EnsembleSpec(4, 2)
    lower, upper = degree_bounds(spec, 4, interpolate(spec, 3))
    assert lower == upper > 0
    # fewer generators: the lower bound drops below the ideal's dimension
    assert degree_bounds(spec, 4, interpolate(spec, 3)[:5])[0] < upper
