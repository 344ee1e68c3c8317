r"""Counting the points of a zero-dimensional ideal exactly: with multiplicity, complex, real.

The number of standard monomials counts the points with multiplicity; Hermite's trace form
on the quotient ring counts the distinct complex points (its rank) and the distinct real
points (its signature), read exactly from its characteristic polynomial.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import flint

from evalgebra.errors import SpecError
from evalgebra.groebner.ideal import Ideal
from evalgebra.groebner.polys import normal_form

__all__ = ["count_points", "standard_monomials"]


def standard_monomials(leading: Sequence[tuple[int, ...]], nvars: int) -> list[tuple[int, ...]]:
    """The exponents divisible by no leading monomial, sorted (finite for a zero-dimensional ideal)."""
    found = [(0,) * nvars]
    frontier = [(0,) * nvars]
    seen = set(found)
    while frontier:
        nxt = []
        for mono in frontier:
            for k in range(nvars):
                step = tuple(e + (j == k) for j, e in enumerate(mono))
                if step in seen or any(all(a >= b for a, b in zip(step, lead)) for lead in leading):
                    continue
                seen.add(step)
                nxt.append(step)
        found += nxt
        frontier = nxt
    return sorted(found)


def _sign_changes(coefficients: Sequence[Any]) -> int:
    signs = [c > 0 for c in coefficients if c != 0]
    return sum(1 for a, b in zip(signs, signs[1:]) if a != b)


def count_points(ideal: Ideal) -> tuple[int, int, int]:
    r"""Points of a zero-dimensional ideal: with multiplicity, distinct complex, distinct real.

    The first is the number of standard monomials. The others come from Hermite's trace
    form ``H(f, g) = Tr(M_{fg})`` on the quotient ring: its rank is the number of
    distinct complex points and its signature the number of distinct real points. The
    signature is read exactly from the characteristic polynomial of ``H`` (a symmetric
    matrix: all roots real, so Descartes' rule of signs counts them).

    Parameters
    ----------
    ideal : Ideal
        A reduced Gröbner basis (any ordering) of a zero-dimensional ideal.

    Examples
    --------
    >>> from evalgebra.groebner.elimination import groebner_basis
    >>> from evalgebra.groebner.polys import PolyRing
    >>> ring = PolyRing(("x", "y"), "lex")
    >>> basis = groebner_basis(Ideal(ring, [ring.parse("x^2 - 2"), ring.parse("y^2 + 1")], is_groebner=False))
    >>> count_points(basis)
    (4, 4, 0)
    >>> count_points(groebner_basis(Ideal(ring, [ring.parse("x^2"), ring.parse("y - 1")], is_groebner=False)))
    (2, 1, 1)
    """
    if ideal.dimension() != 0:
        raise SpecError("count_points needs a zero-dimensional ideal")
    ring = ideal.ring
    basis = standard_monomials(ideal.leading_monomials(), ring.nvars)
    position = {m: k for k, m in enumerate(basis)}
    size = len(basis)
    zero = ring.q.from_dict({})

    def coordinates(poly: Any) -> list[Any]:
        row = [flint.fmpq(0)] * size
        for mono, coeff in zip(poly.monoms(), poly.coeffs()):
            row[position[mono]] = coeff
        return row

    multiply = []
    for k in range(ring.nvars):
        columns = []
        for mono in basis:
            shifted = tuple(e + (j == k) for j, e in enumerate(mono))
            columns.append(coordinates(normal_form(zero + ring.q.from_dict({shifted: 1}), ideal.generators)))
        multiply.append(flint.fmpq_mat(columns).transpose())
    identity = flint.fmpq_mat(size, size)
    for k in range(size):
        identity[k, k] = 1
    operators = []
    for mono in basis:
        matrix = identity
        for k, e in enumerate(mono):
            for _ in range(e):
                matrix = multiply[k] * matrix
        operators.append(matrix)
    traces = [sum((m[k, k] for k in range(size)), flint.fmpq(0)) for m in operators]
    hermite = flint.fmpq_mat([[sum((traces[r] * op[r, c] for r in range(size)), flint.fmpq(0))
                               for c in range(size)] for op in operators])
    coefficients = hermite.charpoly().coeffs()
    positive = _sign_changes(coefficients)
    negative = _sign_changes([c * (-1) ** k for k, c in enumerate(coefficients)])
    return size, positive + negative, positive - negative
