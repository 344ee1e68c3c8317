r"""Exact verdicts on one integer program of the logical alarm: feasible, infeasible or undecided.

:func:`decide` answers whether a :class:`~evalgebra.alarm.program.Program` has an integer
point, with evidence checked in exact arithmetic (:mod:`evalgebra.alarm.certificates`):

1. HiGHS's MILP; a point it returns is rounded and kept only when it checks exactly: a
   :class:`~evalgebra.alarm.certificates.Witness` (``"quiet"``).
2. Otherwise Farkas multipliers of the linear relaxation, rationalised and checked exactly:
   a :class:`~evalgebra.alarm.certificates.Farkas` certificate (``"fires"``).
3. When the relaxation has a point but no integer split exists, a branch and bound of our own
   on integer combinations of the unknowns (label counts first, then members' correct counts,
   then cells), every leaf closed by a checked Farkas certificate: a
   :class:`~evalgebra.alarm.certificates.Split` tree (``"fires"``), or a witness found on the way.
4. Anything else (a time or node limit, a point that does not check): ``"undecided"``.

:func:`minimise` gives the exact minimum of an integer combination with a witness attaining it
and a certificate that nothing smaller is possible; :func:`minimise_ratio` the exact minimum of a
ratio of two (an accuracy), by Dinkelbach's iteration on exact programs.

Examples
--------
Six items, three classifiers, accuracy above 3/5 on each label (``aaa`` 1, ``abb`` 1, ``bab``
2, ``bba`` 1, ``bbb`` 1): the relaxation has a point, no labelled test has one, and a tree of
Farkas leaves proves it.

>>> from evalgebra.alarm.program import build_program
>>> from evalgebra.alarm.safety import SafetySpec
>>> patterns, counts = [(0, 0, 0), (0, 1, 1), (1, 0, 1), (1, 1, 0), (1, 1, 1)], [1, 1, 2, 1, 1]
>>> program = build_program(patterns, counts, 2, (0, 1, 2), SafetySpec("3/5"), ("c0", "c1", "c2"), ("a", "b"))
>>> verdict = decide(program)
>>> verdict.kind, type(verdict.certificate).__name__
('fires', 'Split')
>>> check_certificate(program, verdict.certificate)
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from evalgebra.alarm.certificates import (
    Certificate,
    Split,
    Witness,
    check_certificate,
    check_witness,
    farkas_certificate,
    witness_from_point,
)
from evalgebra.alarm.program import Program, Row, Term, lp_point, milp_point

__all__ = ["Verdict", "decide", "minimise", "minimise_ratio", "Optimum", "NODE_LIMIT"]

#: Nodes a branch and bound may open before the verdict is left undecided.
NODE_LIMIT = 400


@dataclass(frozen=True)
class Verdict:
    """``kind``: ``"quiet"`` (with ``witness``), ``"fires"`` (with ``certificate``) or ``"undecided"``."""

    kind: str
    witness: Witness | None = None
    certificate: Certificate | None = None
    reason: str = ""


def _expressions(program: Program) -> list[tuple[tuple[Term, int], ...]]:
    """Integer combinations to branch on, coarse ones first."""
    found: list[tuple[tuple[Term, int], ...]] = [((("count", ell), 1),) for ell in range(program.n_labels)]
    found += [((("correct", i, ell), 1),) for i in program.members for ell in range(program.n_labels)]
    found += [
        ((("cell", program.members, p, ell), 1),) for p in program.patterns for ell in range(program.n_labels)
    ]
    return found


class _Budget:
    def __init__(self, nodes: int) -> None:
        self.nodes = nodes


def _branch(program: Program, budget: _Budget, time_limit: float | None) -> Verdict:
    budget.nodes -= 1
    if budget.nodes < 0:
        return Verdict("undecided", reason=f"more than {NODE_LIMIT} branch-and-bound nodes")
    point = lp_point(program, time_limit)
    if point is None:
        proof = farkas_certificate(program, time_limit)
        if proof is None:
            return Verdict("undecided", reason="no exact Farkas certificate for an empty relaxation")
        return Verdict("fires", certificate=proof)
    witness = witness_from_point(program, point)
    if witness is not None:
        return Verdict("quiet", witness=witness)
    for expression in _expressions(program):
        vector = np.zeros(program.n_variables)
        for term, c in expression:
            vector += c * np.asarray(program.coefficients(term), dtype=float)
        value = float(vector @ point)
        if abs(value - round(value)) > 1e-7:
            at = math.floor(value)
            node = Split(expression, at, None, None)  # type: ignore[arg-type]
            below_row, above_row = node.rows()
            below = _branch(program.with_rows(below_row), budget, time_limit)
            if below.kind != "fires":
                return below
            above = _branch(program.with_rows(above_row), budget, time_limit)
            if above.kind != "fires":
                return above
            return Verdict("fires", certificate=Split(expression, at, below.certificate, above.certificate))  # type: ignore[arg-type]
    return Verdict("undecided", reason="an integral relaxation point that does not check exactly")


def decide(program: Program, time_limit: float | None = None) -> Verdict:
    """Whether ``program`` has an integer point, with exactly checked evidence (module docs)."""
    status, point = milp_point(program, time_limit=time_limit)
    if status == "found" and point is not None:
        witness = witness_from_point(program, point)
        if witness is not None:
            return Verdict("quiet", witness=witness)
    proof = farkas_certificate(program, time_limit)
    if proof is not None:
        return Verdict("fires", certificate=proof)
    verdict = _branch(program, _Budget(NODE_LIMIT), time_limit)
    if verdict.kind == "quiet" and verdict.witness is not None and check_witness(program, verdict.witness):
        return verdict
    if (
        verdict.kind == "fires"
        and verdict.certificate is not None
        and check_certificate(program, verdict.certificate)
    ):
        return verdict
    if status == "unknown":
        return Verdict("undecided", reason="HiGHS hit its time limit")
    return Verdict("undecided", reason=verdict.reason or "no exact evidence either way")


@dataclass(frozen=True)
class Optimum:
    """An exact optimum: ``value`` attained by ``witness``; ``certificate`` proves nothing better.

    ``value`` is None when the program is infeasible (then ``certificate`` proves that) or
    undecided (``certificate`` and ``witness`` None).
    """

    value: Fraction | int | None
    witness: Witness | None
    certificate: Certificate | None


def _combination(program: Program, expression: Sequence[tuple[Term, int]]) -> np.ndarray:
    vector = np.zeros(program.n_variables)
    for term, c in expression:
        vector += c * np.asarray(program.coefficients(term), dtype=float)
    return vector


def _evaluate(program: Program, witness: Witness, expression: Sequence[tuple[Term, int]]) -> int:
    vector = [0] * program.n_variables
    for term, c in expression:
        for k, v in enumerate(program.coefficients(term)):
            vector[k] += c * v
    r = program.n_labels
    cells = dict(zip(witness.patterns, witness.split))
    return sum(
        vector[d * r + ell] * cells[p][ell] for d, p in enumerate(program.patterns) for ell in range(r)
    )


def minimise(
    program: Program, expression: Sequence[tuple[Term, int]], time_limit: float | None = None, rounds: int = 8
) -> Optimum:
    """The exact minimum of an integer combination over the program's integer points."""
    expression = tuple(expression)
    status, point = milp_point(program, _combination(program, expression), time_limit)
    witness = witness_from_point(program, point) if point is not None else None
    if witness is None:
        verdict = decide(program, time_limit)
        if verdict.kind != "quiet":
            return Optimum(None, None, verdict.certificate)
        witness = verdict.witness
    assert witness is not None
    for _ in range(rounds):
        value = _evaluate(program, witness, expression)
        better = Row(tuple((t, -c) for t, c in expression), -(value - 1), "a smaller value")
        verdict = decide(program.with_rows(better), time_limit)
        if verdict.kind == "fires":
            return Optimum(value, witness, verdict.certificate)
        if verdict.kind != "quiet" or verdict.witness is None:
            return Optimum(None, None, None)
        witness = verdict.witness
    return Optimum(None, None, None)


def minimise_ratio(
    program: Program,
    top: Sequence[tuple[Term, int]],
    bottom: Sequence[tuple[Term, int]],
    time_limit: float | None = None,
    rounds: int = 30,
) -> Optimum:
    """The exact minimum of ``top / bottom`` over integer points with ``bottom >= 1``.

    Dinkelbach's iteration: at a point of ratio ``a/b``, minimise ``b top - a bottom``; a
    negative value gives a point of smaller ratio, and a certificate that ``b top - a bottom
    <= -1`` is infeasible proves ``a/b`` the minimum.
    """
    top, bottom = tuple(top), tuple(bottom)
    base = program.with_rows(Row(bottom, 1, "the label has items"))
    verdict = decide(base, time_limit)
    if verdict.kind != "quiet" or verdict.witness is None:
        return Optimum(None, None, verdict.certificate if verdict.kind == "fires" else None)
    witness = verdict.witness
    for _ in range(rounds):
        ratio = Fraction(_evaluate(base, witness, top), _evaluate(base, witness, bottom))
        a, b = ratio.numerator, ratio.denominator
        mixed = tuple((t, b * c) for t, c in top) + tuple((t, -a * c) for t, c in bottom)
        status, point = milp_point(base, _combination(base, mixed), time_limit)
        candidate = witness_from_point(base, point) if point is not None else None
        if candidate is not None and _evaluate(base, candidate, mixed) < 0:
            witness = candidate
            continue
        better = Row(tuple((t, -c) for t, c in mixed), 1, "a smaller ratio")
        verdict = decide(base.with_rows(better), time_limit)
        if verdict.kind == "fires":
            return Optimum(ratio, witness, verdict.certificate)
        if verdict.kind != "quiet" or verdict.witness is None:
            return Optimum(None, None, None)
        witness = verdict.witness
    return Optimum(None, None, None)
