r"""The fitted point of a correlated structure beside its exact points, and the verdict between them.

:func:`with_structure_fit` is :func:`~evalgebra.evaluators.fitted.choice.with_fit` for a correlated
structure of binary classifiers: it takes the structure's exact evaluation
(:func:`~evalgebra.evaluators.correlated.structured.evaluate_structured`), fits the same model by
maximum likelihood (:mod:`evalgebra.evaluators.fitted.structures`) from its exact points (the chosen
one first, then those inside the unit cube) and from the independent model's fitted point (no
correlation), appends the fitted point to ``points`` and gives the verdict by the same rule:

- ``exact`` when the chosen exact point raised no alarm but ``irrational`` and its partition by true
  label sums back to every count exactly: it attains the saturated likelihood, so it *is* the
  maximum-likelihood point (the fitted point appended is that exact point);
- otherwise the fitted point, decoded as the exact evaluator decodes (the prevalence in
  ``prevalence_range`` if given, then the larger summed total accuracy), is chosen: ``fitted``, or
  ``fit_rejected`` when the p-value of ``G^2`` (on ``2^N - 1 - (1 + 2N + 2|S|)`` degrees of freedom)
  is below ``level``; ``none`` when no labelling of it lies in the prevalence range asked for.

Examples
--------
A sampled test of 20,000 items, four classifiers, the first two correlated:

>>> import numpy as np
>>> from evalgebra.evaluators.correlated.structured import evaluate_structured
>>> from evalgebra.evaluators.fitted.structures import StructureModel, StructurePoint
>>> model = StructureModel(4, ((0, 1),))
>>> truth = StructurePoint(0.3, np.array([[0.8, 0.75], [0.7, 0.8], [0.75, 0.85], [0.8, 0.7]]),
...                        np.array([[0.08, 0.06]]))
>>> counts = np.random.default_rng(0).multinomial(20_000, model.probabilities(truth))
>>> from evalgebra.data.sketch import Sketch
>>> sketch = Sketch.from_counts(dict(zip(pattern_names(4, ("a", "b")), counts.tolist())), labels=["a", "b"])
>>> result = with_structure_fit(evaluate_structured(sketch, "0-1"), sketch, ((0, 1),))
>>> result.verdict, result.point_kind(result.chosen), result.structure
('fitted', 'fitted', 'c0-c1')
>>> abs(result.point.prevalence["a"] - 0.3) < 0.02, result.fit.df
(True, 4)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from evalgebra.data.sketch import Sketch
from evalgebra.evaluators.fitted.choice import MAX_STARTS, fit_info, reproduces_counts, with_fit
from evalgebra.evaluators.fitted.fit import chi_square_goodness
from evalgebra.evaluators.fitted.structures import StructureFit, StructureModel, StructurePoint, fit_structure
from evalgebra.results import Estimate, Evaluation
from evalgebra.structures import Structure

__all__ = [
    "with_structure_fit",
    "structure_start",
    "structure_estimate",
    "structure_partition",
    "independent_start",
    "fit_from_starts",
    "pattern_names",
    "range_bounds",
]


def pattern_names(n_classifiers: int, labels: Sequence[str]) -> list[tuple[str, ...]]:
    """Every pattern of ``n_classifiers`` binary answers, in count-vector order (classifier 0 slowest).

    >>> pattern_names(2, ("a", "b"))
    [('a', 'a'), ('a', 'b'), ('b', 'a'), ('b', 'b')]
    """
    n = n_classifiers
    return [tuple(labels[(code >> (n - 1 - i)) & 1] for i in range(n)) for code in range(2**n)]


def _float(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError, OverflowError):
        return math.nan


def structure_start(
    estimate: Estimate, structure: Structure, classifiers: Sequence[str], labels: Sequence[str]
) -> StructurePoint | None:
    """An estimate's prevalence, accuracies and (where it has them) correlations as a start; ``None`` when
    a value is missing or not real. Correlations the estimate lacks start at 0.

    >>> e = Estimate({"a": 0.25, "b": 0.75}, {"x": {"a": 0.8, "b": 0.7}, "y": {"a": 0.6, "b": 0.9}})
    >>> structure_start(e, ((0, 1),), ("x", "y"), ("a", "b")).correlation.tolist()
    [[0.0, 0.0]]
    """
    try:
        prevalence = _float(estimate.prevalence[labels[0]])
        accuracy = np.array([[_float(estimate.accuracy[c][t]) for t in labels] for c in classifiers])
    except (KeyError, TypeError):
        return None
    rows = []
    for subset in structure:
        row = estimate.correlation.get(tuple(classifiers[i] for i in subset), {})
        rows.append([_float(row.get(t, 0.0)) for t in labels])
    correlation = np.array(rows, dtype=float).reshape(len(structure), 2)
    if not (math.isfinite(prevalence) and np.all(np.isfinite(accuracy)) and np.all(np.isfinite(correlation))):
        return None
    return StructurePoint(prevalence, accuracy, correlation)


def structure_estimate(
    point: StructurePoint, structure: Structure, classifiers: Sequence[str], labels: Sequence[str]
) -> Estimate:
    """A fitted point as an :class:`~evalgebra.results.estimates.Estimate` of floats, with its correlations.

    >>> p = StructurePoint(0.25, np.full((2, 2), 0.75), np.array([[0.01, 0.02]]))
    >>> structure_estimate(p, ((0, 1),), ("x", "y"), ("a", "b")).correlation
    {('x', 'y'): {'a': 0.01, 'b': 0.02}}
    """
    first, second = labels
    return Estimate(
        {first: float(point.prevalence), second: float(1.0 - point.prevalence)},
        {
            c: {first: float(point.accuracy[i, 0]), second: float(point.accuracy[i, 1])}
            for i, c in enumerate(classifiers)
        },
        correlation={
            tuple(classifiers[i] for i in subset): {first: float(row[0]), second: float(row[1])}
            for subset, row in zip(structure, point.correlation)
        },
    )


def structure_partition(
    model: StructureModel, point: StructurePoint, counts: np.ndarray, labels: Sequence[str]
) -> dict[str, list[tuple[tuple[str, ...], float]]]:
    """Each observed pattern's count split by true label as the fitted point implies (its posteriors).

    >>> model = StructureModel(2, ())
    >>> point = StructurePoint(0.5, np.full((2, 2), 0.75), np.zeros((0, 2)))
    >>> split = structure_partition(model, point, np.array([9.0, 0, 0, 1]), ("a", "b"))
    >>> [(p, round(n, 9)) for p, n in split["a"]]
    [(('a', 'a'), 8.1), (('b', 'b'), 0.1)]
    """
    m = model.conditional(point)
    joint = np.stack([point.prevalence * m[0], (1.0 - point.prevalence) * m[1]])
    total = joint.sum(axis=0)
    names = pattern_names(model.n_classifiers, labels)
    seen = np.flatnonzero(counts > 0)
    share = np.divide(joint[:, seen], total[seen], out=np.full((2, seen.size), 0.5), where=total[seen] > 0)
    return {
        label: [(names[d], float(counts[d] * share[ell, k])) for k, d in enumerate(seen)]
        for ell, label in enumerate(labels)
    }


def range_bounds(options: dict[str, Any]) -> tuple[float, float] | None:
    """The prevalence range a decoding option asks for, as floats (``None`` without one).

    >>> range_bounds({"prevalence_range": ("1/4", "1/2")}), range_bounds({})
    ((0.25, 0.5), None)
    """
    if (
        options.get("prevalence_range") is None
        or options.get("decoding", "prevalence_range") != "prevalence_range"
    ):
        return None
    from evalgebra.evaluators.independent.closed_form import prevalence_bounds

    low, high = prevalence_bounds(options["prevalence_range"])
    return float(low), float(high)


def independent_start(sketch: Sketch, structure: Structure) -> StructurePoint | None:
    """The independent model's fitted point (EM from the exact points and majority vote, as ``evaluate``
    fits it), with no correlation: a start at least as likely as the independent fit.

    >>> from evalgebra import datasets
    >>> sketch = datasets.load("acs_employment").unlabelled()
    >>> start = independent_start(sketch, ((0, 1),))
    >>> from evalgebra.evaluators.dispatch import evaluate
    >>> fitted = float(evaluate(sketch).point.prevalence["a"])
    >>> abs(start.prevalence - fitted) < 1e-9, start.correlation.tolist()
    (True, [[0.0, 0.0]])
    """
    from evalgebra.evaluators.independent.algebraic import evaluate_independent

    pooled = sketch.pooled().unlabelled()
    result = with_fit(evaluate_independent(pooled), pooled)
    assert result.fit is not None and result.fit.fitted_index is not None
    return structure_start(
        result.points[result.fit.fitted_index], structure, pooled.classifiers, pooled.labels
    )


def _ordered(result: Evaluation) -> list[int]:
    def inside(point: Estimate) -> bool:
        values = [*point.prevalence.values(), *(v for row in point.accuracy.values() for v in row.values())]
        return all(0 <= _float(v) <= 1 for v in values)

    order = [] if result.chosen is None else [result.chosen]
    order += [k for k, p in enumerate(result.points) if k not in order and inside(p)]
    return order + [k for k in range(len(result.points)) if k not in order]


def fit_from_starts(
    result: Evaluation,
    sketch: Sketch,
    structure: Structure,
    starts: Sequence[tuple[str, StructurePoint]] = (),
    independent: StructurePoint | None = None,
) -> tuple[StructureModel, np.ndarray, StructureFit]:
    """The structure's model, the pooled counts and the fit from ``result``'s exact points, the independent
    fit (``independent``, else :func:`independent_start`) and ``starts``."""
    pooled = sketch.pooled().unlabelled()
    classifiers, labels = tuple(pooled.classifiers), tuple(pooled.labels)
    model = StructureModel(len(classifiers), structure)
    counts = pooled.count_vector().astype(float)
    named: list[tuple[str, StructurePoint]] = []
    for k in _ordered(result):
        start = structure_start(result.points[k], structure, classifiers, labels)
        if start is not None:
            named.append((f"exact {k}", start))
        if len(named) == MAX_STARTS:
            break
    independent = (
        independent_start(pooled, structure)
        if independent is None
        else StructurePoint(independent.prevalence, independent.accuracy, np.zeros((len(structure), 2)))
    )
    if independent is not None:
        named.append(("independent", independent))
    named.extend(starts)
    return model, counts, fit_structure(model, counts, named)


def with_structure_fit(
    result: Evaluation,
    sketch: Sketch,
    structure: Structure,
    *,
    level: float = 0.01,
    options: dict[str, Any] | None = None,
    starts: Sequence[tuple[str, StructurePoint]] = (),
    independent: StructurePoint | None = None,
) -> Evaluation:
    """``result`` (the exact evaluation of ``structure``) with the fitted point appended and the verdict
    made (see the module notes); ``starts``: more points to climb from; ``independent``: the independent
    model's fitted point, when known (else fitted here)."""
    pooled = sketch.pooled().unlabelled()
    classifiers, labels = tuple(pooled.classifiers), tuple(pooled.labels)
    model, counts, fit = fit_from_starts(result, pooled, structure, starts, independent)
    bounds = range_bounds(options or {})
    point = model.oriented(fit.point, bounds)
    total = float(counts.sum())
    df = 2**model.n_classifiers - 1 - model.n_parameters
    goodness = chi_square_goodness(
        2.0 * (fit.saturated_log_likelihood - fit.log_likelihood), df, total / 2**model.n_classifiers
    )
    index = len(result.points)
    exact = (
        result.chosen is not None
        and result.alarm_kinds() <= {"irrational"}
        and bool(result.partition)
        and reproduces_counts(result, pooled)
    )
    partition: Any
    if exact:
        assert result.chosen is not None
        verdict, chosen, partition = "exact", result.chosen, result.partition
        fitted_point = result.points[result.chosen]
        log_likelihood, g2, p_value = (
            fit.saturated_log_likelihood,
            0.0,
            (None if goodness.p_value is None else 1.0),
        )
    else:
        fitted_point = structure_estimate(point, structure, classifiers, labels)
        log_likelihood, g2, p_value = fit.log_likelihood, goodness.g2, goodness.p_value
        rejected = p_value is not None and p_value < level
        verdict, chosen = ("fit_rejected" if rejected else "fitted"), index
        partition = structure_partition(model, point, counts, labels)
        if bounds is not None and not bounds[0] <= point.prevalence <= bounds[1]:
            verdict, chosen, partition = "none", None, {}
    info = fit_info(
        fit,
        goodness,
        verdict=verdict,
        index=index,
        log_likelihood=log_likelihood,
        g2=g2,
        p_value=p_value,
        level=level,
    )
    return dataclasses.replace(
        result, points=(*result.points, fitted_point), chosen=chosen, partition=partition, fit=info
    )
