r"""Classifiers that may abstain: the algebraic evaluation with abstentions as responses.

A classifier that may answer any label or abstain has, per true label ``ell``, a response
row ``P_{i,r|ell}`` over the labels *and* the abstentions. For error-independent
classifiers the algebra splits the evaluation in two steps
(``derivations/d11_abstention.py`` derives and checks both on the full ideal;
``docs/theory.md#classifiers-that-abstain``):

1. **Collapse.** Counting every abstention as one label ``c`` (by default the last label)
   turns each classifier into an ordinary ``R``-label classifier with rows
   ``P'_{i,r|ell} = P_{i,r|ell}`` for ``r != c`` and ``P'_{i,c|ell} = P_{i,c|ell} +
   sum_A P_{i,A|ell}``. A function of one classifier's answer keeps the ensemble
   independent given the true label, so the collapsed sketch is evaluated by the usual
   algebraic evaluator (the closed form for two labels, the eliminant for three or more):
   the prevalences and the collapsed rows. For two labels this is "said ``a``" against "did
   not say ``a``".
2. **Abstention rows, linearly.** For an abstention ``A`` of classifier ``i`` and any other
   classifier ``j``, the frequency of the pair pattern (``i`` abstains with ``A``, ``j``
   answers ``r``) is ``sum_ell P_ell P_{i,A|ell} P'_{j,r|ell}``: linear in the unknown row
   ``x_ell = P_{i,A|ell}`` once step 1 is done. Stacking every ``j != i`` and ``r`` gives an
   overdetermined linear system, solved exactly (normal equations over the rationals); it
   is consistent at every sample-independent test, so the solution is exact there. Then
   ``P_{i,c|ell} = P'_{i,c|ell} - sum_A P_{i,A|ell}``.

Points that are not rational (an ``irrational`` alarm: the classifiers were not sample
independent) have their abstention rows in floating point; an undefined value (``None``, a
classifier in no trio with a usable point) stays undefined and leaves the rest exact, and that
classifier's abstention rows are still fixed by its pairs with the others. A classifier ``j`` whose
collapsed rows are all equal carries no information; when no classifier informs the
system it is singular and the rows are undefined (a ``blind_spot`` alarm).

Examples
--------
>>> from evalgebra.spec import EnsembleSpec
>>> from evalgebra.data.point import EvaluationPoint
>>> from evalgebra.data.simulate import expected_sketch
>>> spec = EnsembleSpec(3, ["pass", "fail"], abstain="unsure")
>>> rows = {i: {"pass": {"pass": p, "unsure": u}, "fail": {"fail": q, "unsure": v}}
...         for i, (p, q, u, v) in enumerate([("3/4", "2/3", "1/8", "1/6"), ("4/5", "1/2", "0", "1/4"),
...                                           ("2/3", "3/4", "1/6", "0")])}
>>> truth = EvaluationPoint.from_values(spec, {"pass": "1/3"}, response=rows)
>>> result = evaluate_abstentions(expected_sketch(truth).unlabelled())
>>> result.point.prevalence["pass"], result.point.response["c0"]["fail"]["unsure"]
(Fraction(1, 3), Fraction(1, 6))
>>> result.point.response["c1"]["pass"]
{'pass': Fraction(4, 5), 'fail': Fraction(1, 5), 'unsure': Fraction(0, 1)}

References
----------
.. [1] A. Corrada-Emmanuel, "Algebraic Evaluation Theorems": Theorem 2 (three independent
   binary classifiers), applied to the collapsed responses.
.. [2] A. Corrada-Emmanuel, "Streaming algorithms for evaluating noisy judges on unlabeled
   data - binary classification": the generating set, here over labels and abstentions.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError, SpecError
from evalgebra.evaluators.independent.algebraic import evaluate_independent
from evalgebra.results import Alarm, Estimate, Evaluation, IntervalInfo

__all__ = ["evaluate_abstentions", "abstention_rows", "abstention_intervals", "ABSTENTION_RESAMPLES"]

#: Default bootstrap resamples of :func:`abstention_intervals` (each is one exact evaluation).
ABSTENTION_RESAMPLES = 200


def _rational(value: Any) -> bool:
    return isinstance(value, (Fraction, int)) and not isinstance(value, bool)


def _solve(matrix: list[list[Any]], rhs: list[Any]) -> list[Any] | None:
    """Gauss-Jordan with the largest pivot (exact for Fractions); ``None`` when singular."""
    n = len(rhs)
    rows = [list(matrix[k]) + [rhs[k]] for k in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda k: abs(rows[k][col]))
        if rows[pivot][col] == 0 or (isinstance(rows[pivot][col], float) and abs(rows[pivot][col]) < 1e-12):
            return None
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for k in range(n):
            if k != col and rows[k][col] != 0:
                factor = rows[k][col] / rows[col][col]
                rows[k] = [a - factor * b for a, b in zip(rows[k], rows[col])]
    return [rows[k][n] / rows[k][k] for k in range(n)]


def abstention_rows(
    sketch: Sketch,
    prevalence: Mapping[str, Any],
    collapsed: Mapping[str, Mapping[str, Mapping[str, Any]]],
    into: str,
) -> tuple[dict[str, dict[str, dict[str, Any]]], list[Alarm]]:
    r"""Every classifier's full response rows from the prevalences and its collapsed rows.

    Parameters
    ----------
    sketch : Sketch
        With abstentions; truth and populations are pooled away.
    prevalence : mapping label -> value
    collapsed : mapping classifier -> true label -> answer -> value
        The rows of the sketch with every abstention counted as ``into``.
    into : str
        The label the abstentions were counted as.

    Returns
    -------
    rows, alarms
        ``rows[classifier][true label][response]`` over labels and abstentions (exact when
        the defined inputs are rational, floats otherwise; ``None`` when undefined), and the
        ``blind_spot`` alarms of classifiers whose rows the pairs cannot fix.

    Examples
    --------
    >>> sk = Sketch.from_counts({("a", "a", "a"): 2, ("x", "a", "a"): 1, ("b", "b", "b"): 3},
    ...                         labels=["a", "b"], abstain="x")
    >>> exact = {c: {"a": {"a": 1, "b": 0}, "b": {"a": 0, "b": 1}} for c in sk.classifiers}
    >>> rows, alarms = abstention_rows(sk, {"a": Fraction(1, 2), "b": Fraction(1, 2)},
    ...                                {**exact, "c0": {"a": {"a": Fraction(2, 3), "b": Fraction(1, 3)},
    ...                                                 "b": {"a": 0, "b": 1}}}, "b")
    >>> rows["c0"]["a"], alarms
    ({'a': Fraction(2, 3), 'b': Fraction(0, 1), 'x': Fraction(1, 3)}, [])
    """
    pooled = sketch.pooled().unlabelled()
    labels, classifiers, total = list(sketch.labels), list(sketch.classifiers), pooled.Q
    values = [prevalence[t] for t in labels] + [
        v for rows in collapsed.values() for row in rows.values() for v in row.values()
    ]
    exact = all(_rational(v) for v in values if v is not None)  # an undefined value (None) stays None
    convert: Callable[[Any], Any] = Fraction if exact else float

    def number(value: Any) -> Any:
        return None if value is None else convert(value)

    prev = {t: number(prevalence[t]) for t in labels}
    merged = {
        c: {t: {r: number(v) for r, v in row.items()} for t, row in rows.items()}
        for c, rows in collapsed.items()
    }
    out: dict[str, dict[str, dict[str, Any]]] = {}
    alarms: list[Alarm] = []
    undefined = any(v is None for v in prev.values())
    for i, name in enumerate(classifiers):
        solved: dict[str, list[Any] | None] = {}
        for abstention in sketch.abstain:
            matrix = [[0 * number(0)] * len(labels) for _ in labels]
            rhs = [0 * number(0)] * len(labels)
            for j, other in enumerate(classifiers):
                if (
                    j == i
                    or undefined
                    or any(v is None for row in merged[other].values() for v in row.values())
                ):
                    continue
                counts = pooled.marginalise([i, j]).counts()
                for r in labels:
                    y = number(
                        Fraction(
                            sum(
                                n
                                for (a, b), n in counts.items()
                                if a == abstention and (b == r or (r == into and b in sketch.abstain))
                            ),
                            total,
                        )
                    )
                    coefficients = [prev[t] * merged[other][t][r] for t in labels]
                    for k in range(len(labels)):
                        rhs[k] = rhs[k] + coefficients[k] * y
                        for m in range(len(labels)):
                            matrix[k][m] = matrix[k][m] + coefficients[k] * coefficients[m]
            solved[abstention] = None if undefined else _solve(matrix, rhs)
            if solved[abstention] is None and not undefined:
                alarms.append(
                    Alarm(
                        "blind_spot",
                        f"the rows of {name!r} answering {abstention!r} are not fixed by the "
                        "pairs: no other classifier's collapsed rows tell the labels apart",
                        classifiers=(name,),
                    )
                )
        rows: dict[str, dict[str, Any]] = {}
        for t_index, t in enumerate(labels):
            row: dict[str, Any] = {}
            for r in labels:
                row[r] = merged[name][t][r]
            for abstention in sketch.abstain:
                column = solved[abstention]
                row[abstention] = None if column is None else column[t_index]
                if row[into] is not None:
                    row[into] = None if column is None else row[into] - column[t_index]
            rows[t] = row
        out[name] = rows
    return out, alarms


def _outside(value: Any) -> bool:
    return value is not None and (value < 0 or value > 1)


def _partition(sketch: Sketch, point: Estimate) -> dict[str, list[tuple[tuple[str, ...], Any]]]:
    """Each pattern's count split by true label in proportion to ``P_ell prod_i P_{i,d_i|ell}``."""
    labels, names = sketch.labels, sketch.classifiers
    if any(v is None for v in point.prevalence.values()) or any(
        v is None for rows in point.response.values() for row in rows.values() for v in row.values()
    ):
        return {}
    values = list(point.prevalence.values()) + [
        v for rows in point.response.values() for row in rows.values() for v in row.values()
    ]
    number: Callable[[Any], Any] = (lambda v: v) if all(_rational(v) for v in values) else _float
    out: dict[str, list[tuple[tuple[str, ...], Any]]] = {t: [] for t in labels}
    for pattern, count in sketch.pooled().unlabelled().counts().items():
        weights = []
        for t in labels:
            weight = number(point.prevalence[t])
            for name, answer in zip(names, pattern):
                weight = weight * number(point.response[name][t][answer])
            weights.append(weight)
        total = sum(weights[1:], weights[0])
        if total == 0:
            return {}
        for t, weight in zip(labels, weights):
            out[t].append((pattern, count * weight / total))
    return out


def evaluate_abstentions(
    sketch: Sketch,
    decoding: str = "total_accuracy",
    prevalence_range: tuple[Any, Any] | None = None,
    prevalence_order: Sequence[str] | None = None,
    known_prevalences: Mapping[str, Any] | None = None,
    collapse_into: str | None = None,
) -> Evaluation:
    r"""Evaluate error-independent classifiers that may abstain: every response row, exactly.

    Parameters
    ----------
    sketch : Sketch
        With abstentions (``sketch.abstain``), ``N >= 3`` classifiers, any number of labels;
        truth and populations are ignored (pooled).
    decoding, prevalence_range, prevalence_order, known_prevalences
        As for :func:`~evalgebra.evaluators.independent.algebraic.evaluate_independent`, applied to the
        collapsed sketch.
    collapse_into : str, optional
        The label the abstentions are counted as in the first step (default the last
        label). Every label gives the same result on an independent test.

    Returns
    -------
    Evaluation
        Method ``"algebraic"``; each point's ``response[classifier][true label]`` holds
        every response, abstentions included (its ``accuracy`` is the diagonal);
        ``partition`` splits every pattern's count by true label; ``trios`` are those of
        the collapsed sketch.

    Examples
    --------
    >>> sk = Sketch.from_counts({("a", "a", "a"): 5, ("a", "a", "b"): 1, ("b", "b", "b"): 4,
    ...                          ("u", "a", "a"): 2, ("b", "u", "b"): 2}, labels=["a", "b"], abstain="u")
    >>> result = evaluate_abstentions(sk)
    >>> sorted(result.point.response["c0"]["a"])
    ['a', 'b', 'u']
    """
    if not isinstance(sketch, Sketch):
        raise SketchError(f"the abstention evaluator needs a Sketch, got {type(sketch).__name__}")
    if not sketch.abstain:
        raise SpecError(
            "this sketch has no abstentions; evaluate(sketch) uses the algebraic evaluator directly"
        )
    into = sketch.labels[-1] if collapse_into is None else collapse_into
    if into not in sketch.labels:
        raise SpecError(
            f"collapse_into={into!r}: abstentions are counted as one of the labels {list(sketch.labels)}"
        )
    pooled = sketch.pooled().unlabelled()
    inner = evaluate_independent(
        pooled.collapse_responses({a: into for a in sketch.abstain}),
        decoding,
        prevalence_range,
        prevalence_order,
        known_prevalences,
    )
    points, alarms = [], list(inner.alarms)
    for point in inner.points:
        rows, found = abstention_rows(pooled, point.prevalence, point.response_rows(), into)
        alarms += [a for a in found if a not in alarms]
        accuracy = {c: {t: rows[c][t][t] for t in sketch.labels} for c in sketch.classifiers}
        points.append(Estimate(dict(point.prevalence), accuracy, response=rows))
    for k, point in enumerate(points):
        if any(
            _outside(v) for rows in point.response.values() for row in rows.values() for v in row.values()
        ):
            alarms.append(
                Alarm(
                    "outside_unit_cube",
                    f"point {k} has a response rate (abstention rows included) outside [0, 1]",
                )
            )
    chosen = inner.chosen
    partition = _partition(sketch, points[chosen]) if chosen is not None else {}
    return Evaluation(
        method="algebraic",
        labels=tuple(sketch.labels),
        classifiers=tuple(sketch.classifiers),
        points=tuple(points),
        chosen=chosen,
        partition=partition,
        alarms=tuple(alarms),
        trios=inner.trios,
    )


def _float(value: Any) -> float:
    try:
        return math.nan if value is None else float(value)
    except (TypeError, ValueError):  # a complex value
        return math.nan


def abstention_intervals(
    evaluation: Evaluation,
    sketch: Sketch,
    level: float = 0.95,
    n_boot: int | None = None,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> Evaluation:
    r"""Percentile bootstrap intervals for every statistic of an abstention evaluation.

    The pooled pattern counts are resampled from their multinomial (seeded), every resample is
    evaluated by :func:`evaluate_abstentions` with the same ``options`` (one exact evaluation
    each: about 0.007 s for three classifiers, 0.03 s for five), and the ``(1 - level)/2`` and
    ``(1 + level)/2`` percentiles of every prevalence, accuracy and response rate (abstentions
    included) are taken, widened to contain the estimate. Resamples without a chosen point or
    with an undefined statistic are left out and counted by reason in the result's ``intervals``.
    They cover the sampling variation of a finite test under the independent model, not the
    model's failure.

    Examples
    --------
    >>> sk = Sketch.from_counts({("a", "a", "a"): 30, ("a", "a", "b"): 8, ("a", "b", "a"): 7,
    ...                          ("b", "a", "a"): 9, ("b", "b", "b"): 35, ("u", "b", "b"): 6,
    ...                          ("b", "u", "a"): 3, ("a", "b", "b"): 5, ("u", "a", "a"): 4},
    ...                         labels=["a", "b"], abstain="u")
    >>> result = abstention_intervals(evaluate_abstentions(sk), sk, n_boot=50, seed=0)
    >>> low, high = result.point.interval["response"]["c0"]["a"]["u"]
    >>> bool(low <= result.point.response["c0"]["a"]["u"] <= high), result.intervals.n_boot
    (True, 50)
    """
    from evalgebra.evaluators.intervals.confidence import (
        resample_counts,  # the multinomial resampler of every method
    )

    n_boot = ABSTENTION_RESAMPLES if n_boot is None else n_boot
    if isinstance(n_boot, bool) or not isinstance(n_boot, int) or not 2 <= n_boot <= 10**6:
        raise SpecError(
            f"n_boot={n_boot!r}: the number of bootstrap resamples must be an integer from 2 to 10**6"
        )
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0 < level < 1:
        raise SpecError(
            f"level={level!r}: the coverage of the intervals must be a number strictly between 0 and 1"
        )
    point = evaluation.point
    failed: dict[str, int] = {}
    info = IntervalInfo("bootstrap", float(level), n_boot=n_boot, seed=seed, failed=failed)
    if point is None:
        return dataclasses.replace(evaluation, intervals=info)
    labels, classifiers, responses = list(sketch.labels), list(sketch.classifiers), list(sketch.responses)
    keys = (
        [("prevalence", t) for t in labels]
        + [("accuracy", c, t) for c in classifiers for t in labels]
        + [("response", c, t, r) for c in classifiers for t in labels for r in responses]
    )

    def values(estimate: Estimate) -> list[float]:
        out = []
        for key in keys:
            tree: Any = getattr(estimate, key[0])
            for part in key[1:]:
                tree = tree[part]
            out.append(_float(tree))
        return out

    _, _, code, count = sketch.pooled().unlabelled().table()
    draws = resample_counts(count, n_boot, np.random.default_rng(seed))
    table = np.full((n_boot, len(keys)), np.nan)
    for row, draw in enumerate(draws):
        keep = draw > 0
        resample = Sketch(
            classifiers,
            labels,
            np.zeros(int(keep.sum()), dtype=np.int64),
            np.full(int(keep.sum()), -1),
            code[keep],
            draw[keep],
            abstain=sketch.abstain,
        )
        result = evaluate_abstentions(resample, **dict(options or {}))
        reason = (
            ""
            if result.point is not None
            else next(
                (k for k in ("complex", "blind_spot", "undecided") if k in result.alarm_kinds()), "undecided"
            )
        )
        if not reason:
            table[row] = values(result.point)  # type: ignore[arg-type]
            reason = "" if np.isfinite(table[row]).all() else "undefined"
        if reason:
            failed[reason] = failed.get(reason, 0) + 1
    good = np.isfinite(table).all(axis=1)
    estimate = values(point)
    tree: dict[str, Any] = {}
    for k, key in enumerate(keys):
        pair = None
        if good.any() and math.isfinite(estimate[k]):
            low, high = np.percentile(table[good, k], [50 * (1 - level), 50 * (1 + level)])
            pair = (min(float(low), estimate[k]), max(float(high), estimate[k]))
        node = tree
        for part in key[:-1]:
            node = node.setdefault(part, {})
        node[key[-1]] = pair
    chosen = dataclasses.replace(point, interval=tree)
    points = tuple(chosen if k == evaluation.chosen else p for k, p in enumerate(evaluation.points))
    return dataclasses.replace(evaluation, points=points, intervals=info)
