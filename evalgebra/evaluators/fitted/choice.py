r"""The fitted point beside the exact ones, and the verdict that chooses between them.

:func:`with_fit` takes an algebraic evaluation of a sketch (its exact points, alarms and the
point its decoding chose) and adds the maximum-likelihood point of the same independent model,
fitted by EM from the exact points (the chosen one first, then those inside the unit cube) and
from majority vote (:func:`~evalgebra.evaluators.fitted.fit.fit_sketch`). The fitted point is
appended to ``points``; the verdict (:mod:`evalgebra.results.fit`) chooses:

- ``exact`` when the counts lie on the model: the chosen exact point raised no alarm but
  ``irrational`` and reproduces every pattern's count exactly (its partition by true label sums
  back to the counts in exact arithmetic; without a partition, the fit reaches the saturated
  likelihood, ``G^2`` at most :data:`ON_MODEL`). A point that reproduces the counts attains the
  saturated likelihood, the largest any model allows, so it *is* the maximum-likelihood point:
  the exact point stays chosen and is also the fitted point, exactly.
- otherwise the fitted point is chosen: ``fitted``, or ``fit_rejected`` when the p-value of
  ``G^2`` is below ``level``.

Examples
--------
>>> from evalgebra import datasets
>>> from evalgebra.evaluators.independent.algebraic import evaluate_independent
>>> sketch = datasets.load("bigbench_mistake").unlabelled()
>>> exact = evaluate_independent(sketch)
>>> exact.point is None, sorted(exact.alarm_kinds())
(True, ['complex'])
>>> result = with_fit(exact, sketch)
>>> result.verdict, result.point_kind(result.chosen), 0 <= result.point.prevalence["a"] <= 1
('fitted', 'fitted', True)
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from fractions import Fraction
from typing import Any

import numpy as np

from evalgebra.data.sketch import Sketch
from evalgebra.evaluators.fitted.em import Parameters
from evalgebra.evaluators.fitted.fit import FittedModel, Goodness, fit_sketch, start_from_estimate
from evalgebra.evaluators.fitted.structures import StructureFit
from evalgebra.results import Estimate, Evaluation, FitInfo

__all__ = ["with_fit", "fit_info", "reproduces_counts", "meets_rule", "ON_MODEL", "FIT_LEVEL", "MAX_STARTS"]

#: ``G^2`` at or below which a fit counts as reaching the saturated likelihood (EM's own accuracy).
ON_MODEL = 1e-6
#: The default level below which the fit's p-value rejects the model.
FIT_LEVEL = 0.01
#: Exact points EM starts from at most (the chosen one first, then those inside the unit cube; one of
#: each class of points that differ only by a renaming of the hidden labels).
MAX_STARTS = 8


def _inside(point: Estimate) -> bool:
    values = [*point.prevalence.values(), *(v for row in point.accuracy.values() for v in row.values())]
    try:
        return all(v is not None and 0 <= float(v) <= 1 for v in values)
    except (TypeError, ValueError):
        return False


def _ordered_starts(result: Evaluation) -> list[int]:
    order = [] if result.chosen is None else [result.chosen]
    order += [k for k, p in enumerate(result.points) if k not in order and _inside(p)]
    order += [k for k in range(len(result.points)) if k not in order]
    return order


def _relabelling_class(start: Parameters) -> tuple[tuple[float, ...], ...]:
    """The start up to renaming its hidden labels: its columns (a prevalence and a response row per
    classifier), sorted. The likelihood is symmetric under the renamings and EM commutes with them, so
    two starts of one class end at fits that differ only by the renaming, with the same likelihood."""
    columns = [
        tuple(np.round(np.concatenate([start.prevalence[:, ell], start.response[:, ell, :].ravel()]), 9))
        for ell in range(start.prevalence.shape[1])
    ]
    return tuple(sorted(columns))


def reproduces_counts(result: Evaluation, sketch: Sketch) -> bool:
    """The chosen point's partition by true label sums to every count exactly (``True`` without one).

    >>> from evalgebra import datasets
    >>> from evalgebra.evaluators.independent.algebraic import evaluate_independent
    >>> sketch = datasets.load("acs_employment").unlabelled()
    >>> reproduces_counts(evaluate_independent(sketch), sketch)
    True
    """
    if not result.partition:
        return True
    totals: dict[tuple[str, ...], Any] = defaultdict(int)
    try:
        for rows in result.partition.values():
            for pattern, count in rows:
                if isinstance(count, float):
                    return False
                totals[tuple(pattern)] = totals[tuple(pattern)] + count
        counts = sketch.counts()
        return all(totals.get(p, 0) == n for p, n in counts.items()) and all(
            v == 0 for p, v in totals.items() if p not in counts
        )
    except (TypeError, ValueError, ArithmeticError):
        return False


def _fitted_partition(fitted: FittedModel) -> dict[str, list[tuple[tuple[str, ...], float]]]:
    """Each observed pattern's count split by true label as the fitted point implies (its posteriors)."""
    cells = fitted.cells
    posterior = fitted.runs[fitted.chosen].posterior
    names = np.array(fitted.responses, dtype=object)[cells.answers]
    merged: dict[str, dict[tuple[str, ...], float]] = {t: defaultdict(float) for t in fitted.labels}
    for k, row in enumerate(names):
        pattern = tuple(row)
        for ell, label in enumerate(fitted.labels):
            merged[label][pattern] += float(cells.weights[k] * posterior[k, ell])
    return {label: sorted(rows.items()) for label, rows in merged.items()}


def _renaming(fitted: FittedModel, options: dict[str, Any]) -> np.ndarray:
    """``perm[column] = label``: the names the decoding rule gives the fitted point's hidden labels.

    The fit keeps the labels of its start, and a start's labels are only as good as the exact point it
    came from (outside the simplex, a mean of disagreeing trios): the rule is applied again to the fit.
    ``prevalence_order``: the columns by prevalence; ``known_prevalences``: the assignment nearest
    them (L1); ``prevalence_range`` (two labels): the naming whose first prevalence lies in it, if one
    does; otherwise the largest summed total accuracy ``sum_l P_l sum_i P_{i,l|l}``, as for the
    exact points.
    """
    from scipy.optimize import linear_sum_assignment

    labels = fitted.labels
    r = len(labels)
    sizes = fitted.cells.sizes()
    prevalence = (sizes[:, None] * fitted.parameters.prevalence).sum(axis=0) / sizes.sum()
    order = options.get("prevalence_order")
    known = options.get("known_prevalences")
    if order is not None:
        perm = np.empty(r, dtype=int)
        perm[np.argsort(-prevalence, kind="stable")] = [labels.index(str(name)) for name in order]
        return perm
    if known is not None:
        target = np.array([float(Fraction(known[t])) for t in labels])
        return linear_sum_assignment(np.abs(prevalence[:, None] - target[None, :]))[1]
    if options.get("prevalence_range") is not None and r == 2:
        from evalgebra.evaluators.independent.closed_form import prevalence_bounds

        low, high = prevalence_bounds(options["prevalence_range"])
        inside = [bool(low <= prevalence[c] <= high) for c in range(2)]
        return np.array([1, 0]) if inside[1] and not inside[0] else np.arange(2)
    gain = prevalence[:, None] * fitted.parameters.response[:, :, :r].sum(axis=0)  # [column, label]
    return linear_sum_assignment(gain, maximize=True)[1]


def _decoded(fitted: FittedModel, options: dict[str, Any]) -> FittedModel:
    """The fit with its hidden labels named by the decoding rule (:func:`_renaming`)."""
    perm = _renaming(fitted, options)
    if np.array_equal(perm, np.arange(len(perm))):
        return fitted
    column = np.argsort(perm)  # column of each label
    parameters = Parameters(fitted.parameters.prevalence[:, column], fitted.parameters.response[:, column, :])
    run = fitted.runs[fitted.chosen]
    runs = list(fitted.runs)
    runs[fitted.chosen] = dataclasses.replace(run, parameters=parameters, posterior=run.posterior[:, column])
    return dataclasses.replace(fitted, parameters=parameters, runs=tuple(runs))


def meets_rule(point: Estimate, labels: tuple[str, ...], options: dict[str, Any]) -> bool:
    """Whether the fitted point meets the decoding rule the caller gave (a range or an order of prevalences).

    The fit starts from the exact points in their decoded labels, but EM may move a prevalence out of the
    range asked for, or swap two in the order: then the fitted point is not chosen.

    >>> point = Estimate({"a": 0.3, "b": 0.7}, {"c0": {"a": 0.8, "b": 0.9}})
    >>> meets_rule(point, ("a", "b"), {"prevalence_range": ("1/4", "1/2")}), meets_rule(point, ("a", "b"), {})
    (True, True)
    >>> meets_rule(point, ("a", "b"), {"prevalence_order": ["a", "b"]})
    False
    """
    prevalence = point.prevalence
    if (
        options.get("prevalence_range") is not None
        and options.get("decoding", "prevalence_range") == "prevalence_range"
    ):
        from evalgebra.evaluators.independent.closed_form import prevalence_bounds

        low, high = prevalence_bounds(options["prevalence_range"])
        return bool(low <= prevalence[labels[0]] <= high)
    order = options.get("prevalence_order")
    if order is not None:
        values = [prevalence[str(name)] for name in order]
        return all(a >= b for a, b in zip(values, values[1:]))
    return True


def fit_info(
    fit: FittedModel | StructureFit,
    goodness: Goodness,
    *,
    verdict: str,
    index: int,
    log_likelihood: float,
    g2: float,
    p_value: float | None,
    level: float,
) -> FitInfo:
    """The :class:`~evalgebra.results.fit.FitInfo` of a fit (the independent model's or a structure's) and its
    verdict: both models' choices make it here.

    >>> from evalgebra import datasets
    >>> from evalgebra.evaluators.fitted.fit import fit_sketch
    >>> fitted = fit_sketch(datasets.load("bigbench_mistake").unlabelled(), [])
    >>> info = fit_info(fitted, fitted.goodness, verdict="fitted", index=0,
    ...                 log_likelihood=fitted.log_likelihood, g2=fitted.goodness.g2, p_value=None, level=0.01)
    >>> info.verdict, info.starts == fitted.start_names
    ('fitted', True)
    """
    run = fit.runs[fit.chosen]
    return FitInfo(
        verdict=verdict,
        fitted_index=index,
        log_likelihood=log_likelihood,
        saturated_log_likelihood=fit.saturated_log_likelihood,
        g2=g2,
        df=goodness.df,
        p_value=p_value,
        note=goodness.note,
        level=level,
        starts=fit.start_names,
        chosen_start=fit.chosen,
        converged=run.converged,
        iterations=run.iterations,
    )


def with_fit(
    result: Evaluation,
    sketch: Sketch,
    *,
    level: float = FIT_LEVEL,
    options: dict[str, Any] | None = None,
    certify: bool = False,
) -> Evaluation:
    """``result`` with the fitted point appended and the verdict made (see the module notes).

    ``options``: the decoding options the exact evaluation was given; a fitted point that breaks
    the range or order they ask for is appended but not chosen (verdict ``none``). ``certify``: prove
    (or refute) that the fitted point is the global maximum (:mod:`evalgebra.evaluators.fitted.certify`);
    the certificate goes to ``result.certificate`` and a certified point replaces EM's.
    """
    pooled = sketch.pooled()
    order = _ordered_starts(result)
    starts = []
    seen: set[tuple[tuple[float, ...], ...]] = set()
    for k in order:
        start = start_from_estimate(result.points[k], pooled)
        if start is None:
            continue
        form = _relabelling_class(start)
        if form in seen:  # a renaming of the hidden labels of an earlier start: EM gives the same fit
            continue
        seen.add(form)
        starts.append((f"exact {k}", start))
        if len(starts) == MAX_STARTS:
            break
    fitted = fit_sketch(pooled, starts)
    certificate = None
    if certify:
        from evalgebra.evaluators.fitted.certify import certify_fitted

        fitted, certificate = certify_fitted(fitted)
    fitted = _decoded(fitted, options or {})
    goodness = fitted.goodness
    index = len(result.points)
    on_model = result.alarm_kinds() <= {"irrational"} and (
        reproduces_counts(result, pooled) if result.partition else goodness.g2 <= ON_MODEL
    )
    exact = result.chosen is not None and on_model
    if exact:  # the exact point attains the saturated likelihood: the maximum
        assert result.chosen is not None
        verdict, chosen, partition = "exact", result.chosen, result.partition
        fitted_point = result.points[result.chosen]
        log_likelihood, g2 = fitted.saturated_log_likelihood, 0.0
    else:
        fitted_point, log_likelihood, g2 = fitted.estimate(), fitted.log_likelihood, goodness.g2
        rejected = goodness.p_value is not None and goodness.p_value < level
        verdict, chosen = ("fit_rejected" if rejected else "fitted"), index
        partition = _fitted_partition(fitted)
        if not meets_rule(fitted_point, tuple(result.labels), options or {}):
            verdict, chosen, partition = "none", None, {}
    p_value = (1.0 if goodness.p_value is not None else None) if exact else goodness.p_value
    info = fit_info(
        fitted,
        goodness,
        verdict=verdict,
        index=index,
        log_likelihood=log_likelihood,
        g2=g2,
        p_value=p_value,
        level=level,
    )
    return dataclasses.replace(
        result,
        points=(*result.points, fitted_point),
        chosen=chosen,
        partition=partition,
        fit=info,
        certificate=certificate,
    )
