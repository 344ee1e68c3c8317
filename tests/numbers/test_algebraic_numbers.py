"""Exact real algebraic numbers and number-field elements."""

from __future__ import annotations

from fractions import Fraction

import flint
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from evalgebra.numbers.algebraic_numbers import AlgebraicNumber, FieldElement, poly_text, real_roots


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
    assert x.trace() == sum((Fraction(float(r)) * 0 for r in roots), Fraction(0)) + (
        6 + 0 - 1
    )  # tr(t^2)=6, tr(t)=0
    assert ((x * x.inverse()) - 1).is_zero()
    assert (theta / theta).rational() == 1


# -- one family: QuadraticNumber and AlgebraicNumber ------------------------------------------------
from evalgebra.numbers.quadratic import QuadraticNumber  # noqa: E402
from evalgebra.numbers.real_algebraic import RealAlgebraic, composed_product, composed_sum  # noqa: E402
from evalgebra.results import exact_text  # noqa: E402

_X = sympy.Symbol("x")
_rationals = st.fractions(min_value=-20, max_value=20, max_denominator=12)


def _sympy_value(value):
    return sympy.sympify(exact_text(value))


@st.composite
def irreducible_roots(draw, min_degree: int = 2, max_degree: int = 6):
    """A real root of an irreducible integer polynomial of degree in [min_degree, max_degree]."""
    degree = draw(st.integers(min_degree, max_degree))
    coeffs = draw(st.lists(st.integers(-9, 9), min_size=degree, max_size=degree)) + [draw(st.integers(1, 4))]
    coeffs[0] = coeffs[0] or 1
    factors = [f for f, _ in flint.fmpz_poly(coeffs).factor()[1] if f.degree() >= min_degree]
    roots = [x for f in factors for x in real_roots(f)[0] if isinstance(x, AlgebraicNumber)]
    if not roots:
        eisenstein = [-draw(st.sampled_from([2, 3, 5, 7]))] + [0] * (min_degree - 1) + [1]  # x^n - p
        roots = [AlgebraicNumber(eisenstein, len(real_roots(eisenstein)[0]) - 1)]  # the rare case without one
    return draw(st.sampled_from(roots))


@settings(max_examples=25, deadline=None)
@given(irreducible_roots())
def test_algebraic_number_is_sympy_crootof(x):
    expr = sympy.Poly(list(reversed([int(c) for c in x.poly.coeffs()])), _X).as_expr()
    theirs = sympy.CRootOf(expr, x.index)
    assert _sympy_value(x) == theirs  # the same canonical (polynomial, index)
    x.refine(Fraction(1, 10**40))
    lo, hi = x.interval()
    assert (
        sympy.Rational(lo.numerator, lo.denominator)
        < theirs.evalf(60)
        < sympy.Rational(hi.numerator, hi.denominator)
    )
    assert (
        isinstance(x, RealAlgebraic)
        and x.to_algebraic() is x
        and hash(x) == hash(AlgebraicNumber(x.poly, x.index))
    )


@settings(max_examples=20, deadline=None)
@given(irreducible_roots(2, 4), irreducible_roots(2, 4), _rationals.filter(bool))
def test_algebraic_number_arithmetic_round_trips(x, y, r):
    total, product = x + y, x * y
    assert total - y == x and (total - x) == y  # exact, whichever types the results are
    assert product / y == x and product / x == y
    assert (x + r) - r == x and (x * r) / r == x and r - x == -(x - r)
    assert abs(float(total) - (float(x) + float(y))) < 1e-9 * (1 + abs(float(total)))
    assert abs(float(product) - float(x) * float(y)) < 1e-9 * (1 + abs(float(product)))
    assert (1 / x) * x == 1 and x**2 == x * x and x - x == 0
    theirs = (_sympy_value(x) + _sympy_value(y)).evalf(50)
    assert abs(theirs - _sympy_value(total).evalf(50)) < sympy.Float("1e-40")


@settings(max_examples=40, deadline=None)
@given(_rationals, _rationals.filter(bool), st.integers(-30, 30).filter(lambda d: d > 0))
def test_quadratic_number_is_the_degree_two_case(p, q, d):
    x = QuadraticNumber(p, q, d)
    a = x.to_algebraic()
    assert a == x and x == a and hash(a) == hash(x)
    assert isinstance(x, RealAlgebraic) and isinstance(a, (Fraction, AlgebraicNumber))
    assert a == AlgebraicNumber.from_quadratic(x)
    if isinstance(a, AlgebraicNumber):
        assert a.degree == 2
        assert (
            sympy.minimal_polynomial(_sympy_value(x), _X)
            == sympy.Poly(list(reversed([int(c) for c in a.poly.coeffs()])), _X).as_expr()
        )
        assert _sympy_value(x).equals(_sympy_value(a))
        assert {x, a} == {a} and len({x: 1, a: 2}) == 1
    assert (x < a) is False and (x <= a) and (a >= x)
    assert (x + 1 > a) and (a < x + 1) and (x - 1 < a)


@settings(max_examples=15, deadline=None)
@given(
    st.lists(
        st.one_of(
            _rationals,
            st.builds(QuadraticNumber, _rationals, _rationals, st.integers(1, 12)),
            irreducible_roots(2, 5),
        ),
        min_size=2,
        max_size=7,
    )
)
def test_mixed_lists_sort_like_sympy(values):
    ours = sorted(values)
    floats = [_sympy_value(v).evalf(50) for v in ours]
    assert all(a <= b for a, b in zip(floats, floats[1:]))
    for v in values:
        assert exact_text(v)  # every member writes text SymPy reads


def test_quadratic_and_algebraic_json_text():
    x = QuadraticNumber(1, 1, 2)
    assert exact_text(x) == "1 + sqrt(2)" and exact_text(x.to_algebraic()) == "CRootOf(x**2 - 2*x - 1, 1)"
    assert sympy.sympify(exact_text(x)).equals(sympy.sympify(exact_text(x.to_algebraic())))
    complex_number = QuadraticNumber(0, 1, -1)
    assert complex_number.minimal_key() is None and complex_number != AlgebraicNumber([-2, 0, 1], 1)
    with pytest.raises(ValueError):
        complex_number.to_algebraic()


def test_composed_polynomials_vanish_on_sums_and_products():
    f, g = flint.fmpz_poly([-2, 0, 0, 1]), flint.fmpz_poly([-1, -1, 1])
    alpha, beta = (sympy.real_root(2, 3), (1 + sympy.sqrt(5)) / 2)
    for poly, value in ((composed_sum(f, g), alpha + beta), (composed_product(f, g), alpha * beta)):
        assert poly.degree() == 6
        expr = sympy.Poly(list(reversed([int(c) for c in poly.coeffs()])), _X).as_expr()
        assert sympy.simplify(sympy.expand(expr.subs(_X, value))) == 0


# -- any degree: repeated roots, degree 16, number fields of high degree ----------------------------
def test_real_roots_repeated_roots():
    f = flint.fmpz_poly([-2, 0, 1]) ** 3 * flint.fmpz_poly([-1, 3]) ** 2 * flint.fmpz_poly([1, 0, 1]) ** 2
    roots, n_complex = real_roots(f)
    assert n_complex == 2  # distinct non-real roots, counted once
    assert roots == [AlgebraicNumber([-2, 0, 1], 0), Fraction(1, 3), AlgebraicNumber([-2, 0, 1], 1)]


def test_real_roots_degree_sixteen():
    # the minimal polynomial of sqrt(2) + sqrt(3) + sqrt(5) + sqrt(7): degree 16, 16 real roots
    poly = flint.fmpz_poly([1])
    value: object = Fraction(0)
    for p in (2, 3, 5, 7):
        value = value + AlgebraicNumber([-p, 0, 1], 1)
    assert isinstance(value, AlgebraicNumber) and value.degree == 16
    roots, n_complex = real_roots(value.poly * flint.fmpz_poly([-1, 0, 1]) ** 2 * poly)
    assert n_complex == 0 and len(roots) == 18 and value in roots
    assert abs(float(value) - sum(p**0.5 for p in (2, 3, 5, 7))) < 1e-12
    theta = FieldElement.generator(value)
    y = (theta**3 - 2 * theta + Fraction(1, 7)) / (theta**2 + 1)
    assert y * (theta**2 + 1) == theta**3 - 2 * theta + Fraction(1, 7)
    got = y.value(value)
    v = float(value)
    assert abs(float(got) - (v**3 - 2 * v + 1 / 7) / (v * v + 1)) < 1e-9
    assert (theta / theta).rational() == 1 and (theta - theta).value(value) == 0


@settings(max_examples=10, deadline=None)
@given(irreducible_roots(3, 8), st.lists(_rationals, min_size=2, max_size=5))
def test_field_element_division_and_value_any_degree(root, coeffs):
    theta = FieldElement.generator(root)
    g = FieldElement(root.poly, coeffs)
    if g.is_zero():
        with pytest.raises(ZeroDivisionError):
            theta / g
        return
    quotient = theta / g
    assert quotient * g == theta and 1 / g * g == 1
    exact = quotient.value(root)
    assert exact == root / g.value(root)  # number field vs generic algebraic arithmetic
    with pytest.raises(ValueError):
        FieldElement(flint.fmpz_poly([-3, 0, 1]), [0, 1]).value(AlgebraicNumber([-2, 0, 1], 1))


def test_algebraic_numbers_of_any_degree_as_estimate_values():
    """Roots of degree 6 as an estimate's values: exact text SymPy reads, exact totals and complements."""
    from evalgebra.results import Estimate

    roots, _ = real_roots(flint.fmpz_poly([1, -8, 8, 6, -6, -1, 1]))  # irreducible sextic, six real roots
    a = next(r for r in roots if 0 < r < Fraction(1, 2))
    assert isinstance(a, AlgebraicNumber) and a.degree == 6
    e = Estimate({"a": a, "b": 1 - a}, {"c0": {"a": a, "b": Fraction(1, 2)}})
    assert e.is_exact and e.response_rows()["c0"]["a"]["b"] == 1 - a
    total = e.total_accuracy("c0")
    assert total - a * a == (1 - a) / 2  # exact, by a route the sum did not take
    exact = e.to_dict()["exact"]
    assert sympy.sympify(exact["prevalence"]["a"]) == sympy.CRootOf(
        sympy.Poly([1, -1, -6, 6, 8, -8, 1], _X).as_expr(), a.index
    )
    assert abs(float(sympy.sympify(exact["prevalence"]["b"])) - (1 - float(a))) < 1e-15
    assert "root" in e.summary()


def test_as_fraction_refuses_a_float_rather_than_truncating_it():
    import numpy as np
    import pytest

    from evalgebra.numbers.real_algebraic import as_fraction

    for value in (0.041, np.float64(-0.289), 1.5):
        with pytest.raises(TypeError, match="float"):
            as_fraction(value)
    assert as_fraction(3) == 3


# -- API errors (issue 21) ------------------------------------------------------------------------------
@pytest.mark.parametrize("index", [2, -1, 10**30, 1.0, "1", True, None])
def test_a_root_index_the_polynomial_does_not_have_is_a_number_error(index):
    from evalgebra.errors import NumberError

    with pytest.raises(NumberError, match=r"x\^2 - 2 has 2 real root\(s\); no index .*give an int from 0"):
        AlgebraicNumber([-2, 0, 1], index)


def test_polynomial_coefficients_are_exact_integers_never_truncated():
    from evalgebra.errors import InexactError, NumberError

    with pytest.raises(InexactError, match="float"):
        AlgebraicNumber([-2.5, 0, 1], 1)  # int(-2.5) would have made it sqrt(2)
    with pytest.raises(NumberError, match="not an integer"):
        AlgebraicNumber([Fraction(-5, 2), 0, 1], 1)
    with pytest.raises(NumberError, match="list of integer coefficients"):
        AlgebraicNumber("x^2-2", 1)
    with pytest.raises(NumberError, match="zero polynomial"):
        real_roots([0, 0])
    assert AlgebraicNumber([Fraction(-2), 0, 1], 1) == AlgebraicNumber([-2, 0, 1], 1)


def test_polynomial_coefficients_are_bounded_like_every_number_read():
    from evalgebra.errors import NumberError
    from evalgebra.numbers.rationals import MAX_BITS

    with pytest.raises(
        NumberError, match=rf"an integer of 16610 bits is too large; accepted: at most {MAX_BITS}"
    ):
        AlgebraicNumber([10**5000, 0, 1], 0)  # its message could not even print the polynomial


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(-9, 9), min_size=2, max_size=6),
    st.integers(1, 5),
    st.lists(st.fractions(min_value=-10, max_value=10, max_denominator=12), min_size=1, max_size=6),
)
def test_field_element_trace_is_the_trace_of_its_multiplication_matrix(low, lead, coeffs):
    modulus = flint.fmpz_poly([*low, lead])
    element = FieldElement(modulus, coeffs)
    matrix = element._matrix()
    expected = sum((matrix[k, k] for k in range(matrix.nrows())), flint.fmpq(0))
    assert element.trace() == Fraction(int(expected.p), int(expected.q))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.fractions(min_value=-5, max_value=5, max_denominator=9), min_size=1, max_size=3))
def test_field_element_values_at_every_root_are_its_values_one_by_one(coeffs):
    modulus = flint.fmpz_poly([1, -3, 0, 1])  # three real conjugates
    roots, _ = real_roots(modulus)
    together = FieldElement(modulus, coeffs).values(roots)
    one_by_one = [FieldElement(modulus, coeffs).value(root) for root in roots]
    assert together == one_by_one
    for root, value in zip(roots, together):  # and each is g at that root, to 1e-12
        approx = sum(float(c) * float(root) ** k for k, c in enumerate(coeffs))
        assert abs(float(value) - approx) < 1e-9
