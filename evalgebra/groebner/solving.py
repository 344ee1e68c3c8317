r"""Zero-dimensional solving: how many points, the eliminant in one variable, rational roots.

An ideal ``I`` with finitely many complex points has a finite-dimensional quotient
algebra ``A = Q[x] / I``. Its basis is the set of *standard monomials* of a Gröbner basis
(the monomials no leading monomial divides), and every element of ``A`` is written in
that basis by its normal form. Everything here is exact linear algebra in ``A``, on a
Gröbner basis already computed by any backend (python-flint, Singular, msolve), so no
second Gröbner basis is needed:

- ``dim_Q A`` is the number of points counted with multiplicity;
- the minimal polynomial of multiplication by ``x_k`` on ``A`` generates
  ``I ∩ Q[x_k]``: it is the *univariate eliminant* in ``x_k`` (the idea behind FGLM);
- the *trace form* ``(f, g) -> Tr(M_{f g})`` has rank equal to the number of distinct
  complex points and signature equal to the number of distinct real points (Hermite;
  Stickelberger's theorem gives the eigenvalues of ``M_f`` as the values of ``f`` at
  the points).

Examples
--------
>>> from evalgebra.groebner.ideal import Ideal
>>> from evalgebra.groebner.polys import PolyRing
>>> ring = PolyRing(("x", "y"), "degrevlex")
>>> ideal = Ideal(ring, [ring.parse("x - y"), ring.parse("y^2 - 1/2")])  # a reduced basis
>>> standard_monomials(ideal)
[(0, 0), (0, 1)]
>>> point_count(ideal), real_point_count(ideal)
(2, 2)
>>> ring.text(univariate_eliminant(ideal, "x"))
'x^2 - 1/2'
>>> rational_roots(univariate_eliminant(ideal, "x"))
[]

References
----------
.. [1] D. A. Cox, J. Little, D. O'Shea, "Using Algebraic Geometry", 2nd ed., Springer
   (2005): chapter 2, sections 2 (finite-dimensional algebras, Stickelberger) and 5
   (real root counting with the trace form).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import flint

from evalgebra.errors import SpecError
from evalgebra.groebner.ideal import Ideal
from evalgebra.groebner.polys import normal_form
from evalgebra.groebner.varieties import Monomial, dimension

__all__ = [
    "standard_monomials",
    "multiplication_matrix",
    "univariate_eliminant",
    "univariate_eliminants",
    "rational_roots",
    "point_count",
    "real_point_count",
    "trace_form",
]


def _require_zero_dimensional(ideal: Ideal) -> list[Monomial]:
    if not ideal.is_groebner:
        raise SpecError(
            "zero-dimensional solving needs a reduced Gröbner basis; compute one with "
            "evalgebra.groebner.elimination.groebner_basis first"
        )
    leading = ideal.leading_monomials()
    dim = dimension(leading, ideal.ring.nvars)
    if dim > 0:
        raise SpecError(
            f"the ideal has a variety of dimension {dim}; zero-dimensional solving needs "
            "finitely many points (dimension 0)"
        )
    return leading


def standard_monomials(ideal: Ideal) -> list[Monomial]:
    r"""Exponent vectors of the monomials no leading monomial divides, ascending.

    They are a basis of ``Q[x] / I``; there are as many as points with multiplicity.
    The unit ideal (no points) has none.

    Parameters
    ----------
    ideal : Ideal
        A reduced Gröbner basis (any ordering) of a zero-dimensional ideal.

    Returns
    -------
    list of tuple of int
        In increasing order of the ring's monomial ordering (``1`` first).

    Examples
    --------
    >>> from evalgebra.groebner.polys import PolyRing
    >>> ring = PolyRing(("x", "y"), "lex")
    >>> standard_monomials(Ideal(ring, [ring.parse("x^2"), ring.parse("y - 1")]))
    [(0, 0), (1, 0)]
    """
    leading = _require_zero_dimensional(ideal)
    n = ideal.ring.nvars
    if any(sum(m) == 0 for m in leading):
        return []

    def standard(m: Monomial) -> bool:
        return not any(all(a >= b for a, b in zip(m, lead)) for lead in leading)

    start: Monomial = (0,) * n
    seen = {start}
    frontier = [start]
    while frontier:
        following = []
        for m in frontier:
            for k in range(n):
                step = m[:k] + (m[k] + 1,) + m[k + 1 :]
                if step not in seen and standard(step):
                    seen.add(step)
                    following.append(step)
        frontier = following
    # flint lists the monomials of a polynomial in decreasing order: read the order off
    probe = ideal.ring.q.from_dict({m: 1 for m in seen})
    return list(reversed(probe.monoms()))


class _Quotient:
    """Normal-form coordinates in the basis of standard monomials."""

    def __init__(self, ideal: Ideal) -> None:
        self.ideal = ideal
        self.basis = standard_monomials(ideal)
        self.index = {m: k for k, m in enumerate(self.basis)}
        self.generators = [g for g in ideal.generators if g.coeffs()]
        self.ctx = ideal.ring.q

    def monomial(self, m: Monomial) -> Any:
        return self.ctx.from_dict({m: 1})

    def coordinates(self, poly: Any) -> list[Any]:
        """The coefficients of ``poly``'s normal form on the standard monomials."""
        reduced = normal_form(poly, self.generators)
        vector = [flint.fmpq(0)] * len(self.basis)
        for m, c in zip(reduced.monoms(), reduced.coeffs()):
            vector[self.index[m]] = c
        return vector


def multiplication_matrix(ideal: Ideal, poly: Any) -> Any:
    r"""Matrix of multiplication by ``poly`` on ``Q[x] / I`` (columns: images of the basis).

    Parameters
    ----------
    ideal : Ideal
        Reduced Gröbner basis of a zero-dimensional ideal.
    poly : fmpq_mpoly or str
        An element of the ideal's ring (or its text, e.g. a variable name).

    Returns
    -------
    flint.fmpq_mat
        ``D x D`` with ``D`` the number of standard monomials; its eigenvalues are the
        values of ``poly`` at the points (Stickelberger).

    Examples
    --------
    >>> from evalgebra.groebner.polys import PolyRing
    >>> ring = PolyRing(("x",), "lex")
    >>> print(multiplication_matrix(Ideal(ring, [ring.parse("x^2 - 3*x + 2")]), "x"))
    [0, -2]
    [1,  3]
    """
    quotient = _Quotient(ideal)
    element = ideal.ring.parse(poly) if isinstance(poly, str) else poly
    size = len(quotient.basis)
    matrix = flint.fmpq_mat(size, size)
    for j, m in enumerate(quotient.basis):
        column = quotient.coordinates(element * quotient.monomial(m))
        for i, value in enumerate(column):
            matrix[i, j] = value
    return matrix


def univariate_eliminant(ideal: Ideal, variable: str) -> Any:
    r"""The monic generator of ``I ∩ Q[variable]`` for a zero-dimensional ideal.

    Computed as the minimal polynomial of multiplication by ``variable`` on the cyclic
    vector ``1`` of ``Q[x] / I`` (exact Krylov iteration on normal forms): the first
    power of ``variable`` whose normal form is a combination of the lower ones.

    Parameters
    ----------
    ideal : Ideal
        Reduced Gröbner basis of a zero-dimensional ideal, any ordering.
    variable : str
        A variable of the ideal's ring.

    Returns
    -------
    fmpq_mpoly
        A polynomial of the ideal's ring in ``variable`` only; ``1`` for the unit ideal.
        Its roots are the values ``variable`` takes at the points of the variety; its
        degree is at most the number of points.

    Examples
    --------
    >>> from evalgebra.groebner.polys import PolyRing
    >>> ring = PolyRing(("x", "y"), "lex")
    >>> ideal = Ideal(ring, [ring.parse("x - y^2 + 1"), ring.parse("y^3 - y")])
    >>> ring.text(univariate_eliminant(ideal, "x"))
    'x^2 + x'
    """
    return univariate_eliminants(ideal, [variable])[variable]


def univariate_eliminants(ideal: Ideal, variables: Sequence[str] | None = None) -> dict[str, Any]:
    r""":func:`univariate_eliminant` for several variables, sharing the quotient algebra.

    Parameters
    ----------
    ideal : Ideal
        Reduced Gröbner basis of a zero-dimensional ideal.
    variables : sequence of str, optional
        Default: every variable of the ring, in ring order.

    Returns
    -------
    dict
        Variable name -> monic eliminant (an ``fmpq_mpoly`` of the ideal's ring).

    Examples
    --------
    >>> from evalgebra.groebner.polys import PolyRing
    >>> ring = PolyRing(("x", "y"), "degrevlex")
    >>> ideal = Ideal(ring, [ring.parse("x - y"), ring.parse("y^2 - 1/2")])
    >>> {k: ring.text(v) for k, v in univariate_eliminants(ideal).items()}
    {'x': 'x^2 - 1/2', 'y': 'y^2 - 1/2'}
    """
    names = list(ideal.ring.names) if variables is None else list(variables)
    unknown = [v for v in names if v not in ideal.ring.names]
    if unknown:
        raise SpecError(f"{unknown} are not variables of the ring {list(ideal.ring.names)}")
    quotient = _Quotient(ideal)
    return {v: _minimal_polynomial(quotient, v) for v in names}


def _minimal_polynomial(quotient: _Quotient, variable: str) -> Any:
    ring = quotient.ideal.ring
    ctx = ring.q
    position = ring.names.index(variable)
    if not quotient.basis:
        return ctx.from_dict({(0,) * ring.nvars: 1})
    x = ring.gens()[position]
    # incremental echelon form of the vectors NF(x^0), NF(x^1), ...: each row keeps
    # (pivot column, reduced vector, its expression in powers of x)
    rows: list[tuple[int, list[Any], list[Any]]] = []
    power = ctx.from_dict({(0,) * ring.nvars: 1})
    degree = 0
    while True:
        vector = quotient.coordinates(power)
        combination = [flint.fmpq(0)] * (degree + 1)
        combination[degree] = flint.fmpq(1)
        for pivot, row, expression in rows:
            factor = vector[pivot]
            if factor != 0:
                vector = [v - factor * r for v, r in zip(vector, row)]
                combination = [
                    c - factor * (expression[k] if k < len(expression) else 0)
                    for k, c in enumerate(combination)
                ]
        nonzero = [k for k, v in enumerate(vector) if v != 0]
        if not nonzero:
            # sum_k combination[k] x^k reduces to 0: the minimal polynomial (monic)
            terms = {}
            for k, c in enumerate(combination):
                if c != 0:
                    exps = [0] * ring.nvars
                    exps[position] = k
                    terms[tuple(exps)] = c
            return ctx.from_dict(terms)
        pivot = nonzero[0]
        scale = vector[pivot]
        rows.append((pivot, [v / scale for v in vector], [c / scale for c in combination]))
        power = normal_form(power * x, quotient.generators)
        degree += 1


def _univariate(poly: Any) -> Any:
    """An fmpq_poly from a univariate fmpq_mpoly (or an fmpq_poly)."""
    if isinstance(poly, flint.fmpq_poly):
        return poly
    degrees = poly.degrees()
    used = [k for k, d in enumerate(degrees) if d]
    if len(used) > 1:
        raise SpecError("rational_roots needs a polynomial in one variable")
    if not used:
        coeffs = poly.coeffs()
        return flint.fmpq_poly([coeffs[0] if coeffs else 0])
    k = used[0]
    coefficients = [flint.fmpq(0)] * (degrees[k] + 1)
    for m, c in zip(poly.monoms(), poly.coeffs()):
        coefficients[m[k]] = c
    return flint.fmpq_poly(coefficients)


def rational_roots(poly: Any) -> list[Fraction]:
    r"""The distinct rational roots of a univariate polynomial, ascending.

    Parameters
    ----------
    poly : fmpq_mpoly in one variable, or flint.fmpq_poly

    Returns
    -------
    list of Fraction
        Multiplicities are dropped; the zero polynomial raises :class:`SpecError`.

    Examples
    --------
    >>> import flint
    >>> rational_roots(flint.fmpq_poly([-3, 31, -100, 100]))      # (5x-1)(10x-3)(2x-1)
    [Fraction(1, 5), Fraction(3, 10), Fraction(1, 2)]
    """
    univariate = _univariate(poly)
    if univariate.is_zero():
        raise SpecError("the zero polynomial has every number as a root")
    roots = []
    for factor, _ in univariate.factor()[1]:
        if factor.degree() == 1:
            a, b = factor.coeffs()  # b*x + a
            value = -a / b
            roots.append(Fraction(int(value.p), int(value.q)))
    return sorted(set(roots))


def trace_form(ideal: Ideal) -> Any:
    r"""The matrix ``Tr(M_{b_i b_j})`` of the trace form on the standard monomials.

    Its rank is the number of distinct complex points, its signature the number of
    distinct real points (Hermite).

    Returns
    -------
    flint.fmpq_mat
    """
    quotient = _Quotient(ideal)
    basis = quotient.basis
    size = len(basis)
    products: dict[tuple[int, int], list[Any]] = {}
    for i in range(size):
        for j in range(i, size):
            m = tuple(a + b for a, b in zip(basis[i], basis[j]))
            products[(i, j)] = quotient.coordinates(quotient.monomial(m))
    product = lambda i, j: products[(i, j) if i <= j else (j, i)]  # noqa: E731
    # Tr(M_{b_l}) = sum_j [NF(b_l b_j)]_j; Tr(M_f) is linear in the coordinates of f
    traces = [sum((product(k, j)[j] for j in range(size)), flint.fmpq(0)) for k in range(size)]
    matrix = flint.fmpq_mat(size, size)
    for i in range(size):
        for j in range(i, size):
            value = sum((c * t for c, t in zip(product(i, j), traces)), flint.fmpq(0))
            matrix[i, j] = value
            matrix[j, i] = value
    return matrix


def _sign_changes(values: Sequence[Any]) -> int:
    signs = [v > 0 for v in values if v != 0]
    return sum(1 for a, b in zip(signs, signs[1:]) if a != b)


def point_count(ideal: Ideal, distinct: bool = True) -> int:
    r"""Number of complex points of a zero-dimensional ideal.

    Parameters
    ----------
    ideal : Ideal
        Reduced Gröbner basis of a zero-dimensional ideal.
    distinct : bool
        True (default): distinct points, the rank of the trace form. False: points with
        multiplicity, the number of standard monomials (the ideal's degree).

    Examples
    --------
    >>> from evalgebra.groebner.polys import PolyRing
    >>> ring = PolyRing(("x", "y"), "degrevlex")
    >>> double = Ideal(ring, [ring.parse("y - 1"), ring.parse("x^2")])
    >>> point_count(double), point_count(double, distinct=False)
    (1, 2)
    """
    if not distinct:
        return len(standard_monomials(ideal))
    return trace_form(ideal).rank()


def real_point_count(ideal: Ideal) -> int:
    r"""Number of distinct real points: the signature of the trace form.

    The characteristic polynomial of a real symmetric matrix has only real roots, so
    Descartes' rule of signs counts its positive and negative eigenvalues exactly.

    Examples
    --------
    >>> from evalgebra.groebner.polys import PolyRing
    >>> ring = PolyRing(("x", "y"), "degrevlex")
    >>> real_point_count(Ideal(ring, [ring.parse("y"), ring.parse("x^2 + 1")]))
    0
    """
    matrix = trace_form(ideal)
    if matrix.nrows() == 0:
        return 0
    coefficients = matrix.charpoly().coeffs()  # constant term first
    positive = _sign_changes(coefficients)
    negative = _sign_changes([c if k % 2 == 0 else -c for k, c in enumerate(coefficients)])
    return positive - negative
