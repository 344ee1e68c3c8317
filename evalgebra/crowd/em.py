r"""Dawid-Skene EM on a crowd's answers, to a stated tolerance, with known answers (gold) held fixed.

The independent model of a crowd: task ``t`` has true label ``ell`` with probability ``P_ell``
and worker ``w``, when it answers, answers ``r`` with probability ``P_{w,r|ell}``, independently
of the other workers given the true label. The log-likelihood of the answers is

.. math::

    L = \sum_{t \notin G} \log \sum_\ell P_\ell \prod_{(w, r) \in t} P_{w,r|\ell}
      + \sum_{t \in G} \log \Big( P_{g_t} \prod_{(w, r) \in t} P_{w,r|g_t} \Big),

where ``G`` holds the *gold* tasks, whose true label ``g_t`` is known: their posterior is
the point mass on ``g_t`` at every step, never estimated. The EM iteration of Dawid and
Skene [1]_ climbs ``L`` plus a pseudo-count ``FLOOR`` (``evalgebra.crowd.tasks``, 1e-6) on every
rate and prevalence (a Dirichlet prior that keeps every logarithm finite; it moves an
estimate by about ``FLOOR`` over the task count):

- E step: ``post[t, ell] ∝ P_ell prod_{(w, r) in t} P_{w,r|ell}`` (in logarithms), the point
  mass for a gold task;
- M step: ``X[w, ell, r] = sum_{t: w answered r} post[t, ell]`` (the expected counts behind
  the rows), ``P_{w,r|ell} = (X[w, ell, r] + FLOOR) / sum_r (X[w, ell, r] + FLOOR)`` and
  ``P_ell = (sum_t post[t, ell] + FLOOR) / (T + R FLOOR)``.

An answer ``r`` may be an *abstention*, a response that is no label (``K > R`` responses):
it is not a correct answer, so the accuracy on label ``ell`` stays ``P_{w,ell|ell}``, and the
abstention rates ``P_{w,r|ell}`` are estimated like any other rate (abstaining may depend on
the true label).

Each step raises the penalised log-likelihood ([2]_, theorem 1); SQUAREM [3]_ (two steps,
an extrapolation along them kept inside the simplex and accepted only when it does not
lower the objective, one step from there) takes far fewer of them where EM crawls. The
iteration stops when a round gains less than ``tolerance`` per task (``converged``) or
after ``max_iterations`` EM steps.

Examples
--------
>>> import numpy as np
>>> task, worker = np.repeat(np.arange(4), 3), np.tile(np.arange(3), 4)
>>> answer = np.array([0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 1])
>>> start = (np.array([0.5, 0.5]), np.tile(np.array([[0.7, 0.3], [0.3, 0.7]]), (3, 1, 1)))
>>> run = crowd_em(task, worker, answer, 4, 3, 2, *start)
>>> run.converged, run.posteriors.argmax(axis=1).tolist()
(True, [0, 0, 1, 1])
>>> gold = np.array([-1, 1, -1, -1])                    # task 1's true label is known: b
>>> crowd_em(task, worker, answer, 4, 3, 2, *start, gold=gold).posteriors[1].tolist()
[0.0, 1.0]

References
----------
.. [1] A. P. Dawid and A. M. Skene, "Maximum likelihood estimation of observer error-rates
   using the EM algorithm", Journal of the Royal Statistical Society C 28 (1979).
.. [2] A. P. Dempster, N. M. Laird and D. B. Rubin, "Maximum likelihood from incomplete data
   via the EM algorithm", Journal of the Royal Statistical Society B 39 (1977).
.. [3] R. Varadhan and C. Roland, "Simple and globally convergent methods for accelerating the
   convergence of any EM algorithm", Scandinavian Journal of Statistics 35 (2008).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from evalgebra.crowd.tasks import FLOOR, incidence, row_max, row_sum
from evalgebra.errors import SpecError

__all__ = [
    "CrowdRun",
    "CrowdLikelihood",
    "crowd_em",
    "maximise_answers",
    "objective",
    "CROWD_TOLERANCE",
    "MAX_ITERATIONS",
]

#: Default stopping rule: a round of EM steps that gains less than this much log-likelihood per
#: task ends the iteration.
CROWD_TOLERANCE = 1e-8
#: Default cap on the EM steps of one run.
MAX_ITERATIONS = 2000


@dataclass(frozen=True)
class CrowdRun:
    r"""Where one EM run stopped.

    Attributes
    ----------
    priors : numpy.ndarray (R,)
    rows : numpy.ndarray (W, R, K)
        ``rows[w, ell, r] = P_{w,r|ell}`` over the ``K`` responses (labels, then abstentions).
    posteriors : numpy.ndarray (T, R)
        At ``priors, rows`` (the point mass on a gold task).
    expected : numpy.ndarray (W, R, K)
        ``X[w, ell, r]``: the expected number of ``w``'s answers ``r`` on tasks of true label
        ``ell`` under ``posteriors`` (exact counts where every task is gold).
    objective : float
        The penalised log-likelihood at ``priors, rows``.
    iterations : int
        EM steps taken.
    converged : bool
    """

    priors: np.ndarray
    rows: np.ndarray
    posteriors: np.ndarray
    expected: np.ndarray
    objective: float
    iterations: int
    converged: bool


class CrowdLikelihood:
    """The answers as two sparse matrices, the gold tasks, and the E and M steps on them."""

    def __init__(
        self,
        task: np.ndarray,
        worker: np.ndarray,
        answer: np.ndarray,
        n_tasks: int,
        n_workers: int,
        n_labels: int,
        gold: np.ndarray | None,
        smoothing: float = FLOOR,
        n_responses: int | None = None,
    ) -> None:
        self.n_tasks, self.n_workers, self.n_labels = n_tasks, n_workers, n_labels
        self.n_responses = n_labels if n_responses is None else n_responses
        if self.n_responses < n_labels or (len(answer) and int(np.max(answer)) >= self.n_responses):
            raise SpecError(
                f"need at least as many responses as labels ({n_labels}) and every answer among them; "
                f"got {self.n_responses} responses"
            )
        self.smoothing = smoothing
        self.matrix = incidence(task, worker, answer, n_tasks, n_workers, self.n_responses)
        self.transposed = self.matrix.T.tocsr()
        if gold is None:
            gold = np.full(n_tasks, -1, dtype=np.int64)
        gold = np.asarray(gold, dtype=np.int64)
        if gold.shape != (n_tasks,) or gold.max(initial=-1) >= n_labels or gold.min(initial=-1) < -1:
            raise SpecError(f"gold must hold one label position (or -1) per task, {n_tasks} of them")
        self.gold_tasks = np.flatnonzero(gold >= 0)
        self.gold_labels = gold[self.gold_tasks]
        self.gold_mass = np.zeros((len(self.gold_tasks), n_labels))
        self.gold_mass[np.arange(len(self.gold_tasks)), self.gold_labels] = 1.0

    def expect(self, priors: np.ndarray, rows: np.ndarray) -> tuple[float, np.ndarray]:
        """The E step: ``(objective, posteriors)`` at ``priors, rows``."""
        r, k = self.n_labels, self.n_responses
        with np.errstate(divide="ignore"):
            log_rows = np.log(rows)
            logs = log_rows.transpose(0, 2, 1).reshape(self.n_workers * k, r)  # [w * K + answer, ell]
            log_priors = np.log(priors)
        joint = np.asarray(self.matrix @ logs) + log_priors[None, :]
        top = row_max(joint)
        scaled = np.exp(joint - top[:, None])
        total = row_sum(scaled)
        post = scaled / total[:, None]
        per_task = np.log(total) + top
        if len(self.gold_tasks):
            per_task[self.gold_tasks] = joint[self.gold_tasks, self.gold_labels]
            post[self.gold_tasks] = self.gold_mass
        penalty = self.smoothing * (float(log_rows.sum()) + float(log_priors.sum()))
        return float(per_task.sum()) + penalty, post

    def counts(self, post: np.ndarray) -> np.ndarray:
        """``X[w, ell, r]``: expected answer counts under ``post``, ``(W, R, K)``."""
        product = np.asarray(self.transposed @ post)
        return product.reshape(self.n_workers, self.n_responses, self.n_labels).transpose(0, 2, 1)

    def maximise(self, post: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The M step: ``(priors, rows)`` from ``post``."""
        a = self.smoothing
        counts = self.counts(post) + a
        rows = counts / counts.sum(axis=2, keepdims=True)
        priors = (np.ones(self.n_tasks) @ post + a) / (self.n_tasks + self.n_labels * a)
        return priors, rows


def _flat(priors: np.ndarray, rows: np.ndarray) -> np.ndarray:
    return np.concatenate([priors, rows.ravel()])


def _split(vector: np.ndarray, n_labels: int, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    return vector[:n_labels], vector[n_labels:].reshape(shape)


def _check_start(priors: np.ndarray, rows: np.ndarray, n_workers: int, n_labels: int) -> None:
    if priors.shape != (n_labels,) or rows.ndim != 3 or rows.shape[:2] != (n_workers, n_labels):
        raise SpecError(
            f"a start needs priors of shape ({n_labels},) and rows of shape ({n_workers}, {n_labels}, "
            f"K responses); got {priors.shape} and {rows.shape}"
        )
    if not (np.isfinite(priors).all() and np.isfinite(rows).all()):
        raise SpecError("a start needs finite priors and rows (NaN marks a worker without rows)")


def crowd_em(
    task: np.ndarray,
    worker: np.ndarray,
    answer: np.ndarray,
    n_tasks: int,
    n_workers: int,
    n_labels: int,
    priors: np.ndarray,
    rows: np.ndarray,
    *,
    gold: np.ndarray | None = None,
    tolerance: float = CROWD_TOLERANCE,
    max_iterations: int = MAX_ITERATIONS,
    problem: Any = None,
) -> CrowdRun:
    r"""EM from ``priors, rows`` to a local maximum, gold tasks held at their known labels.

    Parameters
    ----------
    task, worker, answer : arrays of int
        One entry per answer (positions); a worker answers a task at most once.
    n_tasks, n_workers, n_labels : int
    priors : array (R,)
    rows : array (W, R, K)
        The start, ``rows[w, ell, r] = P_{w,r|ell}`` over ``K >= R`` responses: the labels,
        then any abstentions (moved inside the simplex by ``FLOOR`` first).
    gold : array of int (T,), optional
        The known label of every gold task (a position), ``-1`` elsewhere.
    tolerance : float
        Stop when a round gains less than this log-likelihood per task.
    max_iterations : int
        At most this many EM steps; ``0`` returns the start with its posteriors.

    Returns
    -------
    CrowdRun
    """
    if tolerance < 0 or max_iterations < 0:
        raise SpecError(f"need tolerance >= 0 and max_iterations >= 0; got {tolerance}, {max_iterations}")
    priors, rows = np.asarray(priors, dtype=float), np.asarray(rows, dtype=float)
    _check_start(priors, rows, n_workers, n_labels)
    p = problem or CrowdLikelihood(
        task, worker, answer, n_tasks, n_workers, n_labels, gold, n_responses=rows.shape[2]
    )
    priors = np.maximum(priors, FLOOR) / np.maximum(priors, FLOOR).sum()
    rows = np.maximum(rows, FLOOR) / np.maximum(rows, FLOOR).sum(axis=2, keepdims=True)
    shape = rows.shape
    current, post = p.expect(priors, rows)
    steps, scale = 0, tolerance * max(n_tasks, 1)
    while steps < max_iterations:
        one = p.maximise(post)
        value_one, post_one = p.expect(*one)
        steps += 1
        if steps == max_iterations:  # no room for a second step: a plain EM step
            best, best_value, best_post = one, value_one, post_one
        else:
            two = p.maximise(post_one)
            value_two, post_two = p.expect(*two)
            steps += 1
            best, best_value, best_post = two, value_two, post_two
            x0, x1, x2 = _flat(priors, rows), _flat(*one), _flat(*two)
            r, v = x1 - x0, x2 - 2 * x1 + x0
            norm_v = float(np.linalg.norm(v))
            alpha = min(-1.0, -float(np.linalg.norm(r)) / norm_v) if norm_v > 0 else -1.0
            while alpha < -1.0 and steps < max_iterations:
                jump = x0 - 2 * alpha * r + alpha * alpha * v
                if np.all(jump > 0):
                    candidate = p.maximise(p.expect(*_split(jump, n_labels, shape))[1])
                    steps += 1
                    value, candidate_post = p.expect(*candidate)
                    if value >= value_two:
                        best, best_value, best_post = candidate, value, candidate_post
                        break
                alpha = (alpha - 1.0) / 2 if alpha < -2.0 else -1.0
        gain = best_value - current
        if not gain >= -1e-9 * (1 + abs(current)):  # rounding only: EM never loses more
            return CrowdRun(priors, rows, post, p.counts(post), current, steps, True)
        (priors, rows), current, post = best, best_value, best_post
        if gain <= scale:
            return CrowdRun(priors, rows, post, p.counts(post), current, steps, True)
    return CrowdRun(priors, rows, post, p.counts(post), current, steps, max_iterations == 0)


def maximise_answers(
    task: np.ndarray,
    worker: np.ndarray,
    answer: np.ndarray,
    n_workers: int,
    posteriors: np.ndarray,
    n_responses: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    r"""One M step: the ``(priors, rows)`` that posteriors ``(T, R)`` imply (e.g. a vote's shares).

    >>> post = np.array([[1.0, 0.0], [0.5, 0.5]])
    >>> priors, rows = maximise_answers(np.array([0, 1]), np.array([0, 0]), np.array([0, 1]), 1, post)
    >>> np.round(priors, 4).tolist(), np.round(rows[0], 4).tolist()
    ([0.75, 0.25], [[0.6667, 0.3333], [0.0, 1.0]])
    """
    n_tasks, r = posteriors.shape
    p = CrowdLikelihood(task, worker, answer, n_tasks, n_workers, r, None, n_responses=n_responses)
    return p.maximise(posteriors)


def objective(
    task: np.ndarray,
    worker: np.ndarray,
    answer: np.ndarray,
    n_tasks: int,
    priors: np.ndarray,
    rows: np.ndarray,
    gold: np.ndarray | None = None,
) -> float:
    r"""The penalised log-likelihood :func:`crowd_em` climbs, at ``priors, rows``."""
    p = CrowdLikelihood(
        task, worker, answer, n_tasks, rows.shape[0], len(priors), gold, n_responses=rows.shape[2]
    )
    return p.expect(np.asarray(priors, dtype=float), np.asarray(rows, dtype=float))[0]
