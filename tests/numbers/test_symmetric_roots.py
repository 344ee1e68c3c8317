"""Roots of label-swap symmetric eliminants through s = p (1 - p): equal to the direct factorisation."""

from __future__ import annotations

import importlib
from fractions import Fraction

import flint
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalgebra.codegen.structure_modules import GENERATED_STRUCTURES
from evalgebra.codegen.structures import module_name
from evalgebra.data.simulate import expected_sketch
from evalgebra.groebner.identifiability import random_point
from evalgebra.numbers.algebraic_numbers import real_roots
from evalgebra.numbers.symmetric_roots import eliminant_roots, in_swap_variable
from evalgebra.spec import EnsembleSpec

_U = flint.fmpz_poly([0, 1, -1])


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.lists(st.integers(-30, 30), min_size=2, max_size=3), min_size=1, max_size=4))
def test_eliminant_roots_equal_real_roots_on_symmetric_polynomials(factors):
    """Products of random polynomials in s = p (1 - p) (linear and quadratic in s: rational pairs,
    quadratic and quartic irrationals, complex roots, the double root 1/2) have the roots real_roots
    finds by factoring the polynomial in p."""
    poly = flint.fmpz_poly([1])
    for coefficients in factors:
        g = flint.fmpz_poly(coefficients)
        if g.degree() < 1:
            return
        poly *= g(_U)
    assert in_swap_variable(poly) is not None
    assert eliminant_roots(poly) == real_roots(poly)


def test_eliminant_roots_of_polynomials_that_are_not_symmetric():
    for coefficients in ([-1, 3], [2, -3, 1], [-6, 11, -6, 1], [1, 0, 0, 1]):
        poly = flint.fmpz_poly(coefficients)
        assert eliminant_roots(poly) == real_roots(poly)
    assert eliminant_roots([-1, 2, -4, 4]) == real_roots([-1, 2, -4, 4])  # odd degree: real_roots
    with pytest.raises(ValueError):
        eliminant_roots([0])


@pytest.mark.parametrize(("n", "structure"), GENERATED_STRUCTURES)
def test_eliminant_roots_of_the_committed_structures(n, structure):
    """Every committed structure's eliminant is symmetric under the label swap and splits through s."""
    module = importlib.import_module(f"evalgebra.generated.structures.{module_name(n, structure)}")
    for seed in range(3):
        counts = [
            int(c) for c in expected_sketch(random_point(EnsembleSpec(n, 2, structure), seed)).count_vector()
        ]
        coefficients = module.eliminant(counts)
        if not any(coefficients):
            continue
        poly = flint.fmpz_poly(coefficients)
        assert in_swap_variable(poly) is not None
        roots, n_complex = eliminant_roots(poly)
        assert (roots, n_complex) == real_roots(poly)
        assert all(isinstance(r, Fraction) or r.poly.degree() >= 2 for r in roots)


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.fractions(min_value=-3, max_value=Fraction(1, 4), max_denominator=10**6))
def test_eliminant_roots_of_an_irrational_quadratic_have_isolating_intervals(s):
    # p^2 - p + s: roots (1 -+ sqrt(1 - 4 s)) / 2, found from an integer square root (no root isolation)
    quadratic = flint.fmpz_poly([s.numerator, -s.denominator, s.denominator])
    roots, n_complex = eliminant_roots(quadratic)
    assert roots == real_roots(quadratic)[0] and n_complex == 0
    numbers = [r for r in roots if not isinstance(r, Fraction)]
    if not numbers:
        return  # 1 - 4 s is a rational square
    low, high = numbers
    assert low.hi < high.lo  # disjoint
    exact = (1 - 4 * s) ** 0.5
    for number, value in ((low, (1 - exact) / 2), (high, (1 + exact) / 2)):
        q = flint.fmpq_poly(number.poly)
        assert number.lo < number.hi and q(number.lo) * q(number.hi) < 0  # a sign change: the root is inside
        assert float(number.lo) <= value + 1e-9 and value - 1e-9 <= float(number.hi)
