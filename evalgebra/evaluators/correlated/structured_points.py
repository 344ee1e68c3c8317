r"""The points of a correlated structure's evaluator: exact values, the generating-set check, the partition.

A :class:`StructuredPoint` holds one point of the evaluation variety in the user's classifier
order, in the field its root lives in: python-flint ``fmpq`` at a rational root, a
:class:`~evalgebra.numbers.quadratic_field.QuadraticElement` at a root of an irreducible
quadratic, a :class:`~evalgebra.numbers.algebraic_numbers.FieldElement` at a root of higher
degree (floats at the certified roots of the five-classifier solver).

The check that a point explains the counts. With ``x_i = 1[classifier i answers b]`` and
``beta_{i,ell} = P_{i,b|ell}``, the count of items on which every classifier of ``T`` answers
``b`` is, under the structure ``S``,

    B_T = Q sum_ell P_ell sum_{U in S or U = {}, U subset T} G^ell_U(b_U) prod_{i in T \ U} beta_{i,ell}

(summing the generating set over the answers outside ``T``: the rates of a classifier sum to
one and a correlation summed over one of its answers is zero). The ``B_T`` over all subsets
``T`` and the ``2^N`` pattern counts determine each other by an integer triangular transform
(superset sums, and back by inclusion-exclusion), so ``B_T`` of the point equal to ``B_T`` of
the counts for every ``T`` is exactly the statement that the point reproduces every pattern
count (:func:`explains`); it costs about a quarter of the multiplications of expanding the
``2^N`` patterns. The partition by true label is the same transform back, per label
(:func:`pattern_terms`): additions only.

Examples
--------
>>> import flint
>>> from fractions import Fraction
>>> third, half = flint.fmpq(1, 3), flint.fmpq(1, 2)
>>> point = StructuredPoint(Fraction(1, 3), third, [[half, half], [half, half]], {(0, 1): [0, 0]})
>>> counts = [3, 3, 3, 3]                            # 12 items, a fair coin per classifier and label
>>> explains(point, ((0, 1),), 2, observed_moments(counts, 2))
True
>>> point.moments = label_moments(point, ((0, 1),), 2)
>>> [str(x) for x in pattern_terms(point, 0)], [str(x) for x in pattern_terms(point, 1)]
(['1/12', '1/12', '1/12', '1/12'], ['1/6', '1/6', '1/6', '1/6'])
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from math import lcm
from typing import Any

import flint
import numpy as np

from evalgebra.numbers.algebraic_numbers import AlgebraicNumber, FieldElement, as_fraction
from evalgebra.numbers.quadratic import QuadraticNumber
from evalgebra.numbers.quadratic_field import QuadraticElement
from evalgebra.results import Estimate

__all__ = [
    "StructuredPoint",
    "label_terms",
    "label_moments",
    "observed_moments",
    "observed_fractions",
    "explains",
    "pattern_terms",
    "point_estimates",
    "Partition",
]

_fmpq = flint.fmpq


class StructuredPoint:
    """One root's values in user coordinates, in a field (fmpq, QuadraticElement or FieldElement), with its
    root."""

    __slots__ = (
        "root",
        "prevalence",
        "accuracy",
        "correlation",
        "terms",
        "moments",
        "fits",
        "inside",
        "source",
        "conjugate_of",
    )

    def __init__(
        self,
        root: Any,
        prevalence: Any,
        accuracy: list[list[Any]],
        correlation: dict[tuple[int, ...], list[Any]],
    ):
        self.root = root  # Fraction, AlgebraicNumber, or None (a float point)
        self.prevalence = prevalence
        self.accuracy = accuracy
        self.correlation = correlation
        self.terms: list[list[Any]] = []  # per label, per pattern: P_ell pi_ell(pattern)
        self.moments: list[list[Any]] = []  # per label, per subset T: label_moments
        self.fits = False
        self.inside: bool | None = None
        self.source: StructuredPoint | None = None  # the point this one is the label swap of
        self.conjugate_of: StructuredPoint | None = (
            None  # the point at the other root of its quadratic (or field)
        )

    @property
    def is_rational(self) -> bool:
        """True at a rational root (every value rational): the only points a labelled test can have."""
        return self.prevalence.__class__ is _fmpq or isinstance(self.prevalence, Fraction)

    def swapped(self, root: Any) -> StructuredPoint:
        """The label swap of this point (``P_a <-> P_b``, ``P_{i,a} <-> 1 - P_{i,b}``,
        ``G^a_T <-> (-1)^|T| G^b_T``), at ``root`` (its prevalence); it explains the same counts (the swap
        maps the generating set onto itself)."""
        accuracy = [[1 - row[1], 1 - row[0]] for row in self.accuracy]
        correlation = {
            subset: [-g[1], -g[0]] if len(subset) % 2 else [g[1], g[0]]
            for subset, g in self.correlation.items()
        }
        point = StructuredPoint(root, 1 - self.prevalence, accuracy, correlation)
        point.source = self
        return point

    def conjugated(self, root: Any) -> StructuredPoint:
        """This point with ``sqrt(d) -> -sqrt(d)`` (its values are QuadraticElements) at ``root``, the other
        root of its quadratic; the values are made when first read (a decoding that needs no irrational point
        never does)."""
        point = StructuredPoint.__new__(StructuredPoint)
        point.root, point.prevalence = root, self.prevalence.conjugate()
        point.terms, point.moments, point.fits, point.inside = [], [], False, None
        point.source, point.conjugate_of = None, self
        return point

    def __getattr__(self, name: str) -> Any:
        """The values of a conjugated point, made when first read (only called for unset slots)."""
        other = self.conjugate_of if name in ("accuracy", "correlation") else None  # always set: no recursion
        if other is not None:
            self.accuracy = [[_conjugate(a), _conjugate(b)] for a, b in other.accuracy]
            self.correlation = {s: [_conjugate(a), _conjugate(b)] for s, (a, b) in other.correlation.items()}
            return getattr(self, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def exact(self, value: Any) -> Any:
        """A field value at this point's root: Fraction, QuadraticNumber or AlgebraicNumber (a float stays a
        float)."""
        cls = value.__class__
        if cls is _fmpq:
            return Fraction(int(value.p), int(value.q))
        if cls is QuadraticElement:
            return value.exact()
        if cls is float:
            return value
        if isinstance(
            value, np.floating
        ):  # a float point's value from NumPy: a float, never rounded to a Fraction
            return float(value)
        if isinstance(value, FieldElement):
            if (
                value.modulus.degree() == 2
            ):  # p + q sqrt(d) directly: no minimal polynomial, no root isolation
                return _quadratic(value, self.root)
            return value.value(self.root)
        return as_fraction(value)

    def is_inside(self) -> bool:
        """Prevalence and accuracies in [0, 1], decided exactly (in the field, or at the root when
        of degree > 2)."""
        if self.inside is None and self.source is not None:  # x in [0, 1] exactly when 1 - x is
            self.inside = self.source.is_inside()
        if self.inside is None:
            values = [self.prevalence, *(v for row in self.accuracy for v in row)]
            if values[0].__class__ is QuadraticElement:
                self.inside = all(v.sign() >= 0 and (1 - v).sign() >= 0 for v in values)
            elif values[0].__class__ is _fmpq:  # 0 <= p <= q for p/q in lowest terms: integer comparisons
                self.inside = all(0 <= v.p <= v.q if v.__class__ is _fmpq else 0 <= v <= 1 for v in values)
            else:
                if isinstance(self.prevalence, FieldElement):
                    values = [self.exact(v) for v in values]
                self.inside = all(0 <= v <= 1 for v in values)
        return self.inside

    def total_accuracy(self) -> Any:
        """Summed total accuracy ``sum_i P_a P_{i,a} + P_b P_{i,b}``, exact: an fmpq at a rational point
        (comparable with the other rational points), else a Fraction, QuadraticNumber or AlgebraicNumber
        (comparable among themselves)."""
        p = self.prevalence
        total = sum((p * row[0] + (1 - p) * row[1] for row in self.accuracy), 0 * p)
        return total if total.__class__ is _fmpq else self.exact(total)  # fmpq compare among themselves


def _conjugate(value: Any) -> Any:
    return value.conjugate() if value.__class__ is QuadraticElement else value


_THETAS: dict[Any, tuple[Fraction, Fraction, Fraction]] = {}


def _quadratic(value: FieldElement, root: AlgebraicNumber) -> Any:
    """``g(theta)`` for ``theta`` a root of ``a x^2 + b x + c`` (``a > 0``; root 0 the smaller) as a
    QuadraticNumber."""
    key = (tuple(int(x) for x in root.poly.coeffs()), root.index)
    if key not in _THETAS:  # theta = t0 + t1 sqrt(d)
        if len(_THETAS) > 4096:
            _THETAS.clear()
        c, b, a = (as_fraction(x) for x in root.poly.coeffs())
        _THETAS[key] = (-b / (2 * a), (-1 if root.index == 0 else 1) / (2 * a), b * b - 4 * a * c)
    t0, t1, d = _THETAS[key]
    coefficients = value.g.coeffs()
    g0 = as_fraction(coefficients[0]) if coefficients else Fraction(0)
    g1 = as_fraction(coefficients[1]) if len(coefficients) > 1 else Fraction(0)
    if not g1:
        return g0
    return QuadraticNumber(g0 + g1 * t0, g1 * t1, d)


def label_terms(point: StructuredPoint, structure: Sequence[tuple[int, ...]], n: int) -> list[list[Any]]:
    """``terms[ell][code] = P_ell * sum_T G^ell_T(d_T) prod_{i not in T} P_{i,d_i|ell}`` over the patterns,
    expanded."""
    out = []
    for ell in (0, 1):
        rates = [(row[ell], 1 - row[ell]) if ell == 0 else (1 - row[ell], row[ell]) for row in point.accuracy]
        total: list[Any] = [1]
        for i in range(n):
            total = [x * p for x in total for p in rates[i]]
        for subset in structure:
            g = point.correlation[subset][ell]
            signs = (1, -1) if ell == 0 else (-1, 1)  # s_i = +1 when the answer is the true label
            part: list[Any] = [g]
            for i in range(n):
                if i in subset:
                    part = [x if s > 0 else -x for x in part for s in signs]
                else:
                    part = [x * p for x in part for p in rates[i]]
            total = [x + y for x, y in zip(total, part)]
        weight = point.prevalence if ell == 0 else 1 - point.prevalence
        out.append([weight * x for x in total])
    return out


def label_moments(point: StructuredPoint, structure: Sequence[tuple[int, ...]], n: int) -> list[list[Any]]:
    r"""``moments[ell][T] = sum_{U in S or U = {}, U subset T} G^ell_U(b_U) prod_{i in T \ U} beta_{i,ell}``.

    The mean over the ``ell``-items of ``prod_{i in T} x_i`` (``B_T / Q`` is their mixture
    ``sum_ell P_ell moments[ell][T]``). ``T`` is a bit mask, classifier ``i`` the bit
    ``n - 1 - i`` (as in the pattern codes: a pattern's code is the set of classifiers answering ``b``).
    """
    return _moments(point.accuracy, point.correlation, _plan(tuple(structure), n))


def _moments(
    accuracy: list[list[Any]], correlation: Mapping[tuple[int, ...], list[Any]], plan: Any
) -> list[list[Any]]:
    """label_moments from the values (in any ring) and the index plan of the structure."""
    steps, parts, _ = plan
    out = []
    for ell in (0, 1):
        beta = [1 - row[0] for row in accuracy] if ell == 0 else [row[1] for row in accuracy]
        products: list[Any] = [1] * (len(steps) + 1)
        for mask, i, rest in steps:
            products[mask] = beta[i] if not rest else products[rest] * beta[i]
        inner = list(products)
        for subset, odd, targets in parts:
            g = correlation[subset][ell]
            if ell == 0 and odd:  # G^a_U(b_U) = (-1)^|U| G^a_U: every answer is the wrong one
                g = -g
            for target, sub in targets:  # every T = U + sub, sub a subset of the other classifiers
                inner[target] = inner[target] + (g * products[sub] if sub else g)
        out.append(inner)
    return out


_PLANS: dict[tuple[Any, ...], Any] = {}


def _plan(structure: tuple[tuple[int, ...], ...], n: int) -> Any:
    """The index tables of label_moments for a structure (which products, which subsets): made once."""
    key = (structure, n)
    if key not in _PLANS:
        size = 1 << n
        steps = []
        for mask in range(1, size):
            low = mask & -mask
            steps.append((mask, n - low.bit_length(), mask ^ low))
        parts = []
        for subset in structure:
            umask = sum(1 << (n - 1 - i) for i in subset)
            free = (size - 1) ^ umask
            targets = [(umask | sub, sub) for sub in range(size) if sub & free == sub]
            parts.append((subset, len(subset) % 2 == 1, targets))
        sizes = [bin(mask).count("1") for mask in range(size)]
        if len(_PLANS) > 256:
            _PLANS.clear()
        _PLANS[key] = (steps, parts, sizes)
    return _PLANS[key]


def observed_moments(counts: Sequence[int], n: int) -> list[int]:
    """``B_T`` of the counts (``B_{} = Q``): the items on which every classifier of ``T`` answers ``b``
    (superset sums)."""
    out = [int(c) for c in counts]
    size = 1 << n
    for k in range(n):
        bit = 1 << k
        for mask in range(size):
            if not mask & bit:
                out[mask] += out[mask | bit]
    return out


def explains(
    point: StructuredPoint,
    structure: Sequence[tuple[int, ...]],
    n: int,
    observed: Sequence[int],
    fractions: Sequence[Any] | None = None,
) -> bool:
    r"""True when the point reproduces every pattern count exactly:
    ``Q (P_a moments[a][T] + P_b moments[b][T]) = B_T`` for every ``T`` (``observed``:
    :func:`observed_moments`; ``fractions``: :func:`observed_fractions` of it, when several points are
    checked against one sketch).

    A point in a quadratic field (``u + v sqrt(d)``) is checked in Python integers: every value over one
    common denominator ``D``, each ``moments[ell][T]`` scaled by ``D^|T|`` as a pair of integers
    (``sqrt(d)^2 = d``), so the check is ``Q (P' (S_a - S_b) + D S_b) = D^(|T|+1) B_T`` with ``P' = D P_a``:
    the same equations, no field class in the loop. Rational points and other fields use their own
    arithmetic.
    """
    plan = _plan(tuple(structure), n)
    p = point.prevalence
    if p.__class__ is QuadraticElement:
        return _fits_quadratic(point, plan, observed, int(p.d))
    point.moments = _moments(point.accuracy, point.correlation, plan)  # in the field: fmpq are fast enough
    if fractions is None:
        fractions = observed_fractions(observed)
    return all(
        p * (a - b) + b == f for a, b, f in zip(point.moments[0][1:], point.moments[1][1:], fractions[1:])
    )


def observed_fractions(observed: Sequence[int]) -> list[flint.fmpq]:
    """``B_T / Q`` (``fmpq``) from :func:`observed_moments`."""
    q = observed[0]
    return [_fmpq(b, q) for b in observed]


def _values(point: StructuredPoint) -> list[Any]:
    """Prevalence, then each classifier's two accuracies, then each subset's two correlations (plan order)."""
    return [
        point.prevalence,
        *(v for row in point.accuracy for v in row),
        *(v for g in point.correlation.values() for v in g),
    ]


def _fits_quadratic(point: StructuredPoint, plan: Any, observed: Sequence[int], d: int) -> bool:
    """explains for a point in ``Q(sqrt(d))``, in pairs of integers ``(x, y) = x + y sqrt(d)``."""
    elements = [v if v.__class__ is QuadraticElement else QuadraticElement(v, 0, d) for v in _values(point)]
    scale = lcm(*{v.c for v in elements})
    pairs = [(v.a * (scale // v.c), v.b * (scale // v.c)) for v in elements]
    n = len(point.accuracy)
    accuracy = [(pairs[1 + 2 * i], pairs[2 + 2 * i]) for i in range(n)]
    correlation = {
        subset: (pairs[1 + 2 * n + 2 * k], pairs[2 + 2 * n + 2 * k])
        for k, subset in enumerate(point.correlation)
    }
    steps, parts, sizes = plan
    sums = []
    for ell in (0, 1):
        beta = [(scale - a[0], -a[1]) for a, _ in accuracy] if ell == 0 else [b for _, b in accuracy]
        products: list[tuple[int, int]] = [(1, 0)] * len(sizes)
        for mask, i, rest in steps:
            if rest:
                x0, x1 = products[rest]
                y0, y1 = beta[i]
                products[mask] = (x0 * y0 + d * x1 * y1, x0 * y1 + x1 * y0)
            else:
                products[mask] = beta[i]
        inner = list(products)
        for subset, odd, targets in parts:
            factor = scale ** (len(subset) - 1)
            g0, g1 = correlation[subset][ell]
            g0, g1 = g0 * factor, g1 * factor
            if ell == 0 and odd:
                g0, g1 = -g0, -g1
            for target, sub in targets:
                t0, t1 = inner[target]
                if sub:
                    x0, x1 = products[sub]
                    inner[target] = (t0 + g0 * x0 + d * g1 * x1, t1 + g0 * x1 + g1 * x0)
                else:
                    inner[target] = (t0 + g0, t1 + g1)
        sums.append(inner)
    a_sums, b_sums = sums
    (p0, p1), q = pairs[0], observed[0]
    powers = [scale ** (k + 1) for k in range(n + 1)]
    for t in range(1, len(sizes)):
        (a0, a1), (b0, b1) = a_sums[t], b_sums[t]
        e0, e1 = a0 - b0, a1 - b1
        if p0 * e1 + p1 * e0 + scale * b1:  # the sqrt(d) part of the left side: zero on the right
            return False
        if q * (p0 * e0 + d * p1 * e1 + scale * b0) != powers[sizes[t]] * observed[t]:
            return False
    return True


def pattern_terms(point: StructuredPoint, ell: int) -> list[Any]:
    """``P_ell pi_ell(pattern)`` over the pattern codes: the label's moments (``point.moments``,
    :func:`label_moments`) transformed back (inclusion-exclusion)."""
    out = list(point.moments[ell])
    size = len(out)
    bit = 1
    while bit < size:
        for mask in range(size):
            if not mask & bit:
                out[mask] = out[mask] - out[mask | bit]
        bit <<= 1
    weight = point.prevalence if ell == 0 else 1 - point.prevalence
    return [weight * x for x in out]


def _estimate(point: StructuredPoint, labels: tuple[str, ...], classifiers: tuple[str, ...]) -> Estimate:
    a, b = labels
    subsets = sorted(point.correlation, key=lambda subset: (len(subset), subset))
    values = [
        point.prevalence,
        1 - point.prevalence,
        *(v for row in point.accuracy for v in row),
        *(v for subset in subsets for v in point.correlation[subset]),
    ]
    if point.is_rational:  # every value an fmpq: straight to Fraction
        exact = [Fraction(int(v.p), int(v.q)) if v.__class__ is _fmpq else point.exact(v) for v in values]
    elif (
        point.prevalence.__class__ is QuadraticElement
    ):  # every value in one field: its radicand converted once
        radicand = Fraction(int(point.prevalence.d))
        exact = [v.exact(radicand) if v.__class__ is QuadraticElement else point.exact(v) for v in values]
    else:
        exact = [point.exact(v) for v in values]
    n = len(classifiers)
    accuracy = {c: {a: exact[2 + 2 * i], b: exact[3 + 2 * i]} for i, c in enumerate(classifiers)}
    correlation = {
        tuple(classifiers[i] for i in subset): {a: exact[2 + 2 * n + 2 * k], b: exact[3 + 2 * n + 2 * k]}
        for k, subset in enumerate(subsets)
    }
    return Estimate({a: exact[0], b: exact[1]}, accuracy, correlation=correlation)


def point_estimates(
    points: list[StructuredPoint], labels: tuple[str, ...], classifiers: tuple[str, ...]
) -> list[Estimate]:
    """Every point's :class:`~evalgebra.results.estimates.Estimate` (exact values, the user's names);
    a label swap's or a quadratic conjugate's from its partner's exact values (no second conversion)."""
    out: list[Estimate] = []
    done: dict[int, Estimate] = {}
    a, b = labels
    for point in points:
        partner = point.source
        if (
            partner is None and point.prevalence.__class__ is QuadraticElement
        ):  # two conjugates, one computation
            partner = point.conjugate_of
        known = done.get(id(partner)) if partner is not None else None
        if known is None:
            estimate = _estimate(point, labels, classifiers)
        elif point.source is not None:  # P_a <-> P_b, P_{i,a} <-> 1 - P_{i,b}, G^a_T <-> (-1)^|T| G^b_T
            estimate = Estimate(
                {a: known.prevalence[b], b: known.prevalence[a]},
                {c: {a: _complement(row[b]), b: _complement(row[a])} for c, row in known.accuracy.items()},
                correlation={
                    names: {a: -g[b], b: -g[a]} if len(names) % 2 else {a: g[b], b: g[a]}
                    for names, g in known.correlation.items()
                },
            )
        else:  # sqrt(d) -> -sqrt(d) in every value
            conjugate = _conjugate_number
            estimate = Estimate(
                {a: conjugate(known.prevalence[a]), b: conjugate(known.prevalence[b])},
                {c: {a: conjugate(row[a]), b: conjugate(row[b])} for c, row in known.accuracy.items()},
                correlation={
                    names: {a: conjugate(g[a]), b: conjugate(g[b])} for names, g in known.correlation.items()
                },
            )
        done[id(point)] = estimate
        out.append(estimate)
    return out


def _complement(value: Any) -> Any:
    """``1 - value``; a Fraction ``n/d`` directly as ``(d - n)/d``."""
    if value.__class__ is Fraction:
        return Fraction(value.denominator - value.numerator, value.denominator)
    return 1 - value


def _conjugate_number(value: Any) -> Any:
    return value.conjugate() if value.__class__ is QuadraticNumber else value


class Partition(Mapping[str, list[tuple[tuple[str, ...], Any]]]):
    """``label -> [(pattern, Q P_ell pi_ell(pattern))]`` for the chosen point, made exact when first read
    (an evaluation of many sketches whose partitions nobody reads does not pay for them)."""

    def __init__(
        self, point: StructuredPoint, labels: tuple[str, ...], n: int, q: int, structure: Any
    ) -> None:
        self._args = (point, labels, n, q, structure)
        self._table: dict[str, list[tuple[tuple[str, ...], Any]]] | None = None

    def _made(self) -> dict[str, list[tuple[tuple[str, ...], Any]]]:
        if self._table is None:
            point, labels, n, q, structure = self._args
            if not point.terms:
                if not point.moments:  # a mirrored or conjugate point was not expanded when it was checked
                    point.moments = label_moments(point, structure, n)
                point.terms = [pattern_terms(point, 0), pattern_terms(point, 1)]
            patterns = [tuple(labels[(code >> (n - 1 - i)) & 1] for i in range(n)) for code in range(2**n)]
            self._table = {
                labels[ell]: [
                    (pattern, point.exact(q * term)) for pattern, term in zip(patterns, point.terms[ell])
                ]
                for ell in (0, 1)
            }
        return self._table

    def __getitem__(self, label: str) -> list[tuple[tuple[str, ...], Any]]:
        return self._made()[label]

    def __iter__(self) -> Iterator[str]:
        return iter(self._args[1])

    def __len__(self) -> int:
        return 2

    def __repr__(self) -> str:
        return repr(self._made())
