"""Exact real algebraic numbers and number-field elements."""

from __future__ import annotations

from fractions import Fraction

import flint
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from evalgebra.evaluators.algebraic_numbers import AlgebraicNumber, FieldElement, poly_text, real_roots


@settings(max_examples=30)
@given(st.lists(st.integers(-20, 20), min_size=3, max_size=6).filter(lambda c: c[-1] != 0))
def test_real_roots_agree_with_sympy(coeffs):
    poly = flint.fmpz_poly(coeffs)
    roots, n_complex = real_roots(poly)
    expected = sorted(set(sympy.Poly(list(reversed(coeffs)), sympy.Symbol("x")).real_roots()))
    assert len(roots) == len(expected)
    assert n_complex == sum(f.degree() for f, _ in poly.factor()[1]) - len(roots)
    for ours, theirs in zip(roots, expected):
        if isinstance(ours, Fraction):
            assert sympy.Rational(ours.numerator, ours.denominator) == theirs
        else:
            assert abs((sympy.sympify(ours.to_sympy_text()) - theirs).evalf(60)) < sympy.Float("1e-50")
            assert abs(float(ours) - float(theirs)) < 1e-12
    assert all(a < b for a, b in zip(roots, roots[1:]))


def test_algebraic_number_compare_hash_and_refine():
    root2 = AlgebraicNumber([-2, 0, 1], 1)
    assert root2 == AlgebraicNumber([4, 0, -2], 1) and hash(root2) == hash(AlgebraicNumber([-2, 0, 1], 1))
    assert root2 != AlgebraicNumber([-2, 0, 1], 0) and root2 != Fraction(7, 5)
    assert Fraction(1414, 1000) < root2 < Fraction(1415, 1000)
    assert -root2 == AlgebraicNumber([-2, 0, 1], 0)
    root2.refine(Fraction(1, 10**30))
    lo, hi = root2.interval()
    assert lo * lo < 2 < hi * hi and hi - lo < Fraction(1, 10**30)
    assert root2 < AlgebraicNumber([-3, 0, 1], 1) and root2.sign() == 1
    with pytest.raises(ValueError):
        AlgebraicNumber([-4, 0, 1], 0)  # reducible
    with pytest.raises(ValueError):
        AlgebraicNumber([1, 0, 1], 0)  # no real root
    assert poly_text(flint.fmpz_poly([3, -1, 0, 2])) == "2*x^3 - x + 3"


def test_field_element_value_trace_and_inverse():
    f = flint.fmpz_poly([-1, -3, 0, 1])  # irreducible cubic, three real roots
    roots, _ = real_roots(f)
    theta = FieldElement(f, [0, 1])
    x = theta * theta + 2 * theta - Fraction(1, 3)
    for root in roots:
        value = x.value(root)
        approx = float(root) ** 2 + 2 * float(root) - 1 / 3
        assert abs(float(value) - approx) < 1e-12
    assert x.trace() == sum((Fraction(float(r)) * 0 for r in roots), Fraction(0)) + (6 + 0 - 1)  # tr(t^2)=6, tr(t)=0
    assert ((x * x.inverse()) - 1).is_zero()
    assert (theta / theta).rational() == 1
