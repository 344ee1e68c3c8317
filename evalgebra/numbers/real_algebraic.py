r"""One family of exact irrational numbers, and the integer-polynomial tools they share.

:class:`RealAlgebraic` is the abstract base of the exact irrational values an evaluation can
hold: :class:`~evalgebra.numbers.quadratic.QuadraticNumber` (``p + q*sqrt(d)``, the
two-label closed forms) and :class:`~evalgebra.numbers.algebraic_numbers.AlgebraicNumber`
(a root of an irreducible integer polynomial of any degree). Every member names its value by
a *minimal polynomial* (primitive integer coefficients, positive leading one) and the *index*
of the root among that polynomial's real roots in increasing order; that pair is canonical,
so members of different classes compare, test equal and hash alike when their values agree.
Comparisons are written once here, on top of one exact three-way :meth:`RealAlgebraic.compare`.

The module also holds the polynomial tools both classes use: :func:`primitive`,
:func:`poly_text`, :func:`isolating_intervals` (certified isolation of the real roots of a
squarefree polynomial with python-flint) and the *composed* polynomials
:func:`composed_sum` / :func:`composed_product`, whose roots are all sums / products of a root
of ``f`` and a root of ``g``: resultants ``Res_y(f(y), g(x - y))`` and ``Res_y(f(y), y^n g(x/y))``.

Examples
--------
>>> import flint
>>> poly_text(composed_sum(flint.fmpz_poly([-2, 0, 1]), flint.fmpz_poly([-3, 0, 1])))
'x^4 - 10*x^2 + 1'
>>> poly_text(composed_product(flint.fmpz_poly([-2, 0, 1]), flint.fmpz_poly([-3, 0, 1])))
'x^4 - 12*x^2 + 36'
>>> isolating_intervals(flint.fmpz_poly([-2, 0, 1]))[1]
0
"""

from __future__ import annotations

import abc
import operator
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import flint
import numpy as np

from evalgebra.errors import InexactError, NumberError
from evalgebra.numbers.rationals import MAX_BITS, short_repr, show_int

__all__ = [
    "RealAlgebraic",
    "minimal_key",
    "primitive",
    "poly_text",
    "isolating_intervals",
    "ball_interval",
    "composed_sum",
    "composed_product",
    "sign_at",
    "sign_of",
    "as_fraction",
    "as_fmpq",
    "integer_poly",
    "root_index",
    "IsolatingInterval",
    "interval_sum",
    "interval_product",
    "solve_linear",
]

#: A closed rational interval ``(lo, hi)``.
IsolatingInterval = tuple[flint.fmpq, flint.fmpq]

_ISOLATION_PRECISIONS = (53, 128, 256, 1024, 4096, 16384)


class RealAlgebraic(metaclass=abc.ABCMeta):
    r"""Abstract base of the exact irrational numbers of evalgebra.

    A subclass implements :meth:`compare` (exact three-way comparison with ``int``,
    ``Fraction``, ``fmpq`` and every member of the family), :meth:`to_algebraic`,
    :meth:`to_sympy_text` and ``__float__``; the ordering operators come from here. Equality
    and hashing follow the canonical pair (minimal polynomial, root index) returned by
    :meth:`minimal_key`: two members with the same value are equal and hash alike whatever
    their class.

    Examples
    --------
    >>> from evalgebra.numbers.quadratic import QuadraticNumber
    >>> from evalgebra.numbers.algebraic_numbers import AlgebraicNumber
    >>> root2 = AlgebraicNumber([-2, 0, 1], 1)
    >>> isinstance(root2, RealAlgebraic), isinstance(QuadraticNumber(0, 1, 2), RealAlgebraic)
    (True, True)
    >>> QuadraticNumber(0, 1, 2) == root2, hash(QuadraticNumber(0, 1, 2)) == hash(root2)
    (True, True)
    >>> sorted([root2, QuadraticNumber(1, 1, 3), Fraction(1, 2)])
    [Fraction(1, 2), AlgebraicNumber(x^2 - 2, root 1 ≈ 1.414213562), QuadraticNumber(1 + sqrt(3))]
    """

    __slots__ = ()

    @abc.abstractmethod
    def compare(self, other: Any) -> int:
        """``-1``, ``0`` or ``1`` as ``self`` is less than, equal to or greater than ``other``, exactly."""

    @abc.abstractmethod
    def minimal_key(self) -> tuple[tuple[int, ...], int] | None:
        """``(coefficients of the minimal polynomial from the constant up, root index)``; ``None``
        when the value is rational or not real."""

    @abc.abstractmethod
    def to_algebraic(self) -> Any:
        """The same value as a :class:`~fractions.Fraction` or an ``AlgebraicNumber``."""

    @abc.abstractmethod
    def to_sympy_text(self) -> str:
        """Text :func:`sympy.sympify` reads back to the same number."""

    @abc.abstractmethod
    def __float__(self) -> float:
        """The nearest float (or within an ulp or two)."""

    def __lt__(self, other: Any) -> bool:
        return self.compare(other) < 0

    def __le__(self, other: Any) -> bool:
        return self.compare(other) <= 0

    def __gt__(self, other: Any) -> bool:
        return self.compare(other) > 0

    def __ge__(self, other: Any) -> bool:
        return self.compare(other) >= 0


def minimal_key(value: Any) -> tuple[tuple[int, ...], int] | None:
    """The canonical key of a family member, ``None`` for rationals and everything else.

    >>> from evalgebra.numbers.quadratic import QuadraticNumber
    >>> minimal_key(QuadraticNumber(0, -1, 2)), minimal_key(Fraction(1, 2))
    (((-2, 0, 1), 0), None)
    """
    return value.minimal_key() if isinstance(value, RealAlgebraic) else None


# -- integer polynomials --------------------------------------------------------------------------
def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return abs(a)


def primitive(poly: Any) -> flint.fmpz_poly:
    """``poly`` (integer or rational) as a primitive integer polynomial with a positive leading coefficient.

    >>> poly_text(primitive(flint.fmpq_poly([1, 0, -2]) / 4)), poly_text(primitive(flint.fmpz_poly([6, -4])))
    ('2*x^2 - 1', '2*x - 3')
    """
    if isinstance(poly, flint.fmpq_poly):
        poly = poly.numer()
    coeffs = [int(c) for c in poly.coeffs()]
    content = 0
    for c in coeffs:
        content = _gcd(content, c)
    sign = -1 if coeffs[-1] < 0 else 1
    return flint.fmpz_poly([sign * c // content for c in coeffs])


def poly_text(poly: flint.fmpz_poly, variable: str = "x", power: str = "^") -> str:
    """``x^2 - 2``: an integer polynomial as text (``power="**"`` for SymPy).

    >>> poly_text(flint.fmpz_poly([3, -1, 0, 2])), poly_text(flint.fmpz_poly([-2, 0, 1]), power="**")
    ('2*x^3 - x + 3', 'x**2 - 2')
    """
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


def _dyadic(man: Any, exp: Any) -> flint.fmpq:
    e = int(exp)
    return flint.fmpq(int(man)) * flint.fmpq(2) ** e if e >= 0 else flint.fmpq(int(man), 2**-e)


def ball_interval(ball: flint.arb) -> tuple[flint.fmpq, flint.fmpq]:
    """The rational interval ``[mid - rad, mid + rad]`` of an arb ball.

    >>> ball_interval(flint.arb(1))
    (1, 1)
    """
    mid, rad = _dyadic(*ball.mid().man_exp()), _dyadic(*ball.rad().man_exp())
    return mid - rad, mid + rad


def sign_at(poly: flint.fmpz_poly, x: flint.fmpq) -> int:
    """The exact sign of ``poly(x)`` at a rational ``x``."""
    value = flint.fmpq_poly(poly)(x)
    return (value > 0) - (value < 0)


def isolating_intervals(poly: flint.fmpz_poly) -> tuple[list[tuple[flint.fmpq, flint.fmpq]], int]:
    """Disjoint rational isolating intervals of the real roots of a squarefree ``poly`` (increasing,
    the polynomial changing sign across each), and the number of its non-real roots.

    python-flint's certified complex root isolation returns real roots with an exactly zero
    imaginary part; the working precision doubles until the intervals are disjoint and the
    signs at their ends differ.
    """
    saved = flint.ctx.prec
    try:
        for prec in _ISOLATION_PRECISIONS:
            flint.ctx.prec = prec
            roots: list[Any] = list(poly.complex_roots())
            real = [ball_interval(c.real) for c, _ in roots if c.imag.is_exact() and c.imag == 0]
            real.sort(key=lambda iv: iv[0])
            disjoint = all(a[1] < b[0] for a, b in zip(real, real[1:]))
            changes = all(sign_at(poly, lo) * sign_at(poly, hi) < 0 for lo, hi in real)
            if disjoint and changes:
                return real, poly.degree() - len(real)
    finally:
        flint.ctx.prec = saved
    raise ArithmeticError(f"could not isolate the real roots of {poly_text(poly)}")


_BIVARIATE = flint.fmpz_mpoly_ctx.get(("x", "y"), "lex")


def _resultant_in_y(f: Any, terms: Any) -> flint.fmpz_poly:
    """``Res_y(f(y), sum of terms)`` as a primitive polynomial in ``x`` (python-flint's multivariate
    resultant).
    """
    x, y = _BIVARIATE.gens()
    zero = _BIVARIATE.from_dict({})
    first = sum((int(c) * y**k for k, c in enumerate(integer_poly(f).coeffs())), zero)
    second = sum(terms(x, y), zero)
    resultant = first.resultant(second, "y").to_dict()
    coeffs = [0] * (max(e[0] for e in resultant) + 1)
    for exponents, c in resultant.items():
        coeffs[exponents[0]] = int(c)
    return primitive(flint.fmpz_poly(coeffs))


def composed_sum(f: Any, g: Any) -> flint.fmpz_poly:
    """A primitive integer polynomial whose roots are the ``alpha + beta`` (``f(alpha) = g(beta) = 0``):
    the resultant ``Res_y(f(y), g(x - y))``."""
    coeffs = [int(c) for c in integer_poly(g).coeffs()]
    return _resultant_in_y(f, lambda x, y: (c * (x - y) ** k for k, c in enumerate(coeffs)))


def composed_product(f: Any, g: Any) -> flint.fmpz_poly:
    """A primitive integer polynomial whose roots are the ``alpha * beta`` (``f(alpha) = g(beta) = 0``,
    ``f(0) != 0``): the resultant ``Res_y(f(y), y^n g(x / y))``."""
    coeffs = [int(c) for c in integer_poly(g).coeffs()]
    n = len(coeffs) - 1
    return _resultant_in_y(f, lambda x, y: (c * x**k * y ** (n - k) for k, c in enumerate(coeffs)))


def as_fraction(value: Any) -> Fraction:
    """An exact rational (``int``, ``Fraction``, ``fmpz`` or ``fmpq``) as a :class:`~fractions.Fraction`.

    >>> as_fraction(flint.fmpq(3, 4))
    Fraction(3, 4)
    """
    if isinstance(value, Fraction):
        return value
    if isinstance(value, flint.fmpq):
        return Fraction(int(value.p), int(value.q))
    if isinstance(value, (float, np.floating)):  # never truncated: a float is not an exact rational here
        raise InexactError(f"as_fraction takes exact rationals, got the float {value!r}")
    return Fraction(int(value))


def as_fmpq(value: Any) -> flint.fmpq:
    """An exact rational as python-flint's ``fmpq``."""
    if isinstance(value, flint.fmpq):
        return value
    value = Fraction(value)
    return flint.fmpq(value.numerator, value.denominator)


def integer_poly(poly: Any) -> flint.fmpz_poly:
    """An ``fmpz_poly`` from an ``fmpz_poly``, an ``fmpq_poly`` (its numerator) or integer coefficients.

    Coefficients are exact integers (``int``, NumPy or flint integers, integral Fractions) of
    at most :data:`~evalgebra.numbers.rationals.MAX_BITS` bits; anything else raises
    :class:`~evalgebra.errors.NumberError` (never truncated: ``2.5`` is not ``2``).

    >>> integer_poly([-2, 0, 1])
    x^2 + (-2)
    """
    if isinstance(poly, flint.fmpz_poly):
        return poly
    if isinstance(poly, flint.fmpq_poly):
        return poly.numer()
    if isinstance(poly, (str, bytes)) or not isinstance(poly, (Sequence, np.ndarray)):
        raise NumberError(
            f"a polynomial is a fmpz_poly or a list of integer coefficients (constant first), "
            f"got {type(poly).__name__}"
        )
    return flint.fmpz_poly([_integer(c) for c in poly])


def root_index(index: Any, poly: flint.fmpz_poly, n_roots: int) -> int:
    """``index`` as the rank of one of the ``n_roots`` real roots of ``poly`` (0: the smallest), checked.

    >>> root_index(3, flint.fmpz_poly([-2, 0, 1]), 2)  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    evalgebra.errors.NumberError: x^2 - 2 has 2 real root(s); no index 3: give an int from 0 (the
    smallest) to 1
    """
    if (
        isinstance(index, (bool, np.bool_))
        or not isinstance(index, (int, np.integer))
        or not 0 <= index < n_roots
    ):
        upto = f"an int from 0 (the smallest) to {n_roots - 1}" if n_roots else "another polynomial"
        raise NumberError(
            f"{poly_text(poly)} has {n_roots} real root(s); no index {short_repr(index)}: give {upto}"
        )
    return int(index)


def _integer(c: Any) -> int:
    if isinstance(c, (float, np.floating)):
        raise InexactError(f"polynomial coefficient {c!r} is a float; give exact integers")
    if isinstance(c, (Fraction, flint.fmpq)) and c.denominator == 1:
        return int(c.numerator)
    try:
        value = operator.index(c)
    except TypeError:
        raise NumberError(
            f"polynomial coefficient {short_repr(c)} is not an integer; give exact integers "
            "(scale a rational polynomial by its denominators)"
        ) from None
    if value.bit_length() > MAX_BITS:
        raise NumberError(
            f"polynomial coefficient {show_int(value)} is too large; accepted: at most {MAX_BITS} bits"
        )
    return value


def sign_of(value: Any) -> int:
    """``-1``, ``0`` or ``1``."""
    return (value > 0) - (value < 0)


def interval_sum(a: IsolatingInterval, b: IsolatingInterval) -> IsolatingInterval:
    """``a + b`` of two rational intervals."""
    return a[0] + b[0], a[1] + b[1]


def interval_product(a: IsolatingInterval, b: IsolatingInterval) -> IsolatingInterval:
    """``a * b`` of two rational intervals."""
    corners = [x * y for x in a for y in b]
    return min(corners), max(corners)


def solve_linear(rows: Sequence[Sequence[Any]], zero: Any, one: Any) -> list[Any] | None:
    """A nonzero vector ``x`` with ``rows @ x = 0`` (entries of any field), or ``None`` when there is none.

    >>> solve_linear([[Fraction(1), Fraction(2)], [Fraction(2), Fraction(4)]], Fraction(0), Fraction(1))
    [Fraction(-2, 1), Fraction(1, 1)]
    """
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
    return bool(value.is_zero()) if hasattr(value, "is_zero") else bool(value == 0)
