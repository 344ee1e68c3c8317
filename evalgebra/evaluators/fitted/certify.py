r"""The certified global maximum of the likelihood: score equations solved, boundary strata bounded.

For binary classifiers with independent errors (one population, no abstentions) the log-likelihood
``l(theta) = sum_x n_x log p_x(theta)`` is continuous on the closed parameter box (prevalence and
every rate in ``[0, 1]``) with values in ``[-inf, 0]``, so its maximum is attained. At a maximiser
``theta*`` either

1. ``theta*`` is inside the open box: every observed ``p_x`` is positive, ``l`` is smooth and
   ``theta*`` is a critical point. If every ``delta_i = P(b | b) - P(b | a)`` is nonzero it is a real
   solution of the saturated score system (:func:`~evalgebra.likelihood.independent.binary_score_system`),
   solved exactly by msolve: certified boxes, one real solution each, inside which ``l`` is enclosed
   in ball arithmetic. If some ``delta_i = 0``, classifier ``i`` is independent of the truth and
   ``p = m_i (x) p_rest``: ``l <= sum_r n_{i,r} log f_{i,r} + (the saturated likelihood of the
   others' counts)``.
2. ``theta*`` is on the boundary of the box: a prevalence at 0 or 1 (the independence model,
   whose maximum is attained at the one-way marginals, exactly), or a rate ``P(i answers r | ell)``
   at 0 (a rate at 1 is another response's at 0). Then the patterns with ``x_i = r`` come from the
   other label alone, so their table is a product over the other classifiers, and
   ``l <= L_sat - G^2_r / 2`` with ``G^2_r`` the independence statistic of that slice (every rate
   of the other label free, every other pattern at its frequency).

So when the best critical point's value exceeds every stratum's bound, it is the global maximum
(``"global_maximum": true``); when an attained stratum value exceeds every critical point, the
maximum is on the boundary (``false``); anything else (msolve out of time, a bound that reaches
the best value, no critical point inside the box) is ``"undecided"``, with the reason. Both
members of a label-swap pair are counted in ``critical_points``; the chosen one is the member
nearer EM's point, and it replaces EM's point when EM had stopped lower.

Examples
--------
>>> from evalgebra.data.sketch import Sketch
>>> from evalgebra.evaluators.fitted.fit import fit_sketch
>>> sketch = Sketch.from_counts({"aaa": 84, "aab": 36, "aba": 51, "abb": 39,
...                              "baa": 68, "bab": 52, "bba": 77, "bbb": 70}, labels=["a", "b"])
>>> fitted, certificate = certify_fitted(fit_sketch(sketch))
>>> certificate.global_maximum, certificate.critical_points, certificate.complex_solutions
(True, 2, 2)
>>> abs(fitted.log_likelihood - certificate.log_likelihood) < 1e-6
True

References
----------
.. [1] S. Hosten, A. Khetan and B. Sturmfels, "Solving the likelihood equations", Foundations of
   Computational Mathematics 5 (2005).
.. [2] K. Kubjas, E. Robeva and B. Sturmfels, "Fixed points of the EM algorithm and nonnegative rank
   boundaries", Annals of Statistics 43 (2015): the boundary strata where EM's fixed points sit.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

import flint
import numpy as np

from evalgebra.engines import (
    TIME_LIMIT_VARIABLE,
    EngineTimeout,
    ExternalEngineError,
    default_time_limit,
)
from evalgebra.evaluators.fitted.em import Cells, Parameters, em
from evalgebra.evaluators.fitted.fit import FittedModel, goodness_of_fit
from evalgebra.likelihood.independent import binary_score_system, rates_from_moments
from evalgebra.likelihood.solve import solve_score
from evalgebra.results.certificate import UNDECIDED, LikelihoodCertificate

__all__ = ["certify_fitted", "binary_counts", "PRECISION"]

#: Bits of the ball arithmetic that encloses the likelihood on msolve's boxes.
PRECISION = 256


@contextmanager
def _precision(bits: int) -> Iterator[None]:
    saved = flint.ctx.prec
    flint.ctx.prec = bits
    try:
        yield
    finally:
        flint.ctx.prec = saved


def _ball(low: Fraction, high: Fraction) -> Any:
    """A ball holding ``[low, high]``."""
    mid = (low + high) / 2
    radius = float(high - low) / 2
    return flint.arb(flint.fmpq(mid.numerator, mid.denominator)) + flint.arb(0, radius * (1 + 1e-12) + 1e-300)


def _exact(value: Fraction) -> Any:
    return flint.arb(flint.fmpq(value.numerator, value.denominator))


def binary_counts(cells: Cells) -> list[int]:
    """The counts of all ``2^N`` patterns in base-2 order (classifier 0 most significant, 1 = second label).

    >>> import numpy as np
    >>> cells = Cells(np.array([[0, 1], [1, 1]]), np.array([3.0, 5.0]), np.zeros(2, dtype=int), 2, 2, 1)
    >>> binary_counts(cells)
    [0, 3, 0, 5]
    """
    n = cells.n_classifiers
    codes = (cells.answers * (1 << np.arange(n - 1, -1, -1))).sum(axis=1)
    counts = np.bincount(codes, weights=cells.weights, minlength=2**n)
    return [int(round(c)) for c in counts]


def _patterns(n: int) -> np.ndarray:
    return (np.arange(2**n)[:, None] >> np.arange(n - 1, -1, -1)) & 1


def _xlogy_sum(counts: Sequence[int], total: int) -> Any:
    """``sum n log(n / total)`` over the positive ``n``, as a ball."""
    out = flint.arb(0)
    for n in counts:
        if n > 0:
            out += n * (flint.arb(n) / total).log()
    return out


def _strata(counts: list[int], n: int) -> list[tuple[str, Any, str]]:
    """Every boundary stratum's exact value or upper bound (see the module notes), as balls."""
    x = _patterns(n)
    q = sum(counts)
    column = np.array(counts)
    saturated = _xlogy_sum(counts, q)
    marginals = [[int(column[x[:, i] == r].sum()) for r in (0, 1)] for i in range(n)]
    independent = sum((_xlogy_sum(m, q) for m in marginals), flint.arb(0))
    out: list[tuple[str, Any, str]] = [("prevalence 0 or 1", independent, "exact")]
    for i in range(n):
        others = [int(column[(np.delete(x, i, axis=1) == y).all(axis=1)].sum()) for y in _patterns(n - 1)]
        out.append(
            (
                f"classifier {i} independent of the truth",
                _xlogy_sum(marginals[i], q) + _xlogy_sum(others, q),
                "bound",
            )
        )
    for i in range(n):
        for r in (0, 1):
            inside = x[:, i] == r
            slice_counts = column[inside]
            size = int(slice_counts.sum())
            g2_half = flint.arb(0)
            if size:
                fitted = _xlogy_sum([int(v) for v in slice_counts], size)
                product = flint.arb(0)
                for j in range(n):
                    if j != i:
                        product += _xlogy_sum(
                            [int(slice_counts[x[inside, j] == s].sum()) for s in (0, 1)], size
                        )
                g2_half = fitted - product
            answer = "a" if r == 0 else "b"
            out.append((f"classifier {i} answers {answer} on one label only", saturated - g2_half, "bound"))
    return out


def _log_likelihood(counts: list[int], p: Any, low: Sequence[Any], high: Sequence[Any]) -> Any:
    n = len(low)
    total = flint.arb(0)
    for code, count in enumerate(counts):
        if not count:
            continue
        a, b = 1 - p, p
        for i in range(n):
            bit = (code >> (n - 1 - i)) & 1
            a *= low[i] if bit else 1 - low[i]
            b *= high[i] if bit else 1 - high[i]
        total += count * (a + b).log()
    return total


def _twins(box: Sequence[tuple[Fraction, Fraction]], other: Sequence[tuple[Fraction, Fraction]]) -> bool:
    """Whether ``box`` meets ``-other``: ``(k, y)`` and ``(-k, -y)`` are one model point, labels swapped."""
    return all(lo <= -o_lo and -o_hi <= hi for (lo, hi), (o_lo, o_hi) in zip(box, other))


def _undecided(reason: str, em_value: float, started: float, **known: Any) -> LikelihoodCertificate:
    return LikelihoodCertificate(
        UNDECIDED,
        reason,
        known.get("critical_points"),
        known.get("complex_solutions"),
        known.get("log_likelihood"),
        em_value,
        tuple(known.get("strata", ())),
        time.perf_counter() - started,
    )


def _orient(p: float, low: np.ndarray, high: np.ndarray, near: Parameters) -> Parameters:
    """The point as Parameters (labels a, b), in the label order nearer ``near``."""
    first = Parameters(
        np.array([[1 - p, p]]), np.stack([np.stack([1 - low, low], 1), np.stack([1 - high, high], 1)], 1)
    )
    second = Parameters(first.prevalence[:, ::-1].copy(), first.response[:, ::-1, :].copy())

    def distance(point: Parameters) -> float:
        return float(
            np.abs(point.response - near.response).sum() + np.abs(point.prevalence - near.prevalence).sum()
        )

    return first if distance(first) <= distance(second) else second


def certify_fitted(
    fitted: FittedModel, *, time_limit: float | None = None
) -> tuple[FittedModel, LikelihoodCertificate]:
    r"""Certify (or refute, or leave undecided) that the fitted point is the global maximum.

    Parameters
    ----------
    fitted : FittedModel
        An EM fit (:func:`~evalgebra.evaluators.fitted.fit.fit_sketch`).
    time_limit : float, optional
        Seconds msolve may take (default :func:`~evalgebra.engines.limits.default_time_limit`, i.e.
        ``EVALGEBRA_TIME_LIMIT`` or ``--time-limit``); past it the answer is ``"undecided"``.

    Returns
    -------
    (FittedModel, LikelihoodCertificate)
        With ``global_maximum`` true the fit's chosen run is the certified critical point (EM run
        from it, named ``certified``, appended to the runs); otherwise the fit is returned as it was.
    """
    started = time.perf_counter()
    cells = fitted.cells
    em_value = float(fitted.log_likelihood)
    n = cells.n_classifiers
    if cells.n_labels != 2 or cells.n_responses != 2 or cells.n_populations != 1 or n < 3:
        return fitted, _undecided(
            "the certification covers binary classifiers (at least 3, one population, no abstentions) "
            "with independent errors",
            em_value,
            started,
        )
    counts = binary_counts(cells)
    limit = default_time_limit() if time_limit is None else time_limit
    with _precision(PRECISION):
        strata = _strata(counts, n)
        strata_out = [(name, float(value.mid()), kind) for name, value, kind in strata]
        try:
            found = solve_score(
                binary_score_system(counts),
                time_limit=limit,
                hint=f"raise --time-limit or {TIME_LIMIT_VARIABLE}=SECONDS",
            )
        except EngineTimeout as timeout:
            return fitted, _undecided(
                f"the score equations were not solved: {timeout}", em_value, started, strata=strata_out
            )
        except ExternalEngineError as failed:
            return fitted, _undecided(
                f"the score equations were not solved: {failed}", em_value, started, strata=strata_out
            )
        if found.dimension > 0:
            return fitted, _undecided(
                "the score equations have infinitely many solutions (a positive-dimensional set of critical "
                "points)",
                em_value,
                started,
                strata=strata_out,
            )
        marginal = [
            _exact(
                Fraction(sum(c for code, c in enumerate(counts) if (code >> (n - 1 - i)) & 1), sum(counts))
            )
            for i in range(n)
        ]
        points = []
        for box in found.boxes:
            k, *y = (_ball(lo, hi) for lo, hi in box)
            p, low, high = rates_from_moments(k, y, marginal)
            rates = [p, *low, *high]
            if all(r > 0 and r < 1 for r in rates):
                points.append((_log_likelihood(counts, p, low, high), box, p, low, high))
            elif not any(r < 0 or r > 1 for r in rates):  # neither surely inside nor surely outside
                return fitted, _undecided(
                    "a critical point lies too close to the boundary of the box to place it",
                    em_value,
                    started,
                    strata=strata_out,
                    complex_solutions=found.degree,
                )
        common: dict[str, Any] = {
            "strata": strata_out,
            "complex_solutions": found.degree,
            "critical_points": len(points),
        }
        if not points:
            best_exact = max(float(value.mid()) for _, value, kind in strata if kind == "exact")
            return fitted, _undecided(
                "no critical point inside the parameter box: the maximum lies on a boundary stratum "
                f"(EM approaches it; the independence model attains {best_exact:.6g})",
                em_value,
                started,
                **common,
            )
        points.sort(key=lambda item: float(item[0].mid()), reverse=True)
        best = points[0][0]
        common["log_likelihood"] = float(best.mid())
        for value, box, *_ in points[1:]:
            if _twins(box, points[0][1]):
                continue  # the same model point with the labels swapped: the same likelihood
            if not value < best:
                return fitted, _undecided(
                    "two critical points have likelihoods too close to order", em_value, started, **common
                )
        beaten = [name for name, value, kind in strata if kind == "exact" and value > best]
        if beaten:
            return fitted, LikelihoodCertificate(
                False,
                f"the stratum '{beaten[0]}' attains more than every critical point inside the box",
                len(points),
                found.degree,
                float(best.mid()),
                em_value,
                tuple(strata_out),
                time.perf_counter() - started,
            )
        reaching = [name for name, value, _ in strata if not (value < best)]
        if reaching:
            return fitted, _undecided(
                f"the bound of the stratum '{reaching[0]}' reaches the best critical point"
                + (f" (and {len(reaching) - 1} more)" if len(reaching) > 1 else ""),
                em_value,
                started,
                **common,
            )
        _, _, p, low, high = points[0]
        point = _orient(
            float(p.mid()),
            np.array([float(v.mid()) for v in low]),
            np.array([float(v.mid()) for v in high]),
            fitted.parameters,
        )
    run = em(cells, point, max_iterations=50)
    goodness = goodness_of_fit(cells, run.log_likelihood, fitted.saturated_log_likelihood)
    certified = dataclasses.replace(
        fitted,
        parameters=run.parameters,
        log_likelihood=run.log_likelihood,
        goodness=goodness,
        runs=(*fitted.runs, run),
        chosen=len(fitted.runs),
        start_names=(*fitted.start_names, "certified"),
    )
    reached = em_value >= float(best.mid()) - 1e-6 * (1 + abs(em_value))
    reason = "the best critical point exceeds every stratum's bound" + (
        "" if reached else "; EM had stopped at a lower local maximum, replaced by the certified point"
    )
    return certified, LikelihoodCertificate(
        True,
        reason,
        len(points),
        found.degree,
        float(best.mid()),
        em_value,
        tuple(strata_out),
        time.perf_counter() - started,
    )
