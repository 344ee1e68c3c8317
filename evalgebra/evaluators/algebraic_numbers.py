r"""Exact real algebraic numbers and the number fields they generate.

An :class:`AlgebraicNumber` is a real root of an irreducible integer polynomial of degree at
least two, named by its *minimal polynomial* (primitive, positive leading coefficient) and its
*index* among that polynomial's real roots in increasing order, and carried with a rational
*isolating interval* ``(lo, hi)`` that holds that root and no other root of the polynomial.
The pair (polynomial, index) is canonical, so numbers compare, hash and print exactly;
intervals are refined by exact bisection (the polynomial changes sign across a simple root)
whenever two numbers, or a number and a rational, must be told apart, and floats come on
demand. The first intervals come from python-flint's certified complex root isolation
(``fmpz_poly.complex_roots``: real roots are returned with an exactly zero imaginary part).

A :class:`FieldElement` is ``g(theta)`` for a rational polynomial ``g`` modulo the minimal
polynomial ``f`` of ``theta``: exact arithmetic in the number field ``Q(theta)`` (inverses by
the extended Euclidean algorithm), its trace (a rational: the sum over the conjugates of
``theta``) and its value at a chosen real root as an :class:`AlgebraicNumber` (minimal
polynomial from the characteristic polynomial of multiplication by ``g``).

Examples
--------
>>> import flint
>>> roots, n_complex = real_roots(flint.fmpz_poly([-2, 0, 1]) * flint.fmpz_poly([-1, 3]))
>>> roots, n_complex
([AlgebraicNumber(x^2 - 2, root 0 ≈ -1.414213562), Fraction(1, 3), AlgebraicNumber(x^2 - 2, root 1 ≈ 1.414213562)], 0)
>>> root2 = roots[2]
>>> root2 > Fraction(141, 100), root2 < Fraction(142, 100), float(root2)
(True, True, 1.4142135623730951)
>>> x = FieldElement(flint.fmpz_poly([-2, 0, 1]), [0, 1])       # theta = sqrt(2)
>>> y = (x + 1) * (x + 1)                                          # 3 + 2 sqrt(2)
>>> y.value(root2), y.trace()
(AlgebraicNumber(x^2 - 6*x + 1, root 1 ≈ 5.828427125), Fraction(6, 1))
>>> (x * x).value(root2)
Fraction(2, 1)
>>> root2.to_sympy_text()
'CRootOf(x**2 - 2, 1)'
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import flint

__all__ = ["AlgebraicNumber", "FieldElement", "real_roots", "poly_text", "as_fraction", "solve_linear"]

_ISOLATION_PRECISIONS = (53, 128, 256, 1024, 4096)


def as_fraction(value: Any) -> Fraction:
    """An exact rational (``int``, ``Fraction``, ``fmpz`` or ``fmpq``) as a :class:`~fractions.Fraction`."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, flint.fmpq):
        return Fraction(int(value.p), int(value.q))
    return Fraction(int(value))


def _fmpq(value: Any) -> flint.fmpq:
    if isinstance(value, flint.fmpq):
        return value
    value = Fraction(value)
    return flint.fmpq(value.numerator, value.denominator)


def _primitive(poly: flint.fmpz_poly) -> flint.fmpz_poly:
    """``poly`` divided by its content, with a positive leading coefficient."""
    coeffs = [int(c) for c in poly.coeffs()]
    content = 0
    for c in coeffs:
        content = _gcd(content, c)
    sign = -1 if coeffs[-1] < 0 else 1
    return flint.fmpz_poly([sign * c // content for c in coeffs])


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return abs(a)


def poly_text(poly: flint.fmpz_poly, variable: str = "x", power: str = "^") -> str:
    """``x^2 - 2``: an integer polynomial as text (``power="**"`` for SymPy)."""
    terms = []
    for k, c in reversed(list(enumerate(int(c) for c in poly.coeffs()))):
        if c == 0:
            continue
        monomial = "" if k == 0 else (variable if k == 1 else f"{variable}{power}{k}")
        size = abs(c)
        body = str(size) if not monomial else (monomial if size == 1 else f"{size}*{monomial}")
        terms.append(("-" if c < 0 else "+", body))
    if not terms:
        return "0"
    first_sign, first = terms[0]
    return ("-" if first_sign == "-" else "") + first + "".join(f" {s} {b}" for s, b in terms[1:])


def _ball_interval(ball: flint.arb) -> tuple[flint.fmpq, flint.fmpq]:
    """The rational interval ``[mid - rad, mid + rad]`` of an arb ball."""
    man, exp = ball.mid().man_exp()
    rman, rexp = ball.rad().man_exp()
    mid = flint.fmpq(int(man)) * flint.fmpq(2) ** int(exp) if exp >= 0 else flint.fmpq(int(man), 2 ** -int(exp))
    rad = flint.fmpq(int(rman)) * flint.fmpq(2) ** int(rexp) if rexp >= 0 else flint.fmpq(int(rman), 2 ** -int(rexp))
    return mid - rad, mid + rad


def _sign_at(poly: flint.fmpz_poly, x: flint.fmpq) -> int:
    value = flint.fmpq_poly(poly)(x)
    return (value > 0) - (value < 0)


def _isolate(poly: flint.fmpz_poly) -> tuple[list[tuple[flint.fmpq, flint.fmpq]], int]:
    """Isolating intervals of the real roots of a squarefree ``poly`` (increasing), and the
    number of its non-real roots."""
    saved = flint.ctx.prec
    try:
        for prec in _ISOLATION_PRECISIONS:
            flint.ctx.prec = prec
            roots: list[Any] = list(poly.complex_roots())
            real = [_ball_interval(c.real) for c, _ in roots if c.imag.is_exact() and c.imag == 0]
            real.sort(key=lambda iv: iv[0])
            disjoint = all(a[1] < b[0] for a, b in zip(real, real[1:]))
            changes = all(_sign_at(poly, lo) * _sign_at(poly, hi) < 0 for lo, hi in real)
            if disjoint and changes:
                return real, poly.degree() - len(real)
    finally:
        flint.ctx.prec = saved
    raise ArithmeticError(f"could not isolate the real roots of {poly_text(poly)}")


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
    p = _integer_poly(poly)
    if p.is_zero():
        raise ValueError("the zero polynomial has every number as a root")
    out: list[Fraction | AlgebraicNumber] = []
    n_complex = 0
    for factor, _ in p.factor()[1]:
        if factor.degree() == 1:
            b, a = (int(c) for c in factor.coeffs())
            out.append(Fraction(-b, a))
            continue
        canonical = _primitive(factor)
        intervals, others = _isolate(canonical)
        n_complex += others
        out.extend(AlgebraicNumber._make(canonical, k, lo, hi) for k, (lo, hi) in enumerate(intervals))
    out.sort(key=_sort_key)
    return out, n_complex


def _integer_poly(poly: Any) -> flint.fmpz_poly:
    if isinstance(poly, flint.fmpz_poly):
        return poly
    if isinstance(poly, flint.fmpq_poly):
        return poly.numer()
    return flint.fmpz_poly([int(c) for c in poly])


def _sort_key(x: Fraction | AlgebraicNumber) -> Any:
    return _Key(x)


class _Key:
    """Exact ordering of rationals and algebraic numbers for ``sort``."""

    __slots__ = ("x",)

    def __init__(self, x: Any) -> None:
        self.x = x

    def __lt__(self, other: _Key) -> bool:
        a, b = self.x, other.x
        if isinstance(a, AlgebraicNumber):
            return bool(a < b)
        if isinstance(b, AlgebraicNumber):
            return bool(b > a)
        return bool(a < b)


class AlgebraicNumber:
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

    Examples
    --------
    >>> golden = AlgebraicNumber([-1, -1, 1], 1)
    >>> golden
    AlgebraicNumber(x^2 - x - 1, root 1 ≈ 1.618033989)
    >>> golden == AlgebraicNumber([1, 1, -1], 1), golden > AlgebraicNumber([-2, 0, 1], 1)
    (True, True)
    >>> str(golden)
    'root 1 of x^2 - x - 1 (≈ 1.618033989)'
    """

    __slots__ = ("poly", "index", "lo", "hi")

    poly: flint.fmpz_poly
    index: int
    lo: flint.fmpq
    hi: flint.fmpq

    def __init__(self, poly: Any, index: int) -> None:
        p = _integer_poly(poly)
        if p.degree() < 2:
            raise ValueError(f"{poly_text(p)}: an algebraic number here has degree at least 2 (use Fraction)")
        constant, factors = p.factor()
        if len(factors) != 1 or factors[0][1] != 1:
            raise ValueError(f"{poly_text(p)} is not irreducible over the rationals")
        canonical = _primitive(p)
        intervals, _ = _isolate(canonical)
        if not 0 <= index < len(intervals):
            raise ValueError(f"{poly_text(canonical)} has {len(intervals)} real root(s); no index {index}")
        self.poly, self.index = canonical, index
        self.lo, self.hi = intervals[index]

    @classmethod
    def _make(cls, poly: flint.fmpz_poly, index: int, lo: flint.fmpq, hi: flint.fmpq) -> AlgebraicNumber:
        x = object.__new__(cls)
        x.poly, x.index, x.lo, x.hi = poly, index, lo, hi
        return x

    @property
    def degree(self) -> int:
        """Degree of the minimal polynomial."""
        return int(self.poly.degree())

    def refine(self, width: Any = None) -> None:
        """Bisect the isolating interval once, or until it is narrower than ``width``."""
        target = None if width is None else _fmpq(width)
        q = flint.fmpq_poly(self.poly)
        sign_lo = _sign(q(self.lo))
        while True:
            mid = (self.lo + self.hi) / 2
            s = _sign(q(mid))
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

    # -- comparison ---------------------------------------------------------------------------
    def _compare(self, other: Any) -> int:
        if isinstance(other, AlgebraicNumber):
            if self.poly == other.poly and self.index == other.index:
                return 0
            while not (self.hi < other.lo or other.hi < self.lo):
                self.refine()
                other.refine()
            return -1 if self.hi < other.lo else 1
        x = _fmpq(as_fraction(other))
        while self.lo <= x <= self.hi:  # never equal: a rational is no root of an irreducible of degree >= 2
            self.refine()
        return -1 if self.hi < x else 1

    def __eq__(self, other: object) -> bool:
        if isinstance(other, AlgebraicNumber):
            return self.poly == other.poly and self.index == other.index
        if isinstance(other, (int, Fraction, flint.fmpq, flint.fmpz)):
            return False
        return NotImplemented

    def __hash__(self) -> int:
        return hash((tuple(int(c) for c in self.poly.coeffs()), self.index))

    def __lt__(self, other: Any) -> bool:
        return self._compare(other) < 0

    def __le__(self, other: Any) -> bool:
        return self._compare(other) <= 0

    def __gt__(self, other: Any) -> bool:
        return self._compare(other) > 0

    def __ge__(self, other: Any) -> bool:
        return self._compare(other) >= 0

    def sign(self) -> int:
        """``-1`` or ``1`` (never zero)."""
        return self._compare(0)

    def __float__(self) -> float:
        while True:
            lo, hi = float(self.lo), float(self.hi)
            if lo == hi or hi - lo <= 4e-17 * max(1.0, abs(lo)):
                return float((self.lo + self.hi) / 2)
            self.refine()

    def __neg__(self) -> AlgebraicNumber:
        coeffs = [int(c) * (-1) ** k for k, c in enumerate(self.poly.coeffs())]
        negated = _primitive(flint.fmpz_poly(coeffs))
        n_real = len(_isolate(self.poly)[0])
        return AlgebraicNumber._make(negated, n_real - 1 - self.index, -self.hi, -self.lo)

    # -- text -----------------------------------------------------------------------------------
    def to_sympy_text(self) -> str:
        """``CRootOf(x**2 - 2, 1)``: SymPy numbers real roots first, increasing, like ``index``."""
        return f"CRootOf({poly_text(self.poly, power='**')}, {self.index})"

    def __str__(self) -> str:
        return f"root {self.index} of {poly_text(self.poly)} (≈ {float(self):.10g})"

    def __repr__(self) -> str:
        return f"AlgebraicNumber({poly_text(self.poly)}, root {self.index} ≈ {float(self):.10g})"


def _sign(value: Any) -> int:
    return (value > 0) - (value < 0)


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
    conjugates) exact and rational.
    """

    __slots__ = ("modulus", "g")

    def __init__(self, modulus: Any, value: Any) -> None:
        self.modulus = modulus if isinstance(modulus, flint.fmpq_poly) else flint.fmpq_poly(modulus)
        if isinstance(value, flint.fmpq_poly):
            g = value
        elif isinstance(value, (list, tuple)):
            g = flint.fmpq_poly([_fmpq(as_fraction(v)) for v in value])
        else:
            g = flint.fmpq_poly([_fmpq(as_fraction(value))])
        self.g = g % self.modulus

    def _other(self, other: Any) -> flint.fmpq_poly | None:
        if isinstance(other, FieldElement):
            return other.g
        if isinstance(other, (int, Fraction, flint.fmpq, flint.fmpz)):
            return flint.fmpq_poly([_fmpq(as_fraction(other))])
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
        o = other if isinstance(other, FieldElement) else self._new(self._other(other) or flint.fmpq_poly([0]))
        return self * o.inverse()

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
        """``sum over the conjugates theta' of g(theta')``, a rational."""
        matrix = self._matrix()
        return as_fraction(sum((matrix[k, k] for k in range(matrix.nrows())), flint.fmpq(0)))

    def minimal_polynomial(self) -> flint.fmpz_poly:
        """The minimal polynomial of ``g(theta)`` (primitive, positive leading coefficient)."""
        factors = self._matrix().charpoly().numer().factor()[1]
        return _primitive(factors[0][0])

    def arb(self, theta: AlgebraicNumber) -> flint.arb:
        """An arb ball holding ``g(theta)``, at the width of ``theta``'s interval."""
        num = self.g.numer()
        return num(theta.arb()) / flint.arb(self.g.denom())

    def value(self, theta: AlgebraicNumber | Fraction) -> Fraction | AlgebraicNumber:
        """``g(theta)`` exactly: a Fraction when rational, else an :class:`AlgebraicNumber`."""
        constant = self.rational()
        if constant is not None:
            return constant
        if not isinstance(theta, AlgebraicNumber):
            return as_fraction(self.g(_fmpq(theta)))
        minimal = self.minimal_polynomial()
        if minimal.degree() == 1:
            b, a = (int(c) for c in minimal.coeffs())
            return Fraction(-b, a)
        candidates, _ = real_roots(minimal)
        numbers = [c for c in candidates if isinstance(c, AlgebraicNumber)]
        saved = flint.ctx.prec
        try:
            flint.ctx.prec = 256
            while True:
                ball = self.arb(theta)
                blo, bhi = _ball_interval(ball)
                hits = [c for c in numbers if not (c.hi < blo or bhi < c.lo)]
                if len(hits) == 1:
                    return hits[0]
                theta.refine()
                for c in hits:
                    c.refine()
        finally:
            flint.ctx.prec = saved

    def __repr__(self) -> str:
        return f"FieldElement({self.g} mod {self.modulus})"


def solve_linear(rows: Sequence[Sequence[Any]], zero: Any, one: Any) -> list[Any] | None:
    """A nonzero vector ``x`` with ``rows @ x = 0`` (field entries), or ``None`` when there is none."""
    matrix = [list(r) for r in rows]
    n_rows, n_cols = len(matrix), len(matrix[0])
    pivots: list[int] = []
    r = 0
    for c in range(n_cols):
        pivot = next((k for k in range(r, n_rows) if not _is_zero(matrix[k][c])), None)
        if pivot is None:
            continue
        matrix[r], matrix[pivot] = matrix[pivot], matrix[r]
        inv = one / matrix[r][c]
        matrix[r] = [v * inv for v in matrix[r]]
        for k in range(n_rows):
            if k != r and not _is_zero(matrix[k][c]):
                factor = matrix[k][c]
                matrix[k] = [a - factor * b for a, b in zip(matrix[k], matrix[r])]
        pivots.append(c)
        r += 1
        if r == n_rows:
            break
    free = [c for c in range(n_cols) if c not in pivots]
    if not free:
        return None
    x = [zero] * n_cols
    x[free[0]] = one
    for row, c in zip(matrix, pivots):
        x[c] = zero - row[free[0]]
    return x


def _is_zero(value: Any) -> bool:
    return value.is_zero() if isinstance(value, FieldElement) else value == 0
