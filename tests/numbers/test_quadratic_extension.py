"""Tests of evalgebra.numbers.quadratic_extension: K(sqrt d) on triples, for any coefficients."""

from fractions import Fraction

import flint
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalgebra.numbers.quadratic import QuadraticNumber
from evalgebra.numbers.quadratic_extension import QuadraticExtension

rationals = st.fractions(min_value=-100, max_value=100, max_denominator=50)
triples = st.tuples(rationals, rationals, rationals.filter(bool))


def _value(t, d):
    return QuadraticNumber(t[0] / t[2], t[1] / t[2], d)


@given(triples, triples, st.sampled_from([2, 3, 5, -1, Fraction(1, 2)]))
def test_quadratic_extension_agrees_with_quadratic_number(u, v, d):
    field = QuadraticExtension(d)
    assert _value(field.add(u, v), d) == _value(u, d) + _value(v, d)
    assert _value(field.sub(u, v), d) == _value(u, d) - _value(v, d)
    assert _value(field.mul(u, v), d) == _value(u, d) * _value(v, d)
    if _value(v, d):
        assert _value(field.divide(u, v), d) == _value(u, d) / _value(v, d)
    assert field.same(u, (u[0] * 3, u[1] * 3, u[2] * 3))


def test_quadratic_extension_divide_by_zero_raises():
    with pytest.raises(ZeroDivisionError, match="quadratic field"):
        QuadraticExtension(2).divide((1, 1, 1), (0, 0, 1))


def test_quadratic_extension_on_polynomials_reduces_quotients():
    x = flint.fmpq_poly([0, 1])
    one, zero = flint.fmpq_poly([1]), flint.fmpq_poly([])

    def reduce(u):
        g = u[0].gcd(u[1]).gcd(u[2])
        return tuple(p / g for p in u)

    field = QuadraticExtension(x, reduce=reduce)  # Q(x)(sqrt x)
    root = (zero, one, one)  # sqrt(x)
    assert field.same(field.mul(root, root), (x, zero, one))
    quotient = field.divide((x, zero, one), root)  # x / sqrt(x) = sqrt(x)
    assert field.same(quotient, root) and quotient[2].degree() == 0
    assert field.same(
        field.evaluate([one, zero, -x], root, zero, one), (zero, zero, one)
    )  # t^2 - x at sqrt(x)
