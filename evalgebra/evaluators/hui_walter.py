r"""Hui-Walter evaluation: two or more tests, two or more populations, no answer key.

The Hui-Walter setting (seed 004) is the multi-population generating set with independent
tests (``MATH.md`` section 2): populations share every test's accuracies and have their own
prevalences. Three ways to evaluate it from a sketch with populations:

:func:`evaluate_hui_walter`
    the exact closed form for two binary tests (the generated code of
    :mod:`evalgebra.generated.hui_walter`, derived from the Gröbner module; derivation d06
    corrects the seed's printed eq 3). Both evaluations, swapped by the label swap
    ``theta_s <-> 1 - theta_s``, ``P_{i,a} <-> 1 - P_{i,b}``, exactly (``Fraction`` or
    :class:`~evalgebra.evaluators.result.QuadraticNumber`), one decoded. With more than two
    populations every pair of populations is evaluated and the pairs must agree.
:func:`gibbs_hui_walter`
    the Bayesian latent-class model with Beta priors, sampled by Gibbs on the counts of the
    sketch (a binomial draw per pattern and population, never per item): posterior means
    and equal-tailed credible intervals, for any number of binary tests and populations.
:class:`OnlineHuiWalter`
    the online variant: the cross-tab is updated batch by batch and the closed form
    re-evaluated after every batch.

Failure modes of the closed form are alarms: ``complex`` (the seed's discriminant ``F`` is
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
   Performance Estimation in Online and Static Settings", seed 004: eqs 1-3, Gibbs sampling
   with Beta(1, 1) priors, Algorithm 2 (online).
.. [2] S. L. Hui and S. D. Walter, "Estimating the error rates of diagnostic tests",
   Biometrics 36 (1980), as cited by seed 004.
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

from evalgebra.errors import SketchError, SpecError
from evalgebra.generated import hui_walter as generated
from evalgebra.evaluators.result import Alarm, Estimate, Evaluation, QuadraticNumber, exact_text
from evalgebra.data.patterns import decode
from evalgebra.data.sketch import Sketch
from evalgebra.evaluators.stream import StreamEvaluator

__all__ = [
    "DECODINGS",
    "HuiWalterEstimate",
    "evaluate_hui_walter",
    "evaluate_cross_tabs",
    "hui_walter_truth",
    "GibbsResult",
    "gibbs_hui_walter",
    "OnlineStep",
    "OnlineHuiWalter",
]

#: Rules that pick one side of the label-swap symmetry (closed form and sampler alike).
DECODINGS = ("youden", "total_accuracy")

_N_STATS = len(generated.STATISTICS)


# -- results ----------------------------------------------------------------------------------
def _float(value: Any) -> float | None:
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
    the generic :class:`~evalgebra.evaluators.result.Estimate` API keeps its meaning;
    ``by_population[population][label]`` holds the population's own prevalences.
    """

    by_population: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        out["by_population"] = {pop: {k: _float(v) for k, v in row.items()} for pop, row in self.by_population.items()}
        if "exact" in out:
            out["exact"]["by_population"] = {
                pop: {k: None if v is None else exact_text(v) for k, v in row.items()}
                for pop, row in self.by_population.items()}
        return out


def _estimate(theta: Sequence[Any], accuracy: Sequence[Any], sizes: Sequence[int], labels: Sequence[str],
              classifiers: Sequence[str], populations: Sequence[str]) -> HuiWalterEstimate:
    """``theta[s]`` = prevalence of the first label; ``accuracy`` = ``(P_{0,a}, P_{0,b}, P_{1,a}, ...)``."""
    first, second = labels
    by_population = {pop: {first: t, second: None if t is None else 1 - t} for pop, t in zip(populations, theta)}
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
    floats = [_float(t) for t in theta]
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
        return (qx.p == qy.p and qx.q * qx.q * qx.d == qy.q * qy.q * qy.d
                and _sign(qx.q) == _sign(qy.q))
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


def _check_decoding(decoding: str) -> None:
    if decoding not in DECODINGS:
        raise SpecError(f"unknown decoding {decoding!r}; known: {', '.join(DECODINGS)}")


# -- the closed form ----------------------------------------------------------------------------
_DETAILS = {
    "complex": "R = {R} < 0: the seed's discriminant F is imaginary (F^2 = R / (Q_s0 Q_s1)^4, seed 004 eq 2), "
               "so there is no real evaluation",
    "irrational": "R = {R} is not a square: the evaluations are irrational, so on this test the classifiers were "
                  "not sample-independent within the populations, or their accuracies differ between populations",
    "outside_unit_cube": "an evaluation has a prevalence or accuracy outside [0, 1]",
    "empty_variety": "the closed-form points do not reproduce the observed cross-tabs under the Hui-Walter model",
}


def _blind_spot_text(factor: str, undefined: Sequence[str], classifiers: Sequence[str],
                     populations: Sequence[str], labels: Sequence[str]) -> str:
    lost = ", ".join(undefined)
    if factor in ("Q_s0", "Q_s1"):
        return f"population {populations[int(factor[-1])]!r} has no items; undefined: {lost}"
    if factor == generated.BLIND_SPOTS[-1]:
        return (f"F = 0 ({factor[:24]}... = 0): the two evaluations coincide (equal prevalences, or a test no "
                f"better than chance); undefined: {lost}")
    for i, name in enumerate(classifiers):
        if f"B_s0_{i}" in factor:
            return (f"{name} answers {labels[1]!r} equally often in both populations (equal prevalences, or "
                    f"{name} no better than chance); undefined: {lost}")
    return f"{factor} = 0; undefined: {lost}"


def _values(out: Sequence[int], square: int | None, radicand: int, sign: int) -> list[Any]:
    values: list[Any] = []
    split = None if square is not None else _square_free(radicand)
    for k in range(_N_STATS):
        num, root, den = out[1 + 3 * k: 4 + 3 * k]
        if den == 0:
            values.append(None)
        elif root == 0 or square is not None:
            values.append(Fraction(num + sign * root * (square or 0), den))
        else:
            assert split is not None
            values.append(QuadraticNumber(Fraction(num, den), Fraction(sign * root * split[0], den), split[1]))
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
    the populations differ little: no real evaluation, the seed's ``F`` is imaginary.

    >>> evaluate_cross_tabs([[10, 30, 30, 10], [12, 30, 30, 8]]).alarm_kinds()
    {'complex'}
    """
    _check_decoding(decoding)
    rows = [list(row) for row in counts]
    ints = [int(c) for row in rows for c in row]
    if len(rows) != 2 or any(len(row) != 4 for row in rows) or any(c < 0 for c in ints) or any(
            c != x for c, x in zip(ints, (x for row in rows for x in row))):
        raise SketchError(f"need two rows of 4 non-negative integer counts (aa, ab, ba, bb), got {rows!r}")
    labels, classifiers, populations = tuple(labels), tuple(classifiers), tuple(populations)
    if len(labels) != 2 or len(classifiers) != 2 or len(populations) != 2:
        raise SpecError("the Hui-Walter closed form needs 2 labels, 2 classifiers and 2 populations")
    sizes = [sum(ints[:4]), sum(ints[4:])]
    out = generated.evaluate(*ints)
    radicand = out[0]
    factors = out[1 + 3 * _N_STATS:]
    square = math.isqrt(radicand) if radicand >= 0 else None
    if square is not None and square * square != radicand:
        square = None
    points = [_values(out, square, radicand, sign) for sign in generated.SIGNS]
    names = [_statistic_name(k, labels, classifiers, populations) for k in range(_N_STATS)]
    alarms = []
    for factor, value in zip(generated.BLIND_SPOTS, factors):
        if value == 0:
            undefined = [names[k] for k in range(_N_STATS) if out[3 + 3 * k] == 0]
            alarms.append(Alarm("blind_spot", _blind_spot_text(factor, undefined, classifiers, populations, labels)))
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
        if not all(_same(m * sizes[s], ints[4 * s + k]) for s in range(2) for k, m in enumerate(model[4 * s: 4 * s + 4])):
            kinds.append("empty_variety")
        if radicand >= 0 and not all(_in_unit_interval(v) for v in first):
            kinds.append("outside_unit_cube")
    alarms += [Alarm(kind, _DETAILS[kind].format(R=radicand)) for kind in ("complex", "irrational",
                                                                          "outside_unit_cube", "empty_variety")
               if kind in kinds]
    chosen: int | None = None
    if radicand >= 0 and None not in first:
        side = _side(first, sizes, decoding)
        chosen = None if side == 0 else (0 if side > 0 else 1)
        if chosen is None:
            rule = ("the tests' Youden indices sum to 0" if decoding == "youden"
                    else "the mean accuracy over all items and tests is exactly 1/2")
            alarms.append(Alarm("undecided", f"decoding {decoding!r} chooses neither evaluation: {rule} on both "
                                             "(the label swap maps one onto the other)"))
    estimates = tuple(_estimate(p[:2], p[2:], sizes, labels, classifiers, populations) for p in points)
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
    return Evaluation("hui_walter", labels, classifiers, estimates, chosen, partition, tuple(alarms))


def _statistic_name(k: int, labels: Sequence[str], classifiers: Sequence[str], populations: Sequence[str]) -> str:
    if k < 2:
        return f"prevalence of {labels[0]} in {populations[k]}"
    i, ell = divmod(k - 2, 2)
    return f"accuracy of {classifiers[i]} on {labels[ell]}"


def _validate(sketch: Sketch, min_classifiers: int, max_classifiers: int | None, min_populations: int) -> None:
    if not isinstance(sketch, Sketch):
        raise SketchError(f"need a Sketch, got {type(sketch).__name__}")
    if sketch.n_labels != 2:
        raise SpecError(f"Hui-Walter evaluation is for binary classifiers (R = 2); this sketch has R = {sketch.n_labels}")
    n = sketch.n_classifiers
    if n < min_classifiers or (max_classifiers is not None and n > max_classifiers):
        wanted = f"exactly {min_classifiers}" if max_classifiers == min_classifiers else f"at least {min_classifiers}"
        raise SpecError(f"this Hui-Walter method needs {wanted} classifiers, the sketch has {n}"
                        + (" (marginalise to a pair, or use gibbs_hui_walter)" if max_classifiers else ""))
    if len(sketch.populations) < min_populations:
        raise SpecError(f"Hui-Walter evaluation needs at least {min_populations} populations, the sketch has "
                        f"{list(sketch.populations)}: give each item's population (e.g. a clustering of the items)")


def _named_pair(pair: Evaluation, p: str, q: str) -> Evaluation:
    """The evaluation of the pair of populations ``p, q`` with its alarms naming the pair."""
    return dataclasses.replace(pair, alarms=tuple(dataclasses.replace(a, detail=f"populations {p}, {q}: {a.detail}")
                                                  for a in pair.alarms))


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
    """
    _check_decoding(decoding)
    _validate(sketch, 2, 2, 2)
    populations = tuple(sketch.populations)
    labels, classifiers = tuple(sketch.labels), tuple(sketch.classifiers)
    tabs = {pop: [int(c) for c in sketch.count_vector(pop)] for pop in populations}
    if len(populations) == 2:
        return evaluate_cross_tabs([tabs[p] for p in populations], labels, classifiers, populations, decoding)
    pairs = [_named_pair(evaluate_cross_tabs([tabs[p], tabs[q]], labels, classifiers, (p, q), decoding), p, q)
             for p, q in itertools.combinations(populations, 2)]
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
    combined = _estimate(theta, accuracy, sizes, labels, classifiers, populations)
    alarms = [a for pair in pairs for a in pair.alarms]
    differ = [" ".join(k) for k, xs in values.items() if not all(_same(x, xs[0]) for x in xs[1:])]
    if differ:
        alarms.append(Alarm("empty_variety", "the pairs of populations give different evaluations, so no evaluation "
                                             "of the Hui-Walter model explains every population: " + "; ".join(differ)))
    usable = any(isinstance(pair.point, HuiWalterEstimate) for pair in pairs)
    return Evaluation("hui_walter", labels, classifiers, (combined,), 0 if usable else None, {}, tuple(alarms),
                      tuple(pairs))


def hui_walter_truth(sketch: Sketch) -> dict[tuple[str, ...], Fraction]:
    r"""The true values of the Hui-Walter parameters of a labelled sketch.

    ``("prevalence", population)``: the share of the first label in the population;
    ``("accuracy", classifier, label)``: the classifier's accuracy on the label over all
    populations (the model's shared accuracy). Keys as in :attr:`GibbsResult.parameters`.
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
                out[("accuracy", c, label)] = Fraction(sum(n for d, n in rows.items() if d[i] == label), total)
    return out


# -- the Gibbs sampler on the count sketch --------------------------------------------------------
Key = tuple[str, ...]


@dataclass(frozen=True)
class GibbsResult:
    r"""Posterior draws of the Hui-Walter latent-class model and their summaries.

    Attributes
    ----------
    parameters : tuple of tuple of str
        ``("prevalence", population)`` (share of the first label) for every population,
        then ``("accuracy", classifier, label)`` for every classifier and label.
    draws : ndarray, shape (chains, iterations, parameters)
        Draws after burn-in, with the label-switching rule applied to each.
    mean, sd : ndarray, shape (parameters,)
        Posterior mean and standard deviation over all chains.
    interval : ndarray, shape (parameters, 2)
        Equal-tailed credible interval at ``level``.
    rhat : ndarray, shape (parameters,)
        Split-chain potential scale reduction (near 1 when the chains agree).
    switched : ndarray, shape (chains,)
        Share of each chain's draws the label-switching rule mirrored.
    level : float
    labels, classifiers, populations : tuple of str
    sizes : tuple of int
        Items per population.
    settings : mapping
        The sampler's arguments (iterations, burn_in, chains, seed, priors, decoding).
    """

    parameters: tuple[Key, ...]
    draws: np.ndarray
    mean: np.ndarray
    sd: np.ndarray
    interval: np.ndarray
    rhat: np.ndarray
    switched: np.ndarray
    level: float
    labels: tuple[str, ...]
    classifiers: tuple[str, ...]
    populations: tuple[str, ...]
    sizes: tuple[int, ...]
    settings: Mapping[str, Any]

    def summary(self) -> dict[Key, tuple[float, float, float]]:
        """Parameter -> ``(posterior mean, interval low, interval high)``."""
        return {k: (float(m), float(lo), float(hi)) for k, m, (lo, hi) in zip(self.parameters, self.mean, self.interval)}

    def covers(self, truth: Mapping[Key, Any]) -> dict[Key, bool]:
        """Parameter -> whether its credible interval holds the value in ``truth`` (keys present only)."""
        return {k: bool(lo <= float(truth[k]) <= hi) for k, (lo, hi) in zip(self.parameters, self.interval)
                if k in truth}

    def estimate(self) -> HuiWalterEstimate:
        """The posterior means as an estimate (floats)."""
        n_pops = len(self.populations)
        means = [float(v) for v in self.mean]
        return _estimate(means[:n_pops], means[n_pops:], self.sizes, self.labels, self.classifiers, self.populations)

    def evaluation(self) -> Evaluation:
        """The posterior means as an :class:`Evaluation` (method ``hui_walter_gibbs``, no alarms)."""
        return Evaluation("hui_walter_gibbs", self.labels, self.classifiers, (self.estimate(),), 0)

    def to_text(self) -> str:
        """One line per parameter: mean, sd, credible interval, R-hat."""
        width = max(len(" ".join(k)) for k in self.parameters)
        percent = f"{100 * self.level:g}%"
        lines = [f"{'parameter':<{width}}  {'mean':>7}  {'sd':>7}  {percent + ' interval':>18}  {'R-hat':>6}"]
        for k, m, sd, (lo, hi), r in zip(self.parameters, self.mean, self.sd, self.interval, self.rhat):
            lines.append(f"{' '.join(k):<{width}}  {m:7.4f}  {sd:7.4f}  [{lo:7.4f}, {hi:7.4f}]  {r:6.3f}")
        return "\n".join(lines)


def _beta(value: Any, what: str) -> tuple[float, float]:
    try:
        a, b = (float(v) for v in value)
    except (TypeError, ValueError):
        raise SpecError(f"{what} must be a pair (a, b) of positive numbers, got {value!r}") from None
    if not (a > 0 and b > 0 and math.isfinite(a) and math.isfinite(b)):
        raise SpecError(f"{what} must be a pair (a, b) of positive numbers, got {value!r}")
    return a, b


def _split_rhat(draws: np.ndarray) -> np.ndarray:
    """Split-R-hat per parameter from ``(chains, iterations, parameters)`` draws."""
    half = draws.shape[1] // 2
    if half < 2:
        return np.full(draws.shape[2], np.nan)
    chains = np.concatenate([draws[:, :half], draws[:, half:2 * half]], axis=0)
    n = chains.shape[1]
    within = chains.var(axis=1, ddof=1).mean(axis=0)
    between = n * chains.mean(axis=1).var(axis=0, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.sqrt(((n - 1) / n * within + between / n) / within)
    return np.where(within > 0, out, 1.0)


def gibbs_hui_walter(
    sketch: Sketch,
    *,
    iterations: int = 4000,
    burn_in: int = 1000,
    chains: int = 4,
    seed: int = 0,
    prevalence_prior: Sequence[float] = (1, 1),
    accuracy_prior: Sequence[float] | Mapping[str, Sequence[float]] = (1, 1),
    level: float = 0.95,
    decoding: str = "youden",
    initial: Mapping[Key, float] | None = None,
) -> GibbsResult:
    r"""Sample the Hui-Walter latent-class posterior by Gibbs sampling on the count sketch.

    The model: in population ``s`` an item has the first label with probability
    ``theta_s``; given its label the binary tests answer independently, test ``i`` right with
    probability ``P_{i,ell}`` (shared by the populations). Priors: ``theta_s ~
    Beta(prevalence_prior)``, ``P_{i,ell} ~ Beta(accuracy_prior[ell])``. One sweep draws,
    for every population ``s`` and pattern ``d``, how many of its ``n_{s,d}`` items have the
    first label, ``y_{s,d} ~ Binomial(n_{s,d}, w_{s,d})`` with ``w`` the posterior label
    probability of the pattern, then every ``theta_s`` and ``P_{i,ell}`` from its Beta
    conditional given these counts. A sweep costs ``O(chains x populations x 2^N)``,
    whatever the number of items.

    Label switching: the swap ``theta_s -> 1 - theta_s``, ``P_{i,a} <-> 1 - P_{i,b}``
    leaves the likelihood unchanged, so the posterior has a mirror mode. Every draw is mapped
    to the side that ``decoding`` names (``youden``: the tests' Youden indices sum to a
    positive number) before it is summarised. With a prior that the swap leaves unchanged
    (the default Beta(1, 1) everywhere, or equal label priors and a symmetric prevalence
    prior) the mapped draws are draws of the posterior restricted to that side.

    Parameters
    ----------
    sketch : Sketch
        Two labels, two or more classifiers, any number of populations (one population
        needs three or more classifiers to be identifiable); true labels are ignored.
    iterations, burn_in : int
        Sweeps kept per chain, after ``burn_in`` discarded sweeps.
    chains : int
        Chains, run side by side (vectorised); each starts from a draw of the priors, or
        from ``initial``.
    seed : int
        Seed of the :class:`numpy.random.Generator` (results are reproducible).
    prevalence_prior : (a, b)
    accuracy_prior : (a, b) or mapping label -> (a, b)
    level : float
        Credible level of the equal-tailed intervals.
    decoding : {"youden", "total_accuracy"}
        The label-switching rule (see the module notes).
    initial : mapping parameter -> float, optional
        Start every chain here (keys as in :attr:`GibbsResult.parameters`).

    Returns
    -------
    GibbsResult

    Examples
    --------
    A cross-tab on which the tests were exactly independent within the populations, with
    truth ``theta = (1/2, 1/4)``, ``P_0 = (4/5, 9/10)``, ``P_1 = (1/2, 9/10)``:

    >>> sk = Sketch.from_counts({"aa": 41, "ab": 49, "ba": 19, "bb": 91}, labels=["a", "b"],
    ...                         population="s0").merge(
    ...      Sketch.from_counts({"aa": 43, "ab": 67, "ba": 37, "bb": 253}, labels=["a", "b"],
    ...                         population="s1"))
    >>> post = gibbs_hui_walter(sk, iterations=2000, burn_in=500, seed=1)
    >>> truth = {("prevalence", "s0"): 0.5, ("prevalence", "s1"): 0.25,
    ...          ("accuracy", "c0", "a"): 0.8, ("accuracy", "c0", "b"): 0.9,
    ...          ("accuracy", "c1", "a"): 0.5, ("accuracy", "c1", "b"): 0.9}
    >>> all(post.covers(truth).values()), post.draws.shape
    (True, (4, 2000, 6))
    """
    _check_decoding(decoding)
    _validate(sketch, 2, None, 1)
    if not (isinstance(iterations, int) and isinstance(burn_in, int) and isinstance(chains, int)
            and iterations >= 2 and burn_in >= 0 and chains >= 1):
        raise SpecError("iterations >= 2, burn_in >= 0 and chains >= 1 must be integers")
    if not 0 < level < 1:
        raise SpecError(f"level must lie strictly between 0 and 1, got {level!r}")
    labels, classifiers, populations = tuple(sketch.labels), tuple(sketch.classifiers), tuple(sketch.populations)
    a_prev, b_prev = _beta(prevalence_prior, "prevalence_prior")
    if isinstance(accuracy_prior, Mapping):
        if set(accuracy_prior) != set(labels):
            raise SpecError(f"accuracy_prior as a mapping needs exactly the labels {list(labels)}")
        priors = [_beta(accuracy_prior[label], f"accuracy_prior[{label!r}]") for label in labels]
    else:
        priors = [_beta(accuracy_prior, "accuracy_prior")] * 2
    n, n_pops = len(classifiers), len(populations)
    counts = np.array([sketch.count_vector(pop) for pop in populations], dtype=np.int64)   # (S, D)
    sizes = counts.sum(axis=1)
    total = counts.sum(axis=0)
    bits = decode(np.arange(2**n), n, 2).astype(np.float64)                                # (D, N): 1 = second label
    parameters: tuple[Key, ...] = tuple(("prevalence", pop) for pop in populations) + tuple(
        ("accuracy", c, label) for c in classifiers for label in labels)
    rng = np.random.default_rng(seed)
    if initial is not None:
        missing = [k for k in parameters if k not in initial]
        if missing:
            raise SpecError(f"initial lacks {missing[:3]}{' ...' if len(missing) > 3 else ''}")
        start = np.array([float(initial[k]) for k in parameters])
        if not np.all((start >= 0) & (start <= 1)):
            raise SpecError("initial values must lie in [0, 1]")
        theta = np.tile(start[:n_pops], (chains, 1))
        sens = np.tile(start[n_pops::2][:n], (chains, 1))
        spec = np.tile(start[n_pops + 1::2][:n], (chains, 1))
    else:
        theta = rng.beta(a_prev, b_prev, size=(chains, n_pops))
        sens = rng.beta(*priors[0], size=(chains, n))
        spec = rng.beta(*priors[1], size=(chains, n))
    draws = np.empty((chains, iterations, len(parameters)))
    is_b = bits[None, :, :] == 1
    for sweep in range(burn_in + iterations):
        pa = np.prod(np.where(is_b, 1 - sens[:, None, :], sens[:, None, :]), axis=2)      # (C, D)
        pb = np.prod(np.where(is_b, spec[:, None, :], 1 - spec[:, None, :]), axis=2)
        wa = theta[:, :, None] * pa[:, None, :]                                              # (C, S, D)
        both = wa + (1 - theta)[:, :, None] * pb[:, None, :]
        w = np.where(both > 0, wa / np.where(both > 0, both, 1), theta[:, :, None])
        y = rng.binomial(counts[None, :, :], np.clip(w, 0.0, 1.0))                         # items of label a
        ya = y.sum(axis=2)
        theta = rng.beta(a_prev + ya, b_prev + sizes[None, :] - ya)
        y_all = y.sum(axis=1).astype(np.float64)                                             # (C, D)
        z_all = total[None, :] - y_all
        sens = rng.beta(priors[0][0] + y_all @ (1 - bits), priors[0][1] + y_all @ bits)
        spec = rng.beta(priors[1][0] + z_all @ bits, priors[1][1] + z_all @ (1 - bits))
        if sweep >= burn_in:
            row = draws[:, sweep - burn_in]
            row[:, :n_pops] = theta
            row[:, n_pops::2] = sens
            row[:, n_pops + 1::2] = spec
    switched = _apply_rule(draws, n_pops, sizes, decoding)
    flat = draws.reshape(-1, len(parameters))
    tail = (1 - level) / 2
    interval = np.quantile(flat, [tail, 1 - tail], axis=0).T
    settings = {"iterations": iterations, "burn_in": burn_in, "chains": chains, "seed": seed,
                "prevalence_prior": (a_prev, b_prev), "accuracy_prior": dict(zip(labels, priors)),
                "decoding": decoding}
    return GibbsResult(parameters, draws, flat.mean(axis=0), flat.std(axis=0, ddof=1), interval,
                       _split_rhat(draws), switched, level, labels, classifiers, populations,
                       tuple(int(q) for q in sizes), settings)


def _apply_rule(draws: np.ndarray, n_pops: int, sizes: np.ndarray, decoding: str) -> np.ndarray:
    """Mirror, in place, every draw on the wrong side of the label swap; the share mirrored per chain."""
    theta, sens, spec = draws[..., :n_pops], draws[..., n_pops::2], draws[..., n_pops + 1::2]
    if decoding == "youden":
        side = (sens + spec - 1).sum(axis=-1)
    else:
        per_pop = theta[..., :, None] * sens[..., None, :] + (1 - theta[..., :, None]) * spec[..., None, :]
        side = 2 * (per_pop.sum(axis=-1) * sizes).sum(axis=-1) - sens.shape[-1] * sizes.sum()
    wrong = side < 0
    mirrored_theta = 1 - theta[wrong]
    mirrored_sens, mirrored_spec = 1 - spec[wrong], 1 - sens[wrong]
    draws[..., :n_pops][wrong] = mirrored_theta
    view_sens, view_spec = draws[..., n_pops::2], draws[..., n_pops + 1::2]
    view_sens[wrong] = mirrored_sens
    view_spec[wrong] = mirrored_spec
    return wrong.mean(axis=1)


# -- the online variant ---------------------------------------------------------------------------
@dataclass(frozen=True)
class OnlineStep:
    """The state after one batch: items so far, the chosen evaluation (floats) and the alarm kinds."""

    items: int
    batches: int
    values: Mapping[Key, float | None]
    alarms: tuple[str, ...]


class OnlineHuiWalter:
    r"""Hui-Walter on a stream: the cross-tab is updated per batch, the closed form re-evaluated.

    The state is the exact count of every decision pattern per population (a
    :class:`~evalgebra.evaluators.stream.StreamEvaluator`); nothing about single items is kept.
    After each batch the exact closed form (:func:`evaluate_hui_walter`) is evaluated on the
    counts so far and a float summary appended to :attr:`history`. Seed 004's Algorithm 2
    re-clusters the items to assign populations; here each batch says which population its
    items come from.

    Parameters
    ----------
    classifiers : int or sequence of str
        Two classifiers.
    labels : int or sequence of str
        Two labels (integer decisions index into them).
    populations : sequence of str
        Two or more populations.
    decoding : {"youden", "total_accuracy"}

    Examples
    --------
    >>> online = OnlineHuiWalter(["t1", "t2"], ["pos", "neg"], ["p1", "p2"])
    >>> _ = online.update([[0, 0]] * 41 + [[0, 1]] * 49 + [[1, 0]] * 19 + [[1, 1]] * 91, "p1")
    >>> online.history[-1].alarms
    ('blind_spot',)
    >>> result = online.update([[0, 0]] * 43 + [[0, 1]] * 67 + [[1, 0]] * 37 + [[1, 1]] * 253, "p2")
    >>> online.cross_tab().tolist(), result.point.by_population["p2"]["pos"]
    ([[41, 49, 19, 91], [43, 67, 37, 253]], Fraction(1, 4))
    >>> online.history[-1].values[("accuracy", "t1", "pos")]
    0.8
    """

    def __init__(
        self,
        classifiers: int | Sequence[str] = 2,
        labels: int | Sequence[str] = 2,
        populations: Sequence[str] = ("s0", "s1"),
        decoding: str = "youden",
    ) -> None:
        _check_decoding(decoding)
        self.stream = StreamEvaluator(classifiers, labels, populations=list(populations))
        if len(self.stream.classifiers) != 2 or len(self.stream.labels) != 2 or len(self.stream.populations) < 2:
            raise SpecError("OnlineHuiWalter needs 2 classifiers, 2 labels and at least 2 populations")
        self.decoding = decoding
        self.history: list[OnlineStep] = []
        self._last: Evaluation | None = None

    @property
    def sketch(self) -> Sketch:
        """The (unlabelled) sketch of every item so far."""
        return self.stream.sketch

    def cross_tab(self) -> np.ndarray:
        """Counts of the patterns ``aa, ab, ba, bb`` per population, shape ``(populations, 4)``."""
        if self.stream.items == 0:
            return np.zeros((len(self.stream.populations), 4), dtype=np.int64)
        return np.array([self.sketch.count_vector(pop) for pop in self.stream.populations], dtype=np.int64)

    def update(self, decisions: Any, population: Any) -> Evaluation | None:
        r"""Count one batch and re-evaluate.

        Parameters
        ----------
        decisions : array-like
            ``items x 2`` label names or indices.
        population : str or array-like
            The batch's population, or one per item.

        Returns
        -------
        Evaluation or None
            The closed form on everything so far (alarms included); an empty batch changes
            nothing and returns the previous result (None before the first item).
        """
        batches = self.stream.batches
        self.stream.ingest(decisions, population)
        if self.stream.batches == batches:
            return self._last
        result = self._last = evaluate_hui_walter(self.sketch, self.decoding)
        point = result.point
        values: dict[Key, float | None] = {}
        if isinstance(point, HuiWalterEstimate):
            first = self.stream.labels[0]
            values.update({("prevalence", pop): _float(row[first]) for pop, row in point.by_population.items()})
            values.update({("accuracy", c, label): _float(v) for c, row in point.accuracy.items()
                           for label, v in row.items()})
        self.history.append(OnlineStep(self.stream.items, self.stream.batches, values,
                                       tuple(sorted({a.kind for a in result.alarms}))))
        return result

    def trace(self) -> dict[Key, np.ndarray]:
        """Per parameter the value after every batch (NaN where undefined); key ``("items",)`` the items."""
        keys: list[Key] = [("prevalence", pop) for pop in self.stream.populations] + [
            ("accuracy", c, label) for c in self.stream.classifiers for label in self.stream.labels]
        out: dict[Key, np.ndarray] = {("items",): np.array([h.items for h in self.history], dtype=np.int64)}
        for key in keys:
            out[key] = np.array([np.nan if h.values.get(key) is None else h.values[key] for h in self.history])
        return out

    def posterior(self, **options: Any) -> GibbsResult:
        """The Gibbs posterior on the current cross-tab (options as :func:`gibbs_hui_walter`)."""
        return gibbs_hui_walter(self.sketch, **options)
