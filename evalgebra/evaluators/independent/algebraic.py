r"""The algebraic method on a sketch: three binary classifiers exactly, larger ensembles trio by trio.

This is what ``evaluate(sketch, method="algebraic")`` runs. For ``N = 3`` it is the exact
closed form (:func:`~evalgebra.evaluators.independent.closed_form.evaluate_counts`) on the sketch's
count vector. For ``N > 3`` every trio is evaluated on its marginal sketch, the trios are
aligned on their shared classifiers (each on one side of the label swap ``P_a <-> P_b``,
``P_{i,a} <-> 1 - P_{i,b}``) and combined by
:func:`~evalgebra.evaluators.trio_alignment.combined_evaluation`: the trios' evaluations of
the same statistic must agree for a sample-independent ensemble (a ``trio_disagreement``
alarm when they do not). Their mean and its mirror are then decoded by the three-classifier
rule: the one whose prevalence lies in the prevalence range, else the one with the larger
total accuracy; a point outside the range is never chosen (``undecided`` instead).

Examples
--------
>>> from evalgebra import datasets
>>> result = evaluate_independent(datasets.load("acs_employment"))
>>> round(float(result.point.prevalence["a"]), 4), sorted(result.alarm_kinds())
(0.0887, ['irrational'])

References
----------
.. [1] A. Corrada-Emmanuel, "Algebraic Evaluation Theorems": Theorem 2 and the trios of
   larger ensembles.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from evalgebra.data.sketch import Sketch
from evalgebra.deprecation import deprecated_alias
from evalgebra.errors import SketchError, SpecError
from evalgebra.evaluators.independent.closed_form import ALARM_DETAILS, evaluate_counts, prevalence_bounds
from evalgebra.evaluators.many_labels.trios import evaluate_many_labels
from evalgebra.evaluators.trio_alignment import combined_evaluation, sketch_trios
from evalgebra.results import Estimate, Evaluation

__all__ = ["evaluate_independent", "evaluate_algebraic"]


def _decode(
    point: Estimate, labels: tuple[str, ...], prevalence_range: tuple[Fraction, Fraction] | None
) -> int | None:
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


def evaluate_independent(
    sketch: Sketch,
    decoding: str = "total_accuracy",
    prevalence_range: tuple[Any, Any] | None = None,
    prevalence_order: Sequence[str] | None = None,
    known_prevalences: Mapping[str, Any] | None = None,
) -> Evaluation:
    r"""Evaluate an ensemble of ``N >= 3`` binary classifiers assuming error independence.

    With ``R >= 3`` labels the sketch goes to
    :func:`~evalgebra.evaluators.many_labels.trios.evaluate_many_labels` (``decoding``
    ``"total_accuracy"``, ``"prevalence_order"`` or ``"known_prevalences"``, with
    ``prevalence_order`` or ``known_prevalences``); ``prevalence_range`` is for ``R = 2``.

    Parameters
    ----------
    sketch : Sketch
        Two labels; truth and populations are ignored (pooled).
    decoding, prevalence_range
        See :func:`~evalgebra.evaluators.independent.closed_form.evaluate_counts`.

    Returns
    -------
    Evaluation
        For ``N = 3`` the two points. For ``N > 3`` every trio's evaluation in ``trios`` and
        the combined estimate, exact when every trio's point is rational: the mean of the
        trios' points, aligned on one side of the label swap by their shared classifiers
        (not combined, with a ``trio_disagreement`` alarm, when they cannot be), decoded with
        its mirror by the three-classifier rule (within ``prevalence_range`` if given, else by
        the larger total accuracy). One point (chosen) when the rule decides; else both, none
        chosen, and an ``undecided`` alarm.

    Examples
    --------
    Four classifiers whose only usable trio puts ``P_a`` at ``7/8`` or ``1/8``:

    >>> from evalgebra.data.sketch import Sketch
    >>> sketch = Sketch.from_counts({"aaaa": 4, "aaab": 3, "bbab": 1}, labels=["a", "b"])
    >>> evaluate_independent(sketch, prevalence_range=("2/3", 1)).point.prevalence["a"]
    Fraction(7, 8)
    >>> outside = evaluate_independent(sketch, prevalence_range=("1/4", "3/4"))
    >>> outside.chosen, "undecided" in outside.alarm_kinds()
    (None, True)
    """
    if not isinstance(sketch, Sketch):
        raise SketchError(f"the algebraic evaluator needs a Sketch, got {type(sketch).__name__}")
    if sketch.n_labels >= 3:
        return evaluate_many_labels(sketch, decoding, prevalence_order, known_prevalences)
    if prevalence_order is not None or known_prevalences is not None:
        raise SpecError(
            "prevalence_order and known_prevalences are decodings for R >= 3 labels; for R = 2 use "
            "prevalence_range"
        )
    if sketch.n_labels != 2:
        raise SpecError(
            f"the algebraic evaluator needs at least 2 labels; this sketch has R = {sketch.n_labels}"
        )
    if sketch.n_classifiers < 3:
        raise SpecError(
            f"the algebraic evaluator needs at least 3 classifiers; this sketch has {sketch.n_classifiers}"
        )
    labels, classifiers = tuple(sketch.labels), tuple(sketch.classifiers)
    if sketch.n_classifiers == 3:
        pooled = sketch.pooled().unlabelled() if sketch.is_labelled or len(sketch.populations) > 1 else sketch
        return evaluate_counts(
            pooled.count_vector().tolist(), labels, classifiers, decoding, prevalence_range
        )
    trios = sketch_trios(
        sketch, lambda counts, names: evaluate_counts(counts, labels, names, decoding, prevalence_range)
    )
    bounds = None
    if decoding == "prevalence_range" or prevalence_range is not None:
        bounds = prevalence_bounds(prevalence_range)
    sides = ((0, 1), (1, 0))

    def decode(point: Estimate) -> tuple[int, ...] | None:
        side = _decode(point, labels, bounds)
        return None if side is None else sides[side]

    return combined_evaluation(trios, labels, classifiers, decode, ALARM_DETAILS["undecided"])


#: Deprecated: ``evaluate(sketch, method="algebraic", ...)`` is the one entry point.
evaluate_algebraic = deprecated_alias(
    evaluate_independent, "evaluate_algebraic", 'evaluate(sketch, method="algebraic", ...)'
)
