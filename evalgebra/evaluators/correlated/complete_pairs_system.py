r"""The six K5 equations as a linear map of monomial features, for numerical path tracking.

The reduced K5 system (:func:`~evalgebra.evaluators.correlated.complete_pairs.reduced_system`) is linear in
the 26 central moments ``m_S`` (``|S| >= 2``) of the sketch. Writing ``u = p (1 - p)`` and
``s = 1 - 2 p``, every equation is a combination, with coefficients linear in the moments, of 42
*features* of ``x = (p, delta_0, ..., delta_4)``:

::

    u delta_kl (10 pairs), s delta_k (5), u (1 + u) delta_S (5 four-subsets),
    u s delta_ijk (10 triples), (1 - 3 u) delta_kl (10 pairs), u s (7/3 + 2 u) delta_01234, 1,

so ``f(x) = M phi(x)`` with a 6 x 42 matrix ``M`` of the moments, and the Jacobian is
``M dphi(x)``. Both work on NumPy arrays of many points at once (complex or float) and, through
object arrays, on ``flint.acb`` balls (certification). A sketch's moments enter only through
``M``, so a straight line between two sketches' moments is a straight line between matrices.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import combinations
from typing import Any

import numpy as np

from evalgebra.generated.structures.common import MOMENTS_5, moments_5

__all__ = [
    "N",
    "central_moments",
    "PAIRS",
    "TRIPLES",
    "QUADS",
    "MOMENT_SUBSETS",
    "N_FEATURES",
    "moment_matrix",
    "features",
    "residual",
    "system",
    "mirror",
]

N = 5
PAIRS: tuple[tuple[int, ...], ...] = tuple(combinations(range(N), 2))
TRIPLES: tuple[tuple[int, ...], ...] = tuple(combinations(range(N), 3))
QUADS: tuple[tuple[int, ...], ...] = tuple(combinations(range(N), 4))
ALL = tuple(range(N))
MOMENT_SUBSETS: tuple[tuple[int, ...], ...] = (*PAIRS, *TRIPLES, *QUADS, ALL)
N_FEATURES = 42

# feature offsets
_UD2, _SD1, _UD4, _USD3, _WD2, _D5, _ONE = 0, 10, 15, 20, 30, 40, 41


def central_moments(counts: Sequence[int]) -> tuple[list[Fraction], dict[tuple[int, ...], Fraction]]:
    r"""The means ``E x_i`` and central moments ``m_S`` (``|S| >= 2``) of the 32 pattern counts, exactly.

    ``x_i = 1`` when classifier ``i`` answers the second label; patterns in the sketch's order
    (classifier 0 slowest).

    >>> mu, m = central_moments([1] * 32)
    >>> mu[0], m[(0, 1)], m[(0, 1, 2, 3, 4)]
    (Fraction(1, 2), Fraction(0, 1), Fraction(0, 1))
    """
    values = dict(zip(MOMENTS_5, moments_5(*counts)))  # B_T, and E_T = Q^|T| m_T, in integers
    q = values["Q"]
    mu = [Fraction(values[f"B_{i}"], q) for i in range(N)]
    central = {
        subset: Fraction(values["E_" + "_".join(map(str, subset))], q ** len(subset))
        for k in range(2, N + 1)
        for subset in combinations(range(N), k)
    }
    return mu, central


def _rest(subset: tuple[int, ...], part: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(i for i in subset if i not in part)


def moment_matrix(moments: Mapping[tuple[int, ...], Any]) -> np.ndarray:
    """The 6 x 42 matrix ``M`` with ``f = M phi(x)`` (object dtype: the moments' own type).

    Rows: the five four-subsets (in ``QUADS`` order), then the whole ensemble; the equations
    are those of :func:`~evalgebra.evaluators.correlated.complete_pairs.reduced_system` up to a constant
    factor each.
    """
    zero = 0 * moments[PAIRS[0]]
    out = np.full((6, N_FEATURES), zero, dtype=object)
    for row, quad in enumerate(QUADS):
        for pair in combinations(quad, 2):
            out[row, _UD2 + PAIRS.index(_rest(quad, pair))] = moments[pair]
        for k in quad:
            out[row, _SD1 + k] = moments[_rest(quad, (k,))] / 2
        out[row, _UD4 + row] = zero - 1
        out[row, _ONE] = -moments[quad]
    for two in PAIRS:
        out[5, _USD3 + TRIPLES.index(_rest(ALL, two))] = moments[two]
    for three in TRIPLES:
        out[5, _WD2 + PAIRS.index(_rest(ALL, three))] = moments[three] / 3
    out[5, _D5] = zero - 1
    out[5, _ONE] = -moments[ALL]
    return out


def _index(lower: tuple[tuple[int, ...], ...], upper: tuple[tuple[int, ...], ...]) -> tuple[np.ndarray, ...]:
    """For each ``T`` in ``upper`` and ``i`` in ``T``: (position of T, i, position of T - i in ``lower``)."""
    rows, cols, src = [], [], []
    for t, subset in enumerate(upper):
        for i in subset:
            rows.append(t)
            cols.append(i)
            src.append(lower.index(_rest(subset, (i,))))
    return np.array(rows), np.array(cols), np.array(src)


_P2 = (np.array([a for a, _ in PAIRS]), np.array([b for _, b in PAIRS]))
_T3 = (np.array([PAIRS.index(t[:2]) for t in TRIPLES]), np.array([t[2] for t in TRIPLES]))
_Q4 = (np.array([TRIPLES.index(q[:3]) for q in QUADS]), np.array([q[3] for q in QUADS]))
_DD2 = _index(tuple((i,) for i in range(N)), PAIRS)
_DD3 = _index(PAIRS, TRIPLES)
_DD4 = _index(TRIPLES, QUADS)


def features(x: np.ndarray, derivatives: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
    """``phi(x)`` (n, 42) and ``dphi/dx`` (n, 42, 6) (None unless ``derivatives``) at ``n`` points
    ``x`` (n, 6) = (p, delta_0..delta_4)."""
    p, d = x[:, 0], x[:, 1:]
    n = x.shape[0]
    u, s = p - p * p, 1 - 2 * p
    d2 = d[:, _P2[0]] * d[:, _P2[1]]
    d3 = d2[:, _T3[0]] * d[:, _T3[1]]
    d4 = d3[:, _Q4[0]] * d[:, _Q4[1]]
    d5 = d4[:, 0] * d[:, 4]
    zero = 0 * p[0] if n else 0.0
    us = u * s
    c5 = us * (7 + 6 * u) / 3
    w = 1 - 3 * u
    phi = np.empty((n, N_FEATURES), dtype=x.dtype)
    phi[:, _UD2:_SD1] = u[:, None] * d2
    phi[:, _SD1:_UD4] = s[:, None] * d
    phi[:, _UD4:_USD3] = (u * (1 + u))[:, None] * d4
    phi[:, _USD3:_WD2] = us[:, None] * d3
    phi[:, _WD2:_D5] = w[:, None] * d2
    phi[:, _D5] = c5 * d5
    phi[:, _ONE] = 1 + zero
    if not derivatives:
        return phi, None
    dd2 = np.full((n, 10, N), zero, dtype=x.dtype)
    dd2[:, _DD2[0], _DD2[1]] = d[:, _DD2[2]]
    dd3 = np.full((n, 10, N), zero, dtype=x.dtype)
    dd3[:, _DD3[0], _DD3[1]] = d2[:, _DD3[2]]
    dd4 = np.full((n, 5, N), zero, dtype=x.dtype)
    dd4[:, _DD4[0], _DD4[1]] = d3[:, _DD4[2]]
    dd5 = d4[:, ::-1]  # d(delta_01234)/d(delta_i) = delta of the four-subset without i (QUADS[4 - i])
    dphi = np.full((n, N_FEATURES, 1 + N), zero, dtype=x.dtype)
    dphi[:, _UD2:_SD1, 0] = s[:, None] * d2
    dphi[:, _UD2:_SD1, 1:] = u[:, None, None] * dd2
    dphi[:, _SD1:_UD4, 0] = -2 * d
    dphi[:, _SD1 + np.arange(N), 1 + np.arange(N)] = s[:, None] + 0 * d
    dphi[:, _UD4:_USD3, 0] = (s * (1 + 2 * u))[:, None] * d4
    dphi[:, _UD4:_USD3, 1:] = (u * (1 + u))[:, None, None] * dd4
    ds2 = s * s - 2 * u  # d(u s)/dp
    dphi[:, _USD3:_WD2, 0] = ds2[:, None] * d3
    dphi[:, _USD3:_WD2, 1:] = us[:, None, None] * dd3
    dphi[:, _WD2:_D5, 0] = (-3 * s)[:, None] * d2
    dphi[:, _WD2:_D5, 1:] = w[:, None, None] * dd2
    dphi[:, _D5, 0] = (ds2 * (7 + 6 * u) / 3 + 2 * us * s) * d5
    dphi[:, _D5, 1:] = c5[:, None] * dd5
    return phi, dphi


def residual(x: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """``f(x)`` (n, 6) alone (no Jacobian): for exact checks of candidate points."""
    return features(x, derivatives=False)[0] @ matrix.T


def system(x: np.ndarray, matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``f(x)`` (n, 6) and the Jacobian (n, 6, 6) for the moment matrix ``matrix``."""
    phi, dphi = features(x)
    assert dphi is not None
    return phi @ matrix.T, matrix @ dphi


def mirror(x: np.ndarray) -> np.ndarray:
    """The label swap ``(p, delta) -> (1 - p, -delta)``: it maps the variety onto itself."""
    out = -x
    out[:, 0] += 1
    return out
