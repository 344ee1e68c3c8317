r"""EM on many count vectors of the same cells at once: the fitted evaluation, vectorised.

A bootstrap of the fitted evaluation refits the model on a thousand resamples of one sketch's
counts. Every resample has the same cells (the patterns the sketch holds) with other counts, so
the iteration of :func:`~evalgebra.evaluators.fitted.em.em` runs on all of them as array
arithmetic: the E step gathers ``log P_{i,d_ci|ell}`` for every resample ``b``, cell ``c`` and
label at once, the M step is one matrix product of the posteriors weighted by the counts with the
cells' answers as one-hot columns. Each resample is accelerated by SQUAREM on its own (its own
step length, its own safeguard) and stops on its own, with the rule of
:func:`~evalgebra.evaluators.fitted.em.em`; the resamples still moving are iterated on, the rest
are set aside.

Shapes: ``B`` count vectors, ``C`` cells, ``N`` classifiers, ``R`` labels, ``V`` responses (the
labels, then any abstentions), ``S`` populations.

Examples
--------
>>> import numpy as np
>>> from evalgebra.evaluators.fitted.em import Cells, Parameters, em
>>> answers = np.array([[a, b, c] for a in (0, 1) for b in (0, 1) for c in (0, 1)])
>>> cells = Cells(answers, np.array([84.0, 36, 51, 39, 68, 52, 77, 73]), np.zeros(8, dtype=int),
...               n_labels=2, n_responses=2, n_populations=1)
>>> start = Parameters(np.array([[0.4, 0.6]]), np.array([[[0.7, 0.3], [0.3, 0.7]]] * 3))
>>> counts = np.stack([cells.weights, cells.weights[::-1]])
>>> fit = batch_em(cells, counts, start)
>>> one = em(cells, start)
>>> bool(fit.converged.all()), bool(np.allclose(fit.prevalence[0], one.parameters.prevalence, atol=1e-4))
(True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from evalgebra.errors import SpecError
from evalgebra.evaluators.fitted.em import Cells, Parameters

__all__ = ["BatchFit", "batch_em", "batch_log_likelihood"]


@dataclass(frozen=True)
class BatchFit:
    r"""Where EM stopped on each of ``B`` count vectors.

    ``prevalence`` ``(B, S, R)``, ``response`` ``(B, N, R, V)``, ``log_likelihood`` ``(B,)``,
    ``iterations`` ``(B,)`` (EM steps taken), ``converged`` ``(B,)``.

    Examples
    --------
    >>> fit = BatchFit(np.full((1, 1, 2), 0.5), np.full((1, 1, 2, 2), 0.5), np.zeros(1),
    ...                np.zeros(1, dtype=int), np.ones(1, dtype=bool))
    >>> fit.size, fit.parameters(0).prevalence.tolist()
    (1, [[0.5, 0.5]])
    """

    prevalence: np.ndarray
    response: np.ndarray
    log_likelihood: np.ndarray
    iterations: np.ndarray
    converged: np.ndarray

    @property
    def size(self) -> int:
        """``B``: the count vectors fitted."""
        return int(self.log_likelihood.shape[0])

    def parameters(self, b: int) -> Parameters:
        """The point fitted to count vector ``b``."""
        return Parameters(self.prevalence[b], self.response[b])


#: ``log 0`` in the E step: finite, so that sums of log-rates never meet ``-inf - -inf``; far below every
#: real log-probability, so that ``exp`` of it is exactly 0.
_LOG_ZERO = -1e30


def _runs(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(order, starts, values)``: the cells sorted by ``keys``, where each run of a key starts, the key."""
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    return order, starts, ordered[starts]


def _sums(rows: np.ndarray, runs: tuple[np.ndarray, np.ndarray, np.ndarray], size: int) -> np.ndarray:
    """``out[key] = sum of rows[c] over the cells c of that key`` (``size`` keys; absent keys 0)."""
    order, starts, values = runs
    out = np.zeros((size, *rows.shape[1:]))
    out[values] = np.add.reduceat(rows[order], starts, axis=0)
    return out


class _Plan:
    """The iteration on the cells, in a batch-last layout: every array ends with the ``B`` count vectors.

    A point is one column ``(P, B)`` of :func:`_flat` (prevalences ``(S, R)``, then response rates
    ``(N, R, V)``); posteriors are ``(C, R, B)``. The E step gathers, for every cell, the rows of the
    log-rates its answers name; the M step sums the weighted posteriors over the runs of cells that
    share an answer. Both are elementwise along the contiguous last axis: no small inner reductions
    and no BLAS call, whose threads would fight over a shared machine's cores.
    """

    def __init__(self, cells: Cells) -> None:
        self.cells = cells
        s, n, r, v = cells.n_populations, cells.n_classifiers, cells.n_labels, cells.n_responses
        self.cut = s * r
        self.index = np.arange(n)[None, :] * v + cells.answers  # (C, N): the row (i, d_ci) of (N V, R, B)
        # the M step sums the cells by answer (and by population): each as sorted runs of cells
        self.groups = [_runs(cells.answers[:, i]) for i in range(n)]
        self.by_population = _runs(cells.population)
        self.shapes = (s, r), (n, r, v)

    def split(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(prevalence (S, R, B), response (N, R, V, B))`` of flat points ``(P, B)``."""
        (s, r), (n, _, v) = self.shapes
        return x[: self.cut].reshape(s, r, -1), x[self.cut :].reshape(n, r, v, -1)

    def posterior(self, weights: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(L (B,), posterior (C, R, B))`` at the points ``x`` ``(P, B)``, counts ``weights`` ``(C, B)``."""
        cells = self.cells
        prevalence, response = self.split(x)
        with np.errstate(divide="ignore"):
            log_prevalence = np.maximum(np.log(prevalence), _LOG_ZERO)  # (S, R, B)
            log_response = np.maximum(np.log(response), _LOG_ZERO)  # (N, R, V, B)
        stacked = log_response.transpose(0, 2, 1, 3).reshape(-1, *log_prevalence.shape[1:])  # (N V, R, B)
        joint = log_prevalence[cells.population]  # (C, R, B)
        for i in range(cells.n_classifiers):
            joint += stacked[self.index[:, i]]
        top = joint.max(axis=1, keepdims=True)
        joint -= top
        np.exp(joint, out=joint)
        total = joint.sum(axis=1, keepdims=True)
        joint /= total
        log_p = np.log(total[:, 0]) + top[:, 0]  # (C, B)
        seen = weights > 0
        dead = log_p < _LOG_ZERO / 2  # a cell the point gives probability 0
        value = np.where(seen & ~dead, weights * log_p, 0.0).sum(axis=0)
        value = np.where((seen & dead).any(axis=0), -np.inf, value)
        return value, joint

    def maximise(self, weights: np.ndarray, posterior: np.ndarray) -> np.ndarray:
        """The M step on every count vector: the flat points ``(P, B)``."""
        (s, r), (n, _, v) = self.shapes
        weighted = posterior * weights[:, None, :]  # (C, R, B)
        prevalence = _sums(weighted, self.by_population, s)  # (S, R, B)
        sizes = prevalence.sum(axis=1, keepdims=True)
        prevalence = np.divide(prevalence, sizes, out=np.full_like(prevalence, 1.0 / r), where=sizes > 0)
        joint = np.stack([_sums(weighted, self.groups[i], v) for i in range(n)])  # (N, V, R, B)
        mass = joint[0].sum(axis=0)  # (R, B): every classifier's answers sum to the label's mass
        response = np.divide(
            joint, mass[None, None], out=np.full_like(joint, 1.0 / v), where=mass[None, None] > 0
        ).transpose(0, 2, 1, 3)  # (N, R, V, B)
        return np.concatenate([prevalence.reshape(self.cut, -1), response.reshape(-1, weights.shape[1])])


def _flat(prevalence: np.ndarray, response: np.ndarray) -> np.ndarray:
    """Points ``(B, S, R)`` and ``(B, N, R, V)`` as columns ``(P, B)``."""
    b = prevalence.shape[0]
    return np.ascontiguousarray(
        np.concatenate([prevalence.reshape(b, -1), response.reshape(b, -1)], axis=1).T
    )


def _broadcast(start: Parameters, size: int, cells: Cells) -> np.ndarray:
    """``start`` as ``size`` columns ``(P, B)``: one point for all, or one each."""
    prevalence = np.asarray(start.prevalence, dtype=float)
    response = np.asarray(start.response, dtype=float)
    shape_p = (cells.n_populations, cells.n_labels)
    shape_r = (cells.n_classifiers, cells.n_labels, cells.n_responses)
    if prevalence.shape == shape_p:
        prevalence = np.broadcast_to(prevalence, (size, *shape_p))
    if response.shape == shape_r:
        response = np.broadcast_to(response, (size, *shape_r))
    if prevalence.shape != (size, *shape_p) or response.shape != (size, *shape_r):
        raise SpecError(
            f"start of shapes {start.prevalence.shape} and {start.response.shape} does not fit {size} count "
            f"vector(s) of {cells.n_populations} population(s), {cells.n_classifiers} classifiers, "
            f"{cells.n_labels} labels and {cells.n_responses} responses: give one point or one per vector"
        )
    return _flat(prevalence, response)


def _weights(cells: Cells, weights: np.ndarray) -> np.ndarray:
    """The count vectors ``(B, C)`` as columns ``(C, B)``, checked."""
    weights = np.atleast_2d(np.asarray(weights, dtype=float))
    if weights.ndim != 2 or weights.shape[1] != cells.answers.shape[0]:
        raise SpecError(
            f"weights of shape {weights.shape}: need one row per count vector and one column per cell "
            f"({cells.answers.shape[0]})"
        )
    return np.ascontiguousarray(weights.T)


def batch_log_likelihood(cells: Cells, weights: np.ndarray, start: Parameters) -> np.ndarray:
    r"""``sum_c n_bc log p(d_c)`` for every count vector ``b`` (rows of ``weights``) at ``start``.

    ``start`` is one point for all the vectors or one per vector (a leading axis of size ``B``).

    Examples
    --------
    >>> import numpy as np
    >>> from evalgebra.evaluators.fitted.em import Cells, Parameters, log_likelihood
    >>> cells = Cells(np.array([[0], [1]]), np.array([3.0, 1.0]), np.zeros(2, dtype=int), 2, 2, 1)
    >>> point = Parameters(np.array([[0.5, 0.5]]), np.array([[[0.9, 0.1], [0.2, 0.8]]]))
    >>> values = batch_log_likelihood(cells, np.array([[3.0, 1.0], [1.0, 1.0]]), point)
    >>> bool(np.isclose(values[0], log_likelihood(cells, point)))
    True
    """
    columns = _weights(cells, weights)
    return _Plan(cells).posterior(columns, _broadcast(start, columns.shape[1], cells))[0]


def batch_em(
    cells: Cells,
    weights: np.ndarray,
    start: Parameters,
    *,
    tolerance: float = 1e-12,
    max_iterations: int = 20_000,
) -> BatchFit:
    r"""EM with SQUAREM on every row of ``weights`` (count vectors of ``cells``), from ``start``.

    Parameters
    ----------
    cells : Cells
        The patterns (their own ``weights`` are not used).
    weights : array_like, shape (B, C)
        One count vector per row, over the cells.
    start : Parameters
        One point for every vector (``(S, R)`` and ``(N, R, V)``) or one each (a leading ``B``
        axis), taken as it is (see :meth:`~evalgebra.evaluators.fitted.em.Parameters.inside`).
    tolerance, max_iterations
        The stopping rule of :func:`~evalgebra.evaluators.fitted.em.em`, per vector: a round that
        gains less than ``tolerance * (1 + |L|)`` and moves no rate more than
        ``sqrt(tolerance)`` converges; ``max_iterations`` EM steps without that do not.

    Returns
    -------
    BatchFit

    Notes
    -----
    Each round takes two EM steps, extrapolates along them with the step length
    ``alpha = -max(1, |r| / |v|)`` of SQUAREM's scheme 3 (``r`` the first step, ``v`` the change
    between the two), halves the step toward ``-1`` until every rate is at least 0, takes one EM
    step from there, and keeps the result only where its log-likelihood is at least the second
    EM step's: otherwise the round is the two plain EM steps. Every round so never lowers ``L``.

    References
    ----------
    .. [1] R. Varadhan and C. Roland, "Simple and globally convergent methods for accelerating the
       convergence of any EM algorithm", Scandinavian Journal of Statistics 35 (2008).
    """
    columns = _weights(cells, weights)
    size = columns.shape[1]
    plan = _Plan(cells)
    x = _broadcast(start, size, cells)  # (P, B)
    value, posterior = plan.posterior(columns, x)
    iterations = np.zeros(size, dtype=np.int64)
    converged = np.zeros(size, dtype=bool)
    active = np.arange(size)
    root = math.sqrt(tolerance)
    while active.size:
        w, x0, current = columns[:, active], x[:, active], value[active]
        x1 = plan.maximise(w, posterior[:, :, active])
        _, post1 = plan.posterior(w, x1)
        x2 = plan.maximise(w, post1)
        v2, post2 = plan.posterior(w, x2)
        steps = np.full(active.size, 2)
        r, v = x1 - x0, x2 - 2 * x1 + x0
        norm_r, norm_v = np.sqrt((r * r).sum(axis=0)), np.sqrt((v * v).sum(axis=0))
        with np.errstate(divide="ignore", invalid="ignore"):
            alpha = np.where(norm_v > 0, -np.maximum(1.0, norm_r / norm_v), -1.0)
        jump = x0 - 2 * alpha * r + alpha * alpha * v
        for _ in range(60):  # halve the step toward -1 until the jump stays inside the simplex
            outside = (jump < 0).any(axis=0) & (alpha < -1.0)
            if not outside.any():
                break
            alpha = np.where(outside, np.where(alpha < -2.0, (alpha - 1.0) / 2, -1.0), alpha)
            jump = x0 - 2 * alpha * r + alpha * alpha * v
        best_x, best_v, best_post = x2, v2, post2
        tried = np.flatnonzero((alpha < -1.0) & (jump >= 0).all(axis=0) & np.isfinite(v2))
        if tried.size:
            _, jpost = plan.posterior(w[:, tried], jump[:, tried])
            stable = plan.maximise(w[:, tried], jpost)
            sv, spost = plan.posterior(w[:, tried], stable)
            steps[tried] += 1
            better = sv >= v2[tried]
            rows = tried[better]
            best_x[:, rows] = stable[:, better]
            best_v[rows] = sv[better]
            best_post[:, :, rows] = spost[:, :, better]
        iterations[active] += steps
        lost = ~(best_v >= current - 1e-9 * (1 + np.abs(current)))  # rounding only: EM never loses more
        moved = np.abs(best_x - x0).max(axis=0)
        gain = best_v - current
        keep = ~lost
        rows = active[keep]
        x[:, rows], value[rows], posterior[:, :, rows] = best_x[:, keep], best_v[keep], best_post[:, :, keep]
        done = lost | ((gain <= tolerance * (1 + np.abs(best_v))) & (moved <= root))
        converged[active[done]] = True
        active = active[~done & (iterations[active] < max_iterations)]
    prevalence, response = plan.split(x)
    return BatchFit(
        np.ascontiguousarray(prevalence.transpose(2, 0, 1)),
        np.ascontiguousarray(response.transpose(3, 0, 1, 2)),
        value,
        iterations,
        converged,
    )
