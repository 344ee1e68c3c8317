"""The identifiability atlas (derivation d04): anchors, invariance, two routes to the dimension."""

from __future__ import annotations

import random

import pytest

from evalgebra.groebner.identifiability import identifiability, projection_dimension
from evalgebra.spec import EnsembleSpec
from evalgebra.structures import enumerate_structures, isomorphism
from evalgebra.testing.scripts import DERIVATIONS, load_derivation


def test_identifiability_independent_trio_has_two_points():
    row = identifiability(EnsembleSpec(3, 2), seed=1, time_limit=60)
    assert (row.dimension, row.groebner_dimension, row.degree, row.points) == (0, 0, 2, 2)
    assert row.contains_truth is True


@pytest.mark.parametrize("n", [3, 4])
def test_identifiability_complete_structure_has_dimension_n_plus_one(n):
    assert projection_dimension(EnsembleSpec(n, 2, "complete"), seed=2) == n + 1


def test_identifiability_jacobian_and_groebner_dimensions_agree_for_n3():
    for s in enumerate_structures(3, "hypergraphs"):
        row = identifiability(EnsembleSpec(3, 2, s), seed=3, time_limit=60, degree=False)
        assert row.groebner_dimension == row.dimension, s
        assert row.contains_truth is True


def test_projection_dimension_invariant_under_relabelling():
    rng = random.Random(7)
    for s in enumerate_structures(4, "graphs"):
        perm = list(range(4))
        rng.shuffle(perm)
        relabelled = [tuple(perm[i] for i in t) for t in s]
        assert isomorphism(s, relabelled, 4) is not None
        spec = EnsembleSpec(4, 2, relabelled)
        assert projection_dimension(spec, seed=5) == projection_dimension(EnsembleSpec(4, 2, s), seed=5)


def test_atlas_rows_match_committed_table_for_n3():
    module = load_derivation("d04_identifiability")
    rows = module.atlas(3)
    committed = (DERIVATIONS / "results" / "d04_identifiability.txt").read_text(encoding="utf-8").splitlines()
    table = [line for line in committed if line.startswith("3  ")]
    assert len(table) == len(rows)
    for (_n, _s), row in rows.items():
        assert " ".join(module.atlas_cells(row)) in [" ".join(line.split()) for line in table]


@pytest.mark.slow
def test_d04_matches_committed_result():
    assert load_derivation("d04_identifiability").main(["--check"]) == 0


# -- R >= 3 -------------------------------------------------------------------------------------
def test_projection_dimension_three_labels_pair_structures_on_three_classifiers():
    dims = [projection_dimension(EnsembleSpec(3, 3, s)) for s in enumerate_structures(3, "graphs")]
    assert dims == [0, 6, 10, 14]  # complete graph: 20 basic statistics less the 6 axioms


def test_projection_dimension_three_labels_is_invariant_under_relabelling():
    rng = random.Random(3)
    for s in enumerate_structures(4, "graphs")[:6]:
        perm = list(range(4))
        rng.shuffle(perm)
        image = [tuple(perm[i] for i in t) for t in s]
        assert projection_dimension(EnsembleSpec(4, 3, s)) == projection_dimension(EnsembleSpec(4, 3, image))


def test_random_point_three_labels_is_realisable_and_correlated():
    from evalgebra.data.simulate import expected_sketch
    from evalgebra.groebner.identifiability import random_point

    spec = EnsembleSpec(3, 3, [(0, 1)])
    point = random_point(spec, seed=4)
    assert sum(expected_sketch(point).counts().values()) > 0
    assert any(v != 0 for table in point.correlation[(0, 1)] for v in table.values())


def test_identifiability_three_labels_independent_trio_has_six_points():
    from evalgebra.groebner.backends import available_backends

    if not {"msolve", "singular"} & set(available_backends()):
        pytest.skip("needs msolve or Singular")
    row = identifiability(EnsembleSpec(3, 3), seed=0, time_limit=120)
    assert (row.dimension, row.groebner_dimension, row.degree, row.points, row.real_points) == (0, 0, 6, 6, 6)
    assert row.contains_truth is True and row.n_labels == 3 and row.correlation_freedom == 0


def test_identifiability_three_labels_positive_dimension_keeps_the_jacobian_only():
    row = identifiability(EnsembleSpec(3, 3, [(0, 1)]), time_limit=10)
    assert (row.dimension, row.status, row.points) == (6, "jacobian only", None)
    assert row.correlation_freedom == 12 - row.correlation_rank == 0
