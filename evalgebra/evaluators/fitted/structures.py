r"""Maximum likelihood on a correlated structure of binary classifiers: the model and its climb.

A structure ``S`` (the subsets ``T`` whose error correlations are free) gives, for each true label
``ell``, the pattern distribution of the generating set,

.. math::

    m_\ell(d) = \prod_i q_{i,\ell}(d_i)
      + \sum_{T \in S} \sigma^\ell_T(d)\, G^\ell_T \prod_{i \notin T} q_{i,\ell}(d_i),

with ``q_{i,ell}(d_i) = P_{i,ell}`` when ``d_i = ell`` and ``1 - P_{i,ell}`` otherwise, and
``sigma^ell_T(d) = prod_{i in T} s_i`` (``s_i = +1`` when ``d_i = ell``, else ``-1``: the sign
convention of :meth:`~evalgebra.data.point.EvaluationPoint.pattern_distribution`). A pattern has
probability ``p(d) = P_a m_a(d) + P_b m_b(d)``. For one pair the pair's joint table per label is
free and the rest independent; overlapping subsets share their classifiers' rates. A point is
*inside* when its prevalence and accuracies lie in ``[0, 1]`` and every ``m_ell(d) >= 0`` (it is
then the sample statistics of a labelled test); the climb never leaves the inside.

The log-likelihood ``L = sum_d n_d log p(d)`` is climbed by Fisher scoring with Levenberg-Marquardt
damping ([1]_, [2]_): the step solves ``(F + lambda diag F) delta = grad L`` with the expected
information ``F = Q J^T diag(1/p) J`` (``J``: the Jacobian of ``p`` in the parameters), is taken
when it stays inside and does not lower ``L``, and is damped harder otherwise. A start at a
stationary point (an exact point of a sketch on the model: ``grad L = 0`` there, because ``p = n/Q``
sums to one) does not move. Each run ends at a local maximum near its start; which start wins is
the caller's business (:func:`fit_structure` keeps the largest likelihood).

Notes
-----
======================  =============================================================
code                    math
======================  =============================================================
``prevalence``          ``P_a`` (the first label's)
``accuracy[i, ell]``    ``P_{i,ell}``
``correlation[t]``      ``(G^a_T, G^b_T)`` of the ``t``-th subset of the structure
``vector()``            ``(P_a, P_{0,a}, P_{0,b}, ..., G^a_{T_0}, G^b_{T_0}, ...)``
======================  =============================================================

Examples
--------
One correlated pair among four classifiers, fitted on the exact sketch of a point of the model
from the independent point (no correlation): the climb reaches the point itself.

>>> from evalgebra.spec import EnsembleSpec
>>> from evalgebra.data.point import EvaluationPoint
>>> from evalgebra.data.simulate import expected_sketch
>>> spec = EnsembleSpec(4, 2, structure=[(0, 1)])
>>> truth = EvaluationPoint.from_values(
...     spec, {"a": "4/13"}, accuracy={0: {"a": "3/4", "b": "2/3"}, 1: {"a": "5/6", "b": "3/4"},
...                                    2: {"a": "2/3", "b": "5/6"}, 3: {"a": "3/4", "b": "3/4"}},
...     correlation={(0, 1): {"a": "1/24", "b": "1/36"}})
>>> counts = expected_sketch(truth).unlabelled().count_vector()
>>> model = StructureModel(4, ((0, 1),))
>>> start = StructurePoint(0.4, np.full((4, 2), 0.7), np.zeros((1, 2)))
>>> fit = fit_structure(model, counts, [("independent", start)])
>>> point = model.oriented(fit.point)
>>> round(point.prevalence, 6), np.round(point.correlation, 6).tolist()
(0.307692, [[0.041667, 0.027778]])
>>> bool(abs(fit.log_likelihood - fit.saturated_log_likelihood) < 1e-6)
True

References
----------
.. [1] A. Corrada-Emmanuel, "Streaming algorithms for evaluating noisy judges on unlabeled data -
   binary classification": the generating set with correlations (Theorems 1 and 3).
.. [2] D. W. Marquardt, "An algorithm for least-squares estimation of nonlinear parameters",
   Journal of the Society for Industrial and Applied Mathematics 11 (1963).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from evalgebra.errors import SketchError, SpecError
from evalgebra.structures import Structure

__all__ = ["StructurePoint", "StructureModel", "StructureRun", "StructureFit", "fit_structure", "RATE_MARGIN"]

#: A start's rates are moved at least this far inside ``(0, 1)`` (a rate at 0 or 1 would pin the climb).
RATE_MARGIN = 1e-6
#: The largest classifier count fitted (``2^N`` patterns are enumerated).
MAX_STRUCTURE_CLASSIFIERS = 12


@dataclass(frozen=True, eq=False)
class StructurePoint:
    """A point of a structure's model: ``prevalence`` (``P_a``), ``accuracy`` ``(N, 2)``, ``correlation``
    ``(|S|, 2)``.

    >>> StructurePoint(0.25, np.full((3, 2), 0.75), np.zeros((0, 2))).total_accuracy()
    4.5
    """

    prevalence: float
    accuracy: np.ndarray
    correlation: np.ndarray

    def vector(self) -> np.ndarray:
        """The parameters as one vector: ``P_a``, the accuracies by classifier, the correlations by subset."""
        return np.concatenate([[self.prevalence], self.accuracy.ravel(), self.correlation.ravel()])

    def total_accuracy(self) -> float:
        """``sum_i (P_{i,a} + P_{i,b})``: what decoding maximises."""
        return float(self.accuracy.sum())


@dataclass(frozen=True)
class StructureRun:
    """Where one climb stopped: its point, log-likelihood, steps and whether it converged."""

    point: StructurePoint
    log_likelihood: float
    iterations: int
    converged: bool


@dataclass(frozen=True)
class StructureFit:
    """The largest-likelihood run among the starts: ``point``, ``log_likelihood``, every run, the start
    names."""

    point: StructurePoint
    log_likelihood: float
    saturated_log_likelihood: float
    runs: tuple[StructureRun, ...]
    chosen: int
    start_names: tuple[str, ...]

    @property
    def converged(self) -> bool:
        return self.runs[self.chosen].converged


class StructureModel:
    r"""The pattern probabilities of binary classifiers whose errors correlate on ``structure``.

    Parameters
    ----------
    n_classifiers : int
    structure : tuple of tuple of int
        The correlated subsets (sorted index tuples, :data:`~evalgebra.structures.Structure`); the
        empty structure is the independent model.

    Examples
    --------
    >>> model = StructureModel(3, ((0, 1),))
    >>> point = StructurePoint(0.5, np.full((3, 2), 0.75), np.array([[0.05, -0.02]]))
    >>> p = model.probabilities(point)
    >>> p.shape, round(float(p.sum()), 12), model.n_parameters
    ((8,), 1.0, 9)
    >>> bool(np.allclose(model.probabilities(model.swapped(point)), p))
    True
    """

    def __init__(self, n_classifiers: int, structure: Structure) -> None:
        if not 1 <= n_classifiers <= MAX_STRUCTURE_CLASSIFIERS:
            raise SpecError(
                f"fits structures on 1 to {MAX_STRUCTURE_CLASSIFIERS} classifiers, got {n_classifiers}"
            )
        subsets = tuple(tuple(sorted(int(i) for i in s)) for s in structure)
        if any(len(s) < 2 or len(set(s)) != len(s) or s[0] < 0 or s[-1] >= n_classifiers for s in subsets):
            raise SpecError(
                f"structure {subsets!r}: each subset needs 2 or more distinct classifiers among "
                f"0..{n_classifiers - 1}"
            )
        if len(set(subsets)) != len(subsets):
            raise SpecError(f"structure {subsets!r} lists a subset twice")
        self.n_classifiers = n_classifiers
        self.structure: Structure = subsets
        n, size = n_classifiers, len(subsets)
        codes = np.arange(2**n)
        self.patterns = (codes[:, None] >> (n - 1 - np.arange(n))[None, :]) & 1  # classifier 0 slowest
        members = np.zeros((size + 1, n), dtype=bool)  # row 0: the empty subset (the independent term)
        for t, subset in enumerate(subsets, start=1):
            members[t, list(subset)] = True
        self._members = members
        # removed[t, j, i]: classifier i left out of the product of term t differentiated in P_j (j = n: none)
        self._removed = members[:, None, :] | np.eye(n + 1, n, dtype=bool)[None, :, :]
        self._outside = ~members  # (|S| + 1, N): P_j appears in term t
        self._correct = np.stack([self.patterns == ell for ell in (0, 1)])  # (2, P, N)
        sign = np.where(self._correct, 1.0, -1.0)
        self._sign_t = sign.transpose(0, 2, 1)  # (2, N, P)
        self._subset_sign = np.where(members[None, :, None, :], sign[:, None, :, :], 1.0).prod(axis=3)

    @property
    def n_parameters(self) -> int:
        """``1 + 2 N + 2 |S|``: the prevalence, two accuracies per classifier, two correlations per subset."""
        return 1 + 2 * self.n_classifiers + 2 * len(self.structure)

    def point(self, vector: np.ndarray) -> StructurePoint:
        """The point of a parameter vector (:meth:`StructurePoint.vector`'s order)."""
        n = self.n_classifiers
        return StructurePoint(
            float(vector[0]), vector[1 : 1 + 2 * n].reshape(n, 2), vector[1 + 2 * n :].reshape(-1, 2)
        )

    def _labels(self, point: StructurePoint, jacobian: bool) -> tuple[np.ndarray, np.ndarray | None]:
        """``m_ell`` over every pattern ``(2, P)`` and, if asked, its derivatives ``(2, N + |S|, P)`` in
        ``P_{.,ell}`` and ``G^ell`` (both labels at once)."""
        rates = point.accuracy.T[:, None, :]  # (2, 1, N)
        q = np.where(self._correct, rates, 1.0 - rates)  # (2, P, N)
        weight = np.concatenate([np.ones((2, 1)), point.correlation.T], axis=1)  # G of the empty subset: 1
        signed = self._subset_sign * weight[:, :, None]  # (2, |S| + 1, P)
        if not jacobian:
            rest = np.where(self._members[None, :, None, :], 1.0, q[:, None, :, :]).prod(axis=3)
            return (signed * rest).sum(axis=1), None
        products = np.where(self._removed[None, :, :, None, :], 1.0, q[:, None, None, :, :]).prod(axis=4)
        rest = products[:, :, -1, :]  # (2, |S| + 1, P): nothing but the subset left out
        value = (signed * rest).sum(axis=1)
        by_rate = (signed[:, :, None, :] * products[:, :, :-1, :] * self._outside[None, :, :, None]).sum(
            axis=1
        )
        by_rate *= self._sign_t  # (2, N, P)
        by_correlation = self._subset_sign[:, 1:] * rest[:, 1:]
        return value, np.concatenate([by_rate, by_correlation], axis=1)

    def conditional(self, point: StructurePoint) -> np.ndarray:
        """``m_ell(d)`` for both labels, ``(2, 2^N)``."""
        return self._labels(point, False)[0]

    def probabilities(self, point: StructurePoint) -> np.ndarray:
        """``p(d) = P_a m_a(d) + P_b m_b(d)`` over every pattern (classifier 0 slowest, ``a`` first)."""
        m = self.conditional(point)
        return point.prevalence * m[0] + (1.0 - point.prevalence) * m[1]

    def conditional_jacobian(self, point: StructurePoint) -> tuple[np.ndarray, np.ndarray]:
        """``(m, dm/dtheta)``: both labels' pattern distributions ``(2, 2^N)`` and their Jacobians
        ``(2, 2^N, n_parameters)`` (label ``ell``'s depends on its own accuracies and correlations only)."""
        n = self.n_classifiers
        values, derivative = self._labels(point, True)
        assert derivative is not None
        out = np.zeros((2, 2**n, self.n_parameters))
        for ell in (0, 1):
            out[ell, :, 1 + ell : 1 + 2 * n : 2] = derivative[ell, :n].T
            out[ell, :, 1 + 2 * n + ell :: 2] = derivative[ell, n:].T
        return values, out

    def jacobian(self, point: StructurePoint) -> tuple[np.ndarray, np.ndarray]:
        """``(p, dp/dtheta)``: the probabilities and their Jacobian ``(2^N, n_parameters)``."""
        m, dm = self.conditional_jacobian(point)
        weight = point.prevalence
        out = weight * dm[0] + (1.0 - weight) * dm[1]
        out[:, 0] = m[0] - m[1]
        return weight * m[0] + (1.0 - weight) * m[1], out

    def is_inside(self, point: StructurePoint) -> bool:
        """Prevalence and accuracies in ``[0, 1]``, every ``m_ell(d) >= 0``."""
        if not (0.0 <= point.prevalence <= 1.0) or not np.all((point.accuracy >= 0) & (point.accuracy <= 1)):
            return False
        return bool(np.all(self.conditional(point) >= 0.0))

    def log_likelihood(self, counts: np.ndarray, point: StructurePoint) -> float:
        """``sum_d n_d log p(d)`` (``-inf`` when a pattern seen has probability 0 or less)."""
        p = self.probabilities(point)
        seen = counts > 0
        if np.any(p[seen] <= 0):
            return -math.inf
        return float(np.sum(counts[seen] * np.log(p[seen])))

    def inside_log_likelihood(self, counts: np.ndarray, point: StructurePoint) -> float | None:
        """:meth:`log_likelihood` at a point inside, ``None`` when the point is not (one pass)."""
        if not (0.0 <= point.prevalence <= 1.0) or not np.all((point.accuracy >= 0) & (point.accuracy <= 1)):
            return None
        m = self.conditional(point)
        if not np.all(m >= 0.0):
            return None
        p = point.prevalence * m[0] + (1.0 - point.prevalence) * m[1]
        seen = counts > 0
        if np.any(p[seen] <= 0):
            return None
        return float(np.sum(counts[seen] * np.log(p[seen])))

    def swapped(self, point: StructurePoint) -> StructurePoint:
        """The same distribution with the hidden labels swapped: ``P_a <-> P_b``, ``P_{i,a} <-> 1 - P_{i,b}``,
        ``G^a_T <-> (-1)^|T| G^b_T``."""
        sign = np.array([(-1.0) ** len(s) for s in self.structure])[:, None]
        return StructurePoint(
            1.0 - point.prevalence, 1.0 - point.accuracy[:, ::-1], sign * point.correlation[:, ::-1]
        )

    def oriented(self, point: StructurePoint, bounds: tuple[float, float] | None = None) -> StructurePoint:
        """The labelling decoding chooses: the prevalence in ``bounds`` if given (when one of the two is),
        then the larger summed total accuracy (the point as it is on a tie)."""
        options = [point, self.swapped(point)]
        if bounds is not None:
            inside = [p for p in options if bounds[0] <= p.prevalence <= bounds[1]]
            options = inside or options
        return max(options, key=lambda p: p.total_accuracy() + (1e-12 if p is point else 0.0))

    def inside(self, point: StructurePoint) -> StructurePoint:
        """The point moved inside: rates clipped to ``[RATE_MARGIN, 1 - RATE_MARGIN]``, the correlations
        shrunk towards 0 until every ``m_ell(d)`` is positive. A point already inside with rates off the
        boundary is left as it is (an exact maximum stays exact)."""
        accuracy = np.nan_to_num(np.asarray(point.accuracy, dtype=float), nan=0.5)
        correlation = np.nan_to_num(np.asarray(point.correlation, dtype=float), nan=0.0)
        prevalence = float(np.nan_to_num(point.prevalence, nan=0.5))
        moved = StructurePoint(
            min(max(prevalence, RATE_MARGIN), 1 - RATE_MARGIN),
            accuracy.clip(RATE_MARGIN, 1 - RATE_MARGIN),
            correlation,
        )
        independent = StructurePoint(moved.prevalence, moved.accuracy, np.zeros_like(correlation))
        base = self.conditional(independent)  # > 0: every rate is inside (0, 1)
        extra = self.conditional(moved) - base  # linear in the correlations
        negative = extra < 0
        scale = 1.0
        if np.any(negative & (base + extra <= 0)):
            scale = 0.99 * float(np.min(base[negative] / -extra[negative]))
        return StructurePoint(moved.prevalence, moved.accuracy, min(1.0, scale) * correlation)


def _objective(model: StructureModel, counts: np.ndarray, x: np.ndarray, barrier: float) -> float | None:
    """``L + barrier * (sum log m_ell(d) + log P_a + log P_b)`` at a point inside; ``None`` outside."""
    point = model.point(x)
    value = model.inside_log_likelihood(counts, point)
    if value is None or barrier == 0.0:
        return value
    m = model.conditional(point)
    if np.any(m <= 0) or not 0.0 < point.prevalence < 1.0:
        return None
    return value + barrier * float(
        np.log(m).sum() + math.log(point.prevalence) + math.log1p(-point.prevalence)
    )


def _ascend(
    model: StructureModel,
    counts: np.ndarray,
    x: np.ndarray,
    barrier: float,
    tolerance: float,
    max_iterations: int,
) -> tuple[np.ndarray, float, int, bool]:
    """Damped Fisher scoring on :func:`_objective`: ``(x, value, iterations, converged)``; ``converged`` is
    False when the steps ran out (no step inside raised the objective) or the iterations did."""
    total = float(counts.sum())
    seen = counts > 0
    current = _objective(model, counts, x, barrier)
    assert current is not None
    damping, outside = 1e-8, 0
    for iteration in range(1, max_iterations + 1):
        point = model.point(x)
        m, dm = model.conditional_jacobian(point)
        weight = point.prevalence
        p = weight * m[0] + (1.0 - weight) * m[1]
        jacobian = weight * dm[0] + (1.0 - weight) * dm[1]
        jacobian[:, 0] = m[0] - m[1]
        score = jacobian[seen].T @ (counts[seen] / p[seen])
        positive = p > 0
        information = total * (jacobian[positive].T / p[positive]) @ jacobian[positive]
        if barrier:
            flat, rows = m.reshape(-1), dm.reshape(-1, model.n_parameters)
            score += barrier * (rows.T @ (1.0 / flat))
            score[0] += barrier * (1.0 / weight - 1.0 / (1.0 - weight))
            information += barrier * (rows.T / flat**2) @ rows
            information[0, 0] += barrier * (1.0 / weight**2 + 1.0 / (1.0 - weight) ** 2)
        diagonal = np.diag(information) + 1e-12 * float(np.max(np.diag(information))) + 1e-300
        while True:
            try:
                direction = np.linalg.solve(information + damping * np.diag(diagonal), score)
            except np.linalg.LinAlgError:
                direction = None
            value, step = None, direction
            if direction is not None:
                fraction = 1.0
                for _ in range(3):  # a step that leaves the model is shortened first
                    step = fraction * direction
                    value = _objective(model, counts, x + step, barrier)
                    if value is not None:
                        break
                    outside += 1
                    fraction /= 2
            if step is not None and value is not None and value >= current:
                break
            if (
                not barrier and outside > OUTSIDE_STEPS
            ):  # pressed against the boundary: the barrier does better
                return x, current, iteration, False
            if damping > 1e12 or (step is not None and float(np.max(np.abs(step))) < 1e-15):
                return x, current, iteration, False
            damping *= 10
        gain, moved = value - current, float(np.max(np.abs(step)))
        x, current = x + step, value
        damping = max(damping / 100, 1e-12)
        if gain <= tolerance * (1 + abs(current)) and moved <= math.sqrt(tolerance):
            return x, current, iteration, True
    return x, current, max_iterations, False


#: Steps leaving the model after which the plain ascent hands over to the interior-point continuation.
OUTSIDE_STEPS = 6
#: The barrier weights (times the test's size) of the interior-point continuation, then 0 (the polish).
BARRIERS = (1e-6, 1e-9, 0.0)
#: A run whose smallest ``m_ell(d)`` is above this ended inside, not on the boundary.
INTERIOR = 1e-6


def _climb(
    model: StructureModel, counts: np.ndarray, start: StructurePoint, tolerance: float, max_iterations: int
) -> StructureRun:
    """From ``start`` (inside) to a local maximum: damped Fisher scoring, and where it stops near the
    boundary of the model (a pattern of probability near 0 under one label, where the damped steps shrink
    before the maximum is reached), an interior-point continuation from there (the barriers
    :data:`BARRIERS`), keeping whichever ends more likely."""
    x, value, steps, converged = _ascend(model, counts, start.vector(), 0.0, tolerance, max_iterations)
    if converged and float(model.conditional(model.point(x)).min()) > INTERIOR:
        return StructureRun(model.point(x), value, steps, True)
    total = float(counts.sum())
    y = model.inside(model.point(x)).vector()
    if _objective(model, counts, y, BARRIERS[0] * total) is None:
        return StructureRun(model.point(x), value, steps, converged)
    used, done = steps, False
    for weight in BARRIERS:
        loose = max(tolerance, 1e-8) if weight else tolerance  # the path's stages need not be exact
        y, _, taken, done = _ascend(model, counts, y, weight * total, loose, max_iterations)
        used += taken
    polished = model.log_likelihood(counts, model.point(y))
    if polished >= value:
        return StructureRun(model.point(y), polished, used, True)
    return StructureRun(model.point(x), value, used, converged or done)


def fit_structure(
    model: StructureModel,
    counts: Sequence[float] | np.ndarray,
    starts: Sequence[tuple[str, StructurePoint]],
    *,
    tolerance: float = 1e-11,
    max_iterations: int = 400,
) -> StructureFit:
    r"""The largest local maximum of the structure's likelihood found from ``starts`` (each moved inside).

    Parameters
    ----------
    model : StructureModel
    counts : array of ``2^N`` non-negative counts
        Classifier 0 slowest, ``a`` before ``b`` (:meth:`~evalgebra.data.sketch.Sketch.count_vector`).
    starts : sequence of (name, StructurePoint)
        At least one; the independent fit (correlations 0) makes the result at least as likely as it.

    Returns
    -------
    StructureFit
        The run with the largest log-likelihood (the first among equals) and every run; the point
        in the labels its start had (see :meth:`StructureModel.oriented` to decode).
    """
    values = np.asarray(counts, dtype=float)
    if values.shape != (2**model.n_classifiers,) or np.any(values < 0) or not np.all(np.isfinite(values)):
        raise SketchError(
            f"need {2**model.n_classifiers} non-negative pattern counts, got shape {values.shape}"
        )
    if values.sum() <= 0:
        raise SketchError("empty test: the counts sum to 0")
    if not starts:
        raise SpecError("fit_structure needs at least one start (the independent fit, say)")
    runs = tuple(_climb(model, values, model.inside(start), tolerance, max_iterations) for _, start in starts)
    chosen = int(np.argmax([run.log_likelihood for run in runs]))
    seen = values > 0
    saturated = float(np.sum(values[seen] * np.log(values[seen] / values.sum())))
    best = runs[chosen]
    return StructureFit(
        best.point, best.log_likelihood, saturated, runs, chosen, tuple(name for name, _ in starts)
    )
