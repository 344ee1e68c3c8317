r"""One label's range end from that label's counts alone, then a labelled test completed around it.

The rows of label ``l`` (``C_{i,l}``, ``A_{i,l}``, ``Q_l``) only count items of true label ``l``, and
of an item they only ask, for each member, whether it answered ``l``, another label or abstained.
The least (or greatest) ``Q_l`` under these rows alone is therefore the optimum of a **compact**
program whose patterns keep just that: member by member ``l``, one stand-in for "another label"
(``l + 1`` modulo ``R``) or the abstention. Its patterns are far fewer than the subset's (a few
hundred for twelve judges against thousands of labels' worth of unknowns), and HiGHS solves it in a
fraction of a second where the whole program's optimisation can take minutes.

* Its optimum bounds the whole program's: the whole program has the same label-``l`` rows and more.
  The compact certificate is **translated** (:func:`translate`): a pattern multiplier goes to every
  pattern it stands for, a cell to the sum of the cells it stands for; every coefficient of a
  translated row on ``n[d, m]`` equals the compact row's on the stand-in of ``d``, so the margin is
  the same. It is re-checked exactly on the whole program.
* A **witness** attaining the bound is sought by completion (:func:`complete`): the compact optimum's
  ``l`` column is spread over the patterns it stands for, nearest to a known witness of the subset,
  the other labels refilled, and single-item moves between labels other than ``l`` repair what the
  change broke. It is kept only when it checks exactly. When no completion is found the caller falls
  back to the whole program's optimisation: nothing here is a guess.

Examples
--------
>>> from evalgebra.alarm.program import build_program
>>> from evalgebra.alarm.safety import SafetySpec
>>> from evalgebra.alarm.solve import decide
>>> patterns = [(0, 0), (1, 1), (2, 2), (0, 1), (2, 1), (1, 0)]
>>> program = build_program(patterns, [4, 3, 3, 2, 1, 1], 3, (0, 1), SafetySpec(), ("x", "y"), "abc")
>>> start = decide(program).witness
>>> low, high = label_end(program, 1, 1, start), label_end(program, 1, -1, start)
>>> low.value, -high.value
(1, 7)
>>> from evalgebra.alarm.ranges import label_ranges  # the whole program's own optimisation agrees
>>> least, most = label_ranges(program)[1]
>>> least.value, -most.value
(1, 7)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from evalgebra.alarm.certificates import (
    Certificate,
    Farkas,
    Split,
    Witness,
    check_certificate,
    check_witness,
    farkas_certificate,
    witness_from_point,
)
from evalgebra.alarm.program import Program, Row, Term, milp_point
from evalgebra.alarm.solve import Optimum, decide, minimise

__all__ = [
    "Compact",
    "compact",
    "translate",
    "complete",
    "label_end",
    "label_value",
    "narrow",
    "MOVES",
    "MAX_PAIRS",
]

#: Single-item repair moves :func:`complete` tries before giving up.
MOVES = 400
#: Most pairs of patterns (standing in for the same compact pattern) :func:`complete` trades between.
MAX_PAIRS = 2_000


@dataclass(frozen=True)
class Compact:
    """The compact program of one label (module docs) and which compact pattern stands for each pattern.

    Attributes
    ----------
    program : Program
        Label ``label``'s rows only, on the compact patterns.
    label : int
    stands : tuple of int
        For each pattern of the whole program, the index of its compact pattern.
    """

    program: Program
    label: int
    stands: tuple[int, ...]


def _stand_in(pattern: tuple[int, ...], label: int, n_labels: int) -> tuple[int, ...]:
    other = (label + 1) % n_labels
    return tuple(label if k == label else (other if k < n_labels else k) for k in pattern)


def _label_of(term: Term) -> int | None:
    if term[0] == "count":
        return int(term[1])
    if term[0] in ("correct", "answered"):
        return int(term[2])
    return None


def compact(program: Program, label: int) -> Compact:
    """The compact program of ``label`` (its rows only) for ``program``.

    >>> from evalgebra.alarm.program import build_program
    >>> from evalgebra.alarm.safety import SafetySpec
    >>> whole = build_program([(0, 1), (0, 2), (1, 1)], [2, 1, 3], 3, (0, 1), SafetySpec(), "xy", "abc")
    >>> small = compact(whole, 0)
    >>> small.program.patterns, small.program.counts, small.stands
    (((0, 1), (1, 1)), (3, 3), (0, 0, 1))
    """
    stand = [_stand_in(p, label, program.n_labels) for p in program.patterns]
    keys = tuple(sorted(set(stand)))
    index = {k: j for j, k in enumerate(keys)}
    counts = [0] * len(keys)
    for key, count in zip(stand, program.counts):
        counts[index[key]] += count
    rows = tuple(row for row in program.rows if all(_label_of(t) == label for t, _ in row.terms))
    small = Program(program.members, keys, tuple(counts), program.n_labels, program.labels, rows)
    return Compact(small, label, tuple(index[k] for k in stand))


def _row(row: Row, whole: Program, small: Compact) -> Row | None:
    terms: list[tuple[Term, int]] = []
    for term, c in row.terms:
        if term[0] != "cell":
            terms.append((term, c))
            continue
        if tuple(term[1]) != whole.members:
            return None
        j = small.program.patterns.index(tuple(term[2]))
        terms += [(("cell", term[1], p, term[3]), c) for p, s in zip(whole.patterns, small.stands) if s == j]
    return Row(tuple(terms), row.bound, row.why)


def translate(proof: Certificate, whole: Program, small: Compact) -> Certificate | None:
    """A certificate of the compact program as one of ``whole`` (still to be checked), or None.

    >>> from evalgebra.alarm.program import build_program
    >>> from evalgebra.alarm.safety import SafetySpec
    >>> from evalgebra.alarm.certificates import farkas_certificate
    >>> whole = build_program([(0, 1), (0, 2), (1, 1)], [2, 1, 3], 3, (0, 1), SafetySpec(), "xy", "abc")
    >>> small = compact(whole, 0)
    >>> none = Row(((("count", 0), -1),), 0, "Q(0) <= 0")
    >>> proof = farkas_certificate(small.program.with_rows(none))
    >>> check_certificate(whole.with_rows(none), translate(proof, whole, small))
    True
    """
    if isinstance(proof, Farkas):
        rows = []
        for row, mu in proof.rows:
            mapped = _row(row, whole, small)
            if mapped is None:
                return None
            rows.append((mapped, mu))
        patterns = {}
        for p, s in zip(whole.patterns, small.stands):
            patterns[p] = proof.patterns.get(small.program.patterns[s], Fraction(0))
        return Farkas(whole.members, patterns, tuple(rows))
    probe = _row(Row(proof.expression, 0), whole, small)
    below = translate(proof.below, whole, small)
    above = translate(proof.above, whole, small)
    if probe is None or below is None or above is None:
        return None
    return Split(probe.terms, proof.at, below, above)


def complete(program: Program, small: Compact, column: np.ndarray, start: Witness) -> Witness | None:
    """A checked witness of ``program`` whose label-``small.label`` units per compact pattern are
    ``column``, built around ``start`` (a witness of a superset of the members), or None.

    >>> from evalgebra.alarm.program import build_program
    >>> from evalgebra.alarm.safety import SafetySpec
    >>> from evalgebra.alarm.solve import decide
    >>> whole = build_program([(0,), (1,), (2,)], [4, 4, 4], 3, (0,), SafetySpec(), ["c0"], "abc")
    >>> start = decide(whole).witness
    >>> small = compact(whole, 0)
    >>> small.program.patterns, small.program.counts
    (((0,), (1,)), (4, 8))
    >>> found = complete(whole, small, np.array([1, 0]), start)
    >>> found.label_counts()[0]
    1
    """
    ell, r, p = small.label, program.n_labels, len(program.patterns)
    start = start.restrict(program.members)
    if start.patterns != program.patterns:
        return None
    point = np.array(start.split, dtype=np.int64).reshape(p, r)
    counts = np.array(program.counts, dtype=np.int64)
    stands = np.array(small.stands, dtype=np.int64)
    want = np.zeros(p, dtype=np.int64)  # the l column: nearest to start's, group by group
    for j, total in enumerate(np.asarray(column, dtype=np.int64).tolist()):
        where = np.flatnonzero(stands == j)
        if total < 0 or total > int(counts[where].sum()):
            return None
        keep = np.minimum(point[where, ell], total)
        left = total - int(keep.sum())
        for k, d in enumerate(where.tolist()):
            extra = min(left, int(counts[d] - keep[k]))
            keep[k] += extra
            left -= extra
        want[where] = keep
    matrix = np.stack([program.row_array(row) for row in program.rows]) if program.rows else None
    if matrix is None:
        return _checked(program, point, want, ell)
    if int(np.abs(matrix).max()) * (int(counts.sum()) + 1) >= 2**40:
        return None
    bounds = np.array([row.bound for row in program.rows], dtype=np.int64)
    columns = matrix.reshape(len(bounds), p, r)
    slack = matrix @ point.ravel() - bounds
    others = [m for m in range(r) if m != ell]
    for d in np.flatnonzero(want != point[:, ell]).tolist():
        while point[d, ell] != want[d]:  # one unit at a time, to or from the other label hurt least
            step = 1 if want[d] > point[d, ell] else -1
            best, best_m = None, -1
            for m in others:
                if step > 0 and point[d, m] == 0:
                    continue
                change = step * (columns[:, d, ell] - columns[:, d, m])
                score = int(np.minimum(slack + change, 0).sum())
                if best is None or score > best:
                    best, best_m = score, m
            if best_m < 0:
                return None
            change = step * (columns[:, d, ell] - columns[:, d, best_m])
            point[d, ell] += step
            point[d, best_m] -= step
            slack = slack + change
    pairs = _pairs(stands)
    for _ in range(MOVES):  # repair by single-item moves, each keeping the l column's group totals
        deficit = int(np.minimum(slack, 0).sum())
        if deficit == 0:
            break
        best_gain = 0
        best_move: tuple[tuple[int, int, int], ...] | None = None
        for a in others:  # an item of a pattern from one label other than l to another
            movable = point[:, a] > 0
            if not movable.any():
                continue
            for b in others:
                if a == b:
                    continue
                change = columns[:, :, b] - columns[:, :, a]  # row, pattern
                after = np.where(movable, np.minimum(slack[:, None] + change, 0).sum(axis=0) - deficit, -1)
                d = int(np.argmax(after))
                if int(after[d]) > best_gain:
                    best_gain, best_move = int(after[d]), ((d, a, b),)
        for a in others if best_move is None else ():  # else an l item trades places with an item of a
            for b in others:  # pattern it stands with
                if not len(pairs[0]):
                    break
                first, second = pairs
                movable = (point[first, ell] > 0) & (point[second, b] > 0)
                if not movable.any():
                    continue
                change = (
                    columns[:, first, a]
                    - columns[:, first, ell]
                    + columns[:, second, ell]
                    - columns[:, second, b]
                )
                after = np.where(movable, np.minimum(slack[:, None] + change, 0).sum(axis=0) - deficit, -1)
                k = int(np.argmax(after))
                if int(after[k]) > best_gain:
                    d1, d2 = int(first[k]), int(second[k])
                    best_gain, best_move = int(after[k]), ((d1, ell, a), (d2, b, ell))
        if best_move is None:
            return None
        for d, a, b in best_move:
            point[d, a] -= 1
            point[d, b] += 1
            slack = slack + columns[:, d, b] - columns[:, d, a]
        want = point[:, ell].copy()
    return _checked(program, point, want, ell)


def _pairs(stands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ordered pairs of distinct patterns with the same compact pattern (at most :data:`MAX_PAIRS`)."""
    first: list[int] = []
    second: list[int] = []
    for j in np.unique(stands).tolist():
        where = np.flatnonzero(stands == j).tolist()
        if len(first) + len(where) * (len(where) - 1) > MAX_PAIRS:
            continue
        for d1 in where:
            for d2 in where:
                if d1 != d2:
                    first.append(d1)
                    second.append(d2)
    return np.array(first, dtype=np.int64), np.array(second, dtype=np.int64)


def _checked(program: Program, point: np.ndarray, want: np.ndarray, ell: int) -> Witness | None:
    if not np.array_equal(point[:, ell], want) or bool((point < 0).any()):
        return None
    witness = Witness(program.members, program.patterns, tuple(tuple(int(v) for v in row) for row in point))
    return witness if check_witness(program, witness) else None


def _below(ell: int, sign: int, value: int) -> Row:
    """``sign * Q_ell <= value - 1``."""
    return Row(((("count", ell), -sign),), 1 - value, f"{'' if sign > 0 else '-'}Q({ell}) <= {value - 1}")


def _proved(program: Program, small: Compact, proof: Certificate | None, row: Row) -> Certificate | None:
    found = None if proof is None else translate(proof, program, small)
    return found if found is not None and check_certificate(program.with_rows(row), found) else None


def label_end(program: Program, ell: int, sign: int, start: Witness) -> Optimum | None:
    """The least ``sign * Q_ell`` of ``program`` from its compact program, with a completed witness and
    the translated certificate (both checked exactly), or None when either is missing.

    ``start``: a checked witness of a superset of the members (the completion starts from it). First a
    Farkas certificate at ``start``'s own value (one small linear program); then the compact
    program's optimum (HiGHS's point, a Farkas certificate at its value, else the certified
    :func:`~evalgebra.alarm.solve.minimise`) and a completion at it; when no completion is found, the
    whole program with ``sign * Q_ell`` at most that value (one feasibility question).
    """
    small = compact(program, ell)
    mine = sign * start.restrict(program.members).label_counts()[ell]
    proof = _proved(
        program,
        small,
        farkas_certificate(small.program.with_rows(_below(ell, sign, mine))),
        _below(ell, sign, mine),
    )
    if proof is not None:
        return Optimum(mine, start, proof)
    expression = ((("count", ell), sign),)
    objective = np.zeros(small.program.n_variables)
    objective[ell :: program.n_labels] = sign
    _, point = milp_point(small.program, objective)
    optimum = witness_from_point(small.program, point) if point is not None else None
    value = None if optimum is None else sign * optimum.label_counts()[ell]
    if value is not None and value < mine:
        proof = _proved(
            program,
            small,
            farkas_certificate(small.program.with_rows(_below(ell, sign, value))),
            _below(ell, sign, value),
        )
    if proof is None:
        found = minimise(small.program, expression)
        if found.value is None or found.witness is None:
            return None
        value, optimum = int(found.value), found.witness
        proof = _proved(program, small, found.certificate, _below(ell, sign, value))
    if proof is None or value is None or optimum is None:
        return None
    if value == mine:
        return Optimum(mine, start, proof)
    column = np.array([row[ell] for row in optimum.split], dtype=np.int64)
    witness = complete(program, small, column, start)
    if witness is None:  # the whole program at the bound: one feasibility question, no optimisation
        at_most = Row(((("count", ell), -sign),), -value, f"{'' if sign > 0 else '-'}Q({ell}) <= {value}")
        verdict = decide(program.with_rows(at_most))
        witness = verdict.witness if verdict.kind == "quiet" else None
    if witness is None or sign * witness.restrict(program.members).label_counts()[ell] != value:
        return None
    if not check_witness(program, witness):
        return None
    return Optimum(value, witness, proof)


def narrow(proof: Certificate, program: Callable[[tuple[int, ...]], Program], row: Row) -> Farkas | None:
    """``proof`` (a Farkas certificate that ``row`` cannot hold) restated for the members its rows name,
    checked on their own program (``program(members)``) with ``row``; None when it does not restate.

    A certificate of fewer members serves every subset that contains them. It restates when its pattern
    multipliers agree on patterns the fewer members cannot tell apart.

    >>> from evalgebra.alarm.program import build_program
    >>> from evalgebra.alarm.safety import SafetySpec
    >>> from evalgebra.alarm.certificates import farkas_certificate
    >>> def program(members):
    ...     return build_program([(0, 1), (1, 1)], [2, 3], 3, members, SafetySpec(), "xy", "abc")
    >>> none = Row(((("count", 0), -1),), 0, "Q(0) <= 0")
    >>> pair = program((0, 1))
    >>> x_on_a = Program(pair.members, pair.patterns, pair.counts, 3, pair.labels, pair.rows[:1] + (none,))
    >>> proof = farkas_certificate(x_on_a)  # x's row on label a alone already rules out Q(0) <= 0
    >>> small = narrow(proof, program, none)
    >>> small.members, check_certificate(program(small.members).with_rows(none), small)
    ((0,), True)
    >>> narrow(farkas_certificate(pair.with_rows(none)), program, none) is None  # its rows name both
    True
    """
    if not isinstance(proof, Farkas):
        return None
    used: set[int] = set()
    for condition, mu in proof.rows:
        for term, _ in condition.terms:
            if mu and term[0] == "cell":
                return None
            if mu and term[0] in ("correct", "answered"):
                used.add(int(term[1]))
    members = tuple(sorted(used)) or proof.members[:1]
    if members == proof.members:
        return None
    positions = [proof.members.index(i) for i in members]
    patterns: dict[tuple[int, ...], Fraction] = {}
    for pattern, value in proof.patterns.items():
        key = tuple(pattern[k] for k in positions)
        if patterns.setdefault(key, value) != value:
            return None
    rows = tuple((condition, mu) for condition, mu in proof.rows if mu)
    found = Farkas(members, patterns, rows)
    return found if check_certificate(program(members).with_rows(row), found) else None


def label_value(
    program: Program, ell: int, value: int, start: Witness
) -> tuple[str, Witness | Certificate] | None:
    """Whether ``Q_ell = value`` is possible, from the compact program: ``("fires", certificate)`` (the
    compact program with ``Q_ell = value`` has no integer point: translated, checked on the whole one),
    ``("quiet", witness)`` (a completion around ``start``, checked), or None (ask the whole program).

    >>> from evalgebra.alarm.program import build_program
    >>> from evalgebra.alarm.safety import SafetySpec
    >>> from evalgebra.alarm.solve import decide
    >>> whole = build_program([(0,), (1,), (2,)], [4, 4, 4], 3, (0,), SafetySpec(), ["c0"], "abc")
    >>> start = decide(whole).witness
    >>> [label_value(whole, 0, v, start)[0] for v in (0, 3, 9)]
    ['fires', 'quiet', 'fires']
    """
    fixed = (
        Row(((("count", ell), 1),), value, f"Q({ell}) >= {value}"),
        Row(((("count", ell), -1),), -value, f"Q({ell}) <= {value}"),
    )
    small = compact(program, ell)
    verdict = decide(small.program.with_rows(*fixed))
    if verdict.kind == "fires":
        proof = None if verdict.certificate is None else translate(verdict.certificate, program, small)
        if proof is not None and check_certificate(program.with_rows(*fixed), proof):
            return "fires", proof
        return None
    if verdict.kind != "quiet" or verdict.witness is None:
        return None
    column = np.array([row[ell] for row in verdict.witness.split], dtype=np.int64)
    witness = complete(program, small, column, start)
    if witness is None or not check_witness(program.with_rows(*fixed), witness):
        return None
    return "quiet", witness
