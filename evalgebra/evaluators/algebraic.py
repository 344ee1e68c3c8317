r"""The algebraic method on a sketch: three binary classifiers exactly, larger ensembles trio by trio.

This is what ``evaluate(sketch, method="algebraic")`` runs. For ``N = 3`` it is the exact
closed form (:func:`~evalgebra.evaluators.closed_form.evaluate_counts`) on the sketch's
count vector. For ``N > 3`` every trio is evaluated on its marginal sketch; the trios'
evaluations of the same statistic must agree for a sample-independent ensemble (a
``trio_disagreement`` alarm when they do not). Their mean, with every trio aligned on one
side of the label swap ``P_a <-> P_b``, ``P_{i,a} <-> 1 - P_{i,b}``, and its mirror are then
decoded by the three-classifier rule: the one whose prevalence lies in the prevalence range,
else the one with the larger total accuracy; a point outside the range is never chosen
(``undecided`` instead).

Examples
--------
>>> from evalgebra import datasets
>>> result = algebraic_evaluation(datasets.load("acs_employment"))
>>> round(float(result.point.prevalence["a"]), 4), sorted(result.alarm_kinds())
(0.0887, ['irrational'])

References
----------
.. [1] A. Corrada-Emmanuel, "Algebraic Evaluation Theorems": Theorem 2 and the trios of
   larger ensembles.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from evalgebra.errors import SketchError, SpecError
from evalgebra.evaluators.closed_form import ALARM_DETAILS, evaluate_counts, prevalence_bounds
from evalgebra.evaluators.deprecation import deprecated_alias
from evalgebra.evaluators.many_labels_trios import evaluate_many_labels
from evalgebra.evaluators.result import Alarm, Estimate, Evaluation
from evalgebra.evaluators.quadratic import QuadraticNumber
from evalgebra.data.sketch import Sketch

__all__ = ["algebraic_evaluation", "evaluate_algebraic"]


def _usable(trio: Evaluation) -> bool:
    return all(None not in p.values() and all(not isinstance(v, QuadraticNumber) or v.is_real for v in p.values())
               for p in trio.points)


def _aligned(trios: list[Evaluation], labels: tuple[str, ...]) -> list[int | None]:
    """One point index per trio, all on the same side of the ``P_a <-> P_b`` symmetry.

    The trios are visited breadth first from the first usable one, each oriented against an
    already oriented trio it shares a classifier with, by the distance between their shared
    statistics (the swap sends ``P_{i,a}`` to ``1 - P_{i,b}``, so a shared member tells the
    sides apart unless it is a blind spot itself). Which side is reported is decided later,
    on the combined point (:func:`_decode`).
    """
    usable = [k for k, t in enumerate(trios) if _usable(t)]
    picks: list[int | None] = [None] * len(trios)
    if not usable:
        return picks

    def gap(point: Estimate, other: Estimate, common: set[str]) -> float:
        total = abs(float(point.prevalence[labels[0]]) - float(other.prevalence[labels[0]]))
        for c in common:
            total += sum(abs(float(point.accuracy[c][label]) - float(other.accuracy[c][label])) for label in labels)
        return total

    for root in usable:  # a new component, if the trios are not all connected
        if picks[root] is not None:
            continue
        picks[root] = 0
        queue = [root]
        while queue:
            k = queue.pop(0)
            reference = trios[k].points[picks[k]]  # type: ignore[index]
            for m in usable:
                if picks[m] is not None:
                    continue
                common = set(trios[k].classifiers) & set(trios[m].classifiers)
                if not common:
                    continue
                gaps = [gap(p, reference, common) for p in trios[m].points]
                picks[m] = 0 if gaps[0] <= gaps[1] else 1
                queue.append(m)
    return picks


def _combine(trios: list[Evaluation], labels: tuple[str, ...],
             classifiers: tuple[str, ...]) -> tuple[Estimate, list[str], float]:
    """Mean of the trios' aligned points per statistic, the statistics on which they differ,
    and the largest spread (max - min) of one statistic across trios."""
    values: dict[tuple[str, ...], list[Any]] = {}
    for trio, pick in zip(trios, _aligned(trios, labels)):
        if pick is None:
            continue
        point = trio.points[pick]
        values.setdefault(("prevalence", labels[0]), []).append(point.prevalence[labels[0]])
        for c in trio.classifiers:
            for label in labels:
                values.setdefault(("accuracy", c, label), []).append(point.accuracy[c][label])

    def mean(key: tuple[str, ...]) -> Any:
        xs = values.get(key, [])
        if not xs:
            return None
        if all(isinstance(x, Fraction) for x in xs):
            return sum(xs, Fraction(0)) / len(xs)
        return float(np.mean([float(x) for x in xs]))

    differ = [" ".join(k[1:]) for k, xs in values.items() if len(set(xs)) > 1]
    spread = max((max(map(float, xs)) - min(map(float, xs)) for xs in values.values()), default=0.0)
    p = mean(("prevalence", labels[0]))
    prevalence = {labels[0]: p, labels[1]: None if p is None else 1 - p}
    accuracy = {c: {label: mean(("accuracy", c, label)) for label in labels} for c in classifiers}
    return Estimate(prevalence, accuracy), differ, spread


def _mirror(point: Estimate, labels: tuple[str, ...]) -> Estimate:
    """The other evaluation of the label swap: ``P_a <-> P_b``, ``P_{i,a} <-> 1 - P_{i,b}``.

    The swap is affine, so the mirror of the trios' mean is the mean of their mirrors.
    """
    a, b = labels
    flip = lambda v: None if v is None else 1 - v  # noqa: E731 - undefined stays undefined
    prevalence = {a: point.prevalence[b], b: point.prevalence[a]}
    accuracy = {c: {a: flip(row[b]), b: flip(row[a])} for c, row in point.accuracy.items()}
    return Estimate(prevalence, accuracy)


def _decode(point: Estimate, labels: tuple[str, ...],
            prevalence_range: tuple[Fraction, Fraction] | None) -> int | None:
    """The three-classifier decoding rule on a point and its mirror: 0 (the point), 1 (the
    mirror) or ``None`` (undecided).

    With a prevalence range, the one of the two whose prevalence of the first label lies in it;
    when both do, or without a range, the one with the larger summed total accuracy over the
    classifiers whose accuracies are defined (the mirror sends each total ``t_i`` to
    ``1 - t_i``); a tie, or no point in the range, decides nothing.
    """
    p = point.prevalence[labels[0]]
    if p is None:
        return None
    if prevalence_range is not None:
        lo, hi = prevalence_range
        inside = [lo <= p <= hi, lo <= 1 - p <= hi]
        if inside == [False, False]:
            return None
        if inside != [True, True]:
            return inside.index(True)
    defined = [c for c, row in point.accuracy.items() if None not in row.values()]
    total = sum((point.total_accuracy(c) for c in defined), Fraction(0))
    difference = 2 * total - len(defined)  # the mirror's summed total is len(defined) - total
    return None if difference == 0 else (0 if difference > 0 else 1)


def _values(estimate: Estimate) -> list[Any]:
    return [*estimate.prevalence.values(), *(v for row in estimate.accuracy.values() for v in row.values())]


def _outside_unit_interval(value: Any) -> bool:
    if value is None:
        return False
    try:
        return bool(value < 0 or value > 1)
    except TypeError:  # a number without an order (complex): not a point of the unit cube at all
        return True


def algebraic_evaluation(
    sketch: Sketch,
    decoding: str = "total_accuracy",
    prevalence_range: tuple[Any, Any] | None = None,
    prevalence_order: Sequence[str] | None = None,
    known_prevalences: Mapping[str, Any] | None = None,
) -> Evaluation:
    r"""Evaluate an ensemble of ``N >= 3`` binary classifiers assuming error independence.

    With ``R >= 3`` labels the sketch goes to
    :func:`~evalgebra.evaluators.many_labels_trios.evaluate_many_labels` (``decoding``
    ``"total_accuracy"``, ``"prevalence_order"`` or ``"known_prevalences"``, with
    ``prevalence_order`` or ``known_prevalences``); ``prevalence_range`` is for ``R = 2``.

    Parameters
    ----------
    sketch : Sketch
        Two labels; truth and populations are ignored (pooled).
    decoding, prevalence_range
        See :func:`~evalgebra.evaluators.closed_form.evaluate_counts`.

    Returns
    -------
    Evaluation
        For ``N = 3`` the two points. For ``N > 3`` every trio's evaluation in ``trios`` and
        the combined estimate, exact when every trio's point is rational: the mean of the
        trios' points, all aligned on one side of the label swap, decoded with its mirror by
        the three-classifier rule (within ``prevalence_range`` if given, else by the larger
        total accuracy). One point (chosen) when the rule decides; else both, none chosen,
        and an ``undecided`` alarm.

    Examples
    --------
    Four classifiers whose only usable trio puts ``P_a`` at ``7/8`` or ``1/8``:

    >>> from evalgebra.data.sketch import Sketch
    >>> sketch = Sketch.from_counts({"aaaa": 4, "aaab": 3, "bbab": 1}, labels=["a", "b"])
    >>> algebraic_evaluation(sketch, prevalence_range=("2/3", 1)).point.prevalence["a"]
    Fraction(7, 8)
    >>> outside = algebraic_evaluation(sketch, prevalence_range=("1/4", "3/4"))
    >>> outside.chosen, "undecided" in outside.alarm_kinds()
    (None, True)
    """
    if not isinstance(sketch, Sketch):
        raise SketchError(f"the algebraic evaluator needs a Sketch, got {type(sketch).__name__}")
    if sketch.n_labels >= 3:
        return evaluate_many_labels(sketch, decoding, prevalence_order, known_prevalences)
    if prevalence_order is not None or known_prevalences is not None:
        raise SpecError("prevalence_order and known_prevalences are decodings for R >= 3 labels; for R = 2 use "
                        "prevalence_range")
    if sketch.n_labels != 2:
        raise SpecError(f"the algebraic evaluator needs at least 2 labels; this sketch has R = {sketch.n_labels}")
    if sketch.n_classifiers < 3:
        raise SpecError(f"the algebraic evaluator needs at least 3 classifiers; this sketch has {sketch.n_classifiers}")
    pooled = sketch.pooled().unlabelled() if sketch.is_labelled or len(sketch.populations) > 1 else sketch
    labels, classifiers = tuple(sketch.labels), tuple(sketch.classifiers)
    if sketch.n_classifiers == 3:
        return evaluate_counts(pooled.count_vector().tolist(), labels, classifiers, decoding, prevalence_range)
    trios: list[Evaluation] = []
    for members in itertools.combinations(range(sketch.n_classifiers), 3):
        marginal = pooled.marginalise(list(members))
        trios.append(evaluate_counts(marginal.count_vector().tolist(), labels, tuple(classifiers[i] for i in members),
                                     decoding, prevalence_range))
    bounds = None
    if decoding == "prevalence_range" or prevalence_range is not None:
        bounds = prevalence_bounds(prevalence_range)
    combined, differ, spread = _combine(trios, labels, classifiers)
    side = _decode(combined, labels, bounds)
    alarms = []
    for trio in trios:
        for alarm in trio.alarms:
            alarms.append(Alarm(alarm.kind, f"trio {', '.join(trio.classifiers)}: {alarm.detail}", trio.classifiers))
    if differ:
        alarms.append(Alarm("trio_disagreement", f"the trios' evaluations differ on {len(differ)} statistic(s) "
                                                 f"(largest spread {spread:.3g}): " + "; ".join(differ[:6])
                                                 + ("; ..." if len(differ) > 6 else "")))
    if any(_outside_unit_interval(value) for value in _values(combined)):
        alarms.append(Alarm("outside_unit_cube", "the combined estimate (the mean of the aligned trios) has a "
                                                 "prevalence or accuracy outside [0, 1]"))
    if side is None:
        if combined.prevalence[labels[0]] is not None:
            alarms.append(Alarm("undecided", ALARM_DETAILS["undecided"]))
        points = (combined, _mirror(combined, labels))
        return Evaluation("algebraic", labels, classifiers, points, None, {}, tuple(alarms), tuple(trios))
    chosen = combined if side == 0 else _mirror(combined, labels)
    return Evaluation("algebraic", labels, classifiers, (chosen,), 0, {}, tuple(alarms), tuple(trios))


#: Deprecated: ``evaluate(sketch, method="algebraic", ...)`` is the one entry point.
evaluate_algebraic = deprecated_alias(algebraic_evaluation, "evaluate_algebraic",
                                      'evaluate(sketch, method="algebraic", ...)')
