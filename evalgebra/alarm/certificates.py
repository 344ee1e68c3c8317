r"""Witnesses and certificates of the logical alarm, checked in exact arithmetic.

A verdict of :mod:`evalgebra.alarm.solve` is never HiGHS's word: it carries evidence that
these functions re-check with Python integers and :class:`~fractions.Fraction` s.

* :class:`Witness` (quiet): an integer split ``n[d, l]`` of the observed counts, i.e. a
  labelled test consistent with the sketch, under which every row of the program holds.
* :class:`Farkas` (fires): multipliers ``lambda_d`` (free, one per pattern) and ``mu_r >= 0``
  (one per row) with ``r_v = lambda_{d(v)} + sum_r mu_r A_{r,v}`` for each variable ``v =
  (d, l)``. Every split satisfies ``sum_v r_v n_v = lambda . n + sum_r mu_r (A_r n) >= lambda .
  n + mu . b``, and ``sum_v r_v n_v <= sum_v n_d max(0, r_v)`` since ``0 <= n_v <= n_d``; so
  ``lambda . n + mu . b > sum_v n_d max(0, r_v)`` proves that no split, even fractional,
  exists (Farkas' lemma for the relaxation).
* :class:`Split` (fires when the relaxation is feasible but no integer split is): a
  branch-and-bound tree. Each node splits on an integer combination ``e`` of the unknowns,
  which is an integer at every integer split, so either ``e <= k`` or ``e >= k + 1``; each
  leaf carries a :class:`Farkas` certificate for its branch's rows. Checked recursively.

A certificate found for a subset also proves every superset infeasible (its rows are among
the superset's, and its patterns are the superset's summed); :func:`check_farkas` accepts a
program whose members include the certificate's.

Examples
--------
Two classifiers that never agree cannot both be right on more than half of each label:

>>> from evalgebra.alarm.program import build_program
>>> from evalgebra.alarm.safety import SafetySpec
>>> program = build_program([(0, 1), (1, 0)], [6, 4], 2, (0, 1), SafetySpec(), ("c0", "c1"), ("a", "b"))
>>> proof = farkas_certificate(program)
>>> check_farkas(program, proof)
True
>>> proof.margin(program) > 0
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Union

import numpy as np

from evalgebra.alarm.program import Program, Row, Term, farkas_multipliers
from evalgebra.data.sketch import Sketch

__all__ = [
    "Witness",
    "Farkas",
    "Split",
    "Certificate",
    "marginal",
    "check_witness",
    "check_farkas",
    "check_certificate",
    "farkas_certificate",
    "witness_from_point",
]


def marginal(program: Program, members: Sequence[int]) -> Program:
    """``program``'s patterns summed onto ``members`` (a subset of its members), no rows."""
    members = tuple(sorted(members))
    positions = [program.members.index(i) for i in members]
    merged: dict[tuple[int, ...], int] = {}
    for pattern, count in zip(program.patterns, program.counts):
        key = tuple(pattern[k] for k in positions)
        merged[key] = merged.get(key, 0) + count
    keys = tuple(sorted(merged))
    return Program(members, keys, tuple(merged[k] for k in keys), program.n_labels, program.labels, ())


def _value(program: Program, split: Sequence[Sequence[int]], term: Term) -> int:
    kind, total = term[0], 0
    if kind == "count":
        return sum(row[term[1]] for row in split)
    if kind == "correct":
        k = program.members.index(term[1])
        return sum(row[term[2]] for pattern, row in zip(program.patterns, split) if pattern[k] == term[2])
    if kind == "answered":
        k = program.members.index(term[1])
        return sum(
            row[term[2]] for pattern, row in zip(program.patterns, split) if pattern[k] < program.n_labels
        )
    positions = [program.members.index(i) for i in term[1]]
    for pattern, row in zip(program.patterns, split):
        if tuple(pattern[k] for k in positions) == tuple(term[2]):
            total += row[term[3]]
    return total


@dataclass(frozen=True)
class Witness:
    """A labelled test consistent with the counts: ``split[d][l] = n[d, l]`` for each pattern.

    Attributes
    ----------
    members : tuple of int
    patterns : tuple of tuple of int
        The members' observed patterns (label indices), as in the program.
    split : tuple of tuple of int
        One row per pattern, one count per label, summing to the pattern's count.
    """

    members: tuple[int, ...]
    patterns: tuple[tuple[int, ...], ...]
    split: tuple[tuple[int, ...], ...]

    def restrict(self, members: Sequence[int]) -> Witness:
        """The same labelled test seen by a subset of the members (patterns summed)."""
        members = tuple(sorted(members))
        if members == self.members:
            return self
        positions = [self.members.index(i) for i in members]
        patterns = np.array(self.patterns, dtype=np.int64).reshape(len(self.patterns), -1)[:, positions]
        split = np.array(self.split, dtype=object if self.total() >= 2**62 else np.int64)
        keys, inverse = np.unique(patterns, axis=0, return_inverse=True)
        summed = np.zeros((len(keys), split.shape[1]), dtype=split.dtype)
        np.add.at(summed, inverse.ravel(), split)
        return Witness(
            members,
            tuple(tuple(int(v) for v in k) for k in keys.tolist()),
            tuple(tuple(int(v) for v in row) for row in summed.tolist()),
        )

    def total(self) -> int:
        """Items in the test."""
        return sum(sum(row) for row in self.split)

    def label_counts(self) -> tuple[int, ...]:
        """``Q_l`` of this labelled test."""
        return tuple(sum(col) for col in zip(*self.split)) if self.split else ()

    def correct(self, position: int, label: int) -> int:
        """``C_{i,l}`` for the member at ``position``."""
        return sum(
            row[label] for pattern, row in zip(self.patterns, self.split) if pattern[position] == label
        )

    def to_sketch(
        self, classifiers: Sequence[str], labels: Sequence[str], abstain: Sequence[str] = ()
    ) -> Sketch:
        """The witness as a labelled :class:`~evalgebra.data.sketch.Sketch` of its members
        (``classifiers``: the ensemble's names; ``abstain``: its abstentions, whose indices
        follow the labels' in a pattern).

        >>> Witness((0, 1), ((0, 1), (1, 0)), ((2, 1), (0, 3))).to_sketch(
        ...     ["x", "y"], ["a", "b"]
        ... ).label_counts()
        {'a': 2, 'b': 4}
        >>> Witness((0,), ((0,), (2,)), ((2, 1), (0, 1))).to_sketch(["x"], ["a", "b"], ["?"]).counts()
        {('a',): 3, ('?',): 1}
        """
        responses = list(labels) + list(abstain)
        split = {
            label: {
                tuple(responses[k] for k in p): row[ell]
                for p, row in zip(self.patterns, self.split)
                if row[ell]
            }
            for ell, label in enumerate(labels)
        }
        return Sketch.from_counts(
            labels=list(labels),
            classifiers=[classifiers[i] for i in self.members],
            by_true_label={label: cells for label, cells in split.items() if cells},
            abstain=list(abstain),
        )

    def to_dict(
        self, classifiers: Sequence[str], labels: Sequence[str], abstain: Sequence[str] = ()
    ) -> dict[str, Any]:
        """``{"classifiers": [...], "by_true_label": {label: [{"decisions": [...], "count": n}]}}``.

        The counts in the sketch format's shape: a pattern is a list of label (or abstention)
        names, so a label name with any character in it (``|`` too) reads back unambiguously.

        >>> Witness((0, 1), ((0, 1),), ((2, 1),)).to_dict(["x", "y"], ["a|b", "c"])["by_true_label"]
        {'a|b': [{'decisions': ['a|b', 'c'], 'count': 2}], 'c': [{'decisions': ['a|b', 'c'], 'count': 1}]}
        """
        responses = list(labels) + list(abstain)
        return {
            "classifiers": [classifiers[i] for i in self.members],
            "by_true_label": {
                label: [
                    {"decisions": [responses[k] for k in pattern], "count": row[ell]}
                    for pattern, row in zip(self.patterns, self.split)
                    if row[ell]
                ]
                for ell, label in enumerate(labels)
            },
        }


@dataclass(frozen=True)
class Farkas:
    """Farkas multipliers proving a program's relaxation empty (see the module notes)."""

    members: tuple[int, ...]
    patterns: dict[tuple[int, ...], Fraction]
    rows: tuple[tuple[Row, Fraction], ...]

    def margin(self, program: Program) -> Fraction:
        """``lambda . n + mu . b - sum_v n_d max(0, r_v)`` on ``program`` (positive: a proof).

        Exact: the multipliers are brought to one denominator and the sums taken in integers.
        """
        base = marginal(program, self.members)
        lams = [self.patterns.get(pattern, Fraction(0)) for pattern in base.patterns]
        mus = [mu for _, mu in self.rows]
        scale = math.lcm(*(v.denominator for v in lams + mus)) if lams or mus else 1
        lam = [int(v * scale) for v in lams]
        mu = [int(v * scale) for v in mus]
        total = sum(m * row.bound for (row, _), m in zip(self.rows, mu)) + sum(
            v * c for v, c in zip(lam, base.counts)
        )
        r_labels = base.n_labels
        if self.rows:
            matrix = np.stack([base.row_array(row) for row, _ in self.rows])  # int64, small coefficients
            big = max(map(abs, mu + lam), default=0) * (1 + int(np.abs(matrix).sum(axis=0).max(initial=0)))
            if big < 2**62:
                reduced = np.asarray(mu, dtype=np.int64) @ matrix
            else:  # Python integers: no overflow
                reduced = np.asarray(mu, dtype=object) @ matrix.astype(object)
        else:
            reduced = np.zeros(base.n_variables, dtype=np.int64)
        for d, count in enumerate(base.counts):
            for ell in range(r_labels):
                r = lam[d] + int(reduced[d * r_labels + ell])
                if r > 0:
                    total -= r * count
        return Fraction(total, scale)

    def to_dict(
        self, classifiers: Sequence[str], labels: Sequence[str], abstain: Sequence[str] = ()
    ) -> dict[str, Any]:
        """Exact multipliers as ``"p/q"`` strings (a pattern's as ``{"decisions": [...], "multiplier"}``),
        rows in words.
        """
        responses = list(labels) + list(abstain)
        return {
            "kind": "farkas",
            "classifiers": [classifiers[i] for i in self.members],
            "pattern_multipliers": [
                {"decisions": [responses[k] for k in p], "multiplier": str(v)}
                for p, v in self.patterns.items()
                if v
            ],
            "row_multipliers": [
                {
                    "row": row.why or str(row),
                    "terms": row.to_dict()["terms"],
                    "bound": row.bound,
                    "multiplier": str(mu),
                }
                for row, mu in self.rows
                if mu
            ],
        }


@dataclass(frozen=True)
class Split:
    """A branch-and-bound node: ``expression <= at`` (``below``) or ``>= at + 1`` (``above``)."""

    expression: tuple[tuple[Term, int], ...]
    at: int
    below: Certificate
    above: Certificate

    def rows(self) -> tuple[Row, Row]:
        """The two branches' added rows."""
        text = " + ".join(f"{c}*{t}" for t, c in self.expression)
        return (
            Row(tuple((t, -c) for t, c in self.expression), -self.at, f"{text} <= {self.at}"),
            Row(self.expression, self.at + 1, f"{text} >= {self.at + 1}"),
        )

    def leaves(self) -> int:
        """Leaves of the tree (Farkas certificates)."""
        return sum(node.leaves() if isinstance(node, Split) else 1 for node in (self.below, self.above))

    def to_dict(
        self, classifiers: Sequence[str], labels: Sequence[str], abstain: Sequence[str] = ()
    ) -> dict[str, Any]:
        """The tree, each leaf a Farkas certificate."""
        return {
            "kind": "branch",
            "expression": [[list(t), c] for t, c in self.expression],
            "at": self.at,
            "below": self.below.to_dict(classifiers, labels, abstain),
            "above": self.above.to_dict(classifiers, labels, abstain),
        }


Certificate = Union[Farkas, Split]


def check_witness(program: Program, witness: Witness) -> bool:
    """Exactly: ``witness`` is an integer split of ``program``'s counts meeting every row.

    The witness may be of a superset of the program's members (it is restricted first).
    """
    if not set(program.members) <= set(witness.members):
        return False
    if witness.members != program.members:
        witness = witness.restrict(program.members)
    given = dict(zip(witness.patterns, witness.split))
    if set(given) - set(program.patterns):
        return False
    split = []
    for pattern, count in zip(program.patterns, program.counts):
        row = given.get(pattern)
        if row is None or len(row) != program.n_labels:
            return False
        if any(not isinstance(c, int) or c < 0 for c in row) or sum(row) != count:
            return False
        split.append(row)
    return all(
        sum(c * _value(program, split, term) for term, c in condition.terms) >= condition.bound
        for condition in program.rows
    )


def check_farkas(program: Program, proof: Farkas) -> bool:
    """Exactly: ``proof`` shows that no split (not even fractional) meets ``program``'s rows."""
    if not set(proof.members) <= set(program.members):
        return False
    present = set(program.rows)
    if any(row not in present or mu < 0 for row, mu in proof.rows):
        return False
    return proof.margin(program) > 0


def check_certificate(program: Program, proof: Certificate) -> bool:
    """Exactly: no integer split meets ``program``'s rows (a Farkas proof or a tree of them)."""
    if isinstance(proof, Farkas):
        return check_farkas(program, proof)
    if not all(isinstance(c, int) for _, c in proof.expression):
        return False
    below, above = proof.rows()
    return check_certificate(program.with_rows(below), proof.below) and check_certificate(
        program.with_rows(above), proof.above
    )


def _rational(values: np.ndarray, limit: int, floor: Fraction | None) -> list[Fraction]:
    out = []
    for value in values.tolist():
        if abs(value) < 1e-10:
            out.append(Fraction(0))
            continue
        number = Fraction(value).limit_denominator(limit)
        out.append(max(number, floor) if floor is not None else number)
    return out


def farkas_certificate(program: Program, time_limit: float | None = None) -> Farkas | None:
    """An exactly checked Farkas certificate of ``program``'s relaxation, or None.

    HiGHS's multipliers (:func:`~evalgebra.alarm.program.farkas_multipliers`) are rounded to
    rationals of growing denominators until one passes :func:`check_farkas`.
    """
    found = farkas_multipliers(program, time_limit)
    if found is None:
        return None
    lam, mu = found
    scale = max(float(np.max(np.abs(lam), initial=0.0)), float(np.max(mu, initial=0.0)))
    if scale <= 0:
        return None
    for limit in (1, 6, 60, 840, 10**5, 10**8):
        lams = _rational(lam / scale, limit, None)
        mus = _rational(mu / scale, limit, Fraction(0))
        proof = Farkas(
            program.members,
            dict(zip(program.patterns, lams)),
            tuple((row, m) for row, m in zip(program.rows, mus) if m),
        )
        if check_farkas(program, proof):
            return proof
    return None


def witness_from_point(program: Program, point: np.ndarray) -> Witness | None:
    """A floating-point point of HiGHS rounded to integers, kept only when it checks exactly.

    Each pattern's last label takes what the rounded others leave, so the counts add up.
    """
    r = program.n_labels
    split = []
    for d, count in enumerate(program.counts):
        row = [int(round(float(v))) for v in point[d * r : (d + 1) * r]]
        row = [min(max(c, 0), count) for c in row]
        rest = count - sum(row[:-1])
        if rest < 0:
            return None
        row[-1] = rest
        split.append(tuple(row))
    witness = Witness(program.members, program.patterns, tuple(split))
    return witness if check_witness(program, witness) else None
