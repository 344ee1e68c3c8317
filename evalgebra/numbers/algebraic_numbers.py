r"""Exact real algebraic numbers and the number fields they generate.

An :class:`AlgebraicNumber` is a real root of an irreducible integer polynomial of degree at
least two, named canonically by its *minimal polynomial* and its *index* among that polynomial's
real roots (so numbers compare, hash and print exactly), and carried with a rational *isolating
interval*, first found by python-flint's certified root isolation, then narrowed by exact
bisection whenever two numbers must be told apart; floats come on demand.

A :class:`FieldElement` is ``g(theta)`` for a rational polynomial ``g`` modulo the minimal
polynomial ``f`` of ``theta``: exact arithmetic in the number field ``Q(theta)`` (inverses by
the extended Euclidean algorithm), its trace (a rational: the sum over the conjugates of
``theta``) and its value at a chosen real root as an :class:`AlgebraicNumber` (minimal
polynomial from the characteristic polynomial of multiplication by ``g``).

Examples
--------
>>> import flint
>>> roots, n_complex = real_roots(flint.fmpz_poly([-2, 0, 1]) * flint.fmpz_poly([-1, 3]))
>>> roots, n_complex  # doctest: +NORMALIZE_WHITESPACE
([AlgebraicNumber(x^2 - 2, root 0 ≈ -1.414213562), Fraction(1, 3),
  AlgebraicNumber(x^2 - 2, root 1 ≈ 1.414213562)], 0)
>>> root2 = roots[2]
>>> root2 > Fraction(141, 100), root2 < Fraction(142, 100), float(root2)
(True, True, 1.4142135623730951)
>>> x = FieldElement(flint.fmpz_poly([-2, 0, 1]), [0, 1])       # theta = sqrt(2)
>>> y = (x + 1) * (x + 1)                                          # 3 + 2 sqrt(2)
>>> y.value(root2), y.trace()
(AlgebraicNumber(x^2 - 6*x + 1, root 1 ≈ 5.828427125), Fraction(6, 1))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import flint

from evalgebra.errors import NumberError
from evalgebra.numbers.real_algebraic import (
    IsolatingInterval,
    RealAlgebraic,
    as_fmpq,
    as_fraction,
    ball_interval,
    composed_product,
    composed_sum,
    integer_poly,
    interval_product,
    interval_sum,
    isolating_intervals,
    poly_text,
    primitive,
    root_index,
    sign_of,
    solve_linear,
)

__all__ = ["AlgebraicNumber", "FieldElement", "real_roots", "poly_text", "as_fraction", "solve_linear"]

#: Exact rationals an AlgebraicNumber mixes with.
_RATIONALS = (int, Fraction, flint.fmpq, flint.fmpz)


def real_roots(poly: Any) -> tuple[list[Fraction | AlgebraicNumber], int]:
    r"""The distinct real roots of an integer (or rational) polynomial, exactly, in increasing order.

    Parameters
    ----------
    poly : fmpz_poly, fmpq_poly or sequence of int
        Coefficients from the constant term up; not zero.

    Returns
    -------
    (list, int)
        Rational roots as :class:`~fractions.Fraction`, the others as
        :class:`AlgebraicNumber`; then the number of distinct non-real roots.

    Examples
    --------
    >>> real_roots([1, 0, 1])
    ([], 2)
    >>> real_roots([-6, 11, -6, 1])[0]
    [Fraction(1, 1), Fraction(2, 1), Fraction(3, 1)]
    """
    p = integer_poly(poly)
    if p.is_zero():
        raise NumberError("the zero polynomial has every number as a root; give a non-zero polynomial")
    out: list[Fraction | AlgebraicNumber] = []
    n_complex = 0
    for factor, _ in p.factor()[1]:
        if factor.degree() == 1:
            b, a = (int(c) for c in factor.coeffs())
            out.append(Fraction(-b, a))
            continue
        canonical = primitive(factor)
        intervals, others = isolating_intervals(canonical)
        n_complex += others
        out.extend(AlgebraicNumber._make(canonical, k, lo, hi) for k, (lo, hi) in enumerate(intervals))
    out.sort()  # exact: the family compares with rationals
    return out, n_complex


class AlgebraicNumber(RealAlgebraic):
    r"""A real root of an irreducible integer polynomial of degree ``>= 2``, exactly.

    Parameters
    ----------
    poly : fmpz_poly or sequence of int
        Irreducible over the rationals, degree at least 2 (coefficients from the constant up).
    index : int
        Which real root, counting from the smallest (0).

    Notes
    -----
    ``poly`` is the minimal polynomial (made primitive with a positive leading coefficient),
    ``index`` the root's rank, ``lo < root < hi`` an isolating interval (``lo``, ``hi``
    rational, no other root of ``poly`` in it), narrowed in place as comparisons need.

    Arithmetic (``+ - * /`` with rationals, with another ``AlgebraicNumber`` or with a real
    :class:`~evalgebra.numbers.quadratic.QuadraticNumber`) is exact: the result is a root of
    the composed sum or product of the minimal polynomials (:mod:`~evalgebra.numbers.real_algebraic`),
    found by factoring it and narrowing the operands' intervals until one root remains; a
    rational result comes back as a :class:`~fractions.Fraction`. The degree of a result can
    be the product of the operands' degrees: for long sums of unrelated numbers of high degree,
    a :class:`FieldElement` (one number field) is the faster route.

    Examples
    --------
    >>> golden = AlgebraicNumber([-1, -1, 1], 1)
    >>> golden
    AlgebraicNumber(x^2 - x - 1, root 1 ≈ 1.618033989)
    >>> golden == AlgebraicNumber([1, 1, -1], 1), golden > AlgebraicNumber([-2, 0, 1], 1)
    (True, True)
    >>> str(golden)
    'root 1 of x^2 - x - 1 (≈ 1.618033989)'
    >>> golden * golden - golden, golden + AlgebraicNumber([-1, -1, 1], 0)
    (Fraction(1, 1), Fraction(1, 1))
    >>> AlgebraicNumber([-2, 0, 1], 1) + AlgebraicNumber([-3, 0, 1], 1)
    AlgebraicNumber(x^4 - 10*x^2 + 1, root 3 ≈ 3.14626437)
    """

    __slots__ = ("poly", "index", "lo", "hi")

    poly: flint.fmpz_poly
    index: int
    lo: flint.fmpq
    hi: flint.fmpq

    def __init__(self, poly: Any, index: int) -> None:
        p = integer_poly(poly)
        if p.degree() < 2:
            raise NumberError(
                f"{poly_text(p)}: an algebraic number here has degree at least 2 (use Fraction)"
            )
        constant, factors = p.factor()
        if len(factors) != 1 or factors[0][1] != 1:
            raise NumberError(f"{poly_text(p)} is not irreducible over the rationals; real_roots() takes any")
        canonical = primitive(p)
        intervals, _ = isolating_intervals(canonical)
        index = root_index(index, canonical, len(intervals))
        self.poly, self.index = canonical, index
        self.lo, self.hi = intervals[index]

    @classmethod
    def _make(cls, poly: flint.fmpz_poly, index: int, lo: flint.fmpq, hi: flint.fmpq) -> AlgebraicNumber:
        x = object.__new__(cls)
        x.poly, x.index, x.lo, x.hi = poly, index, lo, hi
        return x

    @classmethod
    def from_quadratic(cls, value: Any) -> Fraction | AlgebraicNumber:
        r"""The value of a real :class:`~evalgebra.numbers.quadratic.QuadraticNumber` (a Fraction when
        rational).

        >>> from evalgebra.numbers.quadratic import QuadraticNumber
        >>> AlgebraicNumber.from_quadratic(QuadraticNumber(1, -1, 2))
        AlgebraicNumber(x^2 - 2*x - 1, root 0 ≈ -0.4142135624)
        """
        if not value.is_real:
            raise NumberError(f"{value!r} is not real: no AlgebraicNumber; use complex() for its value")
        key = value.minimal_key()
        if key is None:
            return Fraction(value.p)
        poly = flint.fmpz_poly(list(key[0]))
        intervals, _ = isolating_intervals(poly)
        return cls._make(poly, key[1], *intervals[key[1]])

    @property
    def degree(self) -> int:
        """Degree of the minimal polynomial."""
        return int(self.poly.degree())

    def refine(self, width: Any = None) -> None:
        """Bisect the isolating interval once, or until it is narrower than ``width``."""
        target = None if width is None else as_fmpq(width)
        q = flint.fmpq_poly(self.poly)
        sign_lo = sign_of(q(self.lo))
        while True:
            mid = (self.lo + self.hi) / 2
            s = sign_of(q(mid))
            if s == sign_lo:
                self.lo = mid
            else:
                self.hi = mid
            if target is None or self.hi - self.lo < target:
                return

    def interval(self) -> tuple[Fraction, Fraction]:
        """The current isolating interval as two Fractions."""
        return as_fraction(self.lo), as_fraction(self.hi)

    def arb(self) -> flint.arb:
        """An arb ball holding the number (as wide as the current interval)."""
        lo, hi = flint.arb(self.lo), flint.arb(self.hi)
        return lo.union(hi)

    def minimal_key(self) -> tuple[tuple[int, ...], int]:
        """``(coefficients of the minimal polynomial, root index)``: the canonical name of the value."""
        return tuple(int(c) for c in self.poly.coeffs()), self.index

    def to_algebraic(self) -> AlgebraicNumber:
        """Itself (the family's common form)."""
        return self

    # -- comparison ---------------------------------------------------------------------------
    def compare(self, other: Any) -> int:
        """``-1``, ``0`` or ``1``: exact, by narrowing intervals (never by floating point)."""
        if isinstance(other, AlgebraicNumber):
            if self.poly == other.poly and self.index == other.index:
                return 0
            while not (self.hi < other.lo or other.hi < self.lo):
                self.refine()
                other.refine()
            return -1 if self.hi < other.lo else 1
        if isinstance(other, RealAlgebraic):  # a QuadraticNumber
            return self.compare(other.to_algebraic())
        if isinstance(other, float):
            other = Fraction(other)  # its exact binary value
        if not isinstance(other, _RATIONALS):
            raise TypeError(f"cannot compare an AlgebraicNumber with {type(other).__name__}")
        x = as_fmpq(as_fraction(other))
        while self.lo <= x <= self.hi:  # never equal: a rational is no root of an irreducible of degree >= 2
            self.refine()
        return -1 if self.hi < x else 1

    def __eq__(self, other: object) -> bool:
        if isinstance(other, AlgebraicNumber):
            return self.poly == other.poly and self.index == other.index
        if isinstance(other, RealAlgebraic):
            return other.minimal_key() == self.minimal_key()
        if isinstance(other, _RATIONALS):
            return False
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.minimal_key())

    def __bool__(self) -> bool:
        return True  # never zero

    def sign(self) -> int:
        """``-1`` or ``1`` (never zero)."""
        return self.compare(0)

    def __float__(self) -> float:
        while True:
            lo, hi = float(self.lo), float(self.hi)
            if lo == hi or hi - lo <= 4e-17 * max(1.0, abs(lo)):
                return float((self.lo + self.hi) / 2)
            self.refine()

    # -- arithmetic ---------------------------------------------------------------------------
    def __neg__(self) -> AlgebraicNumber:
        coeffs = [int(c) * (-1) ** k for k, c in enumerate(self.poly.coeffs())]
        negated = primitive(flint.fmpz_poly(coeffs))
        n_real = len(isolating_intervals(self.poly)[0])
        return AlgebraicNumber._make(negated, n_real - 1 - self.index, -self.hi, -self.lo)

    def __abs__(self) -> AlgebraicNumber:
        return -self if self.sign() < 0 else self

    def __pos__(self) -> AlgebraicNumber:
        return self

    def __add__(self, other: Any) -> Fraction | AlgebraicNumber:
        o = _operand(other)
        if o is None:
            return NotImplemented
        if isinstance(o, Fraction):
            if o == 0:
                return self
            shifted = flint.fmpq_poly(self.poly)(flint.fmpq_poly([-as_fmpq(o), 1]))  # f(x - r)
            return AlgebraicNumber._make(
                primitive(shifted), self.index, self.lo + as_fmpq(o), self.hi + as_fmpq(o)
            )
        return _pick(composed_sum(self.poly, o.poly), _enclosure(self, o, interval_sum))

    __radd__ = __add__

    def __sub__(self, other: Any) -> Fraction | AlgebraicNumber:
        o = _operand(other)
        return NotImplemented if o is None else self + (-o)

    def __rsub__(self, other: Any) -> Fraction | AlgebraicNumber:
        o = _operand(other)
        return NotImplemented if o is None else (-self) + o

    def __mul__(self, other: Any) -> Fraction | AlgebraicNumber:
        o = _operand(other)
        if o is None:
            return NotImplemented
        if isinstance(o, Fraction):
            if o == 0:
                return Fraction(0)
            r = as_fmpq(o)
            scaled = primitive(flint.fmpq_poly(self.poly)(flint.fmpq_poly([0, 1 / r])))  # f(x / r)
            if r > 0:
                return AlgebraicNumber._make(scaled, self.index, self.lo * r, self.hi * r)
            n_real = len(isolating_intervals(self.poly)[0])
            return AlgebraicNumber._make(scaled, n_real - 1 - self.index, self.hi * r, self.lo * r)
        return _pick(composed_product(self.poly, o.poly), _enclosure(self, o, interval_product))

    __rmul__ = __mul__

    def reciprocal(self) -> AlgebraicNumber:
        """``1 / self`` (the reversed minimal polynomial)."""
        while self.lo <= 0 <= self.hi:
            self.refine()
        reversed_poly = primitive(flint.fmpz_poly(list(reversed([int(c) for c in self.poly.coeffs()]))))
        intervals, _ = isolating_intervals(reversed_poly)
        n_real = len(intervals)
        negatives = sum(1 for lo, _ in intervals if lo < 0)
        # x -> 1/x reverses the order within the negative and within the positive roots
        index = negatives - 1 - self.index if self.hi < 0 else negatives + (n_real - 1 - self.index)
        return AlgebraicNumber._make(reversed_poly, index, *intervals[index])

    def __truediv__(self, other: Any) -> Fraction | AlgebraicNumber:
        o = _operand(other)
        if o is None:
            return NotImplemented
        if isinstance(o, Fraction):
            if o == 0:
                raise ZeroDivisionError("division of an AlgebraicNumber by zero")
            return self * (1 / o)
        return Fraction(1) if o == self else self * o.reciprocal()

    def __rtruediv__(self, other: Any) -> Fraction | AlgebraicNumber:
        o = _operand(other)
        return NotImplemented if o is None else self.reciprocal() * o

    def __pow__(self, exponent: int) -> Fraction | AlgebraicNumber:
        if not isinstance(exponent, int):
            return NotImplemented
        if exponent < 0:
            return self.reciprocal() ** -exponent
        result: Fraction | AlgebraicNumber = Fraction(1)
        for _ in range(exponent):
            result = result * self
        return result

    # -- text -----------------------------------------------------------------------------------
    def to_sympy_text(self) -> str:
        """``CRootOf(x**2 - 2, 1)``: SymPy numbers real roots first, increasing, like ``index``."""
        return f"CRootOf({poly_text(self.poly, power='**')}, {self.index})"

    def __str__(self) -> str:
        return f"root {self.index} of {poly_text(self.poly)} (≈ {float(self):.10g})"

    def __repr__(self) -> str:
        return f"AlgebraicNumber({poly_text(self.poly)}, root {self.index} ≈ {float(self):.10g})"


def _operand(other: Any) -> Fraction | AlgebraicNumber | None:
    """An arithmetic operand as a Fraction or an AlgebraicNumber (None: not an exact real)."""
    if isinstance(other, AlgebraicNumber):
        return other
    if isinstance(other, RealAlgebraic):
        return other.to_algebraic()  # type: ignore[no-any-return]
    if isinstance(other, _RATIONALS):
        return as_fraction(other)
    return None


def _enclosure(
    x: AlgebraicNumber,
    y: AlgebraicNumber,
    combine: Callable[[IsolatingInterval, IsolatingInterval], IsolatingInterval],
) -> Callable[[], IsolatingInterval]:
    """An interval holding ``x (op) y``, narrower at every call (the operands are refined)."""
    calls = [0]

    def enclose() -> IsolatingInterval:
        if calls[0]:
            x.refine((x.hi - x.lo) / 256)
            y.refine((y.hi - y.lo) / 256)
        calls[0] += 1
        return combine((x.lo, x.hi), (y.lo, y.hi))

    return enclose


def _pick(poly: flint.fmpz_poly, enclose: Callable[[], IsolatingInterval]) -> Fraction | AlgebraicNumber:
    """The one root of ``poly`` in the shrinking enclosures (a Fraction when rational); factors whose
    arb value on the enclosure excludes 0 are dropped before any root isolation."""
    factors = [f for f, _ in poly.factor()[1]]
    lo, hi = enclose()
    saved, prec = flint.ctx.prec, 64 + 2 * max(int(f.height_bits()) for f in factors)
    try:
        while len(factors) > 1:
            flint.ctx.prec = prec
            ball = flint.arb(lo).union(flint.arb(hi))
            factors = [f for f in factors if f(ball).contains(0)] or factors
            if len(factors) > 1:
                lo, hi = enclose()
                prec += 32
    finally:
        flint.ctx.prec = saved
    candidates, _ = real_roots(factors[0])
    while True:
        hits = [c for c in candidates if _meets(c, lo, hi)]
        if len(hits) == 1:
            return hits[0]
        if not hits:
            raise ArithmeticError(f"no root of {poly_text(poly)} in the enclosure")  # pragma: no cover
        for c in hits:
            if isinstance(c, AlgebraicNumber):
                c.refine((c.hi - c.lo) / 256)
        candidates = hits
        lo, hi = enclose()


def _meets(c: Fraction | AlgebraicNumber, lo: flint.fmpq, hi: flint.fmpq) -> bool:
    if isinstance(c, AlgebraicNumber):
        return not (c.hi < lo or hi < c.lo)
    x = as_fmpq(c)
    return bool(lo <= x <= hi)


#: Power sums by modulus object (kept with it, so an id is never reused while cached); at most 256.
_POWER_SUMS: dict[int, tuple[flint.fmpq_poly, list[flint.fmpq]]] = {}


def _power_sums(modulus: flint.fmpq_poly) -> list[flint.fmpq]:
    """``s_k = sum over the roots theta of modulus of theta^k`` for ``k < deg``, by Newton's identities."""
    key = id(modulus)
    cached = _POWER_SUMS.get(key)
    if cached is None or cached[0] is not modulus:
        if len(_POWER_SUMS) >= 256:
            _POWER_SUMS.clear()
        m = modulus.degree()
        coeffs = modulus.coeffs()
        c = [coeffs[k] / coeffs[m] for k in range(m + 1)]  # monic: x^m + c[m-1] x^(m-1) + ... + c[0]
        sums = [flint.fmpq(m)]
        for k in range(1, m):
            total = k * c[m - k]
            for j in range(1, k):
                total += c[m - j] * sums[k - j]
            sums.append(-total)
        cached = _POWER_SUMS[key] = (modulus, sums)
    return cached[1]


class FieldElement:
    r"""``g(theta)`` in the number field ``Q(theta)``, ``theta`` a root of the irreducible ``f``.

    Parameters
    ----------
    modulus : fmpz_poly or fmpq_poly
        ``f``, irreducible over the rationals.
    value : fmpq_poly, sequence of rationals, or a rational
        ``g``; reduced modulo ``f``.

    Notes
    -----
    The arithmetic does not depend on which root of ``f`` is ``theta``: a computation done once
    gives the answer at every conjugate, which is what makes :meth:`trace` (the sum over the
    conjugates) exact and rational. Elements of different fields do not mix (``ValueError``).

    Examples
    --------
    >>> theta = FieldElement.generator(AlgebraicNumber([-2, 0, 0, 1], 0))   # the real cube root of 2
    >>> y = 1 / (theta + 1)
    >>> y, y * (theta + 1) == 1, y.value(AlgebraicNumber([-2, 0, 0, 1], 0))
    ... # doctest: +NORMALIZE_WHITESPACE
    (FieldElement(1/3*x^2 + (-1/3)*x + 1/3 mod x^3 + (-2)), True,
     AlgebraicNumber(3*x^3 - 3*x^2 + 3*x - 1, root 0 ≈ 0.442493334))
    """

    __slots__ = ("modulus", "g")

    @classmethod
    def generator(cls, root: AlgebraicNumber) -> FieldElement:
        """``theta`` itself in ``Q(theta)``, for ``theta = root`` (modulus: its minimal polynomial)."""
        return cls(root.poly, [0, 1])

    def __init__(self, modulus: Any, value: Any) -> None:
        self.modulus = modulus if isinstance(modulus, flint.fmpq_poly) else flint.fmpq_poly(modulus)
        if isinstance(value, flint.fmpq_poly):
            g = value
        elif isinstance(value, (list, tuple)):
            g = flint.fmpq_poly([as_fmpq(as_fraction(v)) for v in value])
        else:
            g = flint.fmpq_poly([as_fmpq(as_fraction(value))])
        self.g = g % self.modulus

    def _other(self, other: Any) -> flint.fmpq_poly | None:
        if isinstance(other, FieldElement):
            if other.modulus is not self.modulus and other.modulus != self.modulus:
                raise NumberError(
                    f"elements of two number fields: mod {self.modulus} and mod {other.modulus}"
                )
            return other.g
        if isinstance(other, (int, Fraction, flint.fmpq, flint.fmpz)):
            return flint.fmpq_poly([as_fmpq(as_fraction(other))])
        return None

    def _new(self, g: flint.fmpq_poly) -> FieldElement:
        x = object.__new__(FieldElement)
        x.modulus, x.g = self.modulus, g
        return x

    def __add__(self, other: Any) -> FieldElement:
        o = self._other(other)
        return NotImplemented if o is None else self._new(self.g + o)

    __radd__ = __add__

    def __neg__(self) -> FieldElement:
        return self._new(-self.g)

    def __sub__(self, other: Any) -> FieldElement:
        o = self._other(other)
        return NotImplemented if o is None else self._new(self.g - o)

    def __rsub__(self, other: Any) -> FieldElement:
        o = self._other(other)
        return NotImplemented if o is None else self._new(o - self.g)

    def __mul__(self, other: Any) -> FieldElement:
        o = self._other(other)
        return NotImplemented if o is None else self._new((self.g * o) % self.modulus)

    __rmul__ = __mul__

    def is_zero(self) -> bool:
        return bool(self.g.is_zero())

    def inverse(self) -> FieldElement:
        """``1 / g(theta)`` (``ZeroDivisionError`` for zero)."""
        if self.g.is_zero():
            raise ZeroDivisionError("division by zero in a number field")
        gcd, s, _ = self.g.xgcd(self.modulus)
        return self._new((s / gcd) % self.modulus)

    def __truediv__(self, other: Any) -> FieldElement:
        o = self._other(other)
        if o is None:
            return NotImplemented
        return self * self._new(o).inverse()

    def __rtruediv__(self, other: Any) -> FieldElement:
        o = self._other(other)
        return NotImplemented if o is None else self._new(o) * self.inverse()

    def __pow__(self, exponent: int) -> FieldElement:
        if not isinstance(exponent, int):
            return NotImplemented
        base = self if exponent >= 0 else self.inverse()
        result, exponent = self._new(flint.fmpq_poly([1])), abs(exponent)
        while exponent:
            if exponent & 1:
                result = result * base
            base, exponent = base * base, exponent >> 1
        return result

    def __eq__(self, other: object) -> bool:
        try:
            o = self._other(other)
        except ValueError:
            return False
        return NotImplemented if o is None else bool(self.g == o)

    __hash__ = None  # type: ignore[assignment]

    def rational(self) -> Fraction | None:
        """The value when ``g`` is constant, else ``None``."""
        if self.g.degree() <= 0:
            return as_fraction(self.g.coeffs()[0]) if self.g.degree() == 0 else Fraction(0)
        return None

    def _matrix(self) -> flint.fmpq_mat:
        """Multiplication by ``g`` on the basis ``1, theta, ..., theta^(m-1)``."""
        m = self.modulus.degree()
        columns = []
        for k in range(m):
            product = (self.g * flint.fmpq_poly([0] * k + [1])) % self.modulus
            coeffs = list(product.coeffs()) + [flint.fmpq(0)] * m
            columns.append(coeffs[:m])
        return flint.fmpq_mat([[columns[c][r] for c in range(m)] for r in range(m)])

    def trace(self) -> Fraction:
        """``sum over the conjugates theta' of g(theta')``, a rational.

        ``sum_k g_k s_k`` with ``s_k`` the power sums of the roots of the modulus (Newton's
        identities, computed once per modulus): the trace of the multiplication matrix, without
        forming it.
        """
        sums = _power_sums(self.modulus)
        return as_fraction(sum((c * s for c, s in zip(self.g.coeffs(), sums)), flint.fmpq(0)))

    def minimal_polynomial(self) -> flint.fmpz_poly:
        """The minimal polynomial of ``g(theta)`` (primitive, positive leading coefficient)."""
        factors = self._matrix().charpoly().numer().factor()[1]
        return primitive(factors[0][0])

    def arb(self, theta: AlgebraicNumber) -> flint.arb:
        """An arb ball holding ``g(theta)``, at the width of ``theta``'s interval."""
        num = self.g.numer()
        return num(theta.arb()) / flint.arb(self.g.denom())

    def value(self, theta: AlgebraicNumber | Fraction) -> Fraction | AlgebraicNumber:
        """``g(theta)`` exactly: a Fraction when rational, else an :class:`AlgebraicNumber`."""
        return self.values([theta])[0]

    def values(self, thetas: Sequence[AlgebraicNumber | Fraction]) -> list[Fraction | AlgebraicNumber]:
        """``g(theta)`` at several roots of the modulus, exactly (as :meth:`value`).

        The minimal polynomial of ``g(theta)`` and its real roots are the same at every conjugate,
        so they are computed once for all of ``thetas``; each value is then the one real root of
        it whose interval meets the ball of ``g`` at that ``theta``.

        Examples
        --------
        >>> roots = real_roots([-2, 0, 1])[0]          # -sqrt(2), sqrt(2)
        >>> element = FieldElement([-2, 0, 1], [1, 1])   # 1 + theta
        >>> [round(float(v), 12) for v in element.values(roots)]
        [-0.414213562373, 2.414213562373]
        >>> element.values(roots)[1] == element.value(roots[1])
        True
        """
        constant = self.rational()
        if constant is not None:
            return [constant] * len(thetas)
        for theta in thetas:
            if not isinstance(theta, AlgebraicNumber):
                if self.modulus(as_fmpq(theta)) != 0:
                    raise NumberError(
                        f"{theta} is not a root of the modulus {self.modulus}; give a root of it"
                    )
            elif (
                theta.poly.degree() != self.modulus.degree()
                or flint.fmpq_poly(theta.poly) % self.modulus != 0
            ):
                raise NumberError(f"{theta!r} is not a root of the modulus {self.modulus}; give a root of it")
        if all(not isinstance(theta, AlgebraicNumber) for theta in thetas):
            return [as_fraction(self.g(as_fmpq(theta))) for theta in thetas]
        minimal = self.minimal_polynomial()
        if minimal.degree() == 1:
            b, a = (int(c) for c in minimal.coeffs())
            return [Fraction(-b, a)] * len(thetas)
        candidates, _ = real_roots(minimal)
        numbers = [c for c in candidates if isinstance(c, AlgebraicNumber)]
        return [self._match(theta, numbers) for theta in thetas]  # type: ignore[arg-type]

    def _match(self, theta: AlgebraicNumber, numbers: list[AlgebraicNumber]) -> AlgebraicNumber:
        """The one of ``numbers`` (the real roots of the minimal polynomial) that is ``g(theta)``."""
        saved = flint.ctx.prec
        try:
            while True:
                width = theta.hi - theta.lo
                flint.ctx.prec = max(256, 2 * (int(width.q).bit_length() - int(width.p).bit_length()) + 128)
                ball = self.arb(theta)
                blo, bhi = ball_interval(ball)
                hits = [c for c in numbers if not (c.hi < blo or bhi < c.lo)]
                if len(hits) == 1:
                    return hits[0]
                theta.refine((theta.hi - theta.lo) / 2**16)
                for c in hits:
                    c.refine((c.hi - c.lo) / 256)
        finally:
            flint.ctx.prec = saved

    def __repr__(self) -> str:
        return f"FieldElement({self.g} mod {self.modulus})"
