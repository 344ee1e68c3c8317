r"""Hui-Walter evaluation in closed form: two tests, two or more populations, no answer key.

The Hui-Walter setting is the multi-population generating set with independent tests:
populations share every test's accuracies and have their own prevalences.
:func:`evaluate_hui_walter` is the exact closed form for two binary tests (the generated
code of :mod:`evalgebra.generated.hui_walter`, derived from the Gröbner module; the
derivation corrects the paper's printed eq. 3). Both evaluations, swapped by the label swap
``theta_s <-> 1 - theta_s``, ``P_{i,a} <-> 1 - P_{i,b}``, come exactly (``Fraction`` or
:class:`~evalgebra.numbers.quadratic.QuadraticNumber`), one decoded. With more than two
populations every pair of populations is evaluated and the pairs must agree.

The Gibbs sampler on the counts (any number of binary tests and populations) is
:func:`evalgebra.evaluators.hui_walter.gibbs.evaluate_hui_walter_gibbs`; the online variant, which
re-evaluates this closed form after every batch of a stream, is
:class:`evalgebra.evaluators.hui_walter.online.OnlineHuiWalterEvaluator`.

Failure modes of the closed form are alarms: ``complex`` (the paper's discriminant ``F`` is
imaginary: ``R < 0``), ``irrational`` (``R`` is not a square: on this test the tests were not
sample-independent within the populations, or their accuracies differ between populations),
``blind_spot`` (a vanishing denominator: an empty population, a test whose rate of the second
label is the same in both populations, or ``F = 0``), ``outside_unit_cube`` and
``empty_variety`` (the exact residual under the model; for more than two populations, pairs
of populations that disagree).

Label switching. The likelihood is unchanged by the label swap, so every evaluation comes
with its mirror. Both the decoding of the closed form and the sampler use one stated rule:
``decoding="youden"`` (default) keeps the side on which the tests' Youden indices
``J_i = P_{i,a} + P_{i,b} - 1`` sum to a positive number (the tests are better than chance
on average; the swap maps ``J_i`` to ``-J_i``); ``decoding="total_accuracy"`` the side on
which the mean accuracy over all items and tests exceeds 1/2.

Examples
--------
>>> from evalgebra.data.point import EvaluationPoint
>>> from evalgebra.data.simulate import expected_sketch
>>> from evalgebra.spec import EnsembleSpec
>>> spec = EnsembleSpec(["rf", "svc"], ["malignant", "benign"], populations=["north", "south"])
>>> truth = EvaluationPoint.from_values(
...     spec, {"north": {"malignant": "3/5"}, "south": {"malignant": "1/10"}},
...     accuracy={"rf": {"malignant": "4/5", "benign": "9/10"},
...               "svc": {"malignant": "3/5", "benign": "9/10"}})
>>> result = evaluate_hui_walter(expected_sketch(truth).unlabelled())
>>> result.point.by_population["south"]["malignant"], result.point.accuracy["rf"]
(Fraction(1, 10), {'malignant': Fraction(4, 5), 'benign': Fraction(9, 10)})
>>> result.alarms
()

References
----------
.. [1] "Unlocking Unlabeled Data: Ensemble Learning with the Hui-Walter Paradigm for
   Performance Estimation in Online and Static Settings" (anonymous authors, under review
   at TMLR): eqs. 1-3, the closed form.
.. [2] S. L. Hui and S. D. Walter, "Estimating the error rates of diagnostic tests",
   Biometrics 36 (1980), as cited by [1].
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError, SpecError
from evalgebra.generated import hui_walter as generated
from evalgebra.numbers.quadratic import QuadraticNumber
from evalgebra.results import Alarm, Estimate, Evaluation, exact_text

__all__ = [
    "HUI_WALTER_DECODINGS",
    "HuiWalterEstimate",
    "evaluate_hui_walter",
    "evaluate_cross_tabs",
    "hui_walter_truth",
    "hui_walter_estimate",
    "check_hui_walter_sketch",
    "check_hui_walter_decoding",
    "as_float",
]

#: Rules that pick one side of the label-swap symmetry (closed form and sampler alike).
HUI_WALTER_DECODINGS = ("youden", "total_accuracy")

_N_STATS = len(generated.STATISTICS)


# -- results ----------------------------------------------------------------------------------
def as_float(value: Any) -> float | None:
    """``float(value)``, or None for None and for a complex :class:`QuadraticNumber`."""
    if value is None:
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None  # a complex QuadraticNumber


@dataclass(frozen=True)
class HuiWalterEstimate(Estimate):
    r"""One Hui-Walter evaluation: shared accuracies, a prevalence row per population.

    ``prevalence`` is the pooled prevalence over all items (``sum_s Q_s P^s_ell / Q``), so
    the generic :class:`~evalgebra.results.estimates.Estimate` API keeps its meaning;
    ``by_population[population][label]`` holds the population's own prevalences.
    """

    by_population: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        out["by_population"] = {
            pop: {k: as_float(v) for k, v in row.items()} for pop, row in self.by_population.items()
        }
        if "exact" in out:
            out["exact"]["by_population"] = {
                pop: {k: None if v is None else exact_text(v) for k, v in row.items()}
                for pop, row in self.by_population.items()
            }
        return out


def hui_walter_estimate(
    theta: Sequence[Any],
    accuracy: Sequence[Any],
    sizes: Sequence[int],
    labels: Sequence[str],
    classifiers: Sequence[str],
    populations: Sequence[str],
) -> HuiWalterEstimate:
    """The estimate of ``theta[s]`` (prevalence of the first label) and
    ``accuracy = (P_{0,a}, P_{0,b}, P_{1,a}, ...)``."""
    first, second = labels
    by_population = {
        pop: {first: t, second: None if t is None else 1 - t} for pop, t in zip(populations, theta)
    }
    pooled: Any = None
    items = sum(int(q) for q in sizes)
    if items and all(t is not None for t in theta):
        pooled = _pooled(theta, sizes, items)
    prevalence = {first: pooled, second: None if pooled is None else 1 - pooled}
    rows = {c: {first: accuracy[2 * i], second: accuracy[2 * i + 1]} for i, c in enumerate(classifiers)}
    return HuiWalterEstimate(prevalence, rows, by_population)


def _pooled(theta: Sequence[Any], sizes: Sequence[int], items: int) -> Any:
    """``sum_s Q_s theta_s / Q``: exact when the terms share a field (or are rational), else a float.

    With three or more populations the prevalences can come from different pairs of
    populations, hence from different quadratic fields (or be float means); their exact sum
    does not exist, so the pooled prevalence is then a float (None if a term is complex).
    """
    try:
        total: Any = sum((q * t for q, t in zip(sizes, theta)), Fraction(0))
        return total / items
    except (ValueError, TypeError):
        pass
    floats = [as_float(t) for t in theta]
    if any(f is None for f in floats):
        return None
    return sum(q * f for q, f in zip(sizes, floats) if f is not None) / items


# -- exact helpers ----------------------------------------------------------------------------
def _sign(value: Any) -> int:
    """Exact sign of a Fraction, int, float or real QuadraticNumber."""
    if isinstance(value, QuadraticNumber):
        return value.sign()
    return (value > 0) - (value < 0)


def _square_free(radicand: int) -> tuple[int, int]:
    """``radicand = s**2 * r`` with the squares of the primes below 50 taken out."""
    s, r = 1, radicand
    for p in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47):
        while r and r % (p * p) == 0:
            r //= p * p
            s *= p
    return s, r


def _same(x: Any, y: Any) -> bool:
    """Exact equality of two exact values, also across quadratic fields."""
    if isinstance(x, QuadraticNumber) or isinstance(y, QuadraticNumber):
        qx = x if isinstance(x, QuadraticNumber) else QuadraticNumber(x)
        qy = y if isinstance(y, QuadraticNumber) else QuadraticNumber(y)
        return qx.p == qy.p and qx.q * qx.q * qx.d == qy.q * qy.q * qy.d and _sign(qx.q) == _sign(qy.q)
    return bool(x == y)


def _side(point: Sequence[Any], sizes: Sequence[int], decoding: str) -> int:
    r"""Sign of the decoding statistic of ``(theta_s..., P_{0,a}, P_{0,b}, ...)``; the swap negates it.

    ``youden``: ``sum_i (P_{i,a} + P_{i,b} - 1)``. ``total_accuracy``: ``2 T - N Q`` with
    ``T = sum_s Q_s sum_i (theta_s P_{i,a} + (1 - theta_s) P_{i,b})``.
    """
    n_pops = len(sizes)
    acc = point[n_pops:]
    n = len(acc) // 2
    if decoding == "youden":
        return _sign(sum((acc[2 * i] + acc[2 * i + 1] - 1 for i in range(n)), Fraction(0)))
    total: Any = Fraction(0)
    for q, theta in zip(sizes, point[:n_pops]):
        for i in range(n):
            total = total + q * (theta * acc[2 * i] + (1 - theta) * acc[2 * i + 1])
    return _sign(2 * total - n * sum(sizes))


def check_hui_walter_decoding(decoding: str) -> None:
    """Raise :class:`SpecError` unless ``decoding`` is one of :data:`HUI_WALTER_DECODINGS`."""
    if decoding not in HUI_WALTER_DECODINGS:
        raise SpecError(f"unknown decoding {decoding!r}; known: {', '.join(HUI_WALTER_DECODINGS)}")


# -- the closed form ----------------------------------------------------------------------------
_DETAILS = {
    "complex": "R = {R} < 0: the discriminant F is imaginary (F^2 = R / (Q_s0 Q_s1)^4, eq. 2 of the "
    "Hui-Walter paper), so there is no real evaluation",
    "irrational": "R = {R} is not a square: the evaluations are irrational, so on this test the classifiers "
    "were not sample-independent within the populations, or their accuracies differ between populations",
    "outside_unit_cube": "an evaluation has a prevalence or accuracy outside [0, 1]",
    "empty_variety": "the closed-form points do not reproduce the observed cross-tabs under the "
    "Hui-Walter model",
}


def _blind_spot_text(
    factor: str,
    undefined: Sequence[str],
    classifiers: Sequence[str],
    populations: Sequence[str],
    labels: Sequence[str],
) -> str:
    lost = ", ".join(undefined)
    if factor in ("Q_s0", "Q_s1"):
        return f"population {populations[int(factor[-1])]!r} has no items; undefined: {lost}"
    if factor == generated.BLIND_SPOTS[-1]:
        return (
            f"F = 0 ({factor[:24]}... = 0): the two evaluations coincide (equal prevalences, or a test no "
            f"better than chance); undefined: {lost}"
        )
    for i, name in enumerate(classifiers):
        if f"B_s0_{i}" in factor:
            return (
                f"{name} answers {labels[1]!r} equally often in both populations (equal prevalences, or "
                f"{name} no better than chance); undefined: {lost}"
            )
    return f"{factor} = 0; undefined: {lost}"


def _values(out: Sequence[int], square: int | None, radicand: int, sign: int) -> list[Any]:
    values: list[Any] = []
    split = None if square is not None else _square_free(radicand)
    for k in range(_N_STATS):
        num, root, den = out[1 + 3 * k : 4 + 3 * k]
        if den == 0:
            values.append(None)
        elif root == 0 or square is not None:
            values.append(Fraction(num + sign * root * (square or 0), den))
        else:
            assert split is not None
            values.append(
                QuadraticNumber(Fraction(num, den), Fraction(sign * root * split[0], den), split[1])
            )
    return values


def _in_unit_interval(value: Any) -> bool:
    return _sign(value) >= 0 and _sign(1 - value) >= 0


def evaluate_cross_tabs(
    counts: Sequence[Sequence[int]],
    labels: Sequence[str] = ("a", "b"),
    classifiers: Sequence[str] = ("c0", "c1"),
    populations: Sequence[str] = ("s0", "s1"),
    decoding: str = "youden",
) -> Evaluation:
    r"""Evaluate two binary tests from the cross-tabs of two populations, exactly.

    Parameters
    ----------
    counts : two sequences of 4 int
        Per population the counts of the patterns ``aa, ab, ba, bb`` (test 0's answer,
        test 1's answer).
    labels, classifiers, populations : names for the result
    decoding : {"youden", "total_accuracy"}
        Which of the two evaluations to choose (see the module notes).

    Returns
    -------
    Evaluation
        ``method="hui_walter"``; two :class:`HuiWalterEstimate` points (``SIGNS`` order of
        the generated code), ``chosen``, the partition of every pattern's count (pooled
        over the populations) by true label, and the alarms.

    Examples
    --------
    A cross-tab on which the tests were exactly independent within both populations (200
    and 400 items):

    >>> r = evaluate_cross_tabs([[41, 49, 19, 91], [43, 67, 37, 253]])
    >>> r.point.by_population, r.alarms
    ({'s0': {'a': Fraction(1, 2), 'b': Fraction(1, 2)}, 's1': {'a': Fraction(1, 4), 'b': Fraction(3, 4)}}, ())
    >>> r.point.accuracy["c0"], r.point.accuracy["c1"]
    ({'a': Fraction(4, 5), 'b': Fraction(9, 10)}, {'a': Fraction(1, 2), 'b': Fraction(9, 10)})

    Tests that disagree more than chance within both populations (negative covariance) while
    the populations differ little: no real evaluation, the paper's ``F`` is imaginary.

    >>> evaluate_cross_tabs([[10, 30, 30, 10], [12, 30, 30, 8]]).alarm_kinds()
    {'complex'}
    """
    check_hui_walter_decoding(decoding)
    rows = [list(row) for row in counts]
    ints = [int(c) for row in rows for c in row]
    if (
        len(rows) != 2
        or any(len(row) != 4 for row in rows)
        or any(c < 0 for c in ints)
        or any(c != x for c, x in zip(ints, (x for row in rows for x in row)))
    ):
        raise SketchError(f"need two rows of 4 non-negative integer counts (aa, ab, ba, bb), got {rows!r}")
    labels, classifiers, populations = tuple(labels), tuple(classifiers), tuple(populations)
    if len(labels) != 2 or len(classifiers) != 2 or len(populations) != 2:
        raise SpecError("the Hui-Walter closed form needs 2 labels, 2 classifiers and 2 populations")
    sizes = [sum(ints[:4]), sum(ints[4:])]
    out = generated.evaluate(*ints)
    radicand = out[0]
    factors = out[1 + 3 * _N_STATS :]
    square = math.isqrt(radicand) if radicand >= 0 else None
    if square is not None and square * square != radicand:
        square = None
    points = [_values(out, square, radicand, sign) for sign in generated.SIGNS]
    names = [_statistic_name(k, labels, classifiers, populations) for k in range(_N_STATS)]
    alarms = []
    for factor, value in zip(generated.BLIND_SPOTS, factors):
        if value == 0:
            undefined = [names[k] for k in range(_N_STATS) if out[3 + 3 * k] == 0]
            alarms.append(
                Alarm("blind_spot", _blind_spot_text(factor, undefined, classifiers, populations, labels))
            )
    kinds = []
    if radicand < 0:
        kinds.append("complex")
    elif square is None:
        kinds.append("irrational")
    first = points[0]
    # one point suffices for the residual and the unit cube: the label swap leaves the model
    # unchanged and maps [0, 1] onto itself (and for irrational points it is the conjugate)
    if None not in first:
        model = generated.model(*first)
        if not all(
            _same(m * sizes[s], ints[4 * s + k])
            for s in range(2)
            for k, m in enumerate(model[4 * s : 4 * s + 4])
        ):
            kinds.append("empty_variety")
        if radicand >= 0 and not all(_in_unit_interval(v) for v in first):
            kinds.append("outside_unit_cube")
    alarms += [
        Alarm(kind, _DETAILS[kind].format(R=radicand))
        for kind in ("complex", "irrational", "outside_unit_cube", "empty_variety")
        if kind in kinds
    ]
    chosen: int | None = None
    if radicand >= 0 and None not in first:
        side = _side(first, sizes, decoding)
        chosen = None if side == 0 else (0 if side > 0 else 1)
        if chosen is None:
            rule = (
                "the tests' Youden indices sum to 0"
                if decoding == "youden"
                else "the mean accuracy over all items and tests is exactly 1/2"
            )
            alarms.append(
                Alarm(
                    "undecided",
                    f"decoding {decoding!r} chooses neither evaluation: {rule} on both "
                    "(the label swap maps one onto the other)",
                )
            )
    estimates = tuple(
        hui_walter_estimate(p[:2], p[2:], sizes, labels, classifiers, populations) for p in points
    )
    partition: dict[str, list[tuple[tuple[str, ...], Any]]] = {labels[0]: [], labels[1]: []}
    if chosen is not None:
        point = points[chosen]
        for d0, d1 in itertools.product((0, 1), repeat=2):
            for ell in (0, 1):
                share: Any = Fraction(0)
                for s in range(2):
                    weight = sizes[s] * (point[s] if ell == 0 else 1 - point[s])
                    for i, r in enumerate((d0, d1)):
                        acc = point[2 + 2 * i + ell]
                        weight = weight * (acc if r == ell else 1 - acc)
                    share = share + weight
                partition[labels[ell]].append(((labels[d0], labels[d1]), share))
    return Evaluation(
        method="hui_walter",
        labels=labels,
        classifiers=classifiers,
        points=estimates,
        chosen=chosen,
        partition=partition,
        alarms=tuple(alarms),
    )


def _statistic_name(
    k: int, labels: Sequence[str], classifiers: Sequence[str], populations: Sequence[str]
) -> str:
    if k < 2:
        return f"prevalence of {labels[0]} in {populations[k]}"
    i, ell = divmod(k - 2, 2)
    return f"accuracy of {classifiers[i]} on {labels[ell]}"


def check_hui_walter_sketch(
    sketch: Sketch, min_classifiers: int, max_classifiers: int | None, min_populations: int
) -> None:
    """Raise unless ``sketch`` is binary with this many classifiers and populations (what each method
    needs)."""
    if not isinstance(sketch, Sketch):
        raise SketchError(f"need a Sketch, got {type(sketch).__name__}")
    if sketch.n_labels != 2:
        raise SpecError(
            f"Hui-Walter evaluation is for binary classifiers (R = 2); this sketch has R = {sketch.n_labels}"
        )
    n = sketch.n_classifiers
    if n < min_classifiers or (max_classifiers is not None and n > max_classifiers):
        wanted = (
            f"exactly {min_classifiers}"
            if max_classifiers == min_classifiers
            else f"at least {min_classifiers}"
        )
        raise SpecError(
            f"this Hui-Walter method needs {wanted} classifiers, the sketch has {n}"
            + (" (marginalise to a pair, or use evaluate_hui_walter_gibbs)" if max_classifiers else "")
        )
    if len(sketch.populations) < min_populations:
        raise SpecError(
            f"Hui-Walter evaluation needs at least {min_populations} populations, the sketch has "
            f"{list(sketch.populations)}: give each item's population (e.g. a clustering of the items)"
        )


def _named_pair(pair: Evaluation, p: str, q: str) -> Evaluation:
    """The evaluation of the pair of populations ``p, q`` with its alarms naming the pair."""
    return dataclasses.replace(
        pair,
        alarms=tuple(dataclasses.replace(a, detail=f"populations {p}, {q}: {a.detail}") for a in pair.alarms),
    )


def evaluate_hui_walter(sketch: Sketch, decoding: str = "youden") -> Evaluation:
    r"""Evaluate two binary classifiers on two or more populations with the exact closed form.

    Parameters
    ----------
    sketch : Sketch
        Two labels, two classifiers, two or more populations; true labels are ignored.
    decoding : {"youden", "total_accuracy"}

    Returns
    -------
    Evaluation
        Two populations: see :func:`evaluate_cross_tabs`. More: one combined
        :class:`HuiWalterEstimate` (every pair of populations evaluated, in ``trios``; each
        statistic the value the pairs agree on, else their mean as a float, with an
        ``empty_variety`` alarm: no evaluation of the model explains all populations).

    Examples
    --------
    Counts on which the two tests were exactly independent within each population (truth:
    prevalences 1/2 and 1/4, accuracies ``(4/5, 9/10)`` and ``(1/2, 9/10)``):

    >>> sk = Sketch.from_counts({"aa": 41, "ab": 49, "ba": 19, "bb": 91}, labels=["a", "b"],
    ...                         population="s0").merge(
    ...      Sketch.from_counts({"aa": 43, "ab": 67, "ba": 37, "bb": 253}, labels=["a", "b"],
    ...                         population="s1"))
    >>> result = evaluate_hui_walter(sk)
    >>> result.point.by_population["s1"]["a"], result.point.accuracy["c1"]
    (Fraction(1, 4), {'a': Fraction(1, 2), 'b': Fraction(9, 10)})
    >>> result.alarms, len(result.points)
    ((), 2)
    """
    check_hui_walter_decoding(decoding)
    check_hui_walter_sketch(sketch, 2, 2, 2)
    populations = tuple(sketch.populations)
    labels, classifiers = tuple(sketch.labels), tuple(sketch.classifiers)
    tabs = {pop: [int(c) for c in sketch.count_vector(pop)] for pop in populations}
    if len(populations) == 2:
        return evaluate_cross_tabs([tabs[p] for p in populations], labels, classifiers, populations, decoding)
    pairs = [
        _named_pair(evaluate_cross_tabs([tabs[p], tabs[q]], labels, classifiers, (p, q), decoding), p, q)
        for p, q in itertools.combinations(populations, 2)
    ]
    values: dict[tuple[str, ...], list[Any]] = {}
    for pair in pairs:
        point = pair.point
        if not isinstance(point, HuiWalterEstimate):
            continue
        for pop, row in point.by_population.items():
            values.setdefault(("prevalence", pop), []).append(row[labels[0]])
        for c in classifiers:
            for label in labels:
                values.setdefault(("accuracy", c, label), []).append(point.accuracy[c][label])

    def combine(key: tuple[str, ...]) -> Any:
        xs = values.get(key, [])
        if not xs:
            return None
        if all(_same(x, xs[0]) for x in xs[1:]):
            return xs[0]
        return float(np.mean([float(x) for x in xs]))

    theta = [combine(("prevalence", pop)) for pop in populations]
    accuracy = [combine(("accuracy", c, label)) for c in classifiers for label in labels]
    sizes = [sketch.size(pop) for pop in populations]
    combined = hui_walter_estimate(theta, accuracy, sizes, labels, classifiers, populations)
    alarms = [a for pair in pairs for a in pair.alarms]
    differ = [" ".join(k) for k, xs in values.items() if not all(_same(x, xs[0]) for x in xs[1:])]
    if differ:
        alarms.append(
            Alarm(
                "empty_variety",
                "the pairs of populations give different evaluations, so no evaluation "
                "of the Hui-Walter model explains every population: " + "; ".join(differ),
            )
        )
    usable = any(isinstance(pair.point, HuiWalterEstimate) for pair in pairs)
    return Evaluation(
        method="hui_walter",
        labels=labels,
        classifiers=classifiers,
        points=(combined,),
        chosen=0 if usable else None,
        partition={},
        alarms=tuple(alarms),
        trios=tuple(pairs),
    )


def hui_walter_truth(sketch: Sketch) -> dict[tuple[str, ...], Fraction]:
    r"""The true values of the Hui-Walter parameters of a labelled sketch.

    ``("prevalence", population)``: the share of the first label in the population;
    ``("accuracy", classifier, label)``: the classifier's accuracy on the label over all
    populations (the model's shared accuracy). Keys as in the parameters of
    :class:`evalgebra.evaluators.hui_walter.gibbs.GibbsResult`.
    """
    if not sketch.is_labelled:
        raise SketchError("hui_walter_truth needs a labelled sketch (one with the answer key)")
    out: dict[tuple[str, ...], Fraction] = {}
    for pop in sketch.populations:
        counts = sketch.label_counts(pop)
        total = sum(counts.values())
        if total:
            out[("prevalence", pop)] = Fraction(counts[sketch.labels[0]], total)
    by_label = sketch.by_true_label()
    for i, c in enumerate(sketch.classifiers):
        for label in sketch.labels:
            rows = by_label[label]
            total = sum(rows.values())
            if total:
                out[("accuracy", c, label)] = Fraction(
                    sum(n for d, n in rows.items() if d[i] == label), total
                )
    return out
