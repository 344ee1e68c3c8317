r"""Feasible ``Q_a`` of the logical alarm, as intervals: the two solvers and their helpers.

The computation behind :func:`evalgebra.alarm.logical.logical_alarm`. Its input is what
the alarm observes of a pooled, unlabelled binary sketch (an :class:`Observed`: ``Q``,
every classifier's ``R_{a_i}`` and every pair's ``R_{a_i a_j}``) and a specification (a
:class:`~evalgebra.alarm.safety.SafetySpec`, read through :class:`Thresholds`). Its
output, for every requested subset of classifiers, is the set of ``Q_a`` in ``0..Q`` at
which every member's segment meets the specification and every pair of members passes
its corner test, as disjoint, increasing closed intervals. The conditions, and why they
are exact for one classifier and for a pair, are derived in the Notes of
:mod:`evalgebra.alarm.logical`; this module solves them for every ``Q_a`` at once, by
either of two routes that give the same intervals:

* :func:`solve_residues`: along each residue class ``Q_a = L k + s`` every bound is
  linear in ``k``, so each subset passes on one interval of ``k`` per class; the work
  does not depend on ``Q``.
* :func:`scan`: the conditions evaluated at every ``Q_a`` in ``0..Q``, vectorised in
  blocks (:func:`subset_masks` for one window of ``Q_a``); the reference the residue
  classes are tested against.

:func:`feasible_intervals` chooses the route; :func:`segments` gives one classifier's
segment at every ``Q_a`` (the data of Figures 1 and 4 of the logical-alarm paper).

Examples
--------
The counts of the logical-alarm paper's Figure 2 (``c0`` answered ``a`` on 60 of 100 items, ``c1`` on
20, both on 20), each classifier better than 1/2 on each label:

>>> from evalgebra.alarm.safety import SafetySpec
>>> figure2 = Observed(("c0", "c1"), Q=100, r_a=(60, 20), both_a={(0, 1): 20})
>>> feasible_intervals(figure2, SafetySpec("1/2"), [(0,), (1,), (0, 1)])
[[(21, 99)], [(1, 39)], [(21, 39)]]
>>> solve_residues(figure2, SafetySpec("1/2"), [(0, 1)]) == scan(figure2, SafetySpec("1/2"), [(0, 1)])
True

Rounding meets the parity of ``Q_a`` (the *Rounding* note of :mod:`evalgebra.alarm.logical`):
this pair can meet the specification at odd ``Q_a`` only, each one its own interval:

>>> odd = Observed(("c0", "c1"), Q=6, r_a=(3, 3), both_a={(0, 1): 1})
>>> feasible_intervals(odd, SafetySpec(), [(0,), (0, 1)])
[[(1, 5)], [(1, 1), (3, 3), (5, 5)]]

Notes
-----
Code names and the math (the logical-alarm paper's R-space symbols; ``docs/theory.md``, "The logical alarm"):

==================  =====================================================================
code                math
==================  =====================================================================
``q_a``, ``q_b``    ``Q_a`` (assumed), ``Q_b = Q - Q_a``
``r_a[i]``          ``R_{a_i}``: items classifier ``i`` answered ``a`` (observed)
``both_a[i, j]``    ``R_{a_i a_j}``: items classifiers ``i`` and ``j`` both answered ``a``
``n_aa`` ...        ``R_{a_i a_j}``, ``R_{a_i b_j}``, ``R_{b_i a_j}``, ``R_{b_i b_j}``:
                    the pair's observed 2 x 2 table (:meth:`Observed.table`)
``lo``, ``hi``      the segment of ``x_i = R_{a_i,a}`` left at ``q_a`` (``lo > hi``: empty)
``period``          ``L``: every bound is linear in ``k`` along ``Q_a = L k + s``
``s``, ``k``        the residue class of ``Q_a = L k + s`` (``0 <= s < L``) and its index
``k_lo``, ``k_hi``  the ``k`` at which a subset passes, one interval per class (a ``Span``)
==================  =====================================================================

*The conditions* (logical-alarm paper, eqs. 1-2, 7-9 and 25-33, as derived in
:mod:`evalgebra.alarm.logical`). At an assumed ``Q_a``, classifier ``i`` can have
``lo_i <= x_i <= hi_i`` true-``a`` items right, where ``hi_i = min(Q_a, R_{a_i})`` and
``lo_i`` is the largest of ``0``, the axiom's ``R_{a_i} - Q_b`` and the bounds of the
specification, kept integer: ``floor(theta Q_a) + 1`` (label ``a``),
``floor(theta Q_b) + 1 - Q_b + R_{a_i}`` (label ``b``) and ``ceil((floor(tau Q) + 1 - Q_b
+ R_{a_i}) / 2)`` (total accuracy), with ``ceil(.)`` for ``floor(.) + 1`` when not strict.
A singleton passes where ``lo_i <= hi_i``; a pair where both members do and the box of
their segments meets the pair's octagon, i.e. where each corner of the box lies on the
inner side of the cut facing it::

    (C1)  hi_i + hi_j >= Q_a - n_bb        (C2)  lo_i + lo_j <= Q_a + n_aa
    (C3)  lo_i - hi_j <= n_ab              (C4)  lo_j - hi_i <= n_ba

A subset passes where all its members and all its pairs do.

*Residue classes of* ``Q_a``. Every bound above is an integer constant, ``Q_a``, or a
rounded rational multiple of it: with ``theta = p/q``, ``floor(theta Q_a)`` and
``floor(theta Q_b)`` (``ceil`` when not strict), and ``ceil((c + Q_a)/2)`` for the total
accuracy, whose threshold enters only through the constant ``c = T - Q + R_{a_i}`` (``T``
the least count above ``tau Q``, or at least it when not strict). Along a residue class
``Q_a = L k + s``, ``0 <= s < L``, with ``L = q`` (``lcm(q, 2)`` with a total threshold;
1 or 2 without ``theta``), each is exactly linear in ``k`` with integer coefficients::

    floor(p (L k + s) / q)      = (p L / q) k + floor(p s / q)
    floor(p (Q - s - L k) / q)  = floor(p (Q - s) / q) - (p L / q) k
    ceil((c + s + L k) / 2)     = (L / 2) k + ceil((c + s) / 2)

So ``lo_i`` is a maximum and ``hi_i`` a minimum of linear functions of ``k`` (at most
three terms and two), and each condition of the pair test splits into inequalities ``a k
+ b <= 0``, one per choice of a term on each side (a maximum is at most a minimum iff
every term of the one is at most every term of the other; a sum of two maxima is at most
a bound iff every sum of a term of each is): at most 25 per pair. Each is solved exactly
by integer floor division and holds on a half-line of ``k`` (or everywhere, or nowhere),
so a singleton, a pair, and hence any subset (the intersection of its pairs) passes on one
interval ``[k_lo(s), k_hi(s)]`` per class, clipped to ``0 <= L k + s <= Q``. All classes are
solved at once with NumPy (``int64``, or Python integers when a product could overflow):
``O(L N^2)`` work for all pairs, plus ``O(L)`` per subset, independent of ``Q``.

*Back to intervals of* ``Q_a``. An interval of the report starts at ``Q_a`` when ``Q_a``
passes and ``Q_a - 1`` does not: in class ``s`` at the ``k`` of ``[k_lo(s), k_hi(s)]`` outside
``[k_lo(s-1), k_hi(s-1)]`` (for ``s = 0``: outside ``[k_lo(L-1) + 1, k_hi(L-1) + 1]``), a
difference of two intervals; it ends where ``Q_a + 1`` fails, likewise. The ``i``-th
smallest start and end bound the ``i``-th interval. This costs ``O(L + m log m)`` for ``m``
intervals: the same maximal runs as a scan of ``0..Q``, isolated points included (the
parity example above gives one interval per odd ``Q_a``; no report can be shorter).

*The scan.* When ``L`` is large against ``Q`` (``16 L > Q + 1``: thresholds with large
denominators, or small tests), the classes hold few ``Q_a`` each and the conditions are
instead evaluated for every ``Q_a`` in ``0..Q``, vectorised in blocks: ``O(N^2 Q)`` time,
memory bounded by the block size. Either way the work is ``O(min(L, Q))`` per pair and
subset, plus the output, with no enumeration of the ``x``; the scan is also the reference
the tests hold the residue classes to.

References
----------
.. [1] A. Corrada-Emmanuel and I. Parker, "A logical alarm for misaligned binary
   classifiers": eqs. 1-2
   (specifications), 7-9 (the single-classifier segments), appendix A.2 (eqs. 25-33, the
   pair relation and its corner cut), Figure 2 (the counts of the Examples), Figures 1
   and 4 (segments against ``Q_a``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

import numpy as np

__all__ = [
    "Interval",
    "Thresholds",
    "Observed",
    "feasible_intervals",
    "solve_residues",
    "scan",
    "subset_masks",
    "segments",
    "residue_period",
    "class_spans",
]

_BLOCK = 1 << 17  # Q_a values evaluated together (arrays of this length per classifier and pair)
_MASK_BYTES = 1 << 27  # bytes of masks (scan) or of k bounds (residue classes) held at once per block
_INT64_SAFE = 2**62  # largest magnitude the int64 path lets an intermediate value reach

#: A closed interval ``(lo, hi)`` of ``Q_a``.
Interval = tuple[int, int]


class Thresholds(Protocol):
    """What the solvers read of a specification: a :class:`~evalgebra.alarm.safety.SafetySpec`.

    Thresholds are exact and validated: :class:`~fractions.Fraction` in ``[0, 1]`` or
    ``None`` (no condition).
    """

    @property
    def min_accuracy(self) -> Fraction | None:
        """``theta``: the threshold on the accuracy on each label."""

    @property
    def min_total_accuracy(self) -> Fraction | None:
        """``tau``: the threshold on the total accuracy."""

    @property
    def strict(self) -> bool:
        """``>`` (True) or ``>=`` (False)."""


# -- observed counts --------------------------------------------------------------------
@dataclass(frozen=True)
class Observed:
    """``Q``, ``R_{a_i}`` and every pair's ``R_{a_i a_j}`` of a pooled, unlabelled sketch.

    ``both_a`` is keyed by pairs ``(i, j)`` with ``i < j``.

    Examples
    --------
    >>> figure2 = Observed(("c0", "c1"), Q=100, r_a=(60, 20), both_a={(0, 1): 20})
    >>> figure2.table(0, 1), figure2.table(1, 0)
    ((20, 40, 0, 40), (20, 0, 40, 40))
    """

    classifiers: tuple[str, ...]
    Q: int  # noqa: N815 - the paper's name
    r_a: tuple[int, ...]
    both_a: dict[tuple[int, int], int]

    def table(self, i: int, j: int) -> tuple[int, int, int, int]:
        """The pair's ``(n_aa, n_ab, n_ba, n_bb)``, classifier ``i`` first."""
        n_aa = self.both_a[(min(i, j), max(i, j))]
        n_ab = self.r_a[i] - n_aa
        n_ba = self.r_a[j] - n_aa
        return n_aa, n_ab, n_ba, self.Q - n_aa - n_ab - n_ba


# -- the constraints, vectorised over Q_a ---------------------------------------------------
def _dtype(observed: Observed, spec: Thresholds | None) -> Any:
    """``int64`` when no intermediate value can overflow it, else ``object`` (Python ints)."""
    big = observed.Q
    thresholds = () if spec is None else (spec.min_accuracy, spec.min_total_accuracy)
    for threshold in thresholds:
        if threshold is not None:
            big = max(big, threshold.numerator * observed.Q + threshold.denominator)
    return np.int64 if 4 * big < _INT64_SAFE else object


class _Block:
    """Segments ``[lo_i, hi_i]`` of every classifier for ``Q_a`` in ``start..stop-1``."""

    def __init__(self, observed: Observed, spec: Thresholds | None, start: int, stop: int) -> None:
        dtype = _dtype(observed, spec)
        q_a = np.arange(start, stop, dtype=np.int64).astype(dtype)
        q_b = observed.Q - q_a
        self.q_a = q_a  # lower bounds shared by all: per label "a", and per label "b" less R_{a_i}
        shared_lo = np.zeros(q_a.shape, dtype=dtype)
        b_offset = -q_b  # the axiom: x_i >= R_{a_i} - Q_b
        total = None
        if spec is not None and spec.min_accuracy is not None:
            shared_lo = np.maximum(shared_lo, _above(spec.min_accuracy, q_a, spec.strict))
            b_offset = _above(spec.min_accuracy, q_b, spec.strict) - q_b
        if spec is not None and spec.min_total_accuracy is not None:
            threshold = spec.min_total_accuracy
            top = threshold.numerator * observed.Q
            least = top // threshold.denominator + 1 if spec.strict else -(-top // threshold.denominator)
            total = least - q_b  # 2 x_i >= least - Q_b + R_{a_i}
        self.lo, self.hi = [], []
        for r_a in observed.r_a:
            lo = np.maximum(shared_lo, b_offset + r_a)
            if total is not None:
                lo = np.maximum(lo, (total + r_a + 1) // 2)
            self.lo.append(lo)
            self.hi.append(np.minimum(q_a, r_a))
        self._single: dict[int, np.ndarray] = {}

    def single(self, i: int) -> np.ndarray:
        """Where classifier ``i`` can meet the specification."""
        if i not in self._single:
            self._single[i] = np.asarray(self.lo[i] <= self.hi[i], dtype=bool)
        return self._single[i]

    def pair(self, i: int, j: int, table: tuple[int, int, int, int]) -> np.ndarray:
        """Where the pair's octagon meets the box of its segments (see the Notes)."""
        n_aa, n_ab, n_ba, n_bb = table
        lo_i, hi_i, lo_j, hi_j = self.lo[i], self.hi[i], self.lo[j], self.hi[j]
        ok = self.single(i) & self.single(j)
        ok &= np.asarray(lo_i + lo_j <= self.q_a + n_aa, dtype=bool)  # C2 at the low corner
        ok &= np.asarray(hi_i + hi_j >= self.q_a - n_bb, dtype=bool)  # C1 at the high corner
        ok &= np.asarray(lo_i - hi_j <= n_ab, dtype=bool)  # C3
        ok &= np.asarray(lo_j - hi_i <= n_ba, dtype=bool)  # C4
        return ok


def _above(threshold: Fraction, size: Any, strict: bool) -> Any:
    """Least integer count ``c`` with ``c > threshold * size`` (``>=`` when not strict)."""
    top = threshold.numerator * size
    if strict:
        return top // threshold.denominator + 1
    return -((-top) // threshold.denominator)


def _runs(mask: np.ndarray, offset: int) -> list[Interval]:
    """Closed intervals of the ``True`` runs of ``mask`` (indices shifted by ``offset``)."""
    if not mask.any():
        return []
    edges = np.flatnonzero(np.diff(np.concatenate(([False], mask, [False])).astype(np.int8)))
    starts, stops = edges[0::2], edges[1::2] - 1
    return [(int(a) + offset, int(b) + offset) for a, b in zip(starts.tolist(), stops.tolist())]


def _append(intervals: list[Interval], new: list[Interval]) -> None:
    """Extend ``intervals`` with ``new``, merging runs that touch across blocks."""
    if new and intervals and intervals[-1][1] + 1 == new[0][0]:
        intervals[-1], new = (intervals[-1][0], new[0][1]), new[1:]
    intervals.extend(new)


def segments(observed: Observed, spec: Thresholds | None, i: int) -> tuple[np.ndarray, np.ndarray]:
    r"""Classifier ``i``'s segment ``lo <= R_{a_i,a} <= hi`` at every ``Q_a`` in ``0..Q``.

    Without ``spec`` the single-classifier axiom's segment; with it, the part where the
    classifier meets the specification. Entry ``k`` is for ``Q_a = k``; ``lo > hi`` marks
    an empty segment. Arrays are ``int64``, or ``object`` when a value could overflow it.

    Examples
    --------
    >>> from evalgebra.alarm.safety import SafetySpec
    >>> odd = Observed(("c0", "c1"), Q=6, r_a=(3, 3), both_a={(0, 1): 1})
    >>> [part.tolist() for part in segments(odd, None, 0)]
    [[0, 0, 0, 0, 1, 2, 3], [0, 1, 2, 3, 3, 3, 3]]
    >>> [part.tolist() for part in segments(odd, SafetySpec(), 0)]
    [[1, 1, 2, 2, 3, 3, 4], [0, 1, 2, 3, 3, 3, 3]]
    """
    rows = _Block(observed, spec, 0, observed.Q + 1)
    return rows.lo[i], rows.hi[i]


def subset_masks(
    observed: Observed, spec: Thresholds, subsets: Sequence[tuple[int, ...]], start: int, stop: int
) -> list[np.ndarray]:
    """Where each subset (sorted or not, indices) passes, for ``Q_a`` in ``start..stop-1``.

    One boolean array of length ``stop - start`` per subset: the scan on one window of
    ``Q_a``, at any ``Q``.

    Examples
    --------
    >>> from evalgebra.alarm.safety import SafetySpec
    >>> odd = Observed(("c0", "c1"), Q=6, r_a=(3, 3), both_a={(0, 1): 1})
    >>> [mask.tolist() for mask in subset_masks(odd, SafetySpec(), [(0,), (0, 1)], 2, 6)]
    [[True, True, True, True], [False, True, False, True]]
    """
    rows = _Block(observed, spec, start, stop)
    pairs: dict[tuple[int, int], np.ndarray] = {}
    masks: dict[tuple[int, ...], np.ndarray] = {}

    def mask_of(subset: tuple[int, ...]) -> np.ndarray:
        if subset in masks:
            return masks[subset]
        if len(subset) == 1:
            result = rows.single(subset[0])
        else:
            *rest, k = subset
            result = mask_of(tuple(rest)).copy()
            for i in rest:
                key = (min(i, k), max(i, k))
                if key not in pairs:
                    pairs[key] = rows.pair(key[0], key[1], observed.table(*key))
                result &= pairs[key]
        masks[subset] = result
        return result

    return [mask_of(tuple(sorted(subset))) for subset in subsets]


def scan(observed: Observed, spec: Thresholds, subsets: Sequence[tuple[int, ...]]) -> list[list[Interval]]:
    """Feasible ``Q_a`` intervals of every subset (indices), block by block of ``Q_a``.

    ``O(N^2 Q)`` time, memory bounded by the block size (the Notes, *The scan*).
    """
    results: list[list[Interval]] = [[] for _ in subsets]
    held = len(subsets) + len(observed.both_a)
    block = max(1, min(_BLOCK, _MASK_BYTES // held))
    for start in range(0, observed.Q + 1, block):
        stop = min(observed.Q + 1, start + block)
        for found, mask in zip(results, subset_masks(observed, spec, subsets, start, stop)):
            _append(found, _runs(mask, start))
    return results


# -- the constraints, per residue class of Q_a ---------------------------------------------
_RESIDUES = 1 << 14  # residue classes solved together (arrays of this length per bound and subset)
_RESIDUE_COST = 16  # residue classes are used when L * _RESIDUE_COST <= Q + 1; beyond, the scan

#: A bound linear in ``k`` along ``Q_a = L k + s``: slope, and intercept per class ``s``.
Linear = tuple[int, np.ndarray]
#: One interval ``[k_lo, k_hi]`` of ``k`` per class (``k_lo > k_hi``: empty).
Span = tuple[np.ndarray, np.ndarray]


def residue_period(spec: Thresholds) -> int:
    """``L``: along ``Q_a = L k + s`` every bound of the Notes is linear in ``k``.

    Examples
    --------
    >>> from evalgebra.alarm.safety import SafetySpec
    >>> residue_period(SafetySpec("2/3")), residue_period(SafetySpec("2/3", "3/5"))
    (3, 6)
    >>> residue_period(SafetySpec(None, None)), residue_period(SafetySpec(None, "3/5"))
    (1, 2)
    """
    period = 1 if spec.min_accuracy is None else spec.min_accuracy.denominator
    if spec.min_total_accuracy is not None:
        period = math.lcm(period, 2)
    return period


class _Classes:
    """Bounds of every classifier's segment, linear in ``k``, on classes ``Q_a = L k + s``."""

    def __init__(self, observed: Observed, spec: Thresholds, period: int, residues: np.ndarray) -> None:
        q, s = observed.Q, residues
        self.period = period
        self.s = s
        self.last = (q - s) // period  # the largest k with L k + s <= Q (negative: no Q_a)
        self.zero = s * 0
        theta, tau = spec.min_accuracy, spec.min_total_accuracy
        lo: list[tuple[int, np.ndarray, bool]] = []  # (slope, intercept, plus R_{a_i}?)
        if theta is None:
            lo += [(0, self.zero, False), (period, s - q, True)]  # 0 <= x_i; the axiom
        else:  # per label, which implies both (seed eq. 1)
            step = theta.numerator * period // theta.denominator
            lo.append((step, _above(theta, s, spec.strict), False))
            lo.append((period - step, _above(theta, q - s, spec.strict) - (q - s), True))
        half = None
        if tau is not None:
            half = _above(tau, q, spec.strict) - q + s  # 2 x_i >= half + R_{a_i}
        self.lo: list[list[Linear]] = []
        self.hi: list[list[Linear]] = []
        for r_a in observed.r_a:
            terms = [(slope, b + r_a if plus else b) for slope, b, plus in lo]
            if half is not None:
                terms.append((period // 2, -((-(half + r_a)) // 2)))
            self.lo.append(terms)
            self.hi.append([(period, s), (0, self.zero + r_a)])
        self._single: dict[int, Span] = {}

    def solve(self, rows: Iterable[Linear], start: Span) -> Span:
        """The ``k`` in ``start`` (one interval per class) where every ``a k + b <= 0``."""
        k_lo, k_hi = start
        for a, b in rows:
            if a > 0:
                k_hi = np.minimum(k_hi, (-b) // a)
            elif a < 0:
                k_lo = np.maximum(k_lo, -(b // a))  # ceil(b / -a)
            else:
                k_hi = np.where(b <= 0, k_hi, -1)
        return k_lo, k_hi

    def single(self, i: int) -> Span:
        """Where classifier ``i`` can meet the specification: ``lo_i <= hi_i``."""
        if i not in self._single:
            rows = [(a - c, b - d) for a, b in self.lo[i] for c, d in self.hi[i]]
            self._single[i] = self.solve(rows, (self.zero, self.last))
        return self._single[i]

    def pair(self, i: int, j: int, table: tuple[int, int, int, int]) -> Span:
        """Where the pair's octagon meets the box of its segments (see the Notes)."""
        n_aa, n_ab, n_ba, n_bb = table
        period, s = self.period, self.s
        lo_i, hi_i, lo_j, hi_j = self.lo[i], self.hi[i], self.lo[j], self.hi[j]
        rows = [(a + c - period, b + d - s - n_aa) for a, b in lo_i for c, d in lo_j]  # C2
        rows += [(period - a - c, s - n_bb - b - d) for a, b in hi_i for c, d in hi_j]  # C1
        rows += [(a - c, b - d - n_ab) for a, b in lo_i for c, d in hi_j]  # C3
        rows += [(a - c, b - d - n_ba) for a, b in lo_j for c, d in hi_i]  # C4
        return self.solve(rows, _meet(self.single(i), self.single(j)))


def _meet(one: Span, other: Span) -> Span:  # the intersection of two intervals of k per class
    return np.maximum(one[0], other[0]), np.minimum(one[1], other[1])


def _minus(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """``[a, b]`` less ``[c, d]`` (elementwise): two intervals, either possibly empty."""
    gap = c > d
    return [
        (a, np.where(gap, b, np.minimum(b, c - 1))),
        (np.where(gap, b + 1, np.maximum(a, d + 1)), b),
    ]


def _shift(k: np.ndarray, where: np.ndarray, step: int) -> np.ndarray:  # k + step where `where`
    return np.where(where, k + step, k)


def _points(k_lo: np.ndarray, k_hi: np.ndarray, s: np.ndarray, owner: np.ndarray, period: int) -> Span:
    """Every ``L k + s`` with ``k_lo <= k <= k_hi``, entry by entry, and the entry's owner."""
    count = np.maximum(k_hi - k_lo + 1, 0).astype(np.int64)
    total = int(count.sum())
    first = period * k_lo + s
    if total == 0:
        return owner[:0], first[:0]
    offset = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(count) - count, count)
    return np.repeat(owner, count), np.repeat(first, count) + period * offset.astype(first.dtype)


def _by_owner(found: list[Span], owners: int) -> list[np.ndarray]:
    """The values of ``(owner, value)`` pieces grouped by owner, each sorted."""
    owner = np.concatenate([piece[0] for piece in found])
    value = np.concatenate([piece[1] for piece in found])
    order = np.argsort(owner, kind="stable")
    owner, value = owner[order], value[order]
    bounds = np.searchsorted(owner, np.arange(owners + 1)).tolist()
    return [np.sort(value[lo:hi]) for lo, hi in zip(bounds[:-1], bounds[1:])]


def solve_residues(
    observed: Observed, spec: Thresholds, subsets: Sequence[tuple[int, ...]]
) -> list[list[Interval]]:
    """Feasible ``Q_a`` intervals of every subset (indices), residue class by class.

    ``O(L N^2)`` work for all pairs plus ``O(L)`` per subset and the output, whatever
    ``Q`` (the Notes, *Residue classes* and *Back to intervals*).

    Examples
    --------
    At ``Q`` of 10^15, where no scan of ``0..Q`` is possible (``c0`` answered ``a`` on 60% of
    the items, ``c1`` on 20%, both on 20%, as in the logical-alarm paper's Figure 2):

    >>> from evalgebra.alarm.safety import SafetySpec
    >>> q = 10**15
    >>> huge = Observed(("c0", "c1"), Q=q, r_a=(6 * q // 10, 2 * q // 10), both_a={(0, 1): 2 * q // 10})
    >>> solve_residues(huge, SafetySpec("1/2"), [(0, 1)])
    [[(200000000000001, 399999999999999)]]
    """
    period = residue_period(spec)
    dtype = _dtype(observed, spec)
    starts: list[Span] = []  # (subset index, first Q_a of an interval)
    ends: list[Span] = []  # (subset index, last Q_a of an interval)
    held = len(subsets) + len(observed.both_a) + len(observed.r_a)
    chunk = max(1, min(_RESIDUES, _MASK_BYTES // (16 * held)))
    for first in range(0, period, chunk):
        stop = min(period, first + chunk)
        # one class more on each side: the neighbours of Q_a - 1 and Q_a + 1
        residues = (np.arange(first - 1, stop + 1, dtype=np.int64) % period).astype(dtype)
        classes = _Classes(observed, spec, period, residues)
        pairs: dict[tuple[int, int], Span] = {}
        found: dict[tuple[int, ...], Span] = {}

        def interval_of(subset: tuple[int, ...]) -> Span:
            if subset in found:
                return found[subset]
            if len(subset) == 1:
                result = classes.single(subset[0])
            else:
                *rest, k = subset
                result = interval_of(tuple(rest))
                for i in rest:
                    key = (min(i, k), max(i, k))
                    if key not in pairs:
                        pairs[key] = classes.pair(key[0], key[1], observed.table(*key))
                    result = _meet(result, pairs[key])
            found[subset] = result
            return result

        spans = [interval_of(tuple(sorted(subset))) for subset in subsets]
        k_lo, k_hi = np.stack([span[0] for span in spans]), np.stack([span[1] for span in spans])
        s = residues[1:-1]
        # Q_a - 1 is in class s - 1 at the same k, or in class L - 1 at k - 1 when s = 0;
        # Q_a + 1 is in class s + 1 at the same k, or in class 0 at k + 1 when s = L - 1
        wrap_before, wrap_after = s == 0, s == period - 1
        here = (k_lo[:, 1:-1], k_hi[:, 1:-1])
        before = (_shift(k_lo[:, :-2], wrap_before, 1), _shift(k_hi[:, :-2], wrap_before, 1))
        after = (_shift(k_lo[:, 2:], wrap_after, -1), _shift(k_hi[:, 2:], wrap_after, -1))
        owner = np.repeat(np.arange(len(subsets), dtype=np.int64), len(s))
        s_all = np.tile(s, len(subsets))
        for piece in _minus(*here, *before):
            starts.append(_points(piece[0].ravel(), piece[1].ravel(), s_all, owner, period))
        for piece in _minus(*here, *after):
            ends.append(_points(piece[0].ravel(), piece[1].ravel(), s_all, owner, period))
    return [
        [(int(lo), int(hi)) for lo, hi in zip(lows.tolist(), highs.tolist())]
        for lows, highs in zip(_by_owner(starts, len(subsets)), _by_owner(ends, len(subsets)))
    ]


def class_spans(
    observed: Observed, spec: Thresholds, subsets: Sequence[tuple[int, ...]]
) -> tuple[int, list[Span]]:
    """``L`` and per subset ``(k_lo, k_hi)`` for each class ``s = 0..L-1``: it passes at ``Q_a = L k + s``
    iff ``k_lo[s] <= k <= k_hi[s]``; each class is one progression of step ``L``, nothing listed.

    >>> from evalgebra.alarm.safety import SafetySpec
    >>> odd = Observed(("c0", "c1"), Q=6, r_a=(3, 3), both_a={(0, 1): 1})
    >>> period, ((k_lo, k_hi),) = class_spans(odd, SafetySpec(), [(0, 1)])
    >>> period, k_lo.tolist(), k_hi.tolist()  # class 0 empty; class 1: Q_a = 1, 3, 5
    (2, [1, 0], [-1, 2])
    """
    period = residue_period(spec)
    classes = _Classes(
        observed, spec, period, np.arange(period, dtype=np.int64).astype(_dtype(observed, spec))
    )
    out = []
    for subset in subsets:
        members = sorted(subset)
        span = classes.single(members[0])
        for k, j in enumerate(members):
            span = _meet(span, classes.single(j))
            for i in members[:k]:
                span = _meet(span, classes.pair(i, j, observed.table(i, j)))
        out.append(span)
    return period, out


def feasible_intervals(
    observed: Observed, spec: Thresholds, subsets: Sequence[tuple[int, ...]]
) -> list[list[Interval]]:
    """Feasible ``Q_a`` intervals of every subset (indices), as the alarm reports them.

    By residue classes (:func:`solve_residues`), or by :func:`scan` when ``L`` is large
    against ``Q`` (``16 L > Q + 1``). Each subset's intervals are disjoint, increasing,
    closed and maximal; no interval: no ``Q_a`` lets every member meet ``spec``.

    Examples
    --------
    >>> from evalgebra.alarm.safety import SafetySpec
    >>> never = Observed(("c0", "c1"), Q=10, r_a=(6, 4), both_a={(0, 1): 0})
    >>> feasible_intervals(never, SafetySpec(), [(0,), (1,), (0, 1)])
    [[(3, 9)], [(1, 7)], []]
    """
    if residue_period(spec) * _RESIDUE_COST <= observed.Q + 1:
        return solve_residues(observed, spec, subsets)
    return scan(observed, spec, subsets)
