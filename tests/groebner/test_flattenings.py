"""Flattening minors: valid splits, the determinant, and vanishing on the model (issue 26)."""

from __future__ import annotations

import itertools

import pytest
import sympy

from evalgebra.groebner.invariants.checks import jacobian_rank, model_frequencies
from evalgebra.groebner.invariants.flattenings import (
    flattening_matrix,
    flattening_minors,
    minors_with_sources,
    observed_ring,
    valid_bipartitions,
)
from evalgebra.spec import EnsembleSpec


def test_valid_bipartitions_keep_every_correlated_classifier_on_one_side():
    spec = EnsembleSpec(5, 2, [(0, 1), (1, 3)])
    splits = valid_bipartitions(spec)
    assert splits and all({0, 1, 3} <= set(side) for side, _ in splits)
    assert all(sorted(side + rest) == list(range(5)) for side, rest in splits)
    # independent: each unordered split once
    assert len(valid_bipartitions(EnsembleSpec(4, 2))) == 2**3 - 1


def test_flattening_matrix_lists_every_pattern_once():
    spec = EnsembleSpec(3, 3)
    matrix = flattening_matrix(spec, [2], [0, 1])
    assert sorted(itertools.chain(*matrix)) == list(range(27))
    ring = observed_ring(spec)
    assert ring.names[matrix[1][5]] == "f_bcb"  # row: classifier 2 answers b; columns (0, 1) = (b, c)


def test_flattening_minors_equal_sympy_determinants():
    spec = EnsembleSpec(4, 2)
    ring = observed_ring(spec)
    polys, sources = minors_with_sources(spec)
    symbols = sympy.symbols(ring.names)
    for poly, source in list(zip(polys, sources))[::7]:
        matrix = flattening_matrix(spec, source.rows, source.columns)
        block = sympy.Matrix(
            [[symbols[matrix[r][c]] for c in source.column_indices] for r in source.row_indices]
        )
        det = sympy.expand(block.det())
        assert sympy.expand(ring.to_sympy(poly) - det) == 0 or sympy.expand(ring.to_sympy(poly) + det) == 0


@pytest.mark.parametrize(
    "spec",
    [
        EnsembleSpec(4, 2),
        EnsembleSpec(4, 2, [(0, 1)]),
        EnsembleSpec(4, 2, [(0, 1), (1, 2)]),
        EnsembleSpec(3, 2),
    ],
    ids=str,
)
@pytest.mark.parametrize("seed", range(3))
def test_flattening_minors_vanish_at_model_points(spec, seed):
    _, minors = flattening_minors(spec)
    x = model_frequencies(spec, seed)
    assert all(p(*x) == 0 for p in minors)


def test_flattening_minors_need_the_correlated_classifiers_together():
    """Two correlated pairs split across 0 1 | 2 3: the rank bound fails on the model."""
    spec = EnsembleSpec(4, 2, [(0, 1), (2, 3)])
    assert ((0, 1), (2, 3)) not in valid_bipartitions(spec)
    ring = observed_ring(spec)
    matrix = flattening_matrix(spec, (0, 1), (2, 3))
    x = model_frequencies(spec, seed=1)
    values = sympy.Matrix([[sympy.Rational(int(x[k].p), int(x[k].q)) for k in row] for row in matrix])
    assert values.rank() > 2  # the generating set keeps no joint correlation of the two pairs
    assert ring.nvars == 16


def test_flattening_minors_of_many_labels_reach_the_codimension():
    spec = EnsembleSpec(4, 2, [(0, 1)])
    _, minors = flattening_minors(spec)
    assert len(minors) == 16
    assert jacobian_rank(minors, model_frequencies(spec, 2)) == 16 - 1 - spec.n_free_variables()
