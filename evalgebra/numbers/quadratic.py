r"""Exact quadratic irrationals ``p + q*sqrt(d)``: the values of the two-label closed forms.

A :class:`QuadraticNumber` is exact: arithmetic stays in ``Q(sqrt(d))``, comparisons are
decided exactly, and floats come on demand (accurate near cancellation).

Examples
--------
>>> from fractions import Fraction
>>> x = QuadraticNumber(Fraction(1, 2), Fraction(1, 4), 5)
>>> x, x * x.conjugate() == Fraction(1, 4) - Fraction(5, 16), (x + 1).to_sympy_text(), round(float(x), 6)
(QuadraticNumber(1/2 + sqrt(5)/4), True, '3/2 + sqrt(5)/4', 1.059017)
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from evalgebra.errors import InexactError, NumberError
from evalgebra.numbers.algebraic_numbers import AlgebraicNumber
from evalgebra.numbers.rationals import parse_rational, short_repr
from evalgebra.numbers.real_algebraic import RealAlgebraic

__all__ = ["QuadraticNumber"]


class QuadraticNumber(RealAlgebraic):
    r"""An exact element ``p + q*sqrt(d)`` of a quadratic field (``p, q, d`` rational).

    Arithmetic with :class:`fractions.Fraction`, ``int`` and numbers of the same field is
    exact; ``d < 0`` gives complex numbers (``complex(x)``; ``float(x)`` then raises). The
    form is canonical enough to compare: when ``d`` is the square of a rational (``0``
    included) the root is folded into ``p`` and ``q = 0``, and two representations of one
    field (``sqrt(8)`` and ``2*sqrt(2)``) are equal, hash alike and mix in arithmetic.
    Floats are refused: their binary value is rarely the number meant.

    Examples
    --------
    >>> QuadraticNumber(0, 1, 8) == QuadraticNumber(0, 2, 2)
    True
    >>> QuadraticNumber(0, 1, 4) == 2, QuadraticNumber(1, 1, 0) == 1
    (True, True)
    >>> QuadraticNumber(0, 1, 8) - QuadraticNumber(0, 2, 2)
    QuadraticNumber(0)
    >>> bool(QuadraticNumber(0)), bool(QuadraticNumber(0, 1, 2))
    (False, True)
    """

    __slots__ = ("p", "q", "d", "_hash")

    p: Fraction
    q: Fraction
    d: Fraction
    _hash: int  # set on the first hash (the number never changes)

    def __init__(self, p: Any, q: Any = 0, d: Any = 0) -> None:
        self.p = p if p.__class__ is Fraction else _rational(p)
        q = q if q.__class__ is Fraction else _rational(q)
        d = d if d.__class__ is Fraction else _rational(d)
        if q:
            root = _rational_root(d)
            if root is not None:  # q*sqrt(d) is rational: fold it into p
                self.p, q = self.p + q * root, _ZERO
        self.q, self.d = q, d

    @classmethod
    def _make(cls, p: Fraction, q: Fraction, d: Fraction) -> QuadraticNumber:
        """Without the checks: ``d`` comes from a canonical operand (not a square when ``q != 0``)."""
        x = object.__new__(cls)
        x.p, x.q, x.d = p, q, d
        return x

    # -- construction ---------------------------------------------------------------
    def _lift(self, other: Any) -> QuadraticNumber | None:
        if other.__class__ is QuadraticNumber:  # the fast path (isinstance on an ABC is slower)
            if other.q and self.q and other.d != self.d:
                # sqrt(d_o) = s*sqrt(d_s) when d_o/d_s = s**2: the same field, another radicand
                scale = _rational_root(other.d / self.d) if self.d else None
                if scale is None:
                    raise NumberError(
                        f"numbers of different fields: sqrt({self.d}) and sqrt({other.d}); "
                        "compare them, or convert both with to_algebraic()"
                    )
                return QuadraticNumber._make(other.p, other.q * scale, self.d)
            return other
        if isinstance(other, (int, Fraction)):
            return QuadraticNumber._make(Fraction(other), _ZERO, self.d)
        if isinstance(other, QuadraticNumber):  # a subclass
            return self._lift(QuadraticNumber._make(other.p, other.q, other.d))
        return None

    def _field(self, other: QuadraticNumber) -> Fraction:
        return self.d if self.q or not other.q else other.d

    # -- arithmetic -----------------------------------------------------------------
    def __add__(self, other: Any) -> QuadraticNumber:
        o = self._lift(other)
        if o is None:
            return NotImplemented
        return QuadraticNumber._make(self.p + o.p, self.q + o.q, self._field(o))

    __radd__ = __add__

    def __neg__(self) -> QuadraticNumber:
        return QuadraticNumber._make(-self.p, -self.q, self.d)

    def __sub__(self, other: Any) -> QuadraticNumber:
        o = self._lift(other)
        if o is None:
            return NotImplemented
        return self + (-o)

    def __rsub__(self, other: Any) -> QuadraticNumber:
        return (-self) + other

    def __mul__(self, other: Any) -> QuadraticNumber:
        o = self._lift(other)
        if o is None:
            return NotImplemented
        d = self._field(o)
        return QuadraticNumber._make(self.p * o.p + self.q * o.q * d, self.p * o.q + self.q * o.p, d)

    __rmul__ = __mul__

    def conjugate(self) -> QuadraticNumber:
        """``p - q*sqrt(d)``."""
        return QuadraticNumber._make(self.p, -self.q, self.d)

    def norm(self) -> Fraction:
        """``p**2 - d*q**2``, the product with the conjugate."""
        return self.p * self.p - self.d * self.q * self.q

    def __truediv__(self, other: Any) -> QuadraticNumber:
        o = self._lift(other)
        if o is None:
            return NotImplemented
        n = o.norm()
        if n == 0:
            raise ZeroDivisionError("division by zero in a quadratic field")
        top = self * o.conjugate()
        return QuadraticNumber._make(top.p / n, top.q / n, top.d)

    def __rtruediv__(self, other: Any) -> QuadraticNumber:
        o = self._lift(other)
        if o is None:
            return NotImplemented
        return o / self

    def __pow__(self, exponent: int) -> QuadraticNumber:
        if not isinstance(exponent, int) or exponent < 0:
            return NotImplemented
        result = QuadraticNumber._make(_ONE, _ZERO, self.d)
        base = self
        while exponent:
            if exponent & 1:
                result = result * base
            base = base * base
            exponent >>= 1
        return result

    # -- comparison and conversion --------------------------------------------------
    @property
    def is_rational(self) -> bool:
        """True when ``q == 0`` (the number is rational: the form is canonical)."""
        return self.q == 0

    @property
    def is_real(self) -> bool:
        """True when the number is real (``q == 0`` or ``d >= 0``)."""
        return self.q == 0 or self.d >= 0

    def sign(self) -> int:
        """Exact sign of a real number: -1, 0 or 1 (no floating point)."""
        if not self.is_real:
            raise NumberError(f"{self!r} is complex: it has no sign; use complex() for its value")
        sp = (self.p > 0) - (self.p < 0)
        sq = (self.q > 0) - (self.q < 0)
        if sq == 0 or sp == 0 or sp == sq:
            return sp or sq
        # p and q*sqrt(d) have opposite signs: compare p**2 with q**2 d
        diff = self.p * self.p - self.q * self.q * self.d
        return sp * ((diff > 0) - (diff < 0))

    def compare(self, other: Any) -> int:
        """``-1``, ``0`` or ``1``, exactly (real numbers only; any member of the family, or a rational)."""
        if other.__class__ is not QuadraticNumber and _other_family_member(other):
            return -other.compare(self)  # an AlgebraicNumber: it converts this number
        try:
            o = self._lift(other)
        except NumberError:  # another quadratic field: compare as algebraic numbers
            mine = AlgebraicNumber.from_quadratic(self)  # irrational: two fields need two radicals
            assert isinstance(mine, AlgebraicNumber)
            return mine.compare(other)
        if o is None:
            raise TypeError(f"cannot compare with {type(other).__name__}")
        return (self - o).sign()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (int, Fraction)):
            return self.q == 0 and self.p == other
        if other.__class__ is not QuadraticNumber and _other_family_member(other):
            return other == self  # an AlgebraicNumber: equal minimal polynomial and root index
        if isinstance(other, QuadraticNumber):
            # q*sqrt(d) is irrational unless q == 0, so the parts match one by one; the
            # irrational parts are equal when their squares and their signs are
            return (
                self.p == other.p
                and self.q * self.q * self.d == other.q * other.q * other.d
                and _sign(self.q) == _sign(other.q)
            )
        return NotImplemented

    def __hash__(self) -> int:
        if self.q == 0:
            return hash(self.p)  # equal to hash(Fraction(p)), as equality requires
        try:
            return self._hash
        except AttributeError:
            key = self.minimal_key()
            # a real value hashes as the same value as an AlgebraicNumber
            self._hash = (
                hash(key) if key is not None else hash((self.p, self.q * self.q * self.d, _sign(self.q)))
            )
            return self._hash

    def minimal_key(self) -> tuple[tuple[int, ...], int] | None:
        """``(coefficients of the minimal polynomial, root index)`` of a real irrational number, else
        ``None``.

        ``p + q*sqrt(d)`` is a root of ``x^2 - 2p x + p^2 - q^2 d`` (scaled to primitive
        integers), the larger one when ``q > 0``.

        >>> QuadraticNumber(Fraction(1, 2), 1, 2).minimal_key()
        ((-7, -4, 4), 1)
        """
        if self.q == 0 or self.d < 0:
            return None
        coeffs = [self.p * self.p - self.q * self.q * self.d, -2 * self.p, _ONE]
        scale = math.lcm(*(c.denominator for c in coeffs))
        ints = [int(c * scale) for c in coeffs]
        content = math.gcd(*ints)
        return tuple(c // content for c in ints), 1 if self.q > 0 else 0

    def to_algebraic(self) -> Fraction | AlgebraicNumber:
        """The same value as a Fraction (rational) or an
        :class:`~evalgebra.numbers.algebraic_numbers.AlgebraicNumber`.

        ``ValueError`` for a complex number.

        >>> QuadraticNumber(0, 1, 8).to_algebraic(), QuadraticNumber(3, 1, 4).to_algebraic()
        (AlgebraicNumber(x^2 - 8, root 1 ≈ 2.828427125), Fraction(5, 1))
        """
        if self.q == 0:
            return self.p
        return AlgebraicNumber.from_quadratic(self)

    def __bool__(self) -> bool:
        return bool(self.p) or bool(self.q)

    def _root_float(self) -> float:
        """``|q| * sqrt(|d|)`` as a float, from the exact square ``q**2 |d|``."""
        return _sqrt_float(self.q * self.q * abs(self.d))

    def __float__(self) -> float:
        if not self.is_real:
            raise NumberError(f"{self!r} is complex: it has no float value; use complex()")
        if self.q == 0:
            return float(self.p)
        root = _sign(self.q) * self._root_float()
        if self.p == 0 or (self.p > 0) == (self.q > 0):
            return float(self.p) + root
        # opposite signs: p + r = (p**2 - r**2) / (p - r), the numerator exact, no cancellation
        return float(self.norm()) / (float(self.p) - root)

    def __complex__(self) -> complex:
        if self.is_real:
            return complex(float(self))
        return complex(float(self.p), _sign(self.q) * self._root_float())

    def to_sympy_text(self) -> str:
        """A string :func:`sympy.sympify` reads back to the same number."""
        if self.q == 0:
            return str(self.p)
        p = "" if self.p == 0 else f"{self.p} + "
        num, den = self.q.numerator, self.q.denominator
        coefficient = "" if abs(num) == 1 else f"{abs(num)}*"
        sign = "-" if num < 0 else ""
        root = (
            f"sqrt({self.d})" if self.d.denominator == 1 else f"sqrt({self.d.numerator}/{self.d.denominator})"
        )
        text = f"{sign}{coefficient}{root}" + ("" if den == 1 else f"/{den}")
        return p + text if not sign or not p else p[:-3] + " - " + text[1:]

    def __repr__(self) -> str:
        return f"QuadraticNumber({self.to_sympy_text()})"

    __str__ = to_sympy_text


_ZERO = Fraction(0)
_ONE = Fraction(1)


def _other_family_member(other: Any) -> bool:
    """True for a RealAlgebraic that is not a QuadraticNumber (an AlgebraicNumber)."""
    return isinstance(other, RealAlgebraic) and not isinstance(other, QuadraticNumber)


def _sign(x: Fraction) -> int:
    return (x > 0) - (x < 0)


def _rational(x: Any) -> Fraction:
    """``x`` as a Fraction, exactly: ints, Fractions, exact rationals (python-flint ``fmpq``), text.

    Text is read by :func:`~evalgebra.numbers.rationals.parse_rational` (bounded digits and
    exponent; :class:`~evalgebra.errors.NumberError` otherwise). Floats are refused
    (:class:`~evalgebra.errors.InexactError`): ``0.1`` is not one tenth.
    """
    if isinstance(x, (int, Fraction)):
        return Fraction(x)
    if isinstance(x, str):
        return parse_rational(x, "QuadraticNumber", NumberError)
    if isinstance(x, (float, np.floating)):
        raise InexactError(f"QuadraticNumber: {x!r} is not exact; give an int, a Fraction or a 'p/q' string")
    if not hasattr(x, "numerator") or not hasattr(x, "denominator"):
        raise InexactError(
            f"QuadraticNumber: needs exact rationals (int, Fraction, fmpq or 'p/q' text), "
            f"not {type(x).__name__} {short_repr(x)}"
        )
    num, den = x.numerator, x.denominator
    num, den = (num() if callable(num) else num), (den() if callable(den) else den)
    try:
        exact = int(num) == num and int(den) == den and int(den) != 0
    except (TypeError, ValueError, OverflowError):
        exact = False
    if not exact:
        raise InexactError(f"QuadraticNumber: {type(x).__name__} {short_repr(x)} is not an exact rational")
    return Fraction(int(num), int(den))


def _rational_root(x: Fraction) -> Fraction | None:
    """``sqrt(x)`` when it is rational (``x >= 0`` a square of a rational), else None."""
    if x < 0:
        return None
    num, den = math.isqrt(x.numerator), math.isqrt(x.denominator)
    if num * num != x.numerator or den * den != x.denominator:
        return None
    return Fraction(num, den)


def _sqrt_float(x: Fraction) -> float:
    """``sqrt(x)`` of a rational ``x >= 0`` to within an ulp or two, without overflow or underflow."""
    a, b = x.numerator, x.denominator
    # sqrt(a/b) = sqrt(a*b)/b; scale a*b by 4**k so its integer root keeps at least 64 bits
    k = max(0, 64 - (a * b).bit_length() // 2)
    return float(Fraction(math.isqrt((a * b) << (2 * k)), b << k))
