r"""Larger ensembles trio by trio: evaluate every trio, align their labellings, then combine.

An ensemble of ``N > 3`` classifiers is evaluated one trio at a time (the binary closed form,
the many-labels eliminant, or the vectorised float route of a crowd). Each trio's evaluation
is determined only up to a renaming of the hidden labels: its candidates are the ``R!``
relabellings of one point, and its own decoding picks one of them from that trio's three
classifiers alone. Trios that decode different renamings hold the same statistics under
different names, and a mean taken across them is the evaluation of nothing.

So before anything is combined the trios are *aligned*: one trio's labelling is the
reference, and every other trio is relabelled by the permutation that brings its statistics
closest to those already aligned on what they share (the prevalences and the response rows
of the classifiers in common), the least summed absolute difference, an assignment problem
solved exactly (:func:`least_assignment`). The trios are visited in order of how many of
their classifiers are already aligned, so each is matched on as much as possible; the trios
of ``N > 3`` classifiers are connected through shared classifiers.

Nothing is combined when the alignment is not sound:

* a trio whose best renaming is tied with another (the statistics it shares with the aligned
  trios do not tell two of its hidden labels apart) and no other order resolves it;
* on an *exact* test (every trio's point rational and free of ``irrational``,
  ``empty_variety`` and ``complex`` alarms) the aligned trios must agree exactly; when they do
  not, no independent evaluation of the ensemble reproduces the counts.

Either is a ``trio_disagreement`` alarm and no point (each trio's own evaluation stays in
``trios``). Otherwise the combination is the weighted mean of the aligned trios' statistics:
exact (a :class:`~fractions.Fraction`) when every value is rational, the common value when
the trios agree on an algebraic number, a float otherwise. On an exactly independent test
every aligned trio holds the same point, so the combination is that point exactly. The
combined point is then decoded once, over its own ``R!`` relabellings, by the caller's rule.

Examples
--------
Two trios of four classifiers that decoded opposite sides of the label swap:

>>> from fractions import Fraction as F
>>> labels = ("a", "b")
>>> def trio(names, p, accuracy):
...     point = Estimate({"a": p, "b": 1 - p}, dict(zip(names, accuracy)))
...     return Evaluation(method="algebraic", labels=labels, classifiers=names, points=(point,), chosen=0)
>>> first = trio(("c0", "c1", "c2"), F(1, 4), [{"a": F(3, 4), "b": F(2, 3)}] * 3)
>>> second = trio(("c0", "c1", "c3"), F(3, 4), [{"a": F(1, 3), "b": F(1, 4)}] * 3)  # the mirror
>>> combination = combine_trios([first, second], labels, ("c0", "c1", "c2", "c3"))
>>> combination.relabellings, combination.point.prevalence
(((0, 1), (1, 0)), {'a': Fraction(1, 4), 'b': Fraction(3, 4)})
>>> combination.point.accuracy["c3"]
{'a': Fraction(3, 4), 'b': Fraction(2, 3)}

References
----------
.. [1] A. Corrada-Emmanuel, "Algebraic Evaluation Theorems": the trios of larger ensembles and
   the label-renaming symmetry of the independent evaluation variety.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from scipy.optimize import linear_sum_assignment

from evalgebra.data.sketch import Sketch
from evalgebra.results import Alarm, Estimate, Evaluation

__all__ = [
    "Perm",
    "TrioCombination",
    "relabel",
    "least_assignment",
    "sketch_trios",
    "combine_trios",
    "total_accuracy_assignment",
    "combined_evaluation",
]

#: A renaming of the hidden labels: ``perm[old label index] = new label index``.
Perm = tuple[int, ...]

#: Trio alarms that mean its point is not an exact independent evaluation of its counts.
_INEXACT = ("irrational", "empty_variety", "complex")

#: Relative gap below which two float costs count as tied.
_TIE = 1e-9

_DISAGREE = (
    "trio {} and the trios aligned before it are each an exact independent evaluation, but no "
    "renaming of its labels makes them agree: no independent evaluation of all the classifiers "
    "reproduces the counts; not combined (each trio's evaluation is in trios)"
)
_TIED = (
    "the trios cannot be aligned: the statistics that trio(s) {} share with the aligned trios do not "
    "tell two of their labels apart (two renamings fit equally well); not combined (each trio's "
    "evaluation is in trios)"
)
_APART = (
    "trio {} shares no classifier with the aligned trios (the trios between them have no usable "
    "point): left out of the combination"
)
_UNFIXED = (
    "{} is in no trio with a usable point (see the trios' alarms): the trios do not fix its "
    "rows over the labels, undefined (None) in the combination"
)


def _rational(value: Any) -> bool:
    return isinstance(value, (Fraction, int)) and not isinstance(value, bool)


def relabel(point: Estimate, perm: Perm, labels: Sequence[str]) -> Estimate:
    r"""The same evaluation with the hidden labels renamed: label ``k`` becomes label ``perm[k]``.

    Prevalences and the true-label rows of every response matrix move with the names; the
    answers (columns) stay. The result has the type of ``point``; with two labels and no
    explicit rows only the accuracies (the diagonal) are kept, as in ``point``.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> e = Estimate({"a": F(1, 4), "b": F(3, 4)}, {"c0": {"a": F(3, 4), "b": F(2, 3)}})
    >>> mirror = relabel(e, (1, 0), ("a", "b"))
    >>> mirror.prevalence, mirror.accuracy
    ({'a': Fraction(3, 4), 'b': Fraction(1, 4)}, {'c0': {'a': Fraction(1, 3), 'b': Fraction(1, 4)}})
    """
    labels = tuple(labels)
    source = {perm[k]: labels[k] for k in range(len(labels))}  # new index -> old name
    rows = point.response_rows()
    prevalence = {labels[m]: point.prevalence[source[m]] for m in range(len(labels))}
    response = {
        c: {labels[m]: dict(by_truth[source[m]]) for m in range(len(labels))} for c, by_truth in rows.items()
    }
    accuracy = {c: {t: response[c][t][t] for t in labels} for c in point.accuracy}
    return dataclasses.replace(
        point,
        prevalence=prevalence,
        accuracy=accuracy,
        response=response if point.response else {},
        interval={},
        correlation={},
    )


def least_assignment(cost: Sequence[Sequence[Any]]) -> tuple[Perm | None, Any]:
    r"""The permutation ``perm`` minimising ``sum_k cost[k][perm[k]]``, or ``None`` when it is tied.

    Exact when every entry is rational (the costs of the candidates are compared as
    fractions); floats otherwise, where two costs within a relative ``1e-9`` are a tie.
    The optimum is found on floats (:func:`scipy.optimize.linear_sum_assignment`); the
    runner-up is the best of the problems with one edge of the optimum forbidden (any other
    permutation leaves at least one of them).

    Returns
    -------
    perm, best
        The unique least permutation (``None`` when another one costs the same) and its cost.

    Examples
    --------
    >>> least_assignment([[3, 0], [0, 5]])
    ((1, 0), Fraction(0, 1))
    >>> least_assignment([[1, 1], [1, 1]])
    (None, Fraction(2, 1))
    """
    size = len(cost)
    exact = all(_rational(v) for row in cost for v in row)
    convert: Callable[[Any], Any] = Fraction if exact else float
    values = [[convert(v) for v in row] for row in cost]
    floats = np.array([[float(v) for v in row] for row in values], dtype=float).reshape(size, size)
    big = 4.0 * (1.0 + np.abs(floats).sum())

    def solve(matrix: np.ndarray) -> Perm:
        rows, cols = linear_sum_assignment(matrix)
        perm = [0] * size
        for row, col in zip(rows, cols):
            perm[int(row)] = int(col)
        return tuple(perm)

    def total(perm: Perm) -> Any:
        return sum((values[k][perm[k]] for k in range(size)), Fraction(0) if exact else 0.0)

    best = solve(floats)
    candidates = {best}
    for k in range(size):
        if size > 1:
            blocked = floats.copy()
            blocked[k, best[k]] = big
            candidates.add(solve(blocked))
    costs = {perm: total(perm) for perm in candidates}
    top = min(costs.values())
    slack = 0 if exact else _TIE * max(1.0, abs(top))
    winners = [perm for perm, c in costs.items() if c - top <= slack]
    chosen = min(winners, key=lambda perm: costs[perm])
    return (chosen if len(winners) == 1 else None), costs[chosen]


def sketch_trios(
    sketch: Sketch, evaluate: Callable[[list[int], tuple[str, ...]], Evaluation]
) -> list[Evaluation]:
    r"""Every trio of the sketch's classifiers evaluated on its marginal pattern counts (pooled).

    ``evaluate(counts, names)`` gets the ``R^3`` counts in lexicographic pattern order and the
    trio's classifier names.
    """
    pooled = sketch
    if sketch.is_labelled or len(sketch.populations) > 1:
        pooled = sketch.pooled().unlabelled()
    out = []
    for members in itertools.combinations(range(sketch.n_classifiers), 3):
        marginal = pooled.marginalise(list(members))
        names = tuple(sketch.classifiers[i] for i in members)
        out.append(evaluate(marginal.count_vector().tolist(), names))
    return out


@dataclass(frozen=True)
class TrioCombination:
    r"""The trios aligned on their shared classifiers, and their combination.

    Attributes
    ----------
    point : Estimate or None
        The weighted mean of the aligned trios, in the labelling of the first aligned trio
        (``None``: no trio has a usable point, or the alignment was refused). Classifiers in
        no aligned trio have undefined (``None``) values.
    relabellings : tuple
        Per trio, the renaming applied to its point (:func:`relabel`), or ``None``: left out.
    differ : tuple of str
        The statistics on which the aligned trios differ (``"prevalence a"``,
        ``"response c0 a b"``).
    spread : float
        The largest spread (max - min) of one statistic across the aligned trios.
    exact : bool
        Every trio's point is rational and an exact independent evaluation of its counts.
    alarms : tuple of Alarm
        Why the trios were not combined, or which were left out.
    """

    point: Estimate | None
    relabellings: tuple[Perm | None, ...]
    differ: tuple[str, ...]
    spread: float
    exact: bool
    alarms: tuple[Alarm, ...]


Rows = dict[str, dict[str, dict[str, Any]]]


def _representative(trio: Evaluation) -> tuple[Estimate, Rows] | None:
    """The trio's decoded point (else its first candidate) and its rows, when every value is real."""
    point = trio.point if trio.point is not None else (trio.points[0] if trio.points else None)
    if point is None:
        return None
    rows = point.response_rows()
    values = [
        *point.prevalence.values(),
        *(v for c in trio.classifiers for row in rows.get(c, {}).values() for v in row.values()),
    ]
    if any(c not in rows for c in trio.classifiers) or any(v is None for v in values):
        return None
    try:
        [float(v) for v in values]
    except (TypeError, ValueError):  # a complex value
        return None
    return point, rows


def _mean(values: list[Any], weights: list[Any]) -> Any:
    if all(_rational(v) for v in values):
        total = sum((Fraction(w) * v for w, v in zip(weights, values)), Fraction(0))
        return total / sum(weights, Fraction(0))
    if all(v == values[0] for v in values[1:]):
        return values[0]  # the trios agree on an algebraic number: it stays exact
    total = sum(float(w) * float(v) for w, v in zip(weights, values))
    return float(total / sum(float(w) for w in weights))


def _names(trio: Evaluation) -> str:
    return ", ".join(trio.classifiers)


def combine_trios(
    trios: Sequence[Evaluation],
    labels: Sequence[str],
    classifiers: Sequence[str],
    weights: Sequence[Any] | None = None,
) -> TrioCombination:
    r"""Align the trios' labellings on their shared classifiers, then take the weighted mean.

    Parameters
    ----------
    trios : sequence of Evaluation
        One per trio; its decoded point (else its first candidate) represents it.
    labels, classifiers : sequence of str
        The ensemble's.
    weights : sequence, optional
        Per trio (a crowd's shared tasks); default equal.

    Returns
    -------
    TrioCombination
    """
    labels, classifiers = tuple(labels), tuple(classifiers)
    r = len(labels)
    weights = [1] * len(trios) if weights is None else list(weights)
    reps = [_representative(t) for t in trios]
    usable = [k for k, rep in enumerate(reps) if rep is not None]
    exact = bool(usable) and all(
        not set(_INEXACT) & trios[k].alarm_kinds()
        and all(_rational(v) for v in _flat(reps[k], trios[k], labels))
        for k in usable
    )
    relabellings: list[Perm | None] = [None] * len(trios)
    if not usable:
        return TrioCombination(None, tuple(relabellings), (), 0.0, exact, ())
    number: Callable[[Any], Any] = Fraction if exact else float
    sums: dict[tuple[str, ...], list[Any]] = {}  # statistic -> [weighted sum, weight]

    def add(k: int, perm: Perm) -> None:
        point, rows = reps[k]  # type: ignore[misc]
        w = number(weights[k])
        for ell in range(r):
            key: tuple[str, ...] = ("prevalence", labels[perm[ell]])
            acc = sums.setdefault(key, [number(0), number(0)])
            acc[0] += w * number(point.prevalence[labels[ell]])
            acc[1] += w
            for c in trios[k].classifiers:
                for a, v in rows[c][labels[ell]].items():
                    key = ("response", c, labels[perm[ell]], a)
                    acc = sums.setdefault(key, [number(0), number(0)])
                    acc[0] += w * number(v)
                    acc[1] += w

    def consensus(key: tuple[str, ...]) -> Any:
        total, weight = sums[key]
        return total / weight

    def cost(k: int, seen: list[str]) -> list[list[Any]]:
        point, rows = reps[k]  # type: ignore[misc]
        out = []
        for ell in labels:
            out.append(
                [
                    abs(number(point.prevalence[ell]) - consensus(("prevalence", m)))
                    + sum(
                        (
                            abs(number(v) - consensus(("response", c, m, a)))
                            for c in seen
                            for a, v in rows[c][ell].items()
                        ),
                        number(0),
                    )
                    for m in labels
                ]
            )
        return out

    first = max(usable, key=lambda k: (weights[k], -k))
    relabellings[first] = tuple(range(r))
    add(first, relabellings[first])  # type: ignore[arg-type]
    aligned = {c for c in trios[first].classifiers}
    pending = [k for k in usable if k != first]
    alarms: list[Alarm] = []
    refused = False
    while pending and not refused:
        reach = sorted(
            (k for k in pending if aligned & set(trios[k].classifiers)),
            key=lambda k: (-len(aligned & set(trios[k].classifiers)), k),
        )
        if not reach:
            break
        tied = []
        for k in reach:
            seen = [c for c in trios[k].classifiers if c in aligned]
            perm, best = least_assignment(cost(k, seen))
            if exact and best != 0:
                names = _names(trios[k])
                alarms.append(
                    Alarm("trio_disagreement", _DISAGREE.format(names), classifiers=trios[k].classifiers)
                )
                refused = True
                break
            if perm is None:
                tied.append(k)
                continue
            relabellings[k] = perm
            add(k, perm)
            aligned |= set(trios[k].classifiers)
            pending.remove(k)
            break
        else:
            names = "; ".join(_names(trios[k]) for k in tied[:4])
            alarms.append(
                Alarm("trio_disagreement", _TIED.format(names), classifiers=trios[tied[0]].classifiers)
            )
            refused = True
    if refused:
        return TrioCombination(None, tuple(relabellings), (), 0.0, exact, tuple(alarms))
    for k in pending:
        alarms.append(Alarm("blind_spot", _APART.format(_names(trios[k])), classifiers=trios[k].classifiers))
    return _combination(trios, reps, relabellings, weights, labels, classifiers, exact, alarms)


def _flat(rep: Any, trio: Evaluation, labels: tuple[str, ...]) -> list[Any]:
    point, rows = rep
    return [
        *(point.prevalence[t] for t in labels),
        *(v for c in trio.classifiers for row in rows[c].values() for v in row.values()),
    ]


def _combination(
    trios: Sequence[Evaluation],
    reps: list[Any],
    relabellings: list[Perm | None],
    weights: list[Any],
    labels: tuple[str, ...],
    classifiers: tuple[str, ...],
    exact: bool,
    alarms: list[Alarm],
) -> TrioCombination:
    """The weighted mean of the aligned trios, statistic by statistic, with their exact values."""
    values: dict[tuple[str, ...], tuple[list[Any], list[Any]]] = {}
    answers: dict[str, list[str]] = {}
    template: Estimate | None = None
    for k, perm in enumerate(relabellings):
        if perm is None:
            continue
        point = relabel(reps[k][0], perm, labels)
        template = point if template is None else template
        for t in labels:
            xs, ws = values.setdefault(("prevalence", t), ([], []))
            xs.append(point.prevalence[t])
            ws.append(weights[k])
        rows = point.response_rows()
        for c in trios[k].classifiers:
            for t in labels:
                answers.setdefault(c, list(rows[c][t]))
                for a, v in rows[c][t].items():
                    xs, ws = values.setdefault(("response", c, t, a), ([], []))
                    xs.append(v)
                    ws.append(weights[k])
    assert template is not None
    means = {key: _mean(xs, ws) for key, (xs, ws) in values.items()}
    if any(isinstance(v, float) for v in means.values()):  # irrational numbers do not mix with floats
        means = {key: v if _rational(v) else float(v) for key, v in means.items()}
    prevalence = {t: means[("prevalence", t)] for t in labels}
    response = {
        c: {t: {a: means[("response", c, t, a)] for a in answers[c]} for t in labels}
        if c in answers
        else {t: {a: None for a in labels} for t in labels}
        for c in classifiers
    }
    accuracy = {c: {t: response[c][t][t] for t in labels} for c in classifiers}
    point = dataclasses.replace(
        template, prevalence=prevalence, accuracy=accuracy, response=response if template.response else {}
    )
    differ = tuple(" ".join(key) for key, (xs, _) in values.items() if len(set(xs)) > 1)
    spread = max((max(map(float, xs)) - min(map(float, xs)) for xs, _ in values.values()), default=0.0)
    return TrioCombination(point, tuple(relabellings), differ, spread, exact, tuple(alarms))


def total_accuracy_assignment(point: Estimate, labels: Sequence[str]) -> Perm | None:
    r"""The renaming of ``point`` with the largest summed total accuracy, or ``None`` (a tie).

    ``sum_i sum_ell P_ell P_{i,ell|ell}`` over the classifiers whose rows are defined: the
    decoding rule of three classifiers, applied to every classifier of a combined point.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> e = Estimate({"a": F(1, 4), "b": F(3, 4)}, {"c0": {"a": F(1, 4), "b": F(1, 3)}})
    >>> total_accuracy_assignment(e, ("a", "b"))
    (1, 0)
    """
    labels = tuple(labels)
    rows = point.response_rows()
    defined = [
        c for c, by_truth in rows.items() if all(by_truth[t][a] is not None for t in labels for a in labels)
    ]
    prevalence = [point.prevalence[t] for t in labels]
    if any(p is None for p in prevalence):
        return None
    values = [*prevalence, *(rows[c][t][a] for c in defined for t in labels for a in labels)]
    number: Callable[[Any], Any] = (lambda v: v) if all(_rational(v) for v in values) else float
    gain = [
        [-number(prevalence[ell]) * sum((number(rows[c][t][m]) for c in defined), number(0)) for m in labels]
        for ell, t in enumerate(labels)
    ]
    return least_assignment(gain)[0]


def _outside(value: Any) -> bool:
    if value is None:
        return False
    try:
        return bool(value < 0 or value > 1)
    except TypeError:  # a number without an order (complex)
        return True


def combined_evaluation(
    trios: Sequence[Evaluation],
    labels: Sequence[str],
    classifiers: Sequence[str],
    decode: Callable[[Estimate], Perm | None],
    undecided: str,
    method: str = "algebraic",
) -> Evaluation:
    r"""The evaluation of a larger ensemble from its trios: aligned, combined, decoded once.

    Parameters
    ----------
    trios : sequence of Evaluation
    labels, classifiers : sequence of str
    decode : callable
        The renaming of the combined point to report (:func:`relabel`), or ``None``: undecided.
    undecided : str
        The detail of the ``undecided`` alarm.

    Returns
    -------
    Evaluation
        ``trios`` holds every trio's evaluation and their alarms are repeated, each naming its
        trio; a classifier in no aligned trio has undefined (``None``) rows and a ``blind_spot``
        alarm naming it. When the trios are combined and the rule decides: the one chosen point;
        when it does not: every renaming of the combined point (identity first), none chosen, and
        an ``undecided`` alarm; when they are not combined: no point and the alarm saying why.
        A ``trio_disagreement`` alarm lists the statistics on which the aligned trios differ.
    """
    labels, classifiers = tuple(labels), tuple(classifiers)
    combination = combine_trios(trios, labels, classifiers)
    alarms = [
        Alarm(a.kind, f"trio {_names(t)}: {a.detail}", classifiers=t.classifiers)
        for t in trios
        for a in t.alarms
    ]
    alarms += combination.alarms
    if combination.differ:
        differ = combination.differ
        listed = "; ".join(differ[:6]) + ("; ..." if len(differ) > 6 else "")
        alarms.append(
            Alarm(
                "trio_disagreement",
                f"the aligned trios differ on {len(differ)} statistic(s) "
                f"(largest spread {combination.spread:.3g}): {listed}",
            )
        )
    point = combination.point
    if point is None:
        return Evaluation(
            method=method,
            labels=labels,
            classifiers=classifiers,
            points=(),
            chosen=None,
            partition={},
            alarms=tuple(alarms),
            trios=tuple(trios),
        )
    covered = {
        c for trio, perm in zip(trios, combination.relabellings) if perm is not None for c in trio.classifiers
    }
    alarms += [
        Alarm("blind_spot", _UNFIXED.format(repr(c)), classifiers=(c,))
        for c in classifiers
        if c not in covered
    ]
    rows = point.response_rows()
    values = [
        *point.prevalence.values(),
        *(v for by_truth in rows.values() for row in by_truth.values() for v in row.values()),
    ]
    if any(_outside(v) for v in values):
        alarms.append(
            Alarm(
                "outside_unit_cube",
                "the combined estimate (the mean of the aligned trios) has "
                "a prevalence or response rate outside [0, 1]",
            )
        )
    perm = decode(point)
    if perm is None:
        alarms.append(Alarm("undecided", undecided))
        renamings = itertools.permutations(range(len(labels)))
        points = tuple(relabel(point, p, labels) for p in renamings)
        return Evaluation(
            method=method,
            labels=labels,
            classifiers=classifiers,
            points=points,
            chosen=None,
            partition={},
            alarms=tuple(alarms),
            trios=tuple(trios),
        )
    return Evaluation(
        method=method,
        labels=labels,
        classifiers=classifiers,
        points=(relabel(point, perm, labels),),
        chosen=0,
        partition={},
        alarms=tuple(alarms),
        trios=tuple(trios),
    )
