r"""Fast exact arithmetic in one quadratic field ``Q(sqrt(d))``: the working numbers of per-sketch solvers.

A :class:`QuadraticElement` is ``(a + b*sqrt(d)) / c`` with Python integers ``a, b, c`` (``c > 0``)
and ``d`` an integer that is not a square. It is what a generated back-substitution computes
with when the prevalence is an irrational root of a quadratic (the correlated structures'
evaluator, :mod:`~evalgebra.evaluators.correlated.structured`): the same field as a
:class:`~evalgebra.numbers.algebraic_numbers.FieldElement` of degree two, but a product is six
multiplications of machine-sized Python integers (no polynomial remainder, no rational
normalisation: a quotient reduces by the gcd, and a product whose denominator has grown past
:data:`REDUCE_BITS` bits), and a sign is decided with two or three more (``a`` against
``-b*sqrt(d)`` by their squares), never from a float. The value at the other root of the quadratic is
the :meth:`~QuadraticElement.conjugate` (``sqrt(d) -> -sqrt(d)``): a computation done once
serves both roots. :meth:`~QuadraticElement.exact` gives the canonical
:class:`~evalgebra.numbers.quadratic.QuadraticNumber` (a Fraction when ``b = 0``).

Examples
--------
>>> import flint
>>> theta = QuadraticElement.root_of(flint.fmpz_poly([-1, -1, 1]), 1)      # (1 + sqrt 5) / 2
>>> theta * theta - theta == 1, (1 / theta).exact(), theta.sign(), (theta - 2).sign()
(True, QuadraticNumber(-1/2 + sqrt(5)/2), 1, -1)
>>> (theta * theta).conjugate().exact(), QuadraticElement.root_of(flint.fmpz_poly([-1, -1, 1]), 0).exact()
(QuadraticNumber(3/2 - sqrt(5)/2), QuadraticNumber(1/2 - sqrt(5)/2))
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd
from typing import Any, cast

import flint

from evalgebra.numbers.quadratic import QuadraticNumber

__all__ = ["QuadraticElement", "REDUCE_BITS"]

#: A product or sum whose denominator grows past this many bits is reduced by the gcd of its parts.
REDUCE_BITS = 192

_new = object.__new__
_fmpq = flint.fmpq
_fmpz = flint.fmpz


class QuadraticElement:
    r"""``(a + b*sqrt(d)) / c``: Python integers, ``c > 0``, ``d`` not a square; exact.

    Parameters
    ----------
    u, v : int, fmpz, fmpq or Fraction
        The value is ``u + v*sqrt(d)``.
    d : int or fmpz
        Not the square of an integer (so the value is zero only when ``u = v = 0``); not checked.

    Notes
    -----
    Arithmetic mixes with ``int``, ``fmpz``, ``fmpq``, ``Fraction`` and elements with the same
    ``d`` (``ValueError`` for another ``d``); ``==`` compares exactly, ``sign`` and the comparisons
    decide exactly. ``u`` and ``v`` give the rational parts as ``fmpq``. The representation is
    not reduced after every operation (equal values may hold different ``a, b, c``): compare
    with ``==``, never by the attributes. Unhashable.

    Examples
    --------
    >>> x = QuadraticElement(1, 2, 3)                         # 1 + 2 sqrt(3)
    >>> x * x, x / x == 1, round(float(x - 4), 12)
    (QuadraticElement(13 + 4*sqrt(3)), True, 0.464101615138)
    >>> x > 4, x < 5, 0 <= x - 1 <= 4
    (True, True, True)
    """

    __slots__ = ("a", "b", "c", "d")

    #: A scalar, not an array (code written for NumPy arrays too asks for a ``shape``).
    shape = None

    a: int
    b: int
    c: int
    d: int

    def __init__(self, u: Any, v: Any = 0, d: Any = 2) -> None:
        (un, ud), (vn, vd) = _ratio(u), _ratio(v)
        if ud is None or vd is None:
            raise TypeError(
                f"a QuadraticElement needs exact rationals (int, Fraction, fmpz, fmpq), not "
                f"{type(u).__name__ if ud is None else type(v).__name__}"
            )
        c = ud * vd // gcd(ud, vd)
        self.a, self.b, self.c, self.d = un * (c // ud), vn * (c // vd), c, int(d)

    @classmethod
    def root_of(cls, poly: flint.fmpz_poly, index: int) -> QuadraticElement:
        """Root ``index`` (0: the smaller) of an irreducible quadratic ``c + b x + a x^2`` as
        ``(-b -+ sqrt(b^2 - 4ac)) / 2a``.
        """
        c, b, a = (int(x) for x in poly.coeffs())
        if a < 0:
            a, b, c = -a, -b, -c
        return _make(-b, 1 if index else -1, 2 * a, b * b - 4 * a * c)

    def _field(self, other: QuadraticElement) -> None:
        if other.d != self.d:
            raise ValueError(f"elements of two quadratic fields: sqrt({self.d}) and sqrt({other.d})")

    # -- the rational parts -----------------------------------------------------------------------
    @property
    def u(self) -> flint.fmpq:
        """The rational part ``a / c``."""
        return _fmpq(self.a, self.c)

    @property
    def v(self) -> flint.fmpq:
        """The coefficient of ``sqrt(d)``, ``b / c``."""
        return _fmpq(self.b, self.c)

    # -- arithmetic -------------------------------------------------------------------------------
    def __add__(self, other: Any) -> QuadraticElement:
        k = other.__class__
        if k is QuadraticElement:
            if other.d != self.d:
                self._field(other)
            c, z = self.c, other.c
            out = _new(QuadraticElement)
            if c == z:
                out.a, out.b, out.c, out.d = self.a + other.a, self.b + other.b, c, self.d
                return out
            return _reduced(self.a * z + other.a * c, self.b * z + other.b * c, c * z, self.d)
        if k is int or k is _fmpz:
            out = _new(QuadraticElement)
            out.a, out.b, out.c, out.d = self.a + int(other) * self.c, self.b, self.c, self.d
            return out
        scalar = _scalar(other, self.d)
        return NotImplemented if scalar is None else self + scalar

    __radd__ = __add__

    def __neg__(self) -> QuadraticElement:
        return _make(-self.a, -self.b, self.c, self.d)

    def __pos__(self) -> QuadraticElement:
        return self

    def __sub__(self, other: Any) -> QuadraticElement:
        k = other.__class__
        if k is QuadraticElement:
            if other.d != self.d:
                self._field(other)
            c, z = self.c, other.c
            if c == z:
                return _make(self.a - other.a, self.b - other.b, c, self.d)
            return _reduced(self.a * z - other.a * c, self.b * z - other.b * c, c * z, self.d)
        if k is int or k is _fmpz:
            return _make(self.a - int(other) * self.c, self.b, self.c, self.d)
        scalar = _scalar(other, self.d)
        return NotImplemented if scalar is None else self - scalar

    def __rsub__(self, other: Any) -> QuadraticElement:
        k = other.__class__
        if k is int or k is _fmpz:
            return _make(int(other) * self.c - self.a, -self.b, self.c, self.d)
        scalar = _scalar(other, self.d)
        return NotImplemented if scalar is None else scalar - self

    def __mul__(self, other: Any) -> QuadraticElement:
        k = other.__class__
        if k is QuadraticElement:
            if other.d != self.d:
                self._field(other)
            a, b, x, y = self.a, self.b, other.a, other.b
            c = self.c * other.c
            if c.bit_length() > REDUCE_BITS:
                return _reduced(a * x + b * y * self.d, a * y + b * x, c, self.d)
            out = _new(QuadraticElement)  # inline: the hot path of a back-substitution
            out.a, out.b, out.c, out.d = a * x + b * y * self.d, a * y + b * x, c, self.d
            return out
        if k is int or k is _fmpz:
            other = int(other)
            out = _new(QuadraticElement)
            out.a, out.b, out.c, out.d = self.a * other, self.b * other, self.c, self.d
            return out
        scalar = _scalar(other, self.d)
        return NotImplemented if scalar is None else self * scalar

    __rmul__ = __mul__

    def conjugate(self) -> QuadraticElement:
        """``u - v*sqrt(d)``: the value at the other root."""
        return _make(self.a, -self.b, self.c, self.d)

    def norm(self) -> flint.fmpq:
        """``u^2 - d v^2``, the product with the conjugate."""
        return _fmpq(self.a * self.a - self.d * self.b * self.b, self.c * self.c)

    def inverse(self) -> QuadraticElement:
        """``1 / self`` (``ZeroDivisionError`` for zero)."""
        a, b = self.a, self.b
        n = a * a - self.d * b * b
        if not n:
            raise ZeroDivisionError("division by zero in a quadratic field")
        return _quotient(self.c * a, -self.c * b, n, self.d)

    def __truediv__(self, other: Any) -> QuadraticElement:
        k = other.__class__
        if k is QuadraticElement:
            if other.d != self.d:
                self._field(other)
            a, b, x, y, d = self.a, self.b, other.a, other.b, self.d
            n = x * x - d * y * y  # c_o^2 times the divisor's norm
            if not n:
                raise ZeroDivisionError("division by zero in a quadratic field")
            z = other.c
            return _quotient(z * (a * x - d * b * y), z * (b * x - a * y), self.c * n, d)
        if k is int or k is _fmpz:
            other = int(other)
            if not other:
                raise ZeroDivisionError("division by zero in a quadratic field")
            return _quotient(self.a, self.b, self.c * other, self.d)
        scalar = _scalar(other, self.d)
        return NotImplemented if scalar is None else self / scalar

    def __rtruediv__(self, other: Any) -> QuadraticElement:
        k = other.__class__
        if k is int or k is _fmpz:  # r c (a - b sqrt(d)) / (a^2 - d b^2)
            a, b, d = self.a, self.b, self.d
            n = a * a - d * b * b
            if not n:
                raise ZeroDivisionError("division by zero in a quadratic field")
            scale = int(other) * self.c
            return _quotient(scale * a, -scale * b, n, d)
        scalar = _scalar(other, self.d)
        return NotImplemented if scalar is None else scalar / self

    def __pow__(self, exponent: int) -> QuadraticElement:
        if not isinstance(exponent, int):
            return NotImplemented
        base = self if exponent >= 0 else self.inverse()
        result, exponent = _make(1, 0, 1, self.d), abs(exponent)
        while exponent:
            if exponent & 1:
                result = result * base
            base, exponent = base * base, exponent >> 1
        return result

    # -- comparison and conversion ------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        k = other.__class__
        if k is QuadraticElement:
            o = cast(QuadraticElement, other)
            c, z = self.c, o.c
            return self.d == o.d and self.a * z == o.a * c and self.b * z == o.b * c
        if k is int:
            return not self.b and self.a == other * self.c  # type: ignore[operator]
        num, den = _ratio(other)
        if den is None:
            return NotImplemented
        return not self.b and self.a * den == num * self.c

    __hash__ = None  # type: ignore[assignment]

    def __bool__(self) -> bool:
        return bool(self.a) or bool(self.b)

    def sign(self) -> int:
        """``-1``, ``0`` or ``1`` exactly: the signs of ``a`` and ``b``, and when they differ ``a^2``
        against ``d b^2``.
        """
        a, b = self.a, self.b
        sa = (a > 0) - (a < 0)
        if not b:
            return sa
        sb = 1 if b > 0 else -1
        if not sa or sa == sb:
            return sb
        return sa if a * a > b * b * self.d else sb

    def _difference_sign(self, other: Any) -> int:
        difference = self - other
        if difference is NotImplemented:
            raise TypeError(f"cannot compare a QuadraticElement with {type(other).__name__}")
        return difference.sign()

    def __lt__(self, other: Any) -> bool:
        return self._difference_sign(other) < 0

    def __le__(self, other: Any) -> bool:
        return self._difference_sign(other) <= 0

    def __gt__(self, other: Any) -> bool:
        return self._difference_sign(other) > 0

    def __ge__(self, other: Any) -> bool:
        return self._difference_sign(other) >= 0

    def exact(self, radicand: Fraction | None = None) -> Fraction | QuadraticNumber:
        """The canonical value: a Fraction when ``b = 0``, else a
        :class:`~evalgebra.numbers.quadratic.QuadraticNumber` (``radicand``: ``Fraction(d)``, when the
        caller converts many values of one field)."""
        u = Fraction(self.a, self.c)
        if not self.b:
            return u
        return QuadraticNumber._make(
            u, Fraction(self.b, self.c), Fraction(self.d) if radicand is None else radicand
        )

    def __float__(self) -> float:
        return float(self.exact())

    def __repr__(self) -> str:
        return f"QuadraticElement({self.exact()})"


def _make(a: int, b: int, c: int, d: int) -> QuadraticElement:
    out = _new(QuadraticElement)
    out.a, out.b, out.c, out.d = a, b, c, d
    return out


def _reduced(a: int, b: int, c: int, d: int) -> QuadraticElement:
    """``(a + b sqrt(d)) / c`` (``c > 0``), divided by the gcd of the parts when ``c`` has grown large."""
    if c.bit_length() > REDUCE_BITS:
        g = gcd(a, b, c)
        if g > 1:
            a, b, c = a // g, b // g, c // g
    out = _new(QuadraticElement)
    out.a, out.b, out.c, out.d = a, b, c, d
    return out


def _quotient(a: int, b: int, c: int, d: int) -> QuadraticElement:
    """``(a + b sqrt(d)) / c`` for any nonzero ``c``: the sign moved into the numerator, reduced by the
    gcd.
    """
    if c < 0:
        a, b, c = -a, -b, -c
    g = gcd(a, b, c)
    out = _new(QuadraticElement)
    if g > 1:
        out.a, out.b, out.c, out.d = a // g, b // g, c // g, d
    else:
        out.a, out.b, out.c, out.d = a, b, c, d
    return out


def _ratio(x: Any) -> tuple[int, int | None]:
    """``(numerator, denominator)`` of an exact rational; ``(0, None)`` for anything else (floats
    included).
    """
    k = x.__class__
    if k is int or k is _fmpz:
        return int(x), 1
    if k is _fmpq:
        return int(x.p), int(x.q)
    if isinstance(x, Fraction):
        return x.numerator, x.denominator
    if isinstance(x, int) and not isinstance(x, bool):
        return int(x), 1
    return 0, None


def _scalar(x: Any, d: int) -> QuadraticElement | None:
    """A rational as an element of ``Q(sqrt(d))``, or None (not an exact rational)."""
    num, den = _ratio(x)
    return None if den is None else _make(num, 0, den, d)
