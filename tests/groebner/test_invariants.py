"""model_invariants: the must-show properties of issue 26 on the committed specs."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given

from evalgebra.data.simulate import expected_sketch, labelled_test
from evalgebra.errors import SpecError
from evalgebra.groebner import ModelInvariants, model_invariants
from evalgebra.groebner.identifiability import jacobian_ranks, random_point
from evalgebra.groebner.invariants.checks import jacobian_rank, model_frequencies, random_frequencies
from evalgebra.groebner.invariants.model import derive_invariants
from evalgebra.groebner.invariants.store import committed_specs
from evalgebra.spec import EnsembleSpec
from evalgebra.testing.strategies import budget, rational_points

COMMITTED = [EnsembleSpec(3, 3), EnsembleSpec(4, 2), EnsembleSpec(4, 2, [(0, 1)])]
SEEDS = range(6)


def test_committed_specs_are_the_three_derived():
    assert sorted(committed_specs()) == [(3, 3, ()), (4, 2, ()), (4, 2, ((0, 1),))]


@pytest.mark.parametrize("spec", COMMITTED, ids=str)
def test_model_invariants_committed_is_instant_and_complete(spec):
    inv = model_invariants(spec)
    assert isinstance(inv, ModelInvariants) and inv.source.startswith("committed")
    assert inv.seconds < 1.0
    assert len(inv.polynomials) == len(inv.origins) == len(inv.proofs) == len(inv.degrees)
    assert inv.variety_dimension == inv.model_dimension
    assert all(p.total_degree() == d for p, d in zip(inv.polynomials, inv.degrees))


@pytest.mark.parametrize("spec", COMMITTED, ids=str)
@pytest.mark.parametrize("seed", SEEDS)
def test_model_invariants_vanish_exactly_on_random_exact_tests(spec, seed):
    inv = model_invariants(spec)
    point = random_point(spec, seed=seed, salt="tests")
    sketch = expected_sketch(point)
    values = inv.values_at(sketch)
    assert values and all(isinstance(v, Fraction) and v == 0 for v in values)
    # the counts vanish too (the invariants are homogeneous)
    assert set(inv.values_at(list(sketch.unlabelled().count_vector()))) == {0}


@pytest.mark.parametrize("spec", COMMITTED, ids=str)
def test_model_invariants_vanish_on_item_by_item_tests(spec):
    """Small exact tests drawn by hypothesis, counted item by item from their decisions."""
    inv = model_invariants(spec)

    @budget(0.25)
    @given(rational_points(spec, correlated=bool(spec.structure), denominators=(2, 3, 4)))
    def check(point):
        test = labelled_test(point, seed=0)
        assert set(inv.values_at(test.sketch().unlabelled())) == {0}

    check()


@pytest.mark.parametrize("spec", COMMITTED, ids=str)
@pytest.mark.parametrize("seed", SEEDS)
def test_model_invariants_do_not_vanish_at_random_frequencies(spec, seed):
    inv = model_invariants(spec)
    assert any(v != 0 for v in inv.values_at(random_frequencies(spec, seed)))


@pytest.mark.parametrize("spec", COMMITTED, ids=str)
@pytest.mark.parametrize("seed", range(3))
def test_model_invariants_jacobian_rank_matches_the_dimension(spec, seed):
    inv = model_invariants(spec)
    point = random_point(spec, seed=seed, salt="jacobian tests")
    model_rank = jacobian_ranks(spec, point)[0]
    assert model_rank == inv.model_dimension
    n_obs = spec.n_responses**spec.n_classifiers
    assert jacobian_rank(inv.polynomials, model_frequencies(spec, seed + 10)) == n_obs - 1 - model_rank


@pytest.mark.parametrize("spec", COMMITTED[1:], ids=str)
def test_model_invariants_committed_equal_a_fresh_derivation(spec):
    committed, fresh = model_invariants(spec), derive_invariants(spec)
    assert committed.texts() == fresh.texts()
    assert (committed.model_dimension, committed.variety_dimension) == (
        fresh.model_dimension,
        fresh.variety_dimension,
    )
    assert committed.ideal == "generates"  # proved by the derivation; a fresh run claims less
    assert fresh.ideal == "cuts out the model near generic points"


@pytest.mark.slow
def test_model_invariants_three_labels_equal_a_fresh_derivation():
    spec = COMMITTED[0]
    assert model_invariants(spec).texts() == derive_invariants(spec).texts()


def test_model_invariants_name_their_origin_and_proof():
    inv = model_invariants(EnsembleSpec(3, 3))
    assert set(inv.degrees) == {4} and len(inv.polynomials) == 27
    assert all(o.startswith("interpolation") for o in inv.origins)
    assert all(p.startswith("substitution") for p in inv.proofs)
    assert "undecided" in inv.ideal_proof
    binary = model_invariants(EnsembleSpec(4, 2))
    assert all(o.startswith("flattening") for o in binary.origins)


def test_model_invariants_of_a_model_filling_the_simplex_are_none():
    inv = model_invariants(EnsembleSpec(3, 2))
    assert inv.polynomials == () and inv.ideal == "generates" and inv.codimension == 0


def test_model_invariants_values_at_checks_its_input():
    inv = model_invariants(EnsembleSpec(4, 2))
    with pytest.raises(SpecError, match="16 pattern frequencies"):
        inv.values_at([Fraction(1, 3)] * 3)
    with pytest.raises(SpecError, match="one population"):
        model_invariants(EnsembleSpec(2, 2, populations=2))


def test_model_invariants_named_classifiers_use_the_committed_result():
    spec = EnsembleSpec(["x", "y", "z", "w"], ["yes", "no"])
    inv = model_invariants(spec)
    assert inv.source.startswith("committed") and inv.spec is spec
    assert "x" not in " ".join(inv.texts())  # symbols use positions, never user text


def test_model_invariants_summary_and_latex():
    inv = model_invariants(EnsembleSpec(4, 2, [(0, 1)]))
    assert "16 of degree 3" in inv.summary()
    assert "f_{" in inv.to_ideal()._repr_latex_() or "f_" in inv.to_ideal()._repr_latex_()
