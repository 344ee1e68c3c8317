r"""Dimension and degree of a variety from the leading monomials of a Gröbner basis.

For an ideal ``I`` and any monomial ordering, ``dim V(I)`` equals the dimension of the
monomial ideal of leading terms: the largest number of variables none of whose
monomials leads a basis element. For a *degree-compatible* ordering, the Hilbert series
``N(t) / (1 - t)^n`` of the leading-term ideal gives the degree: ``N(t) =
(1 - t)^(n - d) Q(t)`` and ``deg = Q(1)``. For zero-dimensional ideals the degree is the
number of standard monomials (the number of points with multiplicity), in any ordering.

Examples
--------
>>> leading = [(2, 0), (0, 2)]            # x^2, y^2: four standard monomials
>>> dimension(leading, 2), degree(leading, 2)
(0, 4)
>>> dimension([(1, 1)], 2), degree([(1, 1)], 2)      # xy = 0: two lines
(1, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import sympy

__all__ = ["dimension", "degree", "hilbert_numerator", "standard_monomial_count", "Monomial"]

#: A monomial by its exponents, one per variable of the ring.
Monomial = tuple[int, ...]


def _minimal(monomials: Sequence[Monomial]) -> tuple[Monomial, ...]:
    unique = sorted(set(monomials), key=lambda m: (sum(m), m))
    kept: list[Monomial] = []
    for m in unique:
        if not any(all(a <= b for a, b in zip(k, m)) for k in kept):
            kept.append(m)
    return tuple(kept)


def dimension(leading: Sequence[Monomial], nvars: int) -> int:
    """Krull dimension of ``k[x]/(leading monomials)``; ``-1`` for the unit ideal."""
    gens = _minimal(leading)
    if any(sum(m) == 0 for m in gens):
        return -1
    supports = [frozenset(k for k, e in enumerate(m) if e) for m in gens]
    best = 0

    def search(index: int, chosen: frozenset[int]) -> None:
        nonlocal best
        if len(chosen) + (nvars - index) <= best:
            return
        if index == nvars:
            best = max(best, len(chosen))
            return
        with_var = chosen | {index}
        if not any(s <= with_var for s in supports):
            search(index + 1, with_var)
        search(index + 1, chosen)

    search(0, frozenset())
    return best


@cache
def _numerator(gens: tuple[Monomial, ...]) -> tuple[int, ...]:
    """Coefficients of ``N(t)`` for ``k[x]/(gens)``, gens minimal (recursive pivoting)."""
    if not gens:
        return (1,)
    if len(gens) == 1:
        d = sum(gens[0])
        return tuple([1] + [0] * (d - 1) + [-1])
    # pivot on the last generator: N(M) = N(M') - t^deg(m) N(M' : m)
    *rest, m = gens
    quotient = _minimal([tuple(max(a - b, 0) for a, b in zip(g, m)) for g in rest])
    first = _numerator(_minimal(rest))
    second = _numerator(quotient)
    shift = sum(m)
    size = max(len(first), len(second) + shift)
    out = [0] * size
    for k, c in enumerate(first):
        out[k] += c
    for k, c in enumerate(second):
        out[k + shift] -= c
    while len(out) > 1 and out[-1] == 0:
        out.pop()
    return tuple(out)


def hilbert_numerator(leading: Sequence[Monomial]) -> list[int]:
    """Coefficients of the numerator ``N(t)`` of the Hilbert series of the monomial ideal."""
    return list(_numerator(_minimal(leading)))


def degree(leading: Sequence[Monomial], nvars: int) -> int:
    """Degree from the leading monomials of a basis in a degree-compatible ordering.

    For a zero-dimensional ideal any ordering gives the right answer.
    """
    gens = _minimal(leading)
    if any(sum(m) == 0 for m in gens):
        return 0
    d = dimension(gens, nvars)
    t = sympy.Symbol("t")
    numerator = sympy.Poly(list(reversed(_numerator(gens))), t)
    quotient, remainder = sympy.div(numerator, sympy.Poly((1 - t) ** (nvars - d), t))
    if not remainder.is_zero:  # pragma: no cover - impossible for a valid Hilbert series
        raise ArithmeticError("Hilbert numerator is not divisible by (1 - t)^(n - d)")
    return int(quotient.eval(1))


def standard_monomial_count(leading: Sequence[Monomial], nvars: int) -> int | None:
    """Number of monomials no leading monomial divides, or None if infinitely many."""
    gens = _minimal(leading)
    if dimension(gens, nvars) != 0:
        return None
    return degree(gens, nvars)
