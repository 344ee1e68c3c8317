"""QuadraticNumber: canonical form, equality and hash, exact arithmetic and accurate floats.

Every property is checked against SymPy's exact arithmetic on the same ``p + q*sqrt(d)``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import pytest
import sympy
from hypothesis import assume, given
from hypothesis import strategies as st

from evalgebra.numbers.quadratic import QuadraticNumber as QN

small = st.fractions(min_value=-50, max_value=50, max_denominator=12)
#: radicands: squares (0 included), negatives, non-squares, fractions
radicands = st.one_of(
    st.sampled_from([0, 1, 4, Fraction(9, 4), 2, 3, 5, 8, 12, Fraction(1, 2), Fraction(8, 9), -1, -3, -8]),
    st.fractions(min_value=-30, max_value=30, max_denominator=6),
    st.integers(0, 12).map(lambda k: Fraction(k * k, 4)),
)
squares = st.fractions(min_value=Fraction(1, 5), max_value=5, max_denominator=5)


def exact(x: QN) -> sympy.Expr:
    return sympy.Rational(x.p.numerator, x.p.denominator) + sympy.Rational(
        x.q.numerator, x.q.denominator
    ) * sympy.sqrt(sympy.Rational(x.d.numerator, x.d.denominator))


def rational(p: Fraction, q: Fraction, d: Fraction) -> sympy.Expr:
    return exact(QN._make(Fraction(p), Fraction(q), Fraction(d)))


def same(a: sympy.Expr, b: sympy.Expr) -> bool:
    return sympy.simplify(sympy.expand(a - b)) == 0


# -- canonical form --------------------------------------------------------------------------
def test_review_examples() -> None:
    assert QN(0, 1, 8) == QN(0, 2, 2)
    assert QN(0, 1, 8) - QN(0, 2, 2) == 0
    assert QN(0, 1, 4) == 2 and QN(0, 1, 4).is_rational
    assert QN(1, 1, 0) == 1 and hash(QN(1, 1, 0)) == hash(1)
    assert QN(Fraction(1, 2), 1, Fraction(9, 4)) == 2
    assert QN(0, 1, -1) != QN(0, -1, -1) and QN(0, 1, -4) == QN(0, 2, -1)
    assert QN(0, 1, 2) != QN(0, 1, 3) and QN(0, 1, 2) != QN(0, -1, 2)


@given(small, small, radicands)
def test_value_and_canonical_form(p: Fraction, q: Fraction, d: Fraction) -> None:
    x = QN(p, q, d)
    assert same(exact(x), rational(p, q, d))
    assert x.is_rational == exact(x).is_rational
    assert x.is_rational == (x.q == 0)
    assert sympy.sympify(x.to_sympy_text()) == sympy.nsimplify(exact(x)) or same(
        sympy.sympify(x.to_sympy_text()), exact(x)
    )
    assert bool(x) == (exact(x) != 0)


@given(small, small, radicands, squares)
def test_two_representations_of_one_field(p: Fraction, q: Fraction, d: Fraction, s: Fraction) -> None:
    """``q*sqrt(d) == (q/s)*sqrt(d*s**2)``: equal, same hash, and they mix in arithmetic."""
    x, y = QN(p, q, d), QN(p, q / s, d * s * s)
    assert x == y and hash(x) == hash(y)
    assert x - y == 0 and not (x - y)
    z = QN(1, 3, d * s * s)
    assert same(exact(x * z), exact(x) * exact(z))
    assert same(exact(z + x), exact(z) + exact(x))
    if z:
        assert same(exact(x / z), exact(x) / exact(z))


@given(small, small, radicands, small, small, radicands)
def test_equality_matches_sympy_and_hash(
    p1: Fraction, q1: Fraction, d1: Fraction, p2: Fraction, q2: Fraction, d2: Fraction
) -> None:
    x, y = QN(p1, q1, d1), QN(p2, q2, d2)
    assert (x == y) == same(exact(x), exact(y))
    if x == y:
        assert hash(x) == hash(y)
    if x.is_rational:
        assert x == x.p and hash(x) == hash(x.p)
    else:
        assert x != x.p


def test_different_fields_still_refused() -> None:
    with pytest.raises(ValueError, match="different fields"):
        QN(0, 1, 2) + QN(0, 1, 3)
    with pytest.raises(ValueError, match="different fields"):
        QN(0, 1, 2) * QN(0, 1, -2)
    assert QN(0, 1, 2) != QN(0, 1, 3)


# -- arithmetic ------------------------------------------------------------------------------
@given(small, small, radicands, small, small, st.integers(-5, 5), small)
def test_arithmetic_matches_sympy(
    p1: Fraction, q1: Fraction, d: Fraction, p2: Fraction, q2: Fraction, n: int, r: Fraction
) -> None:
    x, y = QN(p1, q1, d), QN(p2, q2, d)
    ex, ey = exact(x), exact(y)
    for got, want in (
        (x + y, ex + ey),
        (x - y, ex - ey),
        (x * y, ex * ey),
        (x + n, ex + n),
        (n + x, n + ex),
        (r + x, r + ex),
        (x - r, ex - r),
        (r - x, r - ex),
        (r * x, r * ex),
        (x**3, ex**3),
        (x**0, 1),
    ):
        assert isinstance(got, QN)
        assert same(exact(got), want)
    if y:
        assert same(exact(x / y), ex / ey)
    if x:
        assert same(exact(r / x), r / ex)
    else:
        with pytest.raises(ZeroDivisionError):
            r / x


@given(small, small, radicands, small, small)
def test_order_and_sign(p1: Fraction, q1: Fraction, d: Fraction, p2: Fraction, r: Fraction) -> None:
    assume(d >= 0)
    x, y = QN(p1, q1, d), QN(p2, -q1, d)
    ex, ey = exact(x), exact(y)
    assert x.sign() == sympy.sign(ex)
    assert (x < y) == bool(ex < ey) and (x <= y) == bool(ex <= ey)
    assert (x > r) == bool(ex > r) and (x >= r) == bool(ex >= r)
    assert (x < int(p2)) == bool(ex < int(p2))


def test_complex_has_no_sign() -> None:
    with pytest.raises(ValueError):
        QN(1, 1, -2).sign()
    with pytest.raises(ValueError):
        float(QN(1, 1, -2))
    assert QN(1, 1, -4).is_real is False and QN(1, 1, -4) == QN(1, 2, -1)


# -- construction from numbers -------------------------------------------------------------
def test_floats_refused() -> None:
    for bad in (0.1, 1.0, float("nan")):
        with pytest.raises(TypeError):
            QN(bad)
        with pytest.raises(TypeError):
            QN(1, bad, 2)
        with pytest.raises(TypeError):
            QN(1, 1, bad)


def test_exact_rationals_accepted() -> None:
    assert QN(flint.fmpq(1, 3), flint.fmpq(-2, 7), flint.fmpz(5)) == QN(Fraction(1, 3), Fraction(-2, 7), 5)
    assert QN(sympy.Rational(1, 3)) == Fraction(1, 3)
    assert QN(True) == 1
    assert QN("1/10") == Fraction(1, 10)


# -- conversion to floating point ----------------------------------------------------------
def test_float_near_cancellation() -> None:
    """p = 1/2 and q*sqrt(d) just below -1/2: the sign and the digits survive."""
    q = -Fraction(10**14 + 1, 10**14)
    d = Fraction(1, 4) * (1 + Fraction(52, 10**29)) / (q * q)  # x = -1.3e-28 to 28 digits
    x = QN(Fraction(1, 2), q, d)
    assert not x.is_rational
    want = sympy.N(exact(x), 50)
    assert -1.31e-28 < want < -1.29e-28 and float(x) < 0
    naive = float(x.p) + float(x.q) * math.sqrt(float(x.d))
    assert not math.isclose(naive, float(want), rel_tol=0.5)  # the cancellation the conversion avoids
    assert math.isclose(float(x), float(want), rel_tol=1e-14)


@given(st.integers(1, 10**6), st.integers(1, 10**6), st.integers(2, 10**9), st.booleans())
def test_float_of_near_units(a: int, b: int, k: int, flip: bool) -> None:
    """Units of Z[sqrt(d)]-like numbers ``m - sqrt(m**2 - 1)`` cancel hard in floating point."""
    m = 1 + Fraction(k * a, b)
    x = QN(m, -1, m * m - 1) if not flip else QN(-m, 1, m * m - 1)
    assume(not x.is_rational)
    want = sympy.N(exact(x), 50)
    assert math.isclose(float(x), float(want), rel_tol=4e-16)


@given(small, small, radicands)
def test_float_and_complex_match_sympy(p: Fraction, q: Fraction, d: Fraction) -> None:
    x = QN(p, q, d)
    want = complex(sympy.N(exact(x), 50))
    got = complex(x)
    assert math.isclose(got.real, want.real, rel_tol=1e-15, abs_tol=1e-300)
    assert math.isclose(got.imag, want.imag, rel_tol=1e-15, abs_tol=1e-300)
    if x.is_real:
        assert math.isclose(float(x), want.real, rel_tol=1e-15, abs_tol=1e-300)


def test_float_extreme_magnitudes() -> None:
    tiny, huge = Fraction(1, 10**200), Fraction(10**200)
    assert math.isclose(float(QN(0, tiny, 2)), 1.4142135623730951e-200, rel_tol=1e-15)
    assert math.isclose(float(QN(0, huge, 2)), 1.4142135623730951e200, rel_tol=1e-15)
    assert math.isclose(float(QN(0, 1, 2 * huge * huge)), 1.4142135623730951e200, rel_tol=1e-15)


# -- one family with AlgebraicNumber -----------------------------------------------------------------
@given(small, small, radicands, small, small, radicands)
def test_comparisons_across_fields_match_sympy(
    p1: Fraction, q1: Fraction, d1: Fraction, p2: Fraction, q2: Fraction, d2: Fraction
) -> None:
    """Two real numbers of different quadratic fields compare exactly (as algebraic numbers)."""
    x, y = QN(p1, q1, d1), QN(p2, q2, d2)
    assume(x.is_real and y.is_real)
    difference = (exact(x) - exact(y)).evalf(60)
    expected = 0 if same(exact(x), exact(y)) else (1 if difference > 0 else -1)
    assert x.compare(y) == expected == -y.compare(x)
    assert (x < y) == (expected < 0) and (x >= y) == (expected >= 0)
    assert (x == y) == (expected == 0) and (x == y.to_algebraic()) == (expected == 0)
    if expected == 0:
        assert hash(x) == hash(y) == hash(y.to_algebraic())


@given(small, small, radicands)
def test_to_algebraic_round_trip(p: Fraction, q: Fraction, d: Fraction) -> None:
    x = QN(p, q, d)
    if not x.is_real:
        assert x.minimal_key() is None
        with pytest.raises(ValueError):
            x.to_algebraic()
        return
    a = x.to_algebraic()
    assert a == x and hash(a) == hash(x) and float(a) == pytest.approx(float(x), rel=1e-15, abs=1e-300)
    assert (a + x) == 2 * x and (a * x) == x * x  # AlgebraicNumber arithmetic meets QuadraticNumber's
    if x.q:
        key = x.minimal_key()
        expr = sympy.Poly(list(reversed(key[0])), sympy.Symbol("t")).as_expr()
        assert same(expr.subs(sympy.Symbol("t"), exact(x)), sympy.Integer(0))


# -- API errors (issue 21) ------------------------------------------------------------------------------
def test_quadratic_number_text_goes_through_the_bounded_parser():
    import time

    from evalgebra.errors import InexactError, NumberError

    assert QN("1/3") == Fraction(1, 3) and QN(" 2 ", "1/2", "8") == QN(2, 1, 2)
    for text, says in [
        ("1/0", "zero denominator"),
        ("1e5000", "exponent 5000"),
        ("nan", "cannot read 'nan'"),
        ("0e99999999", "exponent 99999999"),
        ("0x10", "cannot read"),
    ]:
        start = time.perf_counter()
        with pytest.raises(NumberError, match=says):
            QN(text)
        assert time.perf_counter() - start < 0.5
    with pytest.raises(InexactError, match="not exact"):
        QN(0.5)
    with pytest.raises(InexactError, match="exact rationals"):
        QN(None)
    with pytest.raises(NumberError, match="different fields"):
        QN(0, 1, 2) + QN(0, 1, 3)
