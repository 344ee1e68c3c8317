r"""Feasible prevalences and accuracies of the logical alarm, exact, never listed one by one.

* :class:`Progression` and :class:`FeasibleSet`: a set of ``Q_a`` values as disjoint
  arithmetic progressions ``lo..hi step k`` (a run of consecutive values has step 1). A pair
  whose feasible ``Q_a`` alternate in parity over ``10^14`` items is one progression, not
  ``5 * 10^13`` intervals.
* :func:`pairwise_sets`: the interval method of :mod:`evalgebra.alarm.intervals` (two labels,
  one threshold for all) as feasible sets, from its residue classes when listing the runs
  would be long. Exact for one classifier and for a pair; for larger subsets a superset of the
  exact set (every pair's condition, not their joint one).
* :func:`exact_qa_set`: the exact set of ``Q_a`` for any program (any subset, labels,
  thresholds): the least and the greatest ``Q_a`` by certified optimisation
  (:func:`~evalgebra.alarm.solve.minimise`), then every candidate between them (those of the
  pairwise superset, when there is one) decided one by one with a witness or a certificate.
  Holes are found this way: a candidate whose program with ``Q_a`` fixed is infeasible.
  Beyond ``budget`` candidates the interior is resolved by blocks, with at most ``budget``
  solver calls: a progression of candidates is feasible at once when two witnesses differ by
  an integer multiple of one direction (:func:`check_segment`: the program's points form a
  convex set, so the lattice points between them are witnesses too), a block is a hole at
  once when one certificate covers it, and a block that is neither is bisected. What is still
  unresolved when the calls run out makes the set say so (``exact`` False: its ends are exact,
  its interior a superset).
* :func:`label_ranges` and :func:`accuracy_ranges`: the least and greatest ``Q_l`` of each
  label, and of each member's accuracy ``C_{i,l} / Q_l`` on each label, over the labelled
  tests consistent with the counts under which every member meets the specification.

Examples
--------
>>> FeasibleSet.from_intervals([(1, 1), (3, 3), (5, 5), (8, 12)]).text()
'1..5 step 2, 8..12'
>>> s = FeasibleSet((Progression(1, 10**14 - 1, 2),))
>>> s.count(), 77 in s, 78 in s, s.to_list()
(50000000000000, True, False, [[1, 99999999999999, 2]])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from evalgebra.alarm.certificates import Witness, check_certificate, check_witness
from evalgebra.alarm.intervals import (
    Interval,
    Observed,
    Thresholds,
    class_spans,
    feasible_intervals,
    residue_period,
)
from evalgebra.alarm.perlabel import label_value
from evalgebra.alarm.program import Program, Row, Term, milp_segment
from evalgebra.alarm.solve import Optimum, decide, minimise, minimise_ratio
from evalgebra.errors import SpecError

__all__ = [
    "Progression",
    "FeasibleSet",
    "pairwise_sets",
    "exact_qa_set",
    "exact_qa_pool",
    "walked_values",
    "FLOAT_EXACT",
    "label_ranges",
    "accuracy_ranges",
    "check_ratio_optimum",
    "segment_witnesses",
    "check_segment",
    "MAX_INTERVALS",
]

#: Most closed intervals a feasible set lists (``SubsetResult.feasible_Qa``); beyond, read its progressions.
MAX_INTERVALS = 100_000
#: Runs of the interval method listed before its residue classes are used instead.
_MAX_RUNS = 10_000
#: Candidate ``Q_a`` values :func:`exact_qa_set` decides one by one by default.
BUDGET = 64


@dataclass(frozen=True)
class Progression:
    """``lo, lo + step, ..., hi`` (``hi - lo`` a multiple of ``step``; one value: ``step`` 1)."""

    lo: int
    hi: int
    step: int = 1

    def __contains__(self, value: object) -> bool:
        return isinstance(value, int) and self.lo <= value <= self.hi and (value - self.lo) % self.step == 0

    def count(self) -> int:
        """How many values."""
        return (self.hi - self.lo) // self.step + 1

    def text(self) -> str:
        """``"lo..hi"``, ``"lo..hi step k"`` or ``"lo"``."""
        if self.lo == self.hi:
            return str(self.lo)
        return f"{self.lo}..{self.hi}" + ("" if self.step == 1 else f" step {self.step}")


@dataclass(frozen=True)
class FeasibleSet:
    """A set of ``Q_a`` as disjoint progressions, increasing by ``lo``.

    ``exact`` is False when only the ends are exact and the interior is a superset
    (:func:`exact_qa_set` beyond its budget).
    """

    parts: tuple[Progression, ...] = ()
    exact: bool = field(default=True)

    @classmethod
    def from_intervals(cls, intervals: Iterable[Interval], exact: bool = True) -> FeasibleSet:
        """From maximal runs ``(lo, hi)``: runs of single values with a common gap become one progression."""
        parts: list[Progression] = []
        for lo, hi in intervals:
            last = parts[-1] if parts else None
            if lo == hi and last is not None and (last.lo == last.hi or last.step > 1):
                gap = lo - last.hi
                if last.lo == last.hi and gap > 1:
                    parts[-1] = Progression(last.lo, lo, gap)
                    continue
                if last.step > 1 and gap == last.step:
                    parts[-1] = Progression(last.lo, lo, last.step)
                    continue
            parts.append(Progression(lo, hi, 1))
        return cls(tuple(parts), exact)

    @classmethod
    def from_values(cls, values: Iterable[int], exact: bool = True) -> FeasibleSet:
        """From any integers."""
        runs: list[Interval] = []
        for v in sorted(set(values)):
            if runs and runs[-1][1] + 1 == v:
                runs[-1] = (runs[-1][0], v)
            else:
                runs.append((v, v))
        return cls.from_intervals(runs, exact)

    def __bool__(self) -> bool:
        return bool(self.parts)

    def __contains__(self, value: object) -> bool:
        return any(value in part for part in self.parts)

    def __iter__(self) -> Iterator[int]:
        """Every value, increasing (beware: may be astronomically many)."""
        return iter(sorted(v for part in self.parts for v in range(part.lo, part.hi + 1, part.step)))

    def count(self) -> int:
        """How many values."""
        return sum(part.count() for part in self.parts)

    @property
    def lo(self) -> int | None:
        """The least value (None when empty)."""
        return min((p.lo for p in self.parts), default=None)

    @property
    def hi(self) -> int | None:
        """The greatest value (None when empty)."""
        return max((p.hi for p in self.parts), default=None)

    def intervals(self, limit: int = MAX_INTERVALS) -> tuple[Interval, ...]:
        """The maximal runs ``(lo, hi)``; a SpecError when there are more than ``limit``."""
        runs = sum(1 if p.step == 1 else p.count() for p in self.parts)
        if runs > limit:
            raise SpecError(
                f"the feasible Q_a form {runs} separate runs (more than {limit}); read them as "
                f"progressions: {self.text(3)}"
            )
        pieces = sorted(
            piece
            for part in self.parts
            for piece in (
                [(part.lo, part.hi)]
                if part.step == 1
                else [(v, v) for v in range(part.lo, part.hi + 1, part.step)]
            )
        )
        found: list[Interval] = []
        for lo, hi in pieces:
            if found and found[-1][1] + 1 >= lo:
                found[-1] = (found[-1][0], max(hi, found[-1][1]))
            else:
                found.append((lo, hi))
        return tuple(found)

    def clip(self, lo: int, hi: int) -> FeasibleSet:
        """The values in ``lo..hi``."""
        parts = []
        for p in self.parts:
            first = p.lo if p.lo >= lo else p.lo + -(-(lo - p.lo) // p.step) * p.step
            last = p.hi if p.hi <= hi else p.lo + ((hi - p.lo) // p.step) * p.step
            if first <= last:
                parts.append(Progression(first, last, p.step if first < last else 1))
        return FeasibleSet(tuple(parts), self.exact)

    def text(self, limit: int | None = None) -> str:
        """``"1..5 step 2, 8..12"`` (``"none"`` when empty; ``... (k more)`` past ``limit`` parts)."""
        shown = self.parts if limit is None else self.parts[:limit]
        more = len(self.parts) - len(shown)
        text = ", ".join(p.text() for p in shown) + (f", ... ({more} more)" if more else "")
        if not self.exact:
            text += " (ends exact; interior not resolved)"
        return text or "none"

    def to_list(self) -> list[list[int]]:
        """``[[lo, hi, step], ...]``."""
        return [[p.lo, p.hi, p.step] for p in self.parts]


def _merge_classes(period: int, parts: list[Progression]) -> tuple[Progression, ...]:
    """Per-class progressions of step ``L``; one progression of step ``L / m`` when the ``m`` classes
    interleave.
    """
    parts = sorted(parts, key=lambda p: p.lo)
    m = len(parts)
    if m > 1 and period % m == 0:
        step = period // m
        top = max(p.hi for p in parts)
        if all(p.lo == parts[0].lo + j * step for j, p in enumerate(parts)) and all(
            p.hi > top - period for p in parts
        ):
            return (Progression(parts[0].lo, top, step),)
    return tuple(Progression(p.lo, p.hi, p.step if p.lo < p.hi else 1) for p in parts)


def _starts(period: int, k_lo: np.ndarray, k_hi: np.ndarray) -> int:
    """Runs of the set (values ``v`` in it with ``v - 1`` not), from its class spans."""
    lo, hi = [int(v) for v in k_lo.tolist()], [int(v) for v in k_hi.tolist()]
    total = 0
    for s in range(period):
        size = max(0, hi[s] - lo[s] + 1)
        if s:
            b_lo, b_hi = lo[s - 1], hi[s - 1]
        else:
            b_lo, b_hi = lo[period - 1] + 1, hi[period - 1] + 1
        total += size - max(0, min(hi[s], b_hi) - max(lo[s], b_lo) + 1)
    return total


def pairwise_sets(
    observed: Observed, spec: Thresholds, subsets: Sequence[tuple[int, ...]]
) -> list[FeasibleSet]:
    """The interval method's feasible ``Q_a`` of each subset (exact for one and two members).

    Runs are listed by :func:`~evalgebra.alarm.intervals.feasible_intervals` when there are few;
    otherwise each residue class of ``Q_a`` is one progression
    (:func:`~evalgebra.alarm.intervals.class_spans`).
    """
    if residue_period(spec) * 16 > observed.Q + 1:  # the scan: at most 16 L values
        return [FeasibleSet.from_intervals(found) for found in feasible_intervals(observed, spec, subsets)]
    period, spans = class_spans(observed, spec, subsets)
    out: list[FeasibleSet | None] = []
    few: list[tuple[int, ...]] = []
    for subset, (k_lo, k_hi) in zip(subsets, spans):
        k_hi = np.minimum(k_hi, (observed.Q - np.arange(period)) // period)
        k_lo = np.maximum(k_lo, 0)
        if _starts(period, k_lo, k_hi) <= _MAX_RUNS:
            out.append(None)
            few.append(subset)
            continue
        parts = [
            Progression(period * lo + s, period * hi + s, period)
            for s, (lo, hi) in enumerate(zip(k_lo.tolist(), k_hi.tolist()))
            if lo <= hi
        ]
        out.append(FeasibleSet(_merge_classes(period, parts)))
    listed = iter(feasible_intervals(observed, spec, few)) if few else iter(())
    return [FeasibleSet.from_intervals(next(listed)) if found is None else found for found in out]


def _fixed(value: int, label: int = 0) -> tuple[Row, Row]:
    term: Term = ("count", label)
    return Row(((term, 1),), value, f"Q({label}) >= {value}"), Row(
        ((term, -1),), -value, f"Q({label}) <= {value}"
    )


def _qa(witness: Witness) -> int:
    return sum(row[0] for row in witness.split)


def check_segment(program: Program, first: Witness, last: Witness, length: int) -> bool:
    """Exactly: two witnesses whose difference is ``length`` times an integer direction.

    Then every ``first + k (last - first) / length`` is a witness too (the program's rows and
    bounds are linear, so its points form a convex set; the direction is integral), so every
    ``Q_a`` of ``Q_a(first), Q_a(first) + step, ..., Q_a(last)`` is feasible.
    """
    if length < 1 or first.patterns != program.patterns or last.patterns != program.patterns:
        return False
    if not (check_witness(program, first) and check_witness(program, last)):
        return False
    return all((b - a) % length == 0 for r0, r1 in zip(first.split, last.split) for a, b in zip(r0, r1))


def segment_witnesses(program: Program, start: int, step: int, length: int) -> tuple[Witness, Witness] | None:
    """Witnesses at ``Q_a = start`` and ``start + length * step`` that :func:`check_segment` accepts, or
    None.
    """
    found = milp_segment(program, start, step, length)
    if found is None:
        return None
    x, delta = found
    r = program.n_labels
    first, direction = [], []
    for d, count in enumerate(program.counts):
        row = [min(max(int(round(float(v))), 0), count) for v in x[d * r : (d + 1) * r - 1]]
        first.append((*row, count - sum(row)))
        move = [int(round(float(v))) for v in delta[d * r : (d + 1) * r - 1]]
        direction.append((*move, -sum(move)))
    last = tuple(tuple(a + length * b for a, b in zip(row, move)) for row, move in zip(first, direction))
    pair = (
        Witness(program.members, program.patterns, tuple(first)),
        Witness(program.members, program.patterns, last),
    )
    if _qa(pair[0]) != start or _qa(pair[1]) != start + length * step:
        return None
    return pair if check_segment(program, *pair, length) else None


def _block(value_lo: int, value_hi: int) -> tuple[Row, Row]:
    term: Term = ("count", 0)
    return (
        Row(((term, 1),), value_lo, f"Q(0) >= {value_lo}"),
        Row(((term, -1),), -value_hi, f"Q(0) <= {value_hi}"),
    )


class _Resolver:
    """The interior of a feasible set by blocks: segment witnesses and block certificates."""

    def __init__(self, program: Program, calls: int) -> None:
        self.program, self.calls = program, calls
        self.feasible: list[Progression] = []
        self.unresolved: list[Progression] = []

    def _spend(self, inside: FeasibleSet) -> bool:
        if self.calls <= 0:
            self.unresolved.extend(inside.parts)
            return False
        self.calls -= 1
        return True

    def resolve(self, inside: FeasibleSet) -> None:
        if 0 < inside.count() <= 3:  # a few values: decided one by one
            for value in inside:
                if self._spend(FeasibleSet((Progression(value, value),))):
                    verdict = decide(self.program.with_rows(*_fixed(value)))
                    if verdict.kind != "fires":
                        (self.feasible if verdict.kind == "quiet" else self.unresolved).append(
                            Progression(value, value)
                        )
            return
        rest = []
        for part in inside.parts:  # a progression proved feasible at once (at most 4 tried per block)
            if part.lo < part.hi and len(inside.parts) <= 4 and self.calls > 0:
                self.calls -= 1
                if segment_witnesses(self.program, part.lo, part.step, part.count() - 1) is not None:
                    self.feasible.append(part)
                    continue
            rest.append(part)
        inside = FeasibleSet(tuple(rest))
        if not inside or not self._spend(inside):
            return
        first, last = inside.lo, inside.hi
        assert first is not None and last is not None
        verdict = decide(
            self.program.with_rows(*(_fixed(first) if inside.count() == 1 else _block(first, last)))
        )
        if verdict.kind == "fires":
            return  # a certified hole: no Q_a at all in first..last
        if verdict.kind != "quiet" or verdict.witness is None:
            self.unresolved.extend(inside.parts)
            return
        value = _qa(verdict.witness.restrict(self.program.members))
        if value in inside:
            self.feasible.append(Progression(value, value))
            inside = _without(inside, value)
        if inside:
            middle = (first + last) // 2
            self.resolve(inside.clip(first, middle))
            self.resolve(inside.clip(middle + 1, last))


def _without(found: FeasibleSet, value: int) -> FeasibleSet:
    parts: list[Progression] = []
    for p in found.parts:
        if value not in p:
            parts.append(p)
            continue
        for lo, hi in ((p.lo, value - p.step), (value + p.step, p.hi)):
            if lo <= hi:
                parts.append(Progression(lo, hi, p.step if lo < hi else 1))
    return FeasibleSet(tuple(parts), found.exact)


def _union(parts: list[Progression], exact: bool) -> FeasibleSet:
    """Disjoint progressions as a set of maximal runs (long progressions of step > 1 kept whole)."""
    runs: list[Interval] = []
    kept: list[Progression] = []
    for part in parts:
        if part.step == 1 or part.lo == part.hi:
            runs.append((part.lo, part.hi))
        elif part.count() <= _MAX_RUNS:
            runs.extend((v, v) for v in range(part.lo, part.hi + 1, part.step))
        else:
            kept.append(part)
    merged: list[Interval] = []
    for lo, hi in sorted(runs):
        if merged and lo <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
        else:
            merged.append((lo, hi))
    listed = FeasibleSet.from_intervals(merged).parts
    return FeasibleSet(tuple(sorted(listed + tuple(kept), key=lambda p: p.lo)), exact)


#: Largest test size whose counts the solver's floating point holds exactly (2^53).
FLOAT_EXACT = 1 << 53


def walked_values(program: Program, first: Witness, last: Witness) -> set[int]:
    """``Q_a`` values (label 0) of checked integer points met walking from ``first`` toward ``last``.

    Both are witnesses of ``program`` (of its members or of a superset), ``Q_a(first) <= Q_a(last)``.
    From ``first``, one item at a time is moved into label ``a`` from another label, choosing among
    all such moves one that keeps every row of the program met, with the largest least slack; the
    same from ``last`` moving items out of label ``a``. Every point is checked exactly (integer
    slacks, updated move by move) before its ``Q_a`` is kept; a walk stops where no single move
    keeps every row. The values between two witnesses are then often all proved feasible without a
    solver call.

    >>> from evalgebra.alarm.program import build_program
    >>> from evalgebra.alarm.safety import SafetySpec
    >>> program = build_program([(0,), (1,), (2,)], [4, 4, 4], 3, (0,), SafetySpec(), ["c0"], "abc")
    >>> low = Witness((0,), ((0,), (1,), (2,)), ((1, 0, 3), (0, 4, 0), (0, 0, 4)))
    >>> high = Witness((0,), ((0,), (1,), (2,)), ((4, 0, 0), (1, 3, 0), (2, 0, 2)))
    >>> sorted(walked_values(program, low, high))
    [1, 2, 3, 4, 5, 6, 7]
    """
    first, last = first.restrict(program.members), last.restrict(program.members)
    if first.patterns != program.patterns or last.patterns != program.patterns:
        return set()
    r, p = program.n_labels, len(program.patterns)
    if not program.rows:
        matrix = np.zeros((0, program.n_variables), dtype=np.int64)
    else:
        matrix = np.stack([program.row_array(row) for row in program.rows])
    if int(np.abs(matrix).sum(axis=1).max(initial=0)) * (first.total() + 1) >= 2**62 or any(
        abs(row.bound) >= 2**62 for row in program.rows
    ):
        return set()  # int64 slacks could overflow: no claim
    bounds = np.array([row.bound for row in program.rows], dtype=np.int64)
    columns = matrix.reshape(len(program.rows), p, r)  # row, pattern, label
    found: set[int] = set()
    top = sum(row[0] for row in last.split)
    bottom = sum(row[0] for row in first.split)
    for witness, step in ((first, 1), (last, -1)):
        point = np.array(witness.split, dtype=np.int64).reshape(p, r)
        slack = matrix @ point.ravel() - bounds
        if bool(np.any(slack < 0)):
            continue
        q_a = int(point[:, 0].sum())
        found.add(q_a)
        while (q_a < top) if step > 0 else (q_a > bottom):
            # every move: an item of pattern d from label m to label 0 (step 1) or back (step -1)
            into = columns[:, :, :1] - columns  # row, d, m: change of each slack moving d from m to 0
            change = into if step > 0 else -into
            source = point if step > 0 else np.repeat(point[:, :1], r, axis=1)
            allowed = source > 0
            allowed[:, 0] = False
            if not allowed.any():
                break
            after = slack[:, None, None] + change
            worst = np.where(allowed, after.min(axis=0) if len(bounds) else 0, -1)
            d, m = np.unravel_index(int(np.argmax(worst)), worst.shape)
            if worst[d, m] < 0:
                break
            point[d, m] -= step
            point[d, 0] += step
            slack = slack + change[:, d, m]
            q_a += step
            found.add(q_a)
            if step < 0 and q_a - 1 in found:  # the walks met
                break
    return found


def exact_qa_set(
    program: Program,
    candidates: FeasibleSet | None = None,
    budget: int = BUDGET,
    ends: tuple[Optimum, Optimum] | None = None,
    feasible: Iterable[int] = (),
) -> FeasibleSet:
    """The exact ``Q_a`` (label 0) of the program's integer points (the module docs).

    The least and greatest by certified optimisation; between them, at most ``budget``
    candidates are decided one by one. Beyond, the interior is resolved by blocks, at most
    ``budget`` solver calls: a progression of candidates is proved feasible at once by two
    witnesses whose difference is an integer multiple of a direction (:func:`check_segment`;
    the program is convex), a block of candidates proved empty at once by one certificate
    (a hole), and a block that is neither is split at a witnessed value. Values left undecided
    make the result's ``exact`` False (its values then a superset).

    ``ends``: the least ``Q_a`` and ``-max Q_a`` already proved (as :func:`label_ranges` gives them for
    label 0), instead of optimising again. The values on checked walks between the two ends'
    witnesses (:func:`walked_values`) are feasible without a solver call, and so are the values in
    ``feasible`` (already proved by witnesses of a superset of the members: feasibility is monotone).
    """
    count: tuple[tuple[Term, int], ...] = ((("count", 0), 1),)
    everything = FeasibleSet((Progression(0, program.Q, 1),)) if candidates is None else candidates
    low = minimise(program, count) if ends is None else ends[0]
    if low.value is None:  # infeasible (certified) or undecided: then the candidates, not exact
        return FeasibleSet() if low.certificate is not None else FeasibleSet(everything.parts, exact=False)
    high = minimise(program, ((("count", 0), -1),)) if ends is None else ends[1]
    if high.value is None:
        return FeasibleSet(everything.clip(int(low.value), program.Q).parts, exact=False)
    lo, hi = int(low.value), -int(high.value)
    pool = FeasibleSet((Progression(lo, hi, 1),)) if candidates is None else candidates.clip(lo, hi)
    if low.witness is not None and high.witness is not None and pool.count() <= _MAX_RUNS:
        known = walked_values(program, low.witness, high.witness) | {lo, hi} | set(feasible)
        if all(value in known for value in pool):
            return FeasibleSet.from_values(known & set(pool))
        pool = FeasibleSet.from_values(set(pool) - known)
        rest = exact_qa_pool(program, pool, budget, (low.witness, high.witness))
        return _union(list(FeasibleSet.from_values(known).parts) + list(rest.parts), rest.exact)
    inner = exact_qa_pool(
        program, FeasibleSet.from_values(set(pool) - {lo, hi}) if pool.count() <= budget else pool, budget
    )
    return _union([Progression(lo, lo), Progression(hi, hi), *inner.parts], inner.exact)


def exact_qa_pool(
    program: Program, pool: FeasibleSet, budget: int = BUDGET, starts: tuple[Witness, Witness] | None = None
) -> FeasibleSet:
    """The values of ``pool`` that are feasible ``Q_a`` of ``program``: one by one up to ``budget``
    values, by blocks beyond (:func:`exact_qa_set`); ``exact`` False when some stay undecided.

    ``starts``: witnesses at the least and greatest ``Q_a``; then each value is first asked of label 0's
    compact program (:func:`~evalgebra.alarm.perlabel.label_value`: a translated certificate or a
    completed witness, both checked), and of the whole program only when that gives no answer.
    """
    if pool.count() > budget and program.Q > FLOAT_EXACT:
        # the solver works in floating point: past 2^53 items its blocks cannot be certified, and
        # each call slows down; the candidates stay a superset with exact ends
        return FeasibleSet(pool.parts, exact=False)
    if pool.count() > budget:
        resolver = _Resolver(program, budget)
        resolver.resolve(pool)
        return _union(resolver.feasible + resolver.unresolved, not resolver.unresolved)
    found: set[int] = set()
    exact = True
    for value in pool:
        if starts is not None:
            near = starts[0] if abs(value - _qa(starts[0])) <= abs(value - _qa(starts[1])) else starts[1]
            fast = label_value(program, 0, value, near)
            if fast is not None:
                if fast[0] == "quiet":
                    found.add(value)
                continue
        verdict = decide(program.with_rows(*_fixed(value)))
        if verdict.kind == "quiet":
            found.add(value)
        elif verdict.kind == "undecided":
            found.add(value)
            exact = False
    return FeasibleSet.from_values(found, exact)


def label_ranges(program: Program) -> dict[int, tuple[Optimum, Optimum]]:
    """Per label index, the exact least and greatest ``Q_l`` (the second with negated value: ``-max``)."""
    return {
        ell: (minimise(program, ((("count", ell), 1),)), minimise(program, ((("count", ell), -1),)))
        for ell in range(program.n_labels)
    }


def accuracy_ranges(program: Program) -> dict[tuple[int, int], tuple[Fraction | None, Fraction | None, Any]]:
    """Per ``(member, label index)``: the least and greatest accuracy ``C_{i,l} / Q_l`` and the evidence.

    Over the labelled tests (with ``Q_l >= 1``) consistent with the counts under which every
    member meets the program's rows; ``None`` where undecided or where no such test exists.
    The evidence is ``(least, greatest)`` :class:`~evalgebra.alarm.solve.Optimum` s.
    """
    out = {}
    for i in program.members:
        for ell in range(program.n_labels):
            top: tuple[tuple[Term, int], ...] = ((("correct", i, ell), 1),)
            bottom: tuple[tuple[Term, int], ...] = ((("count", ell), 1),)
            least = minimise_ratio(program, top, bottom)
            most = minimise_ratio(program, ((("correct", i, ell), -1),), bottom)
            hi = None if most.value is None else -Fraction(most.value)
            lo = None if least.value is None else Fraction(least.value)
            out[(i, ell)] = (lo, hi, (least, most))
    return out


def check_ratio_optimum(
    program: Program, top: Sequence[tuple[Term, int]], bottom: Sequence[tuple[Term, int]], optimum: Optimum
) -> bool:
    """Exactly: ``optimum.value`` is the least ``top / bottom`` over the integer points with ``bottom >= 1``.

    The witness attains it (it checks, and its ratio is the value) and the certificate proves
    that no point has ``b top - a bottom <= -1`` (``a / b`` the value), i.e. a smaller ratio:
    the evidence of :func:`~evalgebra.alarm.solve.minimise_ratio`, re-checked with integers.
    """
    if optimum.value is None or optimum.witness is None or optimum.certificate is None:
        return False
    top, bottom = tuple(top), tuple(bottom)
    base = program.with_rows(Row(bottom, 1, "the label has items"))
    if not check_witness(base, optimum.witness):
        return False
    witness = optimum.witness.restrict(base.members)
    given = dict(zip(witness.patterns, witness.split))
    point = [given[p] for p in base.patterns]

    def value(expression: tuple[tuple[Term, int], ...]) -> int:
        total = 0
        for term, c in expression:
            vector = base.coefficients(term)
            total += c * sum(
                vector[d * base.n_labels + ell] * row[ell]
                for d, row in enumerate(point)
                for ell in range(base.n_labels)
            )
        return total

    ratio = Fraction(optimum.value)
    if Fraction(value(top), value(bottom)) != ratio:
        return False
    a, b = ratio.numerator, ratio.denominator
    mixed = tuple((t, b * c) for t, c in top) + tuple((t, -a * c) for t, c in bottom)
    better = Row(tuple((t, -c) for t, c in mixed), 1, "a smaller ratio")
    return check_certificate(base.with_rows(better), optimum.certificate)
