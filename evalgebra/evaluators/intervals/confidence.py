r"""Confidence intervals for every estimate of every evaluator: bootstrap and delta method.

An evaluation is a function of the sketch's pattern counts. Treating the test's items as a
sample from a population, the counts are multinomial, and the variation of the evaluation
over tests of the same size is what these intervals bound. Two routes:

``bootstrap``
    Draw ``n_boot`` count vectors from the multinomial with the observed pattern frequencies
    (all at once, with a seeded :class:`numpy.random.Generator`), evaluate every resample with
    the method's vectorised floating-point form, decode each with the method's own rule, and
    take the percentiles ``(1 - level)/2`` and ``(1 + level)/2`` of every statistic. The
    vectorised forms: :func:`~evalgebra.evaluators.independent.batch.evaluate_batch` for three binary
    classifiers (the trios' aligned mean for more),
    :func:`~evalgebra.evaluators.many_labels.trios.evaluate_batch_many_labels` for three or more labels, the
    vote shares as one matrix product for majority voting;
    Hui-Walter resamples within each population and runs the exact evaluator on every
    resample. A resample whose evaluation fails (complex points, a blind spot, an undecided
    decoding, a statistic left undefined) is left out of the percentiles and counted by reason
    in :attr:`~evalgebra.results.intervals.IntervalInfo.failed`, never silently dropped.
``delta``
    The first-order (delta-method) interval ``value -+ z sqrt(g^T Sigma g)``: ``g`` is the
    gradient of the statistic with respect to the pattern counts, ``Sigma = diag(n) - n n^T / Q``
    the multinomial covariance of the counts, ``z`` the normal quantile. The gradient of the
    closed forms (the generated closed form of three binary classifiers, the trios' mean, the
    vote shares) is taken by complex-step differentiation, exact to rounding; the eigenvector
    route of three or more labels by central differences.

Both are widened to contain the point estimate (a percentile interval of a skewed
distribution may miss it) and the delta interval is cut to ``[0, 1]`` (every statistic is a
probability; an estimate outside the unit interval keeps its own value inside its interval).

What they cover: the sampling variation of a finite test under the evaluator's model (errors
independent given the true label). They say nothing about whether the model holds: a
correlated ensemble gives tight intervals around a biased estimate (the ``irrational``
alarm and the trios' disagreement are the evidence for that). ``benchmarks/bench_intervals.py``
checks their coverage on simulated tests.

Examples
--------
>>> from evalgebra.data.sketch import Sketch
>>> from evalgebra.evaluators.independent.closed_form import evaluate_counts
>>> sketch = Sketch.from_counts({"aaa": 84, "aab": 36, "aba": 51, "abb": 39,
...                              "baa": 68, "bab": 52, "bba": 77, "bbb": 73}, labels=["a", "b"])
>>> result = evaluate_counts(sketch.count_vector().tolist(), classifiers=sketch.classifiers)
>>> low, high = confidence_intervals(result, sketch, "delta").point.interval["prevalence"]["a"]
>>> bool(low < 0.25 < high)
True
>>> boot = confidence_intervals(result, sketch, "bootstrap", n_boot=200, seed=0)
>>> boot.intervals.n_boot, boot.intervals.seed
(200, 0)

References
----------
.. [1] B. Efron and R. J. Tibshirani, "An Introduction to the Bootstrap" (1993): the
   percentile interval.
.. [2] J. R. R. A. Martins, P. Sturdza and J. J. Alonso, "The complex-step derivative
   approximation", ACM Transactions on Mathematical Software 29 (2003).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from statistics import NormalDist
from typing import Any

import numpy as np

from evalgebra.data.cells import UNLABELLED
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError, SpecError
from evalgebra.evaluators.independent.closed_form import prevalence_bounds
from evalgebra.evaluators.intervals.vectorised import (
    Statistics,
    binary_delta_statistics,
    binary_statistics,
    majority_statistics,
    many_label_statistics,
)
from evalgebra.numbers.rationals import exact_rational, short_repr
from evalgebra.numbers.seeds import check_seed
from evalgebra.results import INTERVAL_KINDS, Evaluation, IntervalInfo

__all__ = [
    "DEFAULT_RESAMPLES",
    "StatisticKey",
    "confidence_intervals",
    "resample_counts",
    "statistic_keys",
    "statistic_value",
    "interval_tree",
]

#: Resamples drawn when ``n_boot`` is not given.
DEFAULT_RESAMPLES = 1000

#: Largest number of count entries (resamples x cells) evaluated in one vectorised call.
_CHUNK = 1 << 21

#: A statistic of a point by its path of fields: ``("accuracy", "c0", "a")``.
StatisticKey = tuple[str, ...]


# -- the statistics of an estimate -------------------------------------------------------------
def statistic_keys(evaluation: Evaluation) -> list[StatisticKey]:
    r"""The paths of every statistic of the chosen point, as its ``interval`` is keyed.

    Examples
    --------
    >>> from evalgebra.evaluators.independent.closed_form import evaluate_counts
    >>> statistic_keys(evaluate_counts([84, 36, 51, 39, 68, 52, 77, 73]))[:3]
    [('prevalence', 'a'), ('prevalence', 'b'), ('accuracy', 'c1', 'a')]
    """
    point = evaluation.point
    if point is None:
        return []
    labels = list(point.prevalence)
    keys: list[StatisticKey] = [("prevalence", label) for label in labels]
    keys += [("accuracy", c, label) for c in point.accuracy for label in labels]
    if len(labels) >= 3 and point.response:
        keys += [("response", c, t, r) for c in point.response for t in labels for r in labels]
    for population, row in (getattr(point, "by_population", None) or {}).items():
        keys += [("by_population", population, label) for label in row]
    return keys


def statistic_value(point: Any, key: StatisticKey) -> float:
    """The float value of one statistic of ``point`` (NaN when undefined or complex).

    >>> from evalgebra.evaluators.independent.closed_form import evaluate_counts
    >>> statistic_value(evaluate_counts([84, 36, 51, 39, 68, 52, 77, 73]).point, ("prevalence", "a"))
    0.25
    """
    tree: Any = getattr(point, key[0])
    for part in key[1:]:
        tree = tree.get(part) if isinstance(tree, Mapping) else None
        if tree is None:
            return math.nan
    try:
        return float(tree)
    except (TypeError, ValueError):  # a complex value
        return math.nan


def interval_tree(keys: list[StatisticKey], pairs: list[tuple[float, float] | None]) -> dict[str, Any]:
    """The nested ``point.interval`` mapping of the intervals ``pairs`` of the statistics ``keys``.

    >>> interval_tree([("prevalence", "a"), ("accuracy", "c0", "a")], [(0.1, 0.3), None])
    {'prevalence': {'a': (0.1, 0.3)}, 'accuracy': {'c0': {'a': None}}}
    """
    out: dict[str, Any] = {}
    for key, pair in zip(keys, pairs):
        node = out
        for part in key[:-1]:
            node = node.setdefault(part, {})
        node[key[-1]] = pair
    return out


# -- the cells and their resamples --------------------------------------------------------------
def _cells(sketch: Sketch) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Observed cells pooled over true labels: ``(population, code, count)``, one row per non-empty cell."""
    pop, _, code, count = sketch.table()
    key = pop.astype(np.int64) * sketch.n_patterns + code
    unique, inverse = np.unique(key, return_inverse=True)
    total = np.zeros(unique.size, dtype=np.int64)
    np.add.at(total, inverse, count)
    keep = total > 0
    return unique[keep] // sketch.n_patterns, unique[keep] % sketch.n_patterns, total[keep]


def resample_counts(counts: Any, n_boot: int, rng: np.random.Generator, groups: Any = None) -> np.ndarray:
    r"""``n_boot`` multinomial resamples of a count vector, one per row (vectorised).

    Parameters
    ----------
    counts : array_like of int, shape (K,)
        Observed counts of the cells.
    n_boot : int
    rng : numpy.random.Generator
    groups : array_like of int, shape (K,), optional
        A group (population) per cell: each group is resampled on its own with its own total
        (a stratified bootstrap). Default: one group.

    Returns
    -------
    numpy.ndarray
        ``(n_boot, K)`` int64; every row has the observed total of every group.

    Examples
    --------
    >>> draws = resample_counts([5, 0, 3], 4, np.random.default_rng(0))
    >>> draws.shape, draws.sum(axis=1).tolist(), int(draws[:, 1].max())
    ((4, 3), [8, 8, 8, 8], 0)
    """
    observed = np.asarray(counts, dtype=np.int64)
    group = np.zeros(observed.size, dtype=np.int64) if groups is None else np.asarray(groups, dtype=np.int64)
    out = np.zeros((int(n_boot), observed.size), dtype=np.int64)
    for g in np.unique(group):
        cols = np.flatnonzero(group == g)
        total = int(observed[cols].sum())
        if total:
            out[:, cols] = rng.multinomial(total, observed[cols] / total, size=int(n_boot))
    return out


def _looped(
    sketch: Sketch,
    evaluation: Evaluation,
    options: Mapping[str, Any],
    keys: list[StatisticKey],
    pops: np.ndarray,
    codes: np.ndarray,
) -> Statistics:
    """Any method, one resample at a time through its exact evaluator (Hui-Walter; and the tests'
    reference)."""
    function = _method_function(evaluation.method)
    order = ("complex", "empty_variety", "blind_spot", "undecided")

    def run(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        values = np.full((counts.shape[0], len(keys)), np.nan)
        reasons = np.full(counts.shape[0], "", dtype=object)
        for row, draw in enumerate(counts):
            keep = draw > 0
            resample = Sketch(
                sketch.classifiers,
                sketch.labels,
                pops[keep],
                np.full(int(keep.sum()), UNLABELLED),
                codes[keep],
                draw[keep].astype(np.int64),
                sketch.populations,
                abstain=sketch.abstain,
            )
            result = function(resample, **options)
            if result.point is None:
                kinds = result.alarm_kinds()
                reasons[row] = next((k for k in order if k in kinds), "undecided")
                continue
            values[row] = [statistic_value(result.point, key) for key in keys]
        return values, reasons

    return run


def _method_function(method: str) -> Callable[..., Evaluation]:
    from evalgebra.evaluators.hui_walter.exact import evaluate_hui_walter
    from evalgebra.evaluators.independent.algebraic import evaluate_independent
    from evalgebra.evaluators.majority import evaluate_majority

    functions: dict[str, Callable[..., Evaluation]] = {
        "algebraic": evaluate_independent,
        "majority": evaluate_majority,
        "hui_walter": evaluate_hui_walter,
    }
    if method not in functions:
        raise SpecError(
            f"no confidence intervals for the {method!r} method; they cover {', '.join(functions)}"
        )
    return functions[method]


# -- the driver ----------------------------------------------------------------------------------
def _check(kind: Any, level: Any, n_boot: Any, seed: Any) -> tuple[float, int]:
    if not isinstance(kind, str) or kind not in INTERVAL_KINDS:
        raise SpecError(
            f"intervals={kind!r}: unknown kind of interval; accepted: {', '.join(map(repr, INTERVAL_KINDS))} "
            "(or None for none)"
        )
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0 < level < 1:
        raise SpecError(
            f"level={level!r}: the coverage of the intervals must be a number strictly between 0 and 1 "
            "(e.g. 0.95)"
        )
    n_boot = DEFAULT_RESAMPLES if n_boot is None else n_boot
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or not 2 <= n_boot <= 10**7:
        raise SpecError(
            f"n_boot={n_boot!r}: the number of bootstrap resamples must be an integer from 2 to 10**7"
        )
    check_seed(seed)
    return float(level), int(n_boot)


def _decoding_many(options: Mapping[str, Any]) -> tuple[str, Any]:
    decoding = options.get("decoding", "total_accuracy")
    if options.get("prevalence_order") is not None:
        return "prevalence_order", [str(x) for x in options["prevalence_order"]]
    if options.get("known_prevalences") is not None:
        known = dict(options["known_prevalences"]).items()
        return "known_prevalences", {
            str(k): float(exact_rational(v, f"known_prevalences[{str(k)!r}]", SpecError)) for k, v in known
        }
    return decoding, None


def _bounds(options: Mapping[str, Any]) -> tuple[float, float] | None:
    if options.get("prevalence_range") is None and options.get("decoding") != "prevalence_range":
        return None
    low, high = prevalence_bounds(options.get("prevalence_range"))
    return float(low), float(high)


def _statistics(
    sketch: Sketch,
    evaluation: Evaluation,
    options: Mapping[str, Any],
    keys: list[StatisticKey],
    estimate: np.ndarray,
    cells: tuple[np.ndarray, np.ndarray, np.ndarray],
    vectorised: bool,
) -> Statistics:
    pops, codes, counts = cells
    n_classifiers, labels = sketch.n_classifiers, tuple(sketch.labels)
    if (
        not vectorised or evaluation.method == "hui_walter" or sketch.abstain
    ):  # abstentions: exact evaluator per draw
        return _looped(sketch, evaluation, options, keys, pops, codes)
    if evaluation.method == "majority":
        return majority_statistics(codes, n_classifiers, labels, options.get("ties", "split"))
    if evaluation.method != "algebraic":
        _method_function(evaluation.method)  # raises: no intervals for this method
    if len(labels) == 2:
        reference = np.concatenate([estimate[:1], estimate[2:]])
        return binary_statistics(codes, n_classifiers, reference, _bounds(options))
    return many_label_statistics(codes, n_classifiers, labels, *_decoding_many(options), estimate)


def _bootstrap(
    statistics: Statistics,
    cells: tuple[np.ndarray, np.ndarray, np.ndarray],
    n_boot: int,
    seed: int | None,
    stratified: bool,
    n_keys: int,
) -> tuple[np.ndarray, np.ndarray]:
    pops, codes, counts = cells
    rng = np.random.default_rng(seed)
    chunk = max(1, _CHUNK // max(1, codes.size))
    values, reasons = np.empty((n_boot, n_keys)), np.empty(n_boot, dtype=object)
    for start in range(0, n_boot, chunk):
        stop = min(n_boot, start + chunk)
        draws = resample_counts(counts, stop - start, rng, pops if stratified else None)
        values[start:stop], reasons[start:stop] = statistics(draws.astype(float))
    return values, reasons


def _gradient(statistics: Statistics, counts: np.ndarray, analytic: bool) -> np.ndarray:
    """``(K, keys)``: d statistic / d count, by complex step (analytic) or central differences."""
    size = counts.size
    if analytic:
        step = 1e-20
        return statistics(counts[None, :] + 1j * step * np.eye(size))[0].imag / step
    step = 1e-6 * max(1.0, float(counts.sum()))
    plus = statistics(counts[None, :] + step * np.eye(size))[0]
    minus = statistics(counts[None, :] - step * np.eye(size))[0]
    return (plus - minus) / (2 * step)


def _clip(low: float, high: float, value: float) -> tuple[float, float]:
    """``(low, high)`` widened to contain ``value`` and cut to ``[0, 1]`` (or to ``value`` when it lies
    outside)."""
    return float(max(min(0.0, value), min(low, value))), float(min(max(1.0, value), max(high, value)))


def _delta(
    sketch: Sketch,
    evaluation: Evaluation,
    options: Mapping[str, Any],
    estimate: np.ndarray,
    cells: tuple[np.ndarray, np.ndarray, np.ndarray],
    level: float,
) -> list[tuple[float, float] | None]:
    _, codes, counts = cells
    labels = tuple(sketch.labels)
    observed = counts.astype(float)
    if sketch.abstain:
        raise SpecError(
            f"intervals='delta' is not derived for abstentions {short_repr(list(sketch.abstain))}; "
            "use intervals='bootstrap'"
        )
    if evaluation.method == "majority":
        statistics, analytic = (
            majority_statistics(codes, sketch.n_classifiers, labels, options.get("ties", "split")),
            True,
        )
    elif evaluation.method == "algebraic" and len(labels) == 2:
        reference = np.concatenate([estimate[:1], estimate[2:]])
        statistics = binary_delta_statistics(
            codes, sketch.n_classifiers, reference, _bounds(options), observed
        )
        analytic = True
    elif evaluation.method == "algebraic":
        decoding, option = _decoding_many(options)
        statistics = many_label_statistics(codes, sketch.n_classifiers, labels, decoding, option, estimate)
        analytic = False
    else:
        raise SpecError(
            f"intervals='delta' covers the closed forms of the algebraic and majority methods; for "
            f"{evaluation.method!r} use intervals='bootstrap'"
        )
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        gradient = np.real(_gradient(statistics, observed, analytic))
        # the multinomial covariance of the pooled counts, diag(n) - n n^T / Q, between two gradients
        variance = (observed[:, None] * gradient**2).sum(axis=0) - (observed @ gradient) ** 2 / observed.sum()
    z = NormalDist().inv_cdf((1 + level) / 2)
    pairs: list[tuple[float, float] | None] = []
    for value, var in zip(estimate, variance):
        if not (math.isfinite(value) and math.isfinite(var)):
            pairs.append(None)
            continue
        half = z * math.sqrt(max(var, 0.0))
        pairs.append(_clip(value - half, value + half, value))
    return pairs


def confidence_intervals(
    evaluation: Evaluation,
    sketch: Sketch,
    kind: str = "bootstrap",
    level: float = 0.95,
    n_boot: int | None = None,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    vectorised: bool = True,
) -> Evaluation:
    r"""The evaluation with confidence intervals for every statistic of its chosen point.

    Parameters
    ----------
    evaluation : Evaluation
        What ``evaluate(sketch, method=..., **options)`` returned on ``sketch``.
    sketch : Sketch
        The sketch it was evaluated on (its counts are resampled or differentiated).
    kind : {"bootstrap", "delta"}
        Percentile intervals of a multinomial bootstrap, or delta-method intervals (the
        algebraic and majority methods).
    level : float
        Nominal coverage, strictly between 0 and 1.
    n_boot : int, optional
        Bootstrap resamples (default :data:`DEFAULT_RESAMPLES`).
    seed : int, optional
        Seed of the resampling: the same seed gives the same intervals.
    options : mapping, optional
        The method's options the evaluation used (``decoding``, ``prevalence_range``,
        ``prevalence_order``, ``known_prevalences``, ``ties``): every resample is decoded alike.
    vectorised : bool
        False evaluates every resample with the method's exact evaluator, one at a time (slow;
        the reference the vectorised route is tested against).

    Returns
    -------
    Evaluation
        The same evaluation; its chosen point's ``interval`` holds ``(low, high)`` per statistic
        (``None`` where undefined) and its ``intervals`` (:class:`~evalgebra.results.intervals.IntervalInfo`)
        says how they were made and how many resamples failed, by reason. Without a chosen
        point there is nothing to cover: only ``intervals`` is set.

    Raises
    ------
    SpecError
        An unknown kind, a level outside (0, 1), a bad ``n_boot`` or ``seed``, or a delta
        interval asked of a method without a closed form here (Hui-Walter).

    Examples
    --------
    >>> from evalgebra.data.sketch import Sketch
    >>> from evalgebra.evaluators.majority import evaluate_majority
    >>> sketch = Sketch.from_counts({"aaa": 40, "aab": 9, "abb": 6, "bbb": 45}, labels=["a", "b"])
    >>> result = confidence_intervals(evaluate_majority(sketch), sketch, n_boot=500, seed=1)
    >>> low, high = result.point.interval["prevalence"]["a"]
    >>> bool(low < 0.52 < high), result.intervals.n_failed
    (True, 0)
    """
    if not isinstance(evaluation, Evaluation):
        raise SpecError(f"confidence_intervals needs an Evaluation, got {type(evaluation).__name__}")
    if not isinstance(sketch, Sketch):
        raise SketchError(
            f"confidence_intervals needs the Sketch that was evaluated, got {type(sketch).__name__}"
        )
    level, n_boot = _check(kind, level, n_boot, seed)
    options = dict(options or {})
    point = evaluation.point
    info = IntervalInfo(
        kind,
        level,
        n_boot=n_boot if kind == "bootstrap" else None,
        seed=seed if kind == "bootstrap" else None,
    )
    if point is None:
        return dataclasses.replace(evaluation, intervals=info)
    keys = statistic_keys(evaluation)
    estimate = np.array([statistic_value(point, key) for key in keys])
    cells = _cells(sketch)
    if kind == "delta":
        pairs = _delta(sketch, evaluation, options, estimate, cells, level)
    else:
        statistics = _statistics(sketch, evaluation, options, keys, estimate, cells, vectorised)
        values, reasons = _bootstrap(
            statistics, cells, n_boot, seed, evaluation.method == "hui_walter", len(keys)
        )
        defined = np.isfinite(estimate)
        reasons[(reasons == "") & ~np.isfinite(values[:, defined]).all(axis=1)] = "undefined"
        good = reasons == ""
        failed: dict[str, int] = {}
        for reason in reasons[~good]:
            failed[str(reason)] = failed.get(str(reason), 0) + 1
        info = dataclasses.replace(info, failed=dict(sorted(failed.items())))
        pairs = [None] * len(keys)
        if good.any():
            low, high = np.quantile(values[good], [(1 - level) / 2, (1 + level) / 2], axis=0)
            pairs = [
                _clip(float(lo), float(hi), float(v)) if ok else None
                for lo, hi, v, ok in zip(low, high, estimate, defined)
            ]
    chosen = dataclasses.replace(point, interval=interval_tree(keys, pairs))
    points = tuple(chosen if k == evaluation.chosen else p for k, p in enumerate(evaluation.points))
    return dataclasses.replace(evaluation, points=points, intervals=info)
