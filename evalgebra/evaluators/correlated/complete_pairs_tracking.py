r"""K5 by certified path tracking: every complex point of a sketch's variety in well under a second.

The six reduced K5 equations (:mod:`~evalgebra.evaluators.correlated.complete_pairs_system`) depend on the
sketch only through the matrix ``M`` of its central moments. For a generic ``M`` they have 404
isolated complex solutions (d13 finds this degree with msolve on several sketches), closed under
the label swap ``(p, delta) -> (1 - p, -delta)``. Their solutions at one fixed *start* sketch are
stored (:mod:`evalgebra.generated.tracking.complete_pairs_start`, written and checked by d13). For a new
sketch the 202 start solutions, one per label-swap pair, are followed along

::

    M(tau) = M_0 + lambda(tau) (M_1 - M_0),   lambda(tau) = gamma tau / (1 + (gamma - 1) tau),

with a complex ``gamma`` (fixed numbers drawn once; a generic arc avoids the finitely many
singular parameters on the complex line through ``M_0`` and ``M_1``, and when one passes so close
that a path crawls, the next ``gamma`` is tried), a fourth-order Runge-Kutta predictor and Newton
corrector, all paths at once in NumPy.

The endpoints are then *proved*: a Krawczyk test in ball arithmetic (``flint.acb``, the sketch's
moments exact) shows that a small box around each endpoint holds exactly one solution, real when
the box is symmetric under conjugation, not real when it misses the real space. 404 pairwise
disjoint certified boxes are all the solutions (the variety has at most the generic number,
404, of isolated solutions at any sketch). Anything short of that (a path that fails, a box that
is not proved, two boxes that meet) returns None, and the caller falls back to msolve.

References
----------
.. [1] A. P. Morgan, A. J. Sommese, "Coefficient-parameter polynomial continuation": paths from a
   generic parameter reach every isolated solution at any other.
.. [2] R. Krawczyk, "Newton-Algorithmen zur Bestimmung von Nullstellen mit Fehlerschranken":
   the interval test of existence and uniqueness.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import flint
import numpy as np

from evalgebra.evaluators.correlated.complete_pairs_system import (
    central_moments,
    features,
    mirror,
    moment_matrix,
    system,
)
from evalgebra.generated.tracking import complete_pairs_start as start_data

__all__ = [
    "GAMMA",
    "GAMMAS",
    "Tracked",
    "track",
    "certify",
    "tracked_solutions",
    "start_system",
    "simplest_between",
    "certified",
]

GAMMAS = tuple(complex(np.exp(1j * angle)) for angle in (0.7231, -1.3, 1.6))  # tried in turn
GAMMA = GAMMAS[0]
DEGREE = 404
_TOLERANCE = 1e-3  # largest first Newton correction (relative) accepted after a predictor step
_CONTRACTION = 0.05  # the second correction must shrink by this factor (or be at rounding level)
_SMALLEST_STEP = 1e-10
_ROUND = 1000  # predictor steps an arc takes before the next arc's turn
_MAX_ITERATIONS = 20000


@functools.cache
def start_system() -> tuple[dict[tuple[int, ...], Fraction], np.ndarray]:
    """The start sketch's central moments (exact) and its 202 stored solutions (one per label-swap pair).

    Read once per process; the array is read-only (the tracker works on a copy).
    """
    _, moments = central_moments(start_data.COUNTS)
    roots = np.array([[complex(re, im) for re, im in zip(row[::2], row[1::2])] for row in start_data.ROOTS])
    roots.flags.writeable = False
    return moments, roots


def _float_matrix(moments: Mapping[tuple[int, ...], Any]) -> np.ndarray:
    return moment_matrix({k: float(v) for k, v in moments.items()}).astype(complex)


class _Paths:
    """Paths from the solutions ``start`` (n, 6) of ``M = m0`` to ``M = m1`` along the arc ``gamma``,
    advanced on demand."""

    def __init__(self, start: np.ndarray, m0: np.ndarray, m1: np.ndarray, gamma: complex) -> None:
        n = start.shape[0]
        self.x, self.tau, self.h = start.astype(complex), np.zeros(n), np.full(n, 0.05)
        self.m0, self.dm, self.gamma = m0, m1 - m0, gamma
        self.active, self.failed = np.ones(n, dtype=bool), np.zeros(n, dtype=bool)

    @property
    def done(self) -> bool:
        return not self.active.any()

    def _correction(self, xx: np.ndarray, tt: np.ndarray, tangent: bool) -> np.ndarray:
        gamma, m0, dm = self.gamma, self.m0, self.dm
        phi, dphi = features(xx)
        lam = gamma * tt / (1 + (gamma - 1) * tt)
        jac = m0 @ dphi + lam[:, None, None] * (dm @ dphi)
        if tangent:  # dx/dtau = -J^{-1} (dM phi) dlambda/dtau
            rhs = (phi @ dm.T) * (gamma / (1 + (gamma - 1) * tt) ** 2)[:, None]
        else:  # the Newton correction
            rhs = phi @ m0.T + lam[:, None] * (phi @ dm.T)
        return -np.linalg.solve(jac, rhs[..., None])[..., 0]

    def advance(self, iterations: int) -> None:
        """At most ``iterations`` predictor-corrector steps of every unfinished path."""
        x, tau, h, active, failed = self.x, self.tau, self.h, self.active, self.failed
        for _ in range(iterations):
            idx = np.nonzero(active)[0]
            if not idx.size:
                return
            xa, ta = x[idx], tau[idx]
            ha = np.minimum(h[idx], 1 - ta)
            with np.errstate(all="ignore"):
                try:
                    k1 = self._correction(xa, ta, True)
                    k2 = self._correction(xa + (ha / 2)[:, None] * k1, ta + ha / 2, True)
                    k3 = self._correction(xa + (ha / 2)[:, None] * k2, ta + ha / 2, True)
                    k4 = self._correction(xa + ha[:, None] * k3, ta + ha, True)
                    predicted = xa + (ha / 6)[:, None] * (k1 + 2 * k2 + 2 * k3 + k4)
                    tn = ta + ha
                    d1 = self._correction(predicted, tn, False)
                    d2 = self._correction(predicted + d1, tn, False)
                except np.linalg.LinAlgError:  # a singular Jacobian on some path: retry all with half steps
                    h[idx] /= 2
                    failed[idx[h[idx] < _SMALLEST_STEP]] = True
                    active &= ~failed
                    continue
                scale = 1 + np.abs(predicted).max(axis=1)
                n1 = np.abs(d1).max(axis=1) / scale
                n2 = np.abs(d2).max(axis=1) / scale
                ok = (
                    np.isfinite(n1)
                    & np.isfinite(n2)
                    & (n1 < _TOLERANCE)
                    & ((n2 < _CONTRACTION * n1) | (n1 < 1e-9))
                )
            accepted, rejected = idx[ok], idx[~ok]
            x[accepted] = (predicted + d1 + d2)[ok]
            tau[accepted] = tn[ok]
            h[accepted] = np.minimum(h[accepted] * 1.5, 0.25)
            h[rejected] /= 2
            active[accepted[tau[accepted] >= 1]] = False
            small = rejected[h[rejected] < _SMALLEST_STEP]
            failed[small] = True
            active[small] = False


def track(
    start: np.ndarray,
    m0: np.ndarray,
    m1: np.ndarray,
    gamma: complex = GAMMA,
    max_iterations: int = _MAX_ITERATIONS,
) -> tuple[np.ndarray, np.ndarray]:
    """Follow the solutions ``start`` (n, 6) of ``M = m0`` to ``M = m1``; returns the endpoints and which
    paths failed (or were still on their way after ``max_iterations`` predictor steps)."""
    paths = _Paths(start, m0, m1, gamma)
    paths.advance(max_iterations)
    return paths.x, paths.failed | paths.active


def _polish(x: np.ndarray, m: np.ndarray, rounds: int = 3) -> np.ndarray:
    for _ in range(rounds):
        with np.errstate(all="ignore"):
            f, jac = system(x, m)
            try:
                x = x - np.linalg.solve(jac, f[..., None])[..., 0]
            except np.linalg.LinAlgError:
                return x
    return x


@dataclass(frozen=True)
class Tracked:
    """All 404 solutions of a sketch's K5 equations, each in a certified box.

    ``points`` (404, 6) the box centres ``(p, delta_0..delta_4)`` (complex), ``radius`` (404, 6)
    the half-width of each box in the real and the imaginary part of each coordinate, ``real`` (404,) whether
    the solution is proved real (its centre then has zero imaginary parts).
    """

    points: np.ndarray
    radius: np.ndarray
    real: np.ndarray


def _acb(z: complex) -> flint.acb:
    return flint.acb(z.real, z.imag)


def _ball_matrix(moments: Mapping[tuple[int, ...], Fraction]) -> np.ndarray:
    """The moment matrix with the exact moments as balls (at the current ``flint.ctx.prec``)."""
    return moment_matrix(
        {k: flint.acb(flint.arb(flint.fmpq(v.numerator, v.denominator))) for k, v in moments.items()}
    )


def _krawczyk(centre: np.ndarray, radius: np.ndarray, matrix: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Krawczyk's test for the boxes ``centre[k] +- radius[k]`` (exact ``acb`` centres (n, 6), radii per
    coordinate for the real and the imaginary part) with approximate inverse Jacobians ``y`` (n, 6, 6,
    ``acb``): True where ``centre - Y f(centre) + (I - Y J(box)) (box - centre)`` lies inside the box, so
    that it holds exactly one solution."""

    def boxes(scale: float) -> np.ndarray:
        return np.array(
            [
                [
                    flint.acb(flint.arb(c.real, scale * r), flint.arb(c.imag, scale * r))
                    for c, r in zip(row, rs)
                ]
                for row, rs in zip(centre, radius)
            ],
            dtype=object,
        )

    box, inner = boxes(1.0), boxes(0.999)
    f_centre, _ = system(centre, matrix)
    _, jac_box = system(box, matrix)
    identity = np.array([[flint.acb(1 if i == j else 0) for j in range(6)] for i in range(6)], dtype=object)
    step = (y @ f_centre[..., None])[..., 0]
    contraction = identity[None] - y @ jac_box
    krawczyk = centre - step + (contraction @ (box - centre)[..., None])[..., 0]
    return np.array(
        [all(b.contains(k) for b, k in zip(inner_row, row)) for inner_row, row in zip(inner, krawczyk)],
        dtype=bool,
    )


def certify(
    points: np.ndarray, moments: Mapping[tuple[int, ...], Fraction], radius: np.ndarray
) -> np.ndarray:
    """Krawczyk's test for every box ``points[k] +- radius[k]`` (radii per coordinate, for the real and the
    imaginary part): True where the box holds exactly one solution.

    ``moments`` exact (balls in ``flint.acb``). A box with a real centre is symmetric under
    conjugation, so the one solution in it is real (the equations have real coefficients).
    """
    n = points.shape[0]
    with np.errstate(all="ignore"):
        try:
            inverse = np.linalg.inv(system(points, _float_matrix(moments))[1])
        except np.linalg.LinAlgError:
            return np.zeros(n, dtype=bool)
    if not np.all(np.isfinite(inverse)):
        return np.zeros(n, dtype=bool)
    centre = np.array([[_acb(z) for z in row] for row in points], dtype=object)
    y = np.array([[[_acb(complex(v)) for v in row] for row in block] for block in inverse], dtype=object)
    return _krawczyk(centre, radius, _ball_matrix(moments), y)


def _prove_precisely(
    point: np.ndarray, moments: Mapping[tuple[int, ...], Fraction], real: bool, prec: int = 212
) -> tuple[np.ndarray, np.ndarray] | None:
    """One solution near ``point``: Newton in ``prec``-bit midpoints, then Krawczyk in ``prec`` bits; None if
    unproved.

    Returns the centre (rounded to complex floats: within the returned radii of the solution) and the radii.
    """
    saved = flint.ctx.prec
    flint.ctx.prec = prec
    try:
        matrix = _ball_matrix(moments)
        x = np.array([_acb(z) for z in point], dtype=object)
        for _ in range(8):
            f, jac = system(x[None, :], matrix)
            try:
                step = flint.acb_mat([[v.mid() for v in row] for row in jac[0]]).solve(
                    flint.acb_mat([[v.mid()] for v in f[0]])
                )
            except ZeroDivisionError:
                return None
            x = np.array([(x[i] - step[i, 0]).mid() for i in range(6)], dtype=object)
            if real:
                x = np.array([flint.acb(v.real.mid()) for v in x], dtype=object)
        f, jac = system(x[None, :], matrix)
        inverse = flint.acb_mat([[v.mid() for v in row] for row in jac[0]]).inv()
        y = np.array([[inverse[i, j] for j in range(6)] for i in range(6)], dtype=object)
        size = np.array([abs(complex(v)) for v in x])
        move = np.abs(np.array([complex(v) for v in (y @ f[0][:, None])[:, 0]]))
        for inflation in (1e3, 1e9, 1e15):
            r = inflation * (move + 2.0 ** -(prec - 20) * (1 + size))
            if _krawczyk(x[None, :], r[None, :], matrix, y[None])[0]:
                centre = np.array([complex(v) for v in x])  # rounded to doubles: widen by their rounding
                return centre, r + np.abs(centre) * 2.0**-52
        return None
    finally:
        flint.ctx.prec = saved


def simplest_between(lo: Fraction, hi: Fraction) -> Fraction:
    """The rational with the smallest denominator in ``[lo, hi]`` (continued fractions, in integers).

    >>> simplest_between(Fraction(3, 10), Fraction(1, 3)), simplest_between(Fraction(-7, 3), Fraction(-2))
    (Fraction(1, 3), Fraction(-2, 1))
    """
    if lo > hi:
        lo, hi = hi, lo
    if lo <= 0 <= hi:
        return Fraction(0)
    if hi < 0:
        return -simplest_between(-hi, -lo)
    a, b, c, d = lo.numerator, lo.denominator, hi.numerator, hi.denominator  # lo = a/b <= hi = c/d, both > 0
    quotients = []
    while True:
        q = a // b
        if q * b == a:
            quotients.append(q)
            break
        if (q + 1) * d <= c:
            quotients.append(q + 1)
            break
        quotients.append(q)  # both in (q, q + 1): continue with 1 / (hi - q) <= 1 / (lo - q)
        a, b, c, d = d, c - q * d, b, a - q * b
    numerator, denominator = quotients[-1], 1
    for q in reversed(quotients[:-1]):
        numerator, denominator = q * numerator + denominator, numerator
    return Fraction(numerator, denominator)


def _disjoint(points: np.ndarray, radius: np.ndarray) -> bool:
    """True when no two boxes meet (compared with a margin for the rounding of mirrored centres)."""
    reach = 2 * (radius[:, None, :] + radius[None, :, :]) + 1e-15
    apart = (
        (np.abs(points.real[:, None, :] - points.real[None, :, :]) > reach)
        | (np.abs(points.imag[:, None, :] - points.imag[None, :, :]) > reach)
    ).any(axis=2)
    np.fill_diagonal(apart, True)
    return bool(apart.all())


def tracked_solutions(
    moments: Mapping[tuple[int, ...], Fraction], gammas: Sequence[complex] = GAMMAS
) -> Tracked | None:
    """Every solution of the K5 equations for a sketch's exact central ``moments``, certified; None when not
    proved.

    The arcs ``gammas`` take turns of ``_ROUND`` predictor steps each, and the first whose paths
    all arrive is proved: an arc that passes close to a singular parameter makes some path crawl
    (or fail), and another arc avoids it.
    """
    start_moments, roots = start_system()
    m0, m1 = _float_matrix(start_moments), _float_matrix(moments)
    arcs = [_Paths(roots, m0, m1, gamma) for gamma in gammas]
    for _ in range(0, _MAX_ITERATIONS, _ROUND):
        arcs = [paths for paths in arcs if not paths.failed.any()]
        for paths in arcs:
            paths.advance(_ROUND)
            if paths.done and not paths.failed.any():
                return certified(paths.x, moments)
        if not arcs:
            return None
    return None


def certified(half: np.ndarray, moments: Mapping[tuple[int, ...], Fraction]) -> Tracked | None:
    """Prove approximate solutions ``half`` (202, 6), one per label-swap pair, and their mirrors: all 404 or
    None."""
    m1 = _float_matrix(moments)
    points = _polish(np.array(half, dtype=complex), m1)  # a copy; the mirror of a proved box is a proved box
    if not np.all(np.isfinite(points)):
        return None
    scale = 1 + np.abs(points).max(axis=1)
    real = np.abs(points.imag).max(axis=1) <= 1e-7 * scale
    points[real] = points[real].real
    with np.errstate(all="ignore"):  # the Newton correction left: how far the centre may be from the solution
        f, jac = system(points, m1)
        newton = np.abs(np.linalg.solve(jac, f[..., None])[..., 0])
    floor = 1e-15 * (1 + np.abs(points))
    proved = np.zeros(len(points), dtype=bool)
    radius = np.zeros(points.shape)
    for inflation in (1e3, 1e6):  # the first radius that proves a box is kept
        todo = ~proved
        if not todo.any():
            break
        radius[todo] = inflation * (newton[todo] + floor[todo])
        proved[todo] = certify(points[todo], moments, radius[todo])
    for k in np.nonzero(~proved)[
        0
    ]:  # ill-conditioned (near the degenerate p = 0 or 1): refine and prove in 212 bits
        found = _prove_precisely(points[k], moments, bool(real[k]))
        if found is None:
            return None
        points[k], radius[k] = found
    swapped = mirror(points)  # 1 - p is rounded: widen those boxes by its rounding
    swapped_radius = radius.copy()
    swapped_radius[:, 0] += np.abs(swapped[:, 0]) * 2.0**-52
    points, radius, real = (
        np.vstack([points, swapped]),
        np.vstack([radius, swapped_radius]),
        np.concatenate([real, real]),
    )
    not_real = ~real & (np.abs(points.imag) > radius).any(axis=1)  # the box misses the real space
    if not np.all(real | not_real) or not _disjoint(points, radius) or len(points) != DEGREE:
        return None
    return Tracked(points, radius, real)
