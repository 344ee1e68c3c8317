r"""Hypothesis strategies for evalgebra's tests: specs, labelled tests, rational points.

Every strategy draws small cases (``N <= 5`` classifiers, ``R <= 4`` labels by default) so
that exact computations stay fast. Per-item data are generated with NumPy from a seed that
Hypothesis draws, so a failing example is reproducible from its printed seed.

=======================  ==============================================================
strategy                 draws
=======================  ==============================================================
``structures(n)``        ``"independent"``, ``"complete"`` or a random list of subsets
``specs()``              an :class:`~evalgebra.spec.EnsembleSpec`
``labelled_tests()``     a :class:`~evalgebra.data.simulate.LabelledTest` (per item)
``rational_points()``    a realisable :class:`~evalgebra.data.point.EvaluationPoint`
                         with small denominators, independent or correlated
``abstaining_points()``  an independent point whose classifiers may abstain, every row
                         better than chance once abstentions count as the last label
=======================  ==============================================================

:func:`budget` scales the number of examples of an expensive property with the active
Hypothesis profile (``tests/conftest.py`` registers ``ci``, ``dev`` and ``thorough``).

Examples
--------
>>> from hypothesis import find
>>> find(specs(min_labels=3), lambda spec: True).labels
('a', 'b', 'c')
>>> find(specs(), lambda spec: spec.n_classifiers == 3 and spec.is_complete).structure
((0, 1), (0, 2), (1, 2), (0, 1, 2))
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import assume, settings
from hypothesis import strategies as st

from evalgebra.data.point import EvaluationPoint
from evalgebra.data.simulate import LabelledTest
from evalgebra.spec import EnsembleSpec
from evalgebra.variables import free_responses

__all__ = [
    "k5_points",
    "MAX_CLASSIFIERS",
    "MAX_LABELS",
    "STRUCTURE_KINDS",
    "all_subsets",
    "structures",
    "specs",
    "labelled_tests",
    "rational_points",
    "compositions",
    "correlation_bound",
    "budget",
]

MAX_CLASSIFIERS = 5
MAX_LABELS = 4
STRUCTURE_KINDS = ("independent", "complete", "random")

#: Label names used when ``specs(named=True)``: not in alphabetical order, so that code
#: which silently sorts labels is caught.
_LABEL_NAMES = ("yes", "no", "maybe", "abstain")
_CLASSIFIER_NAMES = ("gpt", "claude", "llama", "mistral", "gemma")


def budget(fraction: float, minimum: int = 5) -> settings:
    """Settings running ``fraction`` of the active profile's ``max_examples`` (at least ``minimum``).

    Expensive properties use this instead of a fixed count, so a longer profile
    (``HYPOTHESIS_PROFILE=thorough``) scales them too.

    Examples
    --------
    >>> budget(0.5, minimum=3).max_examples >= 3
    True
    """
    return settings(max_examples=max(minimum, int(settings().max_examples * fraction)))


def all_subsets(n_classifiers: int) -> list[tuple[int, ...]]:
    """Every subset of ``range(n_classifiers)`` with two or more members, canonical order.

    Examples
    --------
    >>> all_subsets(3)
    [(0, 1), (0, 2), (1, 2), (0, 1, 2)]
    """
    return [
        subset
        for size in range(2, n_classifiers + 1)
        for subset in itertools.combinations(range(n_classifiers), size)
    ]


@st.composite
def structures(draw: st.DrawFn, n_classifiers: int, kinds: Sequence[str] = STRUCTURE_KINDS) -> Any:
    """A correlation structure for ``n_classifiers``: a name or a list of index subsets.

    ``"random"`` draws a non-empty set of distinct subsets of size >= 2 (when ``N >= 2``).
    """
    kind = draw(st.sampled_from(list(kinds)))
    candidates = all_subsets(n_classifiers)
    if kind != "random" or not candidates:
        return "complete" if kind == "complete" else "independent"
    return draw(st.lists(st.sampled_from(candidates), min_size=1, max_size=len(candidates), unique=True))


@st.composite
def specs(
    draw: st.DrawFn,
    min_classifiers: int = 1,
    max_classifiers: int = MAX_CLASSIFIERS,
    min_labels: int = 2,
    max_labels: int = MAX_LABELS,
    structure_kinds: Sequence[str] = STRUCTURE_KINDS,
    max_populations: int = 1,
    max_patterns: int | None = None,
    named: bool | None = False,
    min_populations: int = 1,
) -> EnsembleSpec:
    """An :class:`EnsembleSpec` with ``N``, ``R`` in the given ranges.

    Parameters
    ----------
    max_patterns : int, optional
        Keep ``R**N`` at most this (for cases that build polynomials).
    min_populations, max_populations : int
        Range of the number of populations (named ``site0, site1, ...`` when more than one).
    named : bool or None
        Use non-default classifier and label names (``None``: draw whether to).
    """
    n_labels = draw(st.integers(min_labels, max_labels))
    top = max_classifiers
    if max_patterns is not None:
        while top > min_classifiers and n_labels**top > max_patterns:
            top -= 1
    n_classifiers = draw(st.integers(min_classifiers, top))
    structure = draw(structures(n_classifiers, structure_kinds))
    n_populations = draw(st.integers(min_populations, max(min_populations, max_populations)))
    use_names = draw(st.booleans()) if named is None else named
    classifiers: Any = n_classifiers
    labels: Any = n_labels
    if use_names:
        classifiers = list(_CLASSIFIER_NAMES[:n_classifiers])
        labels = list(_LABEL_NAMES[:n_labels])
    populations = None if n_populations == 1 else [f"site{k}" for k in range(n_populations)]
    return EnsembleSpec(classifiers, labels, structure, populations)


@st.composite
def labelled_tests(
    draw: st.DrawFn,
    spec: EnsembleSpec | st.SearchStrategy[EnsembleSpec] | None = None,
    min_items: int = 1,
    max_items: int = 60,
    absent_label: bool = True,
) -> LabelledTest:
    """Per-item decisions and an answer key drawn with NumPy from a Hypothesis seed.

    Every classifier answers the true label with its own probability and a uniformly
    random label otherwise (sometimes it always gives one label: a degenerate member).
    With ``absent_label`` one label sometimes has no item. With several populations every
    population gets at least one item.
    """
    if spec is None:
        spec = specs()
    if isinstance(spec, st.SearchStrategy):
        spec = draw(spec)
    n, r_count, n_pops = spec.n_classifiers, spec.n_labels, spec.n_populations
    n_items = draw(st.integers(max(min_items, n_pops), max(max_items, n_pops)))
    seed = draw(st.integers(0, 2**32 - 1))
    present = list(range(r_count))
    if absent_label and draw(st.integers(0, 3)) == 0:
        present.remove(draw(st.sampled_from(present)))
    rng = np.random.default_rng(seed)
    truth = rng.choice(np.array(present, dtype=np.int64), size=n_items)
    skill = rng.uniform(0.0, 1.0, size=n)
    honest = rng.random((n_items, n)) < skill
    noise = rng.integers(0, r_count, size=(n_items, n))
    decisions = np.where(honest, truth[:, None], noise).astype(np.int64)
    if n_items > 1 and draw(st.integers(0, 4)) == 0:
        decisions[:, draw(st.integers(0, n - 1))] = draw(st.integers(0, r_count - 1))
    population = np.concatenate([np.arange(n_pops), rng.integers(0, n_pops, size=n_items - n_pops)]).astype(
        np.int64
    )
    return LabelledTest(decisions, truth, population, spec.classifiers, spec.labels, spec.populations)


@st.composite
def compositions(draw: st.DrawFn, total: int, parts: int, positive: bool = False) -> list[int]:
    """``parts`` non-negative (or positive) integers summing to ``total``.

    Examples
    --------
    >>> from hypothesis import find
    >>> find(compositions(4, 3, positive=True), lambda c: True)
    [1, 1, 2]
    """
    if positive:
        if total < parts:
            raise ValueError(f"cannot split {total} into {parts} positive parts")
        return [1 + v for v in draw(compositions(total - parts, parts))]
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=parts - 1, max_size=parts - 1)))
    bounds = [0, *cuts, total]
    return [b - a for a, b in zip(bounds, bounds[1:])]


@st.composite
def _rational_row(draw: st.DrawFn, parts: int, denominators: Sequence[int], positive: bool) -> list[Fraction]:
    usable = [d for d in denominators if not positive or d >= parts] or [parts]
    denominator = draw(st.sampled_from(usable))
    return [Fraction(k, denominator) for k in draw(compositions(denominator, parts, positive))]


def correlation_bound(
    rows: Sequence[Sequence[Fraction]], subsets: Sequence[tuple[int, ...]], n_labels: int
) -> Fraction:
    r"""A power of 1/2 below which free correlations keep every pattern probability >= 0.

    For one true label with response rows ``rows[i]``, every pattern has
    ``pi(d) >= prod_i min_r P_{i,r} - sum_T (R-1)^{|T|} max|free G_T|``, since a full
    correlation entry is a signed sum of at most ``(R-1)^{|T|}`` free ones and the
    remaining product of rates is at most 1.

    Examples
    --------
    >>> half = [Fraction(1, 2)] * 2
    >>> correlation_bound([half, half], [(0, 1)], 2)
    Fraction(1, 4)
    """
    floor = math.prod((min(row) for row in rows), start=Fraction(1))
    weight = sum((n_labels - 1) ** len(t) for t in subsets)
    if floor == 0 or weight == 0:
        return Fraction(0)
    bound = Fraction(1)
    while bound * weight > floor:
        bound /= 2
    return bound


@st.composite
def rational_points(
    draw: st.DrawFn,
    spec: EnsembleSpec | st.SearchStrategy[EnsembleSpec] | None = None,
    correlated: bool = False,
    denominators: Sequence[int] = (1, 2, 3, 4, 6),
    absent_labels: bool = False,
    use_accuracy: bool | None = None,
) -> EvaluationPoint:
    """A realisable rational evaluation point, made with :meth:`EvaluationPoint.from_values`.

    Parameters
    ----------
    spec : EnsembleSpec or strategy, optional
        Default: :func:`specs` (one population). With several populations the point is a
        Hui-Walter point: shared rows and correlations, one prevalence row per population.
    correlated : bool
        Draw non-zero correlations for a random selection of the structure's subsets,
        each free value a multiple of :func:`correlation_bound` / 4 so that no pattern
        probability is negative. Rows are then strictly positive with denominator
        ``R`` or ``2R``. Without it all correlations are zero (sample independence).
    denominators : sequence of int
        Denominators of prevalence and response rows (independent points).
    absent_labels : bool
        Allow zero prevalences (labels no item has).
    use_accuracy : bool, optional
        For ``R = 2``, give rows by accuracy (``accuracy=``) instead of ``response=``.
    """
    if spec is None:
        spec = specs()
    if isinstance(spec, st.SearchStrategy):
        spec = draw(spec)
    labels, r_count = spec.labels, spec.n_labels
    prevalence = {
        pop: dict(zip(labels, draw(_rational_row(r_count, denominators, not absent_labels))))
        for pop in spec.populations
    }
    for _pop, row in prevalence.items():
        if draw(st.booleans()):  # the last label may be omitted
            del row[labels[-1]]
    row_denominators = (r_count, 2 * r_count) if correlated else denominators
    rows = [
        [draw(_rational_row(r_count, row_denominators, correlated)) for _ in labels] for _ in spec.classifiers
    ]
    accuracy = use_accuracy if use_accuracy is not None else draw(st.booleans())
    kwargs: dict[str, Any] = {}
    if accuracy and r_count == 2:
        kwargs["accuracy"] = {
            i: {labels[ell]: rows[i][ell][ell] for ell in range(r_count)} for i in range(spec.n_classifiers)
        }
    else:
        kwargs["response"] = {
            spec.classifiers[i]: {labels[ell]: dict(zip(labels, rows[i][ell])) for ell in range(r_count)}
            for i in range(spec.n_classifiers)
        }
    if correlated and spec.structure:
        active = draw(st.lists(st.sampled_from(list(spec.structure)), min_size=1, unique=True))
        correlation: dict[tuple[Any, ...], dict[str, Any]] = {}
        for subset in active:
            order = draw(st.permutations(list(subset)))
            key = tuple(spec.classifiers[i] for i in order)
            per_label: dict[str, Any] = {}
            for ell in range(r_count):
                unit = (
                    correlation_bound([rows[i][ell] for i in range(spec.n_classifiers)], active, r_count) / 4
                )
                free = list(itertools.product(free_responses(ell, r_count), repeat=len(subset)))
                values = {f: unit * draw(st.integers(-4, 4)) for f in free}
                if r_count == 2 and draw(st.booleans()):
                    per_label[labels[ell]] = values[free[0]]
                    continue
                per_label[labels[ell]] = {
                    tuple(labels[f[subset.index(i)]] for i in order): v for f, v in values.items()
                }
            correlation[key] = per_label
        kwargs["correlation"] = correlation
    return EvaluationPoint.from_values(spec, prevalence, **kwargs)


@st.composite
def abstaining_points(
    draw: Any, n_classifiers: Any = None, n_labels: Any = None, denominator: int = 10
) -> EvaluationPoint:
    r"""An independent rational point whose classifiers may abstain (one or two abstentions).

    Rows have denominator ``denominator``; each row puts 6 to 9 tenths on the true label, so
    the collapsed rows (abstentions counted as any one label) stay better than chance and the
    evaluators' decoding picks the truth. Prevalences are at least 1/10 (two labels) or 2/10.

    Examples
    --------
    >>> from hypothesis import find
    >>> point = find(abstaining_points(n_labels=st.just(3)), lambda p: True)
    >>> point.spec.responses[:3], len(point.spec.abstain)
    (('yes', 'no', 'maybe'), 1)
    """
    n = draw(st.sampled_from([3, 4, 5]) if n_classifiers is None else n_classifiers)
    r = draw(st.sampled_from([2, 3]) if n_labels is None else n_labels)
    n_abstain = draw(st.integers(1, 2 if r == 2 else 1))
    spec = EnsembleSpec(n, ["yes", "no", "maybe"][:r], abstain=["unsure", "none"][:n_abstain])
    k = spec.n_responses
    if r == 2:
        first = draw(st.integers(1, denominator - 1))
        prevalence = [Fraction(first, denominator), Fraction(denominator - first, denominator)]
    else:
        spread = draw(st.lists(st.integers(0, 2), min_size=3, max_size=3).filter(lambda w: sum(w) == 4))
        prevalence = [Fraction(2 + w, denominator) for w in spread]
    rows = []
    for _ in range(n):
        per_label = []
        for ell in range(r):
            diagonal = draw(st.integers(6, 9))
            others = draw(
                st.lists(
                    st.sampled_from([q for q in range(k) if q != ell]),
                    min_size=denominator - diagonal,
                    max_size=denominator - diagonal,
                )
            )
            per_label.append(
                [Fraction(diagonal if q == ell else others.count(q), denominator) for q in range(k)]
            )
        rows.append(per_label)
    return EvaluationPoint(spec, [prevalence], rows, {})


_K5_RATES = tuple(Fraction(k, 20) for k in range(12, 19))


@st.composite
def k5_points(draw: Any) -> tuple[EvaluationPoint, Any]:
    """A rational point of five classifiers with every pair correlated (nonzero on both labels), and its
    exact sketch.

    Prevalence ``k/20`` (not 1/2), rates in ``12/20 .. 18/20``, correlations a nonzero multiple
    of a quarter of the largest the rates allow; draws whose sketch would need a negative
    frequency are rejected.
    """
    from evalgebra.data.simulate import expected_sketch
    from evalgebra.errors import PointError

    pairs = list(itertools.combinations(range(5), 2))
    spec = EnsembleSpec(5, 2, pairs)
    prevalence = draw(st.sampled_from([Fraction(k, 20) for k in range(5, 16) if k != 10]))
    accuracy = {
        i: {"a": draw(st.sampled_from(_K5_RATES)), "b": draw(st.sampled_from(_K5_RATES))} for i in range(5)
    }
    rows = {
        "a": [(r["a"], 1 - r["a"]) for r in accuracy.values()],
        "b": [(1 - r["b"], r["b"]) for r in accuracy.values()],
    }
    unit = min(correlation_bound(rows[ell], pairs, 2) for ell in "ab") / 4
    correlation = {
        pair: {ell: unit * draw(st.sampled_from((-3, -2, -1, 1, 2, 3))) for ell in "ab"} for pair in pairs
    }
    truth = EvaluationPoint.from_values(spec, {"a": prevalence}, accuracy=accuracy, correlation=correlation)
    try:
        sketch = expected_sketch(truth).unlabelled()
    except PointError:
        assume(False)  # rejected: a negative frequency
        raise
    return truth, sketch
