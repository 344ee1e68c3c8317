r"""Exact real roots of an eliminant that the label swap ``p -> 1 - p`` maps onto itself.

The eliminant of a correlated structure (:mod:`~evalgebra.evaluators.correlated.structured`) has the
prevalences of every evaluation point as roots, and the label swap (``P_a <-> P_b``) maps the
points onto each other, so ``f(1 - p) = +-f(p)``: ``f`` is a polynomial ``g(s)`` in
``s = p (1 - p)`` of half the degree. Factoring ``g`` is far cheaper than factoring ``f`` (the
triangle on four classifiers: a cubic against a sextic whose six linear factors python-flint
recombines in pairs, 5 us against 0.1 ms), and each root ``s`` of ``g`` gives
``p = (1 -+ sqrt(1 - 4 s)) / 2``: rational exactly when ``1 - 4 s`` is the square of a
rational, else a root of the irreducible ``p^2 - p + s``. A factor of ``g`` of degree ``k > 1``
becomes ``h(p - p^2)`` of degree ``2k``, whose roots :func:`real_roots` finds.

Examples
--------
>>> import flint
>>> f = (
...     flint.fmpz_poly([-1, 3]) * flint.fmpz_poly([-2, 3])
...     * flint.fmpz_poly([-1, -1, 1]) * flint.fmpz_poly([1, -1, 1])
... )
>>> roots, n_complex = eliminant_roots(f)        # roots 1/3, 2/3, (1 +- sqrt 5)/2, and two complex ones
>>> roots == real_roots(f)[0], n_complex
(True, 2)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import flint

from evalgebra.numbers.algebraic_numbers import AlgebraicNumber, real_roots
from evalgebra.numbers.real_algebraic import integer_poly

__all__ = ["eliminant_roots", "in_swap_variable"]

_SWAP = flint.fmpz_poly([1, -1])  # 1 - p
_U = flint.fmpz_poly([0, 1, -1])  # p - p^2 = s


def in_swap_variable(poly: flint.fmpz_poly) -> flint.fmpz_poly | None:
    r"""``g`` with ``poly(p) = g(p (1 - p))``, or ``None`` when ``poly`` is not of that form.

    Examples
    --------
    >>> import flint
    >>> in_swap_variable(flint.fmpz_poly([1, -1, 1])).coeffs()      # p^2 - p + 1 = 1 - s
    [1, -1]
    >>> in_swap_variable(flint.fmpz_poly([0, 1])) is None  # p: not symmetric
    True
    """
    if poly.degree() % 2 or poly(_SWAP) != poly:
        return None
    coefficients = []
    rest = poly
    while not rest.is_zero():
        quotient, remainder = divmod(rest, _U)
        if remainder.degree() > 0:  # pragma: no cover - excluded by the symmetry test above
            return None
        coefficients.append(int(remainder[0]) if remainder.degree() == 0 else 0)
        rest = quotient
    return flint.fmpz_poly(coefficients)


def _halves(s: flint.fmpq, discriminant: flint.fmpq) -> list[AlgebraicNumber]:
    r"""The two roots ``(1 -+ sqrt(D)) / 2`` of ``p^2 - p + s`` (``D = 1 - 4 s > 0`` not a rational
    square), each with an isolating interval from an integer square root: ``D = a / b``,
    ``sqrt(D) = sqrt(a b 4^k) / (b 2^k)`` lies strictly between ``r / (b 2^k)`` and
    ``(r + 1) / (b 2^k)`` for ``r = isqrt(a b 4^k)``; the two intervals, ``2^-(k+1) / b`` wide, are
    ``r / (b 2^k) > 0`` apart. No polynomial factoring, no root isolation."""
    # den p^2 - den p + num: primitive (num/den in lowest terms) with a positive leading coefficient
    quadratic = flint.fmpz_poly([s.p, -s.q, s.q])
    a, b = discriminant.p, discriminant.q
    r = (a * b * (flint.fmpz(1) << (2 * _BITS))).isqrt()
    scale = b * (flint.fmpz(1) << (_BITS + 1))  # 2 b 2^k: the halves
    low, high = flint.fmpq(r, scale), flint.fmpq(r + 1, scale)  # sqrt(D) / 2 lies strictly between
    half = flint.fmpq(1, 2)
    return [
        AlgebraicNumber._make(quadratic, 0, half - high, half - low),
        AlgebraicNumber._make(quadratic, 1, half + low, half + high),
    ]


_BITS = 40  # the isolating intervals of _halves: 2^-41 / b wide, so most comparisons need no bisection


def eliminant_roots(poly: Any) -> tuple[list[Fraction | AlgebraicNumber], int]:
    r"""The distinct real roots of an integer polynomial, exactly, as :func:`real_roots` gives them.

    When ``poly(1 - p) = poly(p)`` the roots are found through ``s = p (1 - p)`` (see the module
    docstring); otherwise, or for an odd degree, this is :func:`real_roots` itself.

    Parameters
    ----------
    poly : fmpz_poly, fmpq_poly or sequence of int
        Not zero.

    Returns
    -------
    (list, int)
        Rational roots as Fraction, the others as AlgebraicNumber, increasing; then the number
        of distinct non-real roots.
    """
    p = integer_poly(poly)
    if p.is_zero():
        raise ValueError("the zero polynomial has every number as a root")
    content = p.content()
    if content != 1:  # generated eliminants carry large constant factors: smaller numbers from here on
        p = p / content
    g = in_swap_variable(p)
    if g is None:
        return real_roots(p)
    rationals: list[flint.fmpq] = []  # exact and fast: fmpq until the end
    numbers: list[AlgebraicNumber] = []
    sources = 0  # the factors that gave irrational roots (each gives them in increasing order)
    n_complex = 0
    for factor, _ in g.factor()[1]:
        if factor.degree() == 1:
            b, a = factor.coeffs()
            s = flint.fmpq(-b, a)
            discriminant = 1 - 4 * s
            if discriminant < 0:
                n_complex += 2
                continue
            num, den = discriminant.p, discriminant.q
            top, bottom = num.isqrt(), den.isqrt()
            if top * top == num and bottom * bottom == den:  # rational roots (1 -+ sqrt(D)) / 2
                root = flint.fmpq(top, bottom)
                rationals.extend(((1 - root) / 2, (1 + root) / 2))
                continue
            numbers.extend(_halves(s, discriminant))
            sources += 1
            continue
        found, others = real_roots(factor(_U))
        sources += 1
        numbers.extend(x for x in found if isinstance(x, AlgebraicNumber))
        rationals.extend(flint.fmpq(x.numerator, x.denominator) for x in found if isinstance(x, Fraction))
        n_complex += others
    rationals.sort()  # distinct factors have distinct roots; 1/2 comes twice from s = 1/4
    rationals = [x for k, x in enumerate(rationals) if not k or x != rationals[k - 1]]
    out: list[Fraction | AlgebraicNumber] = [Fraction(int(x.p), int(x.q)) for x in rationals]
    if numbers:
        if sources > 1:
            numbers.sort()
        out = _merged(rationals, numbers)
    return out, n_complex


def _merged(rationals: list[flint.fmpq], numbers: list[AlgebraicNumber]) -> list[Fraction | AlgebraicNumber]:
    """Sorted rationals and sorted irrational numbers in one increasing list: each number against a
    rational by its isolating interval (narrowed while the rational is inside it; never equal)."""
    out: list[Fraction | AlgebraicNumber] = []
    k = 0
    for number in numbers:
        while k < len(rationals):
            r = rationals[k]
            while number.lo <= r <= number.hi:
                number.refine()
            if number.hi < r:
                break
            out.append(Fraction(int(r.p), int(r.q)))
            k += 1
        out.append(number)
    out.extend(Fraction(int(r.p), int(r.q)) for r in rationals[k:])
    return out
