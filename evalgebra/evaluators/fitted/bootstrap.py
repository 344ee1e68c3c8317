r"""Confidence intervals of the fitted evaluation: a bootstrap that refits the model on every resample.

The fitted point is a function of the sketch's pattern counts: the maximum of the likelihood
of the model on them. Treating the test's items as a sample, its sampling variation is read off
resamples of the items, and a resample of the items is a multinomial draw of the counts over
the patterns the sketch holds (with the test's size; stratified by population when there are
several). :func:`bootstrap_fit` draws ``n_boot`` of them at once and refits every one by the
vectorised EM of :mod:`~evalgebra.evaluators.fitted.batch`, warm-started from the full data's
fitted point (the resample's maximum lies near it: a few SQUAREM rounds each). Two things a
refit can do are handled, never hidden:

- **label switching**: the model does not know which hidden label is which, so a resample's
  fit may come back with its labels permuted. Each resample's labels are renamed to match the
  full fit (the renaming with the least summed absolute difference of prevalences and response
  rows, an assignment problem solved exactly), and the renamed resamples are counted
  (``relabelled``).
- **failure**: a refit that does not converge within ``max_iterations`` EM steps, or ends on a
  point with an undefined rate, is left out of the percentiles and counted by reason
  (``not_converged``, ``undefined``) in the result's ``intervals.failed``.

:func:`fitted_intervals` turns the refits into percentile intervals ([1]_: the ``(1 - level)/2``
and ``(1 + level)/2`` quantiles of every statistic over the resamples), widened to contain the
estimate, for the prevalences, the accuracies and (with three or more labels or abstentions)
every response rate of the chosen point. What is implemented is the nonparametric bootstrap
(items resampled); ``benchmarks/bench_fitted_coverage.py`` measures its coverage on simulated
sampled tests.

What the intervals cover: the sampling variation of the maximum-likelihood point under the
model fitted (errors independent given the true label, unless the cells say otherwise). A
model that does not hold gives intervals around a biased point; the verdict ``fit_rejected``
and the goodness of fit are the evidence for that.

Examples
--------
>>> from evalgebra import datasets
>>> from evalgebra.evaluators.dispatch import evaluate
>>> sketch = datasets.load("bigbench_mistake").unlabelled()
>>> result = fitted_intervals(evaluate(sketch), sketch, n_boot=200, seed=0)
>>> result.verdict, result.intervals.estimator, result.intervals.n_boot
('fitted', 'fitted', 200)
>>> low, high = result.point.interval["prevalence"]["a"]
>>> bool(0 <= low <= result.point.prevalence["a"] <= high <= 1)
True

References
----------
.. [1] B. Efron and R. J. Tibshirani, "An Introduction to the Bootstrap", Chapman and Hall
   (1993), chapter 13 (the percentile interval).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError, SpecError
from evalgebra.evaluators.fitted.batch import batch_em
from evalgebra.evaluators.fitted.em import Cells, Parameters
from evalgebra.evaluators.fitted.fit import sketch_cells, start_from_estimate
from evalgebra.evaluators.intervals.confidence import StatisticKey, interval_tree, statistic_value
from evalgebra.numbers.seeds import check_seed
from evalgebra.results import Evaluation, IntervalInfo

__all__ = ["FittedDraws", "bootstrap_fit", "align_labels", "fitted_intervals", "FITTED_RESAMPLES"]

#: Resamples drawn when ``n_boot`` is not given.
FITTED_RESAMPLES = 1000

#: Largest number of (resample, cell, label) entries refitted in one vectorised call.
_CHUNK = 1 << 22


@dataclass(frozen=True)
class FittedDraws:
    r"""The refits of a bootstrap, their labels aligned with the full fit's.

    ``prevalence`` ``(B, S, R)`` and ``response`` ``(B, N, R, V)`` of every resample;
    ``reasons`` ``(B,)``: ``""`` for a usable refit, else why it failed (``not_converged``,
    ``undefined``); ``relabelled`` ``(B,)``: whose labels were renamed; ``iterations`` ``(B,)``.

    Examples
    --------
    >>> draws = FittedDraws(np.full((2, 1, 2), 0.5), np.full((2, 1, 2, 2), 0.5),
    ...                     np.array(["", "not_converged"], dtype=object), np.zeros(2, dtype=bool),
    ...                     np.array([4, 20_000]))
    >>> draws.failed(), draws.usable.tolist()
    ({'not_converged': 1}, [True, False])
    """

    prevalence: np.ndarray
    response: np.ndarray
    reasons: np.ndarray
    relabelled: np.ndarray
    iterations: np.ndarray

    @property
    def usable(self) -> np.ndarray:
        """Which refits enter the percentiles."""
        return self.reasons == ""

    def failed(self) -> dict[str, int]:
        """Failed refits counted by reason."""
        out: dict[str, int] = {}
        for reason in self.reasons[~self.usable]:
            out[str(reason)] = out.get(str(reason), 0) + 1
        return dict(sorted(out.items()))


def align_labels(
    prevalence: np.ndarray, response: np.ndarray, reference: Parameters
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Rename every point's hidden labels to match ``reference``: ``(prevalence, response, renamed)``.

    The cost of giving point label ``m`` the reference's label ``m'`` is
    ``sum_s |P_{s,m} - P'_{s,m'}| + sum_{i,r} |P_{i,r|m} - P'_{i,r|m'}|``; the renaming is the
    assignment of least total cost (:func:`scipy.optimize.linear_sum_assignment`, exact).
    Only the hidden labels move (rows of the response matrices); the answers stay.

    Parameters
    ----------
    prevalence : numpy.ndarray, shape (B, S, R)
    response : numpy.ndarray, shape (B, N, R, V)
    reference : Parameters
        ``(S, R)`` and ``(N, R, V)``.

    Examples
    --------
    >>> ref = Parameters(np.array([[0.3, 0.7]]), np.array([[[0.9, 0.1], [0.2, 0.8]]]))
    >>> swapped = np.array([[[0.7, 0.3]]]), np.array([[[[0.2, 0.8], [0.9, 0.1]]]])
    >>> p, r, renamed = align_labels(*swapped, ref)
    >>> p.tolist(), renamed.tolist()
    ([[[0.3, 0.7]]], [True])
    """
    from scipy.optimize import linear_sum_assignment

    ref_p = np.asarray(reference.prevalence, dtype=float)
    ref_r = np.asarray(reference.response, dtype=float)
    cost = np.abs(prevalence[:, :, :, None] - ref_p[None, :, None, :]).sum(axis=1)  # (B, R, R')
    cost = cost + np.abs(response[:, :, :, None, :] - ref_r[None, :, None, :, :]).sum(axis=(1, 4))
    size, n_labels = prevalence.shape[0], prevalence.shape[2]
    source = np.tile(np.arange(n_labels), (size, 1))
    identity = np.arange(n_labels)
    for b in range(size):
        if not np.isfinite(cost[b]).all() or cost[b].diagonal().sum() <= cost[b].min(axis=1).sum():
            continue  # the labels already match as well as any renaming can (or the point is undefined)
        rows, cols = linear_sum_assignment(cost[b])
        source[b, cols] = rows  # reference label cols[k] <- the point's label rows[k]
    renamed = (source != identity).any(axis=1)
    batch = np.arange(size)[:, None]
    out_p = prevalence[batch[:, :, None], np.arange(prevalence.shape[1])[None, :, None], source[:, None, :]]
    out_r = response[
        batch[:, :, None, None],
        np.arange(response.shape[1])[None, :, None, None],
        source[:, None, :, None],
        np.arange(response.shape[3])[None, None, None, :],
    ]
    return out_p, out_r, renamed


def _resample(cells: Cells, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """``(n_boot, C)`` multinomial draws of the cells' counts, each population with its own size."""
    counts = np.rint(cells.weights).astype(np.int64)
    out = np.zeros((n_boot, counts.size), dtype=np.int64)
    for s in range(cells.n_populations):
        cols = np.flatnonzero(cells.population == s)
        total = int(counts[cols].sum())
        if total:
            out[:, cols] = rng.multinomial(total, counts[cols] / total, size=n_boot)
    return out


def bootstrap_fit(
    cells: Cells,
    point: Parameters,
    n_boot: int = FITTED_RESAMPLES,
    seed: int | None = None,
    *,
    tolerance: float = 1e-10,
    max_iterations: int = 5_000,
) -> FittedDraws:
    r"""Refit the model on ``n_boot`` multinomial resamples of the cells' counts, from ``point``.

    Parameters
    ----------
    cells : Cells
        The sketch's cells (:func:`~evalgebra.evaluators.fitted.fit.sketch_cells`), or any cells of
        the latent class model (classifiers merged into one, say, for a correlated block).
    point : Parameters
        The full data's fitted point: every refit starts there (moved inside the simplex) and is
        renamed to match it.
    n_boot : int
        Resamples.
    seed : int, optional
        Seed of the resampling (:func:`numpy.random.default_rng`).
    tolerance, max_iterations
        Each refit's stopping rule (:func:`~evalgebra.evaluators.fitted.batch.batch_em`).

    Returns
    -------
    FittedDraws

    Examples
    --------
    >>> from evalgebra import datasets
    >>> from evalgebra.evaluators.fitted.fit import fit_sketch
    >>> fitted = fit_sketch(datasets.load("acs_employment").unlabelled())
    >>> draws = bootstrap_fit(fitted.cells, fitted.parameters, n_boot=100, seed=0)
    >>> draws.prevalence.shape, draws.failed()
    ((100, 1, 2), {})
    """
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or not 2 <= n_boot <= 10**7:
        raise SpecError(
            f"n_boot={n_boot!r}: the number of bootstrap resamples must be an integer from 2 to 10**7"
        )
    rng = np.random.default_rng(check_seed(seed))
    start = point.inside()
    n_boot = int(n_boot)
    draws = _resample(cells, n_boot, rng)
    prevalence = np.empty((n_boot, *start.prevalence.shape))
    response = np.empty((n_boot, *start.response.shape))
    converged = np.zeros(n_boot, dtype=bool)
    iterations = np.zeros(n_boot, dtype=np.int64)
    chunk = max(1, _CHUNK // max(1, draws.shape[1] * cells.n_labels))
    for low in range(0, n_boot, chunk):
        high = min(n_boot, low + chunk)
        fit = batch_em(
            cells, draws[low:high].astype(float), start, tolerance=tolerance, max_iterations=max_iterations
        )
        prevalence[low:high], response[low:high] = fit.prevalence, fit.response
        converged[low:high], iterations[low:high] = fit.converged, fit.iterations
    prevalence, response, renamed = align_labels(prevalence, response, start)
    finite = np.isfinite(prevalence).all(axis=(1, 2)) & np.isfinite(response).all(axis=(1, 2, 3))
    reasons = np.where(~finite, "undefined", np.where(~converged, "not_converged", "")).astype(object)
    return FittedDraws(prevalence, response, reasons, renamed & finite, iterations)


# -- the statistics of the chosen point ----------------------------------------------------------
def _keys(sketch: Sketch) -> list[StatisticKey]:
    labels, classifiers, responses = sketch.labels, sketch.classifiers, sketch.responses
    keys: list[StatisticKey] = [("prevalence", t) for t in labels]
    keys += [("accuracy", c, t) for c in classifiers for t in labels]
    if len(labels) >= 3 or sketch.abstain:
        keys += [("response", c, t, r) for c in classifiers for t in labels for r in responses]
    return keys


def _draw_values(draws: FittedDraws, cells: Cells, sketch: Sketch) -> np.ndarray:
    """``(B, keys)``: each refit's statistics in the order of :func:`_keys` (pooled prevalence)."""
    sizes = cells.sizes()
    pooled = (draws.prevalence * sizes[None, :, None]).sum(axis=1) / sizes.sum()  # (B, R)
    n_labels = sketch.n_labels
    accuracy = draws.response[:, :, np.arange(n_labels), np.arange(n_labels)]  # (B, N, R)
    parts = [pooled, accuracy.reshape(pooled.shape[0], -1)]
    if n_labels >= 3 or sketch.abstain:
        parts.append(draws.response.reshape(pooled.shape[0], -1))
    return np.concatenate(parts, axis=1)


def fitted_intervals(
    evaluation: Evaluation,
    sketch: Sketch,
    level: float = 0.95,
    n_boot: int | None = None,
    seed: int | None = None,
) -> Evaluation:
    r"""The evaluation with bootstrap intervals of the fitted evaluation on its chosen point.

    Parameters
    ----------
    evaluation : Evaluation
        A fitted evaluation of ``sketch`` (``evaluate(sketch)``: it carries ``fit`` and the
        fitted point). Its chosen point, exact or fitted, gets the intervals; so does the
        fitted point.
    sketch : Sketch
        The sketch it was evaluated on (pooled over populations, as the fit was).
    level : float
        Nominal coverage, strictly between 0 and 1.
    n_boot : int, optional
        Resamples (default :data:`FITTED_RESAMPLES`).
    seed : int, optional
        Seed of the resampling: the same seed gives the same intervals.

    Returns
    -------
    Evaluation
        Its ``intervals`` (:class:`~evalgebra.results.intervals.IntervalInfo`, ``estimator``
        ``"fitted"``) count the resamples, the failed ones by reason, and the relabelled ones.

    Raises
    ------
    SpecError
        An evaluation without a fit, a level outside (0, 1), a bad ``n_boot`` or ``seed``.
    """
    if (
        not isinstance(evaluation, Evaluation)
        or evaluation.fit is None
        or evaluation.fit.fitted_index is None
    ):
        raise SpecError(
            "fitted_intervals needs a fitted evaluation (evaluate(sketch) with fit=True, the algebraic "
            "method with independent errors); for the exact points alone use "
            "evalgebra.evaluators.intervals.confidence.confidence_intervals"
        )
    if not isinstance(sketch, Sketch):
        raise SketchError(
            f"fitted_intervals needs the Sketch that was evaluated, got {type(sketch).__name__}"
        )
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0 < level < 1:
        raise SpecError(
            f"level={level!r}: the coverage of the intervals must be a number strictly between 0 and 1 "
            "(e.g. 0.95)"
        )
    n_boot = FITTED_RESAMPLES if n_boot is None else n_boot
    pooled = sketch.pooled().unlabelled()
    fitted_index = evaluation.fit.fitted_index
    start = start_from_estimate(evaluation.points[fitted_index], pooled)
    if start is None:
        raise SpecError("the fitted point has an undefined rate: no bootstrap can start from it")
    cells = sketch_cells(pooled)
    draws = bootstrap_fit(cells, start, n_boot, seed)
    info = IntervalInfo(
        "bootstrap",
        float(level),
        n_boot=int(n_boot),
        seed=seed,
        failed=draws.failed(),
        estimator="fitted",
        relabelled=int(draws.relabelled.sum()),
    )
    if evaluation.chosen is None:
        return dataclasses.replace(evaluation, intervals=info)
    keys = _keys(pooled)
    values = _draw_values(draws, cells, pooled)
    good = draws.usable
    pairs: list[tuple[float, float] | None] = [None] * len(keys)
    targets = sorted({evaluation.chosen, fitted_index})
    points = list(evaluation.points)
    for k in targets:
        estimate = np.array([statistic_value(points[k], key) for key in keys])
        if good.any():
            low, high = np.quantile(values[good], [(1 - level) / 2, (1 + level) / 2], axis=0)
            pairs = [
                (float(min(lo, v)), float(max(hi, v))) if np.isfinite(v) else None
                for lo, hi, v in zip(low, high, estimate)
            ]
        points[k] = dataclasses.replace(points[k], interval=interval_tree(keys, pairs))
    return dataclasses.replace(evaluation, points=tuple(points), intervals=info)
