r"""Maximum likelihood on the independent model, from a sketch's cells: the EM iteration.

The independent model with ``R`` hidden labels, ``K`` responses (the labels, then any
abstentions) and ``S`` populations gives pattern ``d`` of population ``s`` the probability

.. math::

    p_s(d) = \sum_{\ell} P_{s,\ell} \prod_i P_{i, d_i | \ell},

and a sketch's counts ``n_s(d)`` the log-likelihood ``L = sum n_s(d) log p_s(d)``. Its
maximum inside the simplex is found by the EM iteration of Dawid and Skene [1]_ run on the
sketch's non-empty *cells* (one row per observed pattern and population, weighted by its
count) instead of on items: the same fixed points, a cost that grows with the number of
distinct patterns, not with the test's size.

- E step: ``w[k, ell] = P_{s_k,ell} prod_i P_{i,d_ki|ell} / p_{s_k}(d_k)``, the posterior of
  the label of cell ``k`` (in logarithms, so that rates of 0 and patterns of tiny probability
  stay exact to the last bit a float has).
- M step: ``P_{s,ell} = sum_{k in s} n_k w[k, ell] / Q_s`` and
  ``P_{i,r|ell} = sum_{k: d_ki = r} n_k w[k, ell] / sum_k n_k w[k, ell]``.

Each step never lowers ``L`` ([2]_, theorem 1), so the iteration stops when a step gains less
than ``tolerance * (1 + |L|)``: a *local* maximum near its start. Which start wins among several
(the algebraic points, majority vote) is :mod:`evalgebra.evaluators.fitted.fit`'s business; a
certificate that a maximum is global needs the score equations.

Notes
-----
=================  ====================================================
code               math
=================  ====================================================
``answers[k, i]``  ``d_ki``: response of classifier ``i`` in cell ``k``
``weights[k]``     ``n_k``: the cell's count
``population[k]``  ``s_k``
``prevalence``     ``P_{s,ell}``, shape ``(S, R)``
``response``       ``P_{i,r|ell}``, shape ``(N, R, K)``
=================  ====================================================

Examples
--------
>>> import numpy as np
>>> cells = Cells(np.array([[0, 0], [0, 1], [1, 0], [1, 1]]), np.array([40, 10, 10, 40]),
...               np.zeros(4, dtype=int), n_labels=2, n_responses=2, n_populations=1)
>>> start = Parameters(np.array([[0.5, 0.5]]), np.array([[[0.8, 0.2], [0.2, 0.8]]] * 2))
>>> fit = em(cells, start)
>>> fit.converged, round(fit.log_likelihood, 6) == round(cells.saturated_log_likelihood(), 6)
(True, True)

References
----------
.. [1] A. P. Dawid and A. M. Skene, "Maximum likelihood estimation of observer error-rates
   using the EM algorithm", Journal of the Royal Statistical Society C 28 (1979).
.. [2] A. P. Dempster, N. M. Laird and D. B. Rubin, "Maximum likelihood from incomplete data
   via the EM algorithm", Journal of the Royal Statistical Society B 39 (1977).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from evalgebra.errors import SpecError

__all__ = ["Cells", "Parameters", "EMFit", "em", "log_likelihood", "maximise", "RATE_FLOOR"]

#: Rates of a start are moved at least this far inside the simplex: EM cannot leave a zero rate,
#: so a start on the boundary would pin the fit there.
RATE_FLOOR = 1e-6


@dataclass(frozen=True)
class Cells:
    """A sketch's non-empty cells: answers ``(K, N)``, counts ``(K,)``, population ``(K,)``."""

    answers: np.ndarray
    weights: np.ndarray
    population: np.ndarray
    n_labels: int
    n_responses: int
    n_populations: int

    def __post_init__(self) -> None:
        if (
            self.answers.ndim != 2
            or self.weights.shape != (self.answers.shape[0],)
            or self.population.shape != self.weights.shape
        ):
            raise SpecError(
                "cells need answers of shape (cells, classifiers) and one count and population per cell"
            )
        if self.n_responses < self.n_labels or self.n_labels < 2:
            raise SpecError(
                f"need at least 2 labels and as many responses; got {self.n_labels} and {self.n_responses}"
            )

    @property
    def n_classifiers(self) -> int:
        return int(self.answers.shape[1])

    @functools.cached_property
    def flat_answers(self) -> np.ndarray:
        """``i K + d_ki`` for every cell and classifier, ``(cells, N)``: the row of ``(i, d_ki)`` in a
        ``(N K, R)`` table of rates."""
        return self.answers + self.n_responses * np.arange(self.n_classifiers)[None, :]

    @functools.cached_property
    def indicator(self) -> np.ndarray:
        """``[d_ki = r]`` as ``(N K, cells)`` floats: the M step's counts are one product with it."""
        out = np.zeros((self.n_classifiers * self.n_responses, self.answers.shape[0]))
        out[self.flat_answers.T, np.arange(self.answers.shape[0])[None, :]] = 1.0
        return out

    @functools.cached_property
    def all_seen(self) -> bool:
        """Every cell has a positive count (the log-likelihood needs no mask)."""
        return bool(np.all(self.weights > 0))

    def sizes(self) -> np.ndarray:
        """``Q_s``: items of each population."""
        return np.bincount(self.population, weights=self.weights, minlength=self.n_populations)

    def saturated_log_likelihood(self) -> float:
        """``sum n_k log(n_k / Q_s)``: the largest log-likelihood any model can reach."""
        q = self.sizes()[self.population]
        keep = self.weights > 0
        return float(np.sum(self.weights[keep] * np.log(self.weights[keep] / q[keep])))


@dataclass(frozen=True)
class Parameters:
    """``prevalence`` ``(S, R)`` and ``response`` ``(N, R, K)``: a point of the independent model."""

    prevalence: np.ndarray
    response: np.ndarray

    def inside(self, floor: float = RATE_FLOOR) -> Parameters:
        """The point moved inside the simplex: NaN to 0, every rate at least ``floor``, rows summing to 1.

        A point already inside (every rate at least ``floor``, rows summing to 1) is left as it is,
        so that EM started at an exact maximum stays there.
        """
        prevalence = np.nan_to_num(np.asarray(self.prevalence, dtype=float), nan=0.0).clip(floor, None)
        response = np.nan_to_num(np.asarray(self.response, dtype=float), nan=0.0).clip(floor, None)
        return Parameters(
            prevalence / prevalence.sum(axis=-1, keepdims=True),
            response / response.sum(axis=-1, keepdims=True),
        )


@dataclass(frozen=True)
class EMFit:
    """Where an EM run stopped: its parameters, log-likelihood, posteriors per cell, steps."""

    parameters: Parameters
    log_likelihood: float
    posterior: np.ndarray
    iterations: int
    converged: bool


def _log_joint(cells: Cells, point: Parameters) -> np.ndarray:
    """``log P_{s_k,ell} + sum_i log P_{i,d_ki|ell}`` for every cell and label, ``(K, R)``."""
    with np.errstate(divide="ignore"):
        log_prevalence = np.log(point.prevalence)
        by_answer = np.log(point.response.transpose(0, 2, 1).reshape(-1, cells.n_labels))  # (N K, R)
    index = cells.flat_answers
    joint = by_answer[index[:, 0]] + (
        log_prevalence[0] if cells.n_populations == 1 else log_prevalence[cells.population]
    )
    for i in range(1, cells.n_classifiers):
        joint += by_answer[index[:, i]]
    return joint


def _normalise(joint: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(log p_k, posterior)`` from the log joint, stably."""
    top = joint.max(axis=1, keepdims=True)
    if not np.isfinite(top).all():  # a cell no label explains (probability 0): the careful route
        top = np.where(np.isfinite(top), top, 0.0)
        scaled = np.exp(joint - top)
        total = scaled.sum(axis=1, keepdims=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            log_p = (np.log(total) + top)[:, 0]
            posterior = scaled / total
        return log_p, np.nan_to_num(posterior)
    scaled = np.exp(joint - top)
    total = scaled.sum(axis=1, keepdims=True)
    return (np.log(total) + top)[:, 0], scaled / total


def log_likelihood(cells: Cells, point: Parameters) -> float:
    """``sum_k n_k log p_{s_k}(d_k)`` at ``point`` (``-inf`` when a cell seen has probability 0)."""
    return _posterior_at(cells, point)[0]


def maximise(cells: Cells, posterior: np.ndarray) -> Parameters:
    """The M step: the point that maximises the expected log-likelihood given the posteriors ``(K, R)``."""
    weighted = posterior * cells.weights[:, None]  # (K, R)
    if cells.n_populations == 1:
        prevalence = weighted.sum(axis=0, keepdims=True)
    else:
        prevalence = np.zeros((cells.n_populations, cells.n_labels))
        np.add.at(prevalence, cells.population, weighted)
    sizes = prevalence.sum(axis=1, keepdims=True)
    mass = weighted.sum(axis=0)  # (R,)
    # counts[i, r, ell] = sum over the cells where classifier i answered r
    counts = (cells.indicator @ weighted).reshape(cells.n_classifiers, cells.n_responses, cells.n_labels)
    if sizes.min() > 0 and mass.min() > 0:
        return Parameters(prevalence / sizes, counts.transpose(0, 2, 1) / mass[None, :, None])
    prevalence = np.divide(
        prevalence, sizes, out=np.full_like(prevalence, 1.0 / cells.n_labels), where=sizes > 0
    )
    response = np.divide(
        counts.transpose(0, 2, 1),
        mass[None, :, None],
        out=np.full((cells.n_classifiers, cells.n_labels, cells.n_responses), 1.0 / cells.n_responses),
        where=mass[None, :, None] > 0,
    )
    return Parameters(prevalence, response)


def _posterior_at(cells: Cells, point: Parameters) -> tuple[float, np.ndarray]:
    """``(L, posterior)`` at ``point``."""
    log_p, posterior = _normalise(_log_joint(cells, point))
    if cells.all_seen:  # a pairwise sum (np.sum), not a dot product: L of a huge exact test to the last ulp
        return float(np.sum(cells.weights * log_p)), posterior
    keep = cells.weights > 0
    return float(np.sum(cells.weights[keep] * log_p[keep])), posterior


def _flat(point: Parameters) -> np.ndarray:
    return np.concatenate([point.prevalence.ravel(), point.response.ravel()])


def _unflat(vector: np.ndarray, like: Parameters) -> Parameters:
    cut = like.prevalence.size
    return Parameters(vector[:cut].reshape(like.prevalence.shape), vector[cut:].reshape(like.response.shape))


def em(cells: Cells, start: Parameters, *, tolerance: float = 1e-12, max_iterations: int = 20_000) -> EMFit:
    """EM from ``start`` (taken as it is: see :meth:`Parameters.inside`) to a local maximum.

    Accelerated by SQUAREM ([3]_: two EM steps, an extrapolation along them that stays inside the
    simplex and does not lower ``L``, and one EM step from there), which keeps EM's fixed points and
    its ascent while taking far fewer steps where EM crawls (weakly identified labels, rates near 0).
    Stops when a round gains less than ``tolerance * (1 + |L|)`` and moves no rate by more than
    ``sqrt(tolerance)`` (``converged``), or after ``max_iterations`` EM steps (not converged).

    References
    ----------
    .. [3] R. Varadhan and C. Roland, "Simple and globally convergent methods for accelerating the
       convergence of any EM algorithm", Scandinavian Journal of Statistics 35 (2008).
    """
    if start.prevalence.shape != (cells.n_populations, cells.n_labels) or start.response.shape != (
        cells.n_classifiers,
        cells.n_labels,
        cells.n_responses,
    ):
        raise SpecError(
            f"start of shapes {start.prevalence.shape} and {start.response.shape} does not fit "
            f"{cells.n_populations} population(s), {cells.n_classifiers} classifiers, "
            f"{cells.n_labels} labels and {cells.n_responses} responses"
        )
    point = start
    current, posterior = _posterior_at(cells, point)
    steps = 0
    while steps < max_iterations:
        one = maximise(cells, posterior)
        value_one, posterior_one = _posterior_at(cells, one)
        two = maximise(cells, posterior_one)
        value_two, posterior_two = _posterior_at(cells, two)
        steps += 2
        best, best_value, best_posterior = two, value_two, posterior_two
        x0, x1, x2 = _flat(point), _flat(one), _flat(two)
        r, v = x1 - x0, x2 - 2 * x1 + x0
        norm_v = float(np.linalg.norm(v))
        if norm_v > 0 and np.isfinite(value_two):
            alpha = min(-1.0, -float(np.linalg.norm(r)) / norm_v)
            while alpha < -1.0:
                jump = x0 - 2 * alpha * r + alpha * alpha * v
                if np.all(jump >= 0):
                    candidate = maximise(cells, _posterior_at(cells, _unflat(jump, point))[1])
                    steps += 1
                    value, post = _posterior_at(cells, candidate)
                    if value >= value_two:
                        best, best_value, best_posterior = candidate, value, post
                        break
                alpha = (alpha - 1.0) / 2 if alpha < -2.0 else -1.0
        if not best_value >= current - 1e-9 * (1 + abs(current)):  # rounding only: EM never loses more
            return EMFit(point, current, posterior, steps, True)
        moved = float(np.max(np.abs(_flat(best) - x0)))
        gain = best_value - current
        point, current, posterior = best, best_value, best_posterior
        if gain <= tolerance * (1 + abs(current)) and moved <= math.sqrt(tolerance):
            return EMFit(point, current, posterior, steps, True)
    return EMFit(point, current, posterior, steps, False)
