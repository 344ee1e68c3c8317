r"""Binary classifiers with independent errors: the model in moment coordinates, and its score system.

Write ``x_i = 1`` when classifier ``i`` answers the second label ``b``, ``p = P_b``,
``mu^a_i, mu^b_i`` its rates of answering ``b`` given each true label, ``delta_i = mu^b_i - mu^a_i``
and ``phi_i = (1 - p) mu^a_i + p mu^b_i`` its marginal rate. The central moments of the mixture,
``m_T = E prod_{i in T} (x_i - phi_i)``, vanish for ``|T| = 1`` and are, for ``|T| = r >= 2``,

.. math::

    m_T = u\, \kappa_r(p) \prod_{i \in T} \delta_i, \qquad u = p (1 - p),
    \qquad \kappa_r = (1 - p)^{r-1} + (-1)^r p^{r-1},

and each pattern's probability is linear in them: ``p_x = sum_T m_T prod_{i in T} s_i(x)
prod_{i not in T} g_i(x)`` with ``s_i = +-1`` and ``g_i = phi_i`` or ``1 - phi_i`` as ``x_i`` is 1
or 0. In the unknowns ``k = (1 - 2p) / sqrt(u)`` and ``y_i = sqrt(u) delta_i`` every moment is a
polynomial, ``m_T = c_r(k) prod_{i in T} y_i`` with

.. math::

    c_r(k) = 2^{2-r} \sum_{m \ge 1,\ r - 2m \ge 0} \binom{r-1}{r-2m} k^{r-2m} (k^2 + 4)^{m-1}

(``c_2 = 1``, ``c_3 = k``, ``c_4 = k^2 + 1``), of lower degree than in ``(p, delta)``. The map
``(p, mu) -> (k, y, phi)`` is two-to-one onto its image, the two preimages swapping the labels,
and a local diffeomorphism where ``u`` and ``k^2 + 4`` are nonzero; so the critical points of the
log-likelihood in ``(k, y, phi)`` are those in the rates, pair for pair.

Every critical point in the interior matches the observed one-way marginals (an EM fixed point
does: its M step sets ``phi_i`` to the observed frequency ``f_i``). :func:`binary_score_system`
therefore substitutes ``phi = f`` (keeping every partial derivative, :mod:`evalgebra.likelihood.score`)
and saturates ``(k^2 + 4) prod_i y_i``: the solutions are the critical points with every
``delta_i`` and ``P_a P_b`` nonzero, where the fibres of the model are finite for ``N >= 3``.

Examples
--------
>>> polys, names = moment_model(2)
>>> names
('k', 'y0', 'y1', 'phi0', 'phi1')
>>> print(polys[0])  # pattern (a, a)
y0*y1 + phi0*phi1 - phi0 - phi1 + 1
>>> [[int(c) for c in moment_coefficient(r).coeffs()] for r in (2, 3, 4)]  # c_r(k), constant term first
[[1], [0, 1], [1, 0, 1]]
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from math import comb
from typing import Any

import flint

from evalgebra.errors import SpecError
from evalgebra.likelihood.score import ScoreSystem, score_system

__all__ = ["moment_model", "moment_coefficient", "binary_score_system", "rates_from_moments"]


def moment_coefficient(r: int) -> Any:
    """``c_r(k)``: the central moment of ``r`` classifiers divided by ``prod y_i`` (a ``flint.fmpq_poly``).

    >>> [int(c) for c in moment_coefficient(5).coeffs()]  # k^3 + 2 k
    [0, 2, 0, 1]
    """
    if r < 2:
        raise SpecError(f"central moments of fewer than 2 classifiers vanish; got r = {r}")
    k = flint.fmpq_poly([0, 1])
    total = flint.fmpq_poly([0])
    for m in range(1, r // 2 + 1):
        total += comb(r - 1, r - 2 * m) * k ** (r - 2 * m) * (k * k + 4) ** (m - 1)
    return total * flint.fmpq(1, 2 ** (r - 2)) if r > 2 else total


def moment_model(n_classifiers: int) -> tuple[list[Any], tuple[str, ...]]:
    r"""Every pattern's probability in the unknowns ``k, y_0.., phi_0..`` (patterns in base-2 order).

    Patterns are ``itertools.product((0, 1), repeat=N)``, classifier 0 most significant, 1 meaning
    the second label: the order of :class:`~evalgebra.builder.generating.GeneratingSet`.
    """
    if n_classifiers < 2:
        raise SpecError(f"the moment model needs at least 2 classifiers; got {n_classifiers}")
    n = n_classifiers
    names = ("k", *(f"y{i}" for i in range(n)), *(f"phi{i}" for i in range(n)))
    context = flint.fmpq_mpoly_ctx.get(names, "degrevlex")
    gens = context.gens()
    one = context.from_dict({(0,) * len(names): 1})
    k, y, phi = gens[0], gens[1 : n + 1], gens[n + 1 :]
    moments: dict[tuple[int, ...], Any] = {}
    for r in range(2, n + 1):
        c = moment_coefficient(r)
        coefficient = sum(
            (int(c[j].p) * flint.fmpq(1, int(c[j].q)) * k**j for j in range(c.degree() + 1)), 0 * one
        )
        for subset in itertools.combinations(range(n), r):
            product = coefficient
            for i in subset:
                product *= y[i]
            moments[subset] = product
    polys = []
    for pattern in itertools.product((0, 1), repeat=n):
        margin = [phi[i] if pattern[i] else one - phi[i] for i in range(n)]
        sign = [1 if pattern[i] else -1 for i in range(n)]
        total = one
        for i in range(n):
            total *= margin[i]
        for subset, moment in moments.items():
            term = moment
            for i in range(n):
                term *= sign[i] if i in subset else margin[i]
            total += term
        polys.append(total)
    return polys, names


def binary_score_system(counts: Sequence[Any]) -> ScoreSystem:
    r"""The score system of binary classifiers with independent errors at ``counts`` (``2^N``, base-2 order).

    Unknowns ``k, y_0, ..., y_{N-1}``; the marginals ``phi`` are the observed ``f_i``; the product
    ``(k^2 + 4) prod y_i`` is saturated (see the module notes).

    >>> system = binary_score_system([84, 36, 51, 39, 68, 52, 77, 73])
    >>> system.unknowns, len(system.polynomials)  # 8 patterns, 7 scores, the saturation
    (('k', 'y0', 'y1', 'y2'), 16)
    """
    total = len(counts)
    n = total.bit_length() - 1
    if n < 2 or total != 2**n:
        raise SpecError(f"need 2^N counts (N >= 2 binary classifiers), got {total}")
    values = [Fraction(c) for c in counts]
    size = sum(values, Fraction(0))
    if size <= 0:
        raise SpecError("the counts are all 0: nothing to fit")
    patterns = list(itertools.product((0, 1), repeat=n))
    marginal = [sum((v for x, v in zip(patterns, values) if x[i]), Fraction(0)) / size for i in range(n)]
    polys, names = moment_model(n)

    def substitution(gens: Sequence[Any]) -> list[Any]:
        one = gens[0] ** 0
        return [*gens, *(one * flint.fmpq(f.numerator, f.denominator) for f in marginal)]

    def nonzero(gens: Sequence[Any]) -> list[Any]:
        return [gens[0] ** 2 + 4, *gens[1:]]

    return score_system(polys, values, unknowns=names[: n + 1], substitution=substitution, nonzero=nonzero)


def rates_from_moments(k: Any, y: Sequence[Any], marginal: Sequence[Any]) -> tuple[Any, list[Any], list[Any]]:
    r"""``(P_b, mu^a, mu^b)`` of the point ``(k, y)`` with marginals ``phi``, in any field with a square root.

    The labels are those with ``sqrt(u) > 0``; ``(-k, -y)`` gives the same model point with the labels
    swapped. Works on ``flint.arb`` balls (the certification) and on floats.

    >>> p, low, high = rates_from_moments(0.0, [0.5, 0.5, 0.5], [0.5, 0.5, 0.5])
    >>> p, low, high
    (0.5, [0.0, 0.0, 0.0], [1.0, 1.0, 1.0])
    """
    scale = (k * k + 4) ** 0.5 if isinstance(k, float) else (k * k + 4).sqrt()
    sigma = k / scale  # 1 - 2 P_b
    p = (1 - sigma) / 2
    delta = [v * scale for v in y]
    low = [f - p * d for f, d in zip(marginal, delta)]
    high = [f + (1 - p) * d for f, d in zip(marginal, delta)]
    return p, low, high
