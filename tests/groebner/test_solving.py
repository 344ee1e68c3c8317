"""Zero-dimensional solving: point counts, eliminants and rational roots in the quotient algebra."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalgebra.data.point import EvaluationPoint
from evalgebra.data.simulate import expected_sketch
from evalgebra.errors import SpecError
from evalgebra.groebner.elimination import eliminate, evaluation_ideal, groebner_basis
from evalgebra.groebner.ideal import Ideal
from evalgebra.groebner.polys import PolyRing
from evalgebra.groebner.solving import (
    multiplication_matrix,
    point_count,
    rational_roots,
    real_point_count,
    standard_monomials,
    univariate_eliminant,
    univariate_eliminants,
)
from evalgebra.spec import EnsembleSpec
from evalgebra.testing.strategies import budget, rational_points

RING = PolyRing(("x", "y"), "degrevlex")
rationals = st.fractions(min_value=-3, max_value=3, max_denominator=4)


def _ideal(texts):
    return groebner_basis(Ideal(RING, [RING.parse(t) for t in texts], is_groebner=False))


def _product(roots):
    poly = RING.parse("1")
    x = RING.gens()[0]
    for r in roots:
        poly = poly * (x - RING.parse(str(r)))
    return poly


@budget(0.5)
@given(st.lists(rationals, min_size=1, max_size=5), st.lists(rationals, min_size=1, max_size=3))
def test_point_count_triangular_system(roots, coefficients):
    x, y = RING.gens()
    q = sum((RING.parse(str(c)) * x**k for k, c in enumerate(coefficients)), RING.parse("0"))
    ideal = groebner_basis(Ideal(RING, [_product(roots), y - q], is_groebner=False))
    assert point_count(ideal, distinct=False) == len(roots)
    assert point_count(ideal) == real_point_count(ideal) == len(set(roots))
    eliminant = univariate_eliminant(ideal, "x")
    assert eliminant == _product(roots) / _product(roots).coeffs()[0]
    assert rational_roots(eliminant) == sorted(set(roots))
    values = sorted({sum(c * r**k for k, c in enumerate(coefficients)) for r in roots})
    assert rational_roots(univariate_eliminant(ideal, "y")) == values


@budget(0.3)
@given(st.lists(rationals, min_size=0, max_size=3, unique=True), st.integers(1, 4))
def test_real_point_count_excludes_complex_pair(roots, c):
    ideal = _ideal([str(_product(roots) * RING.parse(f"x^2 + {c}")), "y - x"])
    assert point_count(ideal) == len(roots) + 2
    assert real_point_count(ideal) == len(roots)


def test_unit_ideal_has_no_points():
    ideal = _ideal(["x - 1", "x - 2"])
    assert standard_monomials(ideal) == []
    assert point_count(ideal) == real_point_count(ideal) == 0
    assert RING.text(univariate_eliminant(ideal, "y")) == "1"


def test_positive_dimension_and_unreduced_input_refused():
    with pytest.raises(SpecError, match="dimension 1"):
        point_count(_ideal(["x*y"]))
    with pytest.raises(SpecError, match="Gröbner"):
        point_count(Ideal(RING, [RING.parse("x^2 - 1"), RING.parse("y")], is_groebner=False))
    with pytest.raises(SpecError, match="not variables"):
        univariate_eliminants(_ideal(["x", "y"]), ["z"])


def test_standard_monomials_under_leading_terms():
    ring = PolyRing(("x", "y"), "lex")
    ideal = Ideal(ring, [ring.parse("x^2"), ring.parse("y^2")])
    assert standard_monomials(ideal) == [(0, 0), (0, 1), (1, 0), (1, 1)]


def _counts(ideal):
    return point_count(ideal, distinct=False), point_count(ideal), real_point_count(ideal)


def _lex(*texts):
    ring = PolyRing(("x", "y"), "lex")
    return groebner_basis(Ideal(ring, [ring.parse(t) for t in texts], is_groebner=False))


def test_point_count_real_and_complex():
    """With multiplicity, distinct complex, distinct real (formerly groebner.counting.count_points)."""
    assert _counts(_lex("x^2 - 2", "y^3 - y")) == (6, 6, 6)
    assert _counts(_lex("x^2 - 2", "y^2 + 1")) == (4, 4, 0)
    assert _counts(_lex("x^2", "y - 1")) == (2, 1, 1)
    with pytest.raises(SpecError, match="zero-dimensional"):
        point_count(_lex("x^2 - 2"))


def test_multiplication_matrix_eigenvalues_are_values_at_points():
    ideal = _ideal(["x^2 - 3*x + 2", "y - x - 1"])
    matrix = multiplication_matrix(ideal, "y")
    roots = rational_roots(matrix.charpoly())
    assert roots == [Fraction(2), Fraction(3)]


@budget(0.3)
@given(rational_points(EnsembleSpec(3, 2), use_accuracy=True))
def test_univariate_eliminant_matches_elimination_three_binary(point):
    """On N = 3, R = 2 independent sketches the quotient-algebra eliminant is the elimination ideal."""
    sketch = expected_sketch(point)
    ideal = groebner_basis(evaluation_ideal(EnsembleSpec(3, 2), observed=sketch, ordering="degrevlex"))
    if ideal.dimension() != 0:
        return  # blind spots (a constant classifier, D_ij = 0, ...): not zero-dimensional
    eliminant = univariate_eliminant(ideal, "prev_a")
    others = [n for n in ideal.ring.names if n != "prev_a"]
    expected = eliminate(ideal, others)
    assert [str(p) for p in expected] == [ideal.ring.text(eliminant)]
    assert point.prevalence[0][0] in rational_roots(eliminant)


def test_point_count_generic_three_binary_is_two():
    point = EvaluationPoint.from_values(
        EnsembleSpec(3, 2),
        {"a": "3/10"},
        accuracy={0: {"a": "4/5", "b": "7/10"}, 1: {"a": "3/4", "b": "13/20"}, 2: {"a": "7/10", "b": "9/10"}},
    )
    ideal = groebner_basis(
        evaluation_ideal(EnsembleSpec(3, 2), observed=expected_sketch(point), ordering="degrevlex")
    )
    assert point_count(ideal) == point_count(ideal, distinct=False) == real_point_count(ideal) == 2
    assert rational_roots(univariate_eliminant(ideal, "prev_a")) == [Fraction(3, 10), Fraction(7, 10)]
