"""QuadraticElement: the same field arithmetic and the same signs as QuadraticNumber
(an independent route)."""

from __future__ import annotations

from fractions import Fraction

import flint
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalgebra.numbers.quadratic import QuadraticNumber
from evalgebra.numbers.quadratic_field import QuadraticElement

_RADICANDS = (2, 3, 5, 13, 21, -7)
rationals = st.fractions(min_value=-5, max_value=5, max_denominator=50)


def _pair(u: Fraction, v: Fraction, d: int) -> tuple[QuadraticElement, QuadraticNumber]:
    return QuadraticElement(u, v, d), QuadraticNumber(u, v, d)


@settings(max_examples=150, deadline=None)
@given(
    u=rationals, v=rationals, x=rationals, y=rationals, d=st.sampled_from(_RADICANDS), k=st.integers(-9, 9)
)
def test_quadratic_element_arithmetic_matches_quadratic_number(u, v, x, y, d, k):
    a, a_ref = _pair(u, v, d)
    b, b_ref = _pair(x, y, d)
    assert (a + b).exact() == a_ref + b_ref
    assert (a - b).exact() == a_ref - b_ref
    assert (a * b).exact() == a_ref * b_ref
    assert (k - a).exact() == k - a_ref and (a * flint.fmpz(k)).exact() == a_ref * k
    assert (flint.fmpq(k, 7) + a).exact() == Fraction(k, 7) + a_ref
    assert a.conjugate().exact() == a_ref.conjugate() and a.norm() == flint.fmpq(
        a_ref.norm().numerator, a_ref.norm().denominator
    )
    if b:
        assert (a / b).exact() == a_ref / b_ref and (a / b) * b == a
        assert (3 / b).exact() == 3 / b_ref
    if d > 0:  # real: signs and comparisons, exactly
        assert a.sign() == a_ref.sign()
        assert (a < b) == (a_ref < b_ref) and (a >= b) == (a_ref >= b_ref)
        assert (a <= k) == (a_ref <= k) and (a > k) == (a_ref > k)


def test_quadratic_element_equality_zero_and_errors():
    x = QuadraticElement(Fraction(1, 2), 0, 5)
    assert x == Fraction(1, 2) and x == flint.fmpq(1, 2) and x != 1 and not QuadraticElement(0, 0, 5)
    assert x.exact() == Fraction(1, 2) and type(x.exact()) is Fraction
    with pytest.raises(ZeroDivisionError):
        x / QuadraticElement(0, 0, 5)
    with pytest.raises(ZeroDivisionError):
        x / 0
    with pytest.raises(ValueError):
        QuadraticElement(1, 1, 2) + QuadraticElement(1, 1, 3)
    with pytest.raises(TypeError):
        QuadraticElement(0.5, 1, 2)
    assert QuadraticElement(1, 1, 2) ** 3 == QuadraticElement(7, 5, 2) and QuadraticElement(
        1, 1, 2
    ) ** -1 == QuadraticElement(-1, 1, 2)


@settings(max_examples=60, deadline=None)
@given(a=st.integers(1, 30), b=st.integers(-40, 40), c=st.integers(-40, 40))
def test_quadratic_element_root_of_is_a_root(a, b, c):
    poly = flint.fmpz_poly([c, b, a])
    discriminant = b * b - 4 * a * c
    if discriminant <= 0 or int(flint.fmpz(discriminant).isqrt()) ** 2 == discriminant:
        return  # not an irreducible quadratic with real roots
    low, high = QuadraticElement.root_of(poly, 0), QuadraticElement.root_of(poly, 1)
    for theta in (low, high):
        assert a * theta * theta + b * theta + c == 0
    assert low < high and low.conjugate() == high
    assert float(low) == pytest.approx((-b - discriminant**0.5) / (2 * a))
    assert float(high) == pytest.approx((-b + discriminant**0.5) / (2 * a))


@settings(max_examples=40, deadline=None)
@given(
    values=st.lists(st.tuples(rationals, rationals), min_size=2, max_size=12), d=st.sampled_from((2, 5, 13))
)
def test_quadratic_element_long_chains_stay_exact(values, d):
    # products grow the denominator past REDUCE_BITS (then reduced by the gcd); sums, differences and
    # quotients on the way: the same number as QuadraticNumber's arithmetic,
    # and an unreduced form compares equal
    x, x_ref = QuadraticElement(1, 0, d), QuadraticNumber(1, 0, d)
    for k, (u, v) in enumerate(values):
        y, y_ref = _pair(u + Fraction(1, 7), v, d)
        x, x_ref = x * y * y + y, x_ref * y_ref * y_ref + y_ref
        if k % 3 == 2 and x:
            x, x_ref = (x - 1) / x, (x_ref - 1) / x_ref
        assert x.exact() == x_ref
    assert x == QuadraticElement(x.u, x.v, d) and x.sign() == x_ref.sign()
