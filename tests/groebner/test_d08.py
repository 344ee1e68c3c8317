"""The single-classifier axioms and pair minors for any R (evalgebra.groebner.axioms, derivation d08)."""

from __future__ import annotations

import random
from fractions import Fraction

import flint
import pytest

from evalgebra.data.point import EvaluationPoint, evaluation_point
from evalgebra.data.simulate import expected_sketch
from evalgebra.errors import SpecError
from evalgebra.groebner.axioms import classifier_axioms, marginal_observations, pair_minors, values_at
from evalgebra.groebner.elimination import eliminate, evaluation_ideal, groebner_basis
from evalgebra.groebner.ideal import Ideal
from evalgebra.groebner.polys import normal_form
from evalgebra.spec import EnsembleSpec
from evalgebra.testing.scripts import load_derivation


def _point(spec: EnsembleSpec, seed: int) -> EvaluationPoint:
    rng = random.Random(seed)
    labels = spec.labels
    weights = [rng.randint(1, 9) for _ in labels]
    prevalence = {lab: Fraction(w, sum(weights)) for lab, w in zip(labels[:-1], weights)}
    response = {}
    for i in range(spec.n_classifiers):
        response[i] = {}
        for truth in labels:
            row = [rng.randint(1, 6) for _ in labels]
            response[i][truth] = {lab: Fraction(w, sum(row)) for lab, w in zip(labels, row)}
    return EvaluationPoint.from_values(spec, prevalence, response=response)


@pytest.mark.parametrize("r_count", [2, 3, 4])
@pytest.mark.parametrize("space", ["P", "R"])
def test_classifier_axioms_vanish_at_exact_simulations_and_fail_when_perturbed(r_count, space):
    spec = EnsembleSpec(2, r_count)
    ideal = evaluation_ideal(spec, space=space)
    for seed in range(3):
        point = _point(spec, seed)
        sketch = expected_sketch(point)
        back = evaluation_point(sketch, structure=spec.structure)  # the point with its test size
        assert back.free_values() == point.free_values()
        at = values_at(ideal, back, sketch)
        assert all(not p(*at) for i in (0, 1) for p in classifier_axioms(ideal, i))
        if space == "P":
            assert all(not p(*at) for p in pair_minors(ideal, (0, 1)))
        k = ideal.ring.names.index("acc_0_a" if space == "P" else "R_0_a_a")
        at[k] += flint.fmpq(1, 1000) if space == "P" else 1
        assert any(p(*at) for p in classifier_axioms(ideal, 0))


@pytest.mark.parametrize("r_count", [2, 3, 4])
def test_classifier_axioms_generate_the_single_classifier_ideal(r_count):
    ideal = evaluation_ideal(EnsembleSpec(1, r_count))
    f = [g for n, g in zip(ideal.ring.names, ideal.ring.gens()) if n.startswith("f_")]
    gens = classifier_axioms(ideal, 0) + [sum(f[1:], f[0]) - 1]
    mine = groebner_basis(Ideal(ideal.ring, gens, is_groebner=False))
    assert [str(p) for p in mine] == [str(p) for p in groebner_basis(ideal)]


def test_classifier_axioms_r2_is_the_logical_alarm_axiom_once_frequencies_sum_to_one():
    ideal = evaluation_ideal(EnsembleSpec(1, 2))
    g = dict(zip(ideal.ring.names, ideal.ring.gens()))
    eq10 = g["prev_a"] * (g["acc_0_a"] - g["f_a"]) - (1 - g["prev_a"]) * (g["acc_0_b"] - g["f_b"])
    assert classifier_axioms(ideal, 0)[0] - eq10 == (1 - g["prev_a"]) * (1 - g["f_a"] - g["f_b"])


@pytest.mark.parametrize("r_count", [3, 4])
def test_classifier_axioms_error_rates_leave_only_the_total(r_count):
    elim = eliminate(evaluation_ideal(EnsembleSpec(1, r_count)), "response")
    assert [str(p) for p in elim] == [" + ".join(f"f_{c}" for c in "abcd"[:r_count]) + " - 1"]


def test_pair_minors_r2_is_theorem_four_pair_polynomial():
    ideal = evaluation_ideal(EnsembleSpec(2, 2))
    g = dict(zip(ideal.ring.names, ideal.ring.gens()))
    m = marginal_observations(ideal, 0), marginal_observations(ideal, 1)
    pi = {(i, ell): g[f"acc_{i}_{lab}"] - m[i][ell] for i in (0, 1) for ell, lab in enumerate("ab")}
    theorem4 = pi[(0, 0)] * pi[(1, 1)] - pi[(0, 1)] * pi[(1, 0)]
    (minor,) = pair_minors(ideal, (0, 1))
    f = [g[n] for n in ideal.ring.names if n.startswith("f_")]
    total = groebner_basis(Ideal(ideal.ring, [sum(f[1:], f[0]) - 1], is_groebner=False))
    assert not normal_form(minor + theorem4, total.generators).coeffs()  # equal up to sign once sum f = 1
    assert normal_form(minor - theorem4, total.generators).coeffs()


def test_axioms_refuse_numeric_observations_and_bad_classifiers():
    spec = EnsembleSpec(1, 3)
    numeric = evaluation_ideal(spec, observed=expected_sketch(_point(spec, 0)))
    with pytest.raises(SpecError):
        classifier_axioms(numeric, 0)
    with pytest.raises(SpecError):
        marginal_observations(evaluation_ideal(spec), 1)


@pytest.mark.slow
def test_d08_matches_committed_result():
    assert load_derivation("d08_axioms_many_labels").main(["--check"]) == 0
