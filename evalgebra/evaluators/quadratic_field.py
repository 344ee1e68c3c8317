r"""Fast exact arithmetic in one quadratic field ``Q(sqrt(d))``: the working numbers of per-sketch solvers.

A :class:`QuadraticElement` is ``u + v*sqrt(d)`` with ``u, v`` python-flint rationals (``fmpq``)
and ``d`` an integer that is not a square. It is what a generated back-substitution computes
with when the prevalence is an irrational root of a quadratic (the correlated structures'
evaluator, :mod:`~evalgebra.evaluators.structured`): the same field as a
:class:`~evalgebra.evaluators.algebraic_numbers.FieldElement` of degree two, but each product
is five multiplications of ``fmpq`` instead of a polynomial product and a polynomial
remainder, and a sign is decided with two or three more (``u`` against ``-v*sqrt(d)`` by their
squares), never from a float. The value at the other root of the quadratic is the
:meth:`~QuadraticElement.conjugate` (``sqrt(d) -> -sqrt(d)``): a computation done once serves
both roots. :meth:`~QuadraticElement.exact` gives the canonical
:class:`~evalgebra.evaluators.quadratic.QuadraticNumber` (a Fraction when ``v = 0``).

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
from typing import Any

import flint

from evalgebra.evaluators.quadratic import QuadraticNumber

__all__ = ["QuadraticElement"]

_fmpq = flint.fmpq
_fmpz = flint.fmpz
_new = object.__new__
_ZERO = flint.fmpq(0)


class QuadraticElement:
    r"""``u + v*sqrt(d)``: ``u, v`` rationals (``fmpq``), ``d`` a non-square integer, exact.

    Parameters
    ----------
    u, v : fmpq, fmpz, int or Fraction
    d : int or fmpz
        Not the square of an integer (so ``u + v*sqrt(d) = 0`` only when ``u = v = 0``); not checked.

    Notes
    -----
    Arithmetic mixes with ``fmpq``, ``fmpz``, ``int`` and elements with the same ``d``
    (``ValueError`` for another ``d``); ``==`` compares exactly, ``sign`` and the comparisons
    decide exactly. Unhashable (``==`` with a rational must not promise equal hashes).

    Examples
    --------
    >>> x = QuadraticElement(1, 2, 3)                         # 1 + 2 sqrt(3)
    >>> x * x, x / x == 1, round(float(x - 4), 12)
    (QuadraticElement(13 + 4*sqrt(3)), True, 0.464101615138)
    >>> x > 4, x < 5, 0 <= x - 1 <= 4
    (True, True, True)
    """

    __slots__ = ("u", "v", "d")

    #: A scalar, not an array (code written for NumPy arrays too asks for a ``shape``).
    shape = None

    u: flint.fmpq
    v: flint.fmpq
    d: flint.fmpz

    def __init__(self, u: Any, v: Any = 0, d: Any = 2) -> None:
        self.u, self.v, self.d = _rational(u), _rational(v), _fmpz(d)

    @classmethod
    def root_of(cls, poly: flint.fmpz_poly, index: int) -> QuadraticElement:
        """Root ``index`` (0: the smaller) of an irreducible quadratic ``c + b x + a x^2`` (``a > 0``)
        as ``-b/(2a) -+ sqrt(b^2 - 4ac)/(2a)``."""
        c, b, a = (_fmpz(x) for x in poly.coeffs())
        if a < 0:
            a, b, c = -a, -b, -c
        half = _fmpq(1, 2) / a
        return cls._make(-b * half, half if index else -half, b * b - 4 * a * c)

    @classmethod
    def _make(cls, u: Any, v: Any, d: Any) -> QuadraticElement:
        x = object.__new__(cls)
        x.u, x.v, x.d = u, v, d
        return x

    def _field(self, other: QuadraticElement) -> None:
        if other.d is not self.d and other.d != self.d:
            raise ValueError(f"elements of two quadratic fields: sqrt({self.d}) and sqrt({other.d})")

    # -- arithmetic -------------------------------------------------------------------------------
    def __add__(self, other: Any) -> QuadraticElement:
        if other.__class__ is QuadraticElement:
            if other.d is not self.d and other.d != self.d:
                self._field(other)
            out = _new(QuadraticElement)
            out.u, out.v, out.d = self.u + other.u, self.v + other.v, self.d
            return out
        if other.__class__ in _SCALARS:
            out = _new(QuadraticElement)
            out.u, out.v, out.d = self.u + other, self.v, self.d
            return out
        return NotImplemented

    __radd__ = __add__

    def __neg__(self) -> QuadraticElement:
        out = _new(QuadraticElement)
        out.u, out.v, out.d = -self.u, -self.v, self.d
        return out

    def __pos__(self) -> QuadraticElement:
        return self

    def __sub__(self, other: Any) -> QuadraticElement:
        if other.__class__ is QuadraticElement:
            if other.d is not self.d and other.d != self.d:
                self._field(other)
            out = _new(QuadraticElement)
            out.u, out.v, out.d = self.u - other.u, self.v - other.v, self.d
            return out
        if other.__class__ in _SCALARS:
            out = _new(QuadraticElement)
            out.u, out.v, out.d = self.u - other, self.v, self.d
            return out
        return NotImplemented

    def __rsub__(self, other: Any) -> QuadraticElement:
        if other.__class__ in _SCALARS:
            out = _new(QuadraticElement)
            out.u, out.v, out.d = other - self.u, -self.v, self.d
            return out
        return NotImplemented

    def __mul__(self, other: Any) -> QuadraticElement:
        if other.__class__ is QuadraticElement:
            if other.d is not self.d and other.d != self.d:
                self._field(other)
            u, v, x, y = self.u, self.v, other.u, other.v
            out = _new(QuadraticElement)
            out.u, out.v, out.d = u * x + v * y * self.d, u * y + v * x, self.d
            return out
        if other.__class__ in _SCALARS:
            out = _new(QuadraticElement)
            out.u, out.v, out.d = self.u * other, self.v * other, self.d
            return out
        return NotImplemented

    __rmul__ = __mul__

    def conjugate(self) -> QuadraticElement:
        """``u - v*sqrt(d)``: the value at the other root."""
        out = _new(QuadraticElement)
        out.u, out.v, out.d = self.u, -self.v, self.d
        return out

    def norm(self) -> flint.fmpq:
        """``u^2 - d v^2``, the product with the conjugate."""
        return self.u * self.u - self.v * self.v * self.d

    def inverse(self) -> QuadraticElement:
        """``1 / self`` (``ZeroDivisionError`` for zero)."""
        n = self.norm()
        if not n:
            raise ZeroDivisionError("division by zero in a quadratic field")
        out = _new(QuadraticElement)
        out.u, out.v, out.d = self.u / n, -self.v / n, self.d
        return out

    def __truediv__(self, other: Any) -> QuadraticElement:
        if other.__class__ is QuadraticElement:
            if other.d is not self.d and other.d != self.d:
                self._field(other)
            u, v, x, y, d = self.u, self.v, other.u, other.v, self.d
            n = x * x - y * y * d  # the norm of the divisor
            if not n:
                raise ZeroDivisionError("division by zero in a quadratic field")
            out = _new(QuadraticElement)
            out.u, out.v, out.d = (u * x - v * y * d) / n, (v * x - u * y) / n, d
            return out
        if other.__class__ in _SCALARS:
            if not other:
                raise ZeroDivisionError("division by zero in a quadratic field")
            out = _new(QuadraticElement)
            out.u, out.v, out.d = self.u / other, self.v / other, self.d
            return out
        return NotImplemented

    def __rtruediv__(self, other: Any) -> QuadraticElement:
        if other.__class__ in _SCALARS:
            u, v, d = self.u, self.v, self.d
            n = u * u - v * v * d
            if not n:
                raise ZeroDivisionError("division by zero in a quadratic field")
            scale = other / n
            out = _new(QuadraticElement)
            out.u, out.v, out.d = u * scale, -v * scale, d
            return out
        return NotImplemented

    def __pow__(self, exponent: int) -> QuadraticElement:
        if not isinstance(exponent, int):
            return NotImplemented
        base = self if exponent >= 0 else self.inverse()
        result, exponent = QuadraticElement._make(_fmpq(1), _ZERO, self.d), abs(exponent)
        while exponent:
            if exponent & 1:
                result = result * base
            base, exponent = base * base, exponent >> 1
        return result

    # -- comparison and conversion ------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if other.__class__ is QuadraticElement:
            return bool(self.d == other.d and self.u == other.u and self.v == other.v)  # type: ignore[attr-defined]
        if other.__class__ in _SCALARS:
            return not self.v and bool(self.u == other)
        if isinstance(other, Fraction):
            return not self.v and bool(self.u == _rational(other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __bool__(self) -> bool:
        return bool(self.u) or bool(self.v)

    def sign(self) -> int:
        """``-1``, ``0`` or ``1`` exactly: the signs of ``u`` and ``v``, and when they differ ``u^2`` against ``d v^2``."""
        u, v = self.u, self.v
        su = (1 if u > 0 else -1) if u else 0
        if not v:
            return su
        sv = 1 if v > 0 else -1
        if not su or su == sv:
            return sv
        return su if u * u > v * v * self.d else sv

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

    def exact(self) -> Fraction | QuadraticNumber:
        """The canonical value: a Fraction when ``v = 0``, else a :class:`~evalgebra.evaluators.quadratic.QuadraticNumber`."""
        u = Fraction(int(self.u.p), int(self.u.q))
        if not self.v:
            return u
        return QuadraticNumber._make(u, Fraction(int(self.v.p), int(self.v.q)), Fraction(int(self.d)))

    def __float__(self) -> float:
        return float(self.exact())

    def __repr__(self) -> str:
        return f"QuadraticElement({self.exact()})"


_SCALARS = (flint.fmpq, flint.fmpz, int)


def _rational(x: Any) -> flint.fmpq:
    if isinstance(x, Fraction):
        return _fmpq(x.numerator, x.denominator)
    if isinstance(x, (int, flint.fmpz, flint.fmpq)):
        return _fmpq(x)
    raise TypeError(f"a QuadraticElement needs exact rationals (int, Fraction, fmpz, fmpq), not {type(x).__name__}")
