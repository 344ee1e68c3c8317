r"""The logical alarm as an integer program: every labelled test consistent with the counts.

The unknowns are ``n[d, l]``, the items whose members answered with pattern ``d`` and whose
true label is ``l``: non-negative integers with ``sum_l n[d, l] = n_d``, the observed count
of ``d``. Every labelled test consistent with the sketch is one such split, and every
specification of :class:`~evalgebra.alarm.safety.SafetySpec` is linear in it:

* classifier ``i``'s correct answers on label ``l``: ``C_{i,l} = sum over d with d_i = l of
  n[d, l]``;
* label ``l``'s items: ``Q_l = sum_d n[d, l]``;
* with abstentions (answers that are not labels; their indices follow the labels' in a
  pattern) the items of label ``l`` classifier ``i`` answered at all: ``A_{i,l} = sum over d
  with d_i a label of n[d, l]``. An abstention is never a correct answer, so ``C_{i,l} / Q_l``
  stays ``P(answer = l | truth = l)`` and a classifier that abstains often cannot meet a
  threshold on it; ``SafetySpec(answered_only=True)`` asks about ``C_{i,l} / A_{i,l}``
  instead (the accuracy among answered items);
* ``C_{i,l} > t Q_l`` with ``t = p/q`` reads ``q C_{i,l} - p Q_l >= 1`` (integers: a strict
  inequality between integers is the non-strict one shifted by one), ``>= 0`` when not strict;
* total accuracy ``sum_l C_{i,l} > t Q``: ``q sum_l C_{i,l} >= p Q + 1`` (``p Q`` when not strict);
* among answered items: ``q C_{i,l} - p A_{i,l} >= 1`` and ``q sum_l C_{i,l} - p sum_l A_{i,l} >= 1``.

A subset of classifiers can all meet the specification iff this program has an integer point.
This module builds the program (:func:`build_program`) in a symbolic form that certificates can
name (:class:`Row` over :data:`Term` s), and asks HiGHS (through :mod:`scipy.optimize`) for
points, optima and Farkas multipliers. HiGHS works in floating point: nothing it returns is
believed. :mod:`evalgebra.alarm.certificates` re-checks every answer exactly.

Examples
--------
>>> from fractions import Fraction
>>> from evalgebra.alarm.safety import SafetySpec
>>> program = build_program([(0, 1), (1, 0)], [6, 4], 2, (0, 1), SafetySpec(), ("c0", "c1"), ("a", "b"))
>>> [str(row) for row in program.rows][:2]
['2 C(0,0) - Q(0) >= 1', '2 C(0,1) - Q(1) >= 1']
>>> program.n_variables
4

Notes
-----
======================  =================================================================
code                    math
======================  =================================================================
``("count", l)``        ``Q_l``: items of true label ``l`` (label index; ``Q(l)`` in text)
``("correct", i, l)``   ``C_{i,l}``: items of true label ``l`` classifier ``i`` labels ``l``
``("answered", i, l)``  ``A_{i,l}``: items of true label ``l`` classifier ``i`` gave a label
``("cell", M, d, l)``   items of true label ``l`` on which members ``M`` answered ``d``
``Row``                 ``sum_k c_k term_k >= bound`` with integer ``c_k`` and ``bound``
======================  =================================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
from scipy import sparse
from scipy.optimize import Bounds, LinearConstraint, linprog, milp

from evalgebra.alarm.safety import SafetySpec

__all__ = [
    "Term",
    "Row",
    "Program",
    "build_program",
    "lp_point",
    "milp_point",
    "milp_segment",
    "farkas_multipliers",
]

#: A linear quantity of a labelled test: ``("count", l)``, ``("correct", i, l)``, ``("answered", i, l)``
#: or ``("cell", M, d, l)``.
Term = tuple[Any, ...]

#: Seconds HiGHS may spend on one program before the verdict is left undecided.
TIME_LIMIT = 20.0


@dataclass(frozen=True)
class Row:
    """``sum coefficient * term >= bound``, integers throughout."""

    terms: tuple[tuple[Term, int], ...]
    bound: int
    why: str = field(default="", compare=False)

    def __str__(self) -> str:
        parts = []
        for k, (term, c) in enumerate(self.terms):
            name = _term_name(term)
            sign = "-" if c < 0 else ("+" if k else "")
            size = "" if abs(c) == 1 else f"{abs(c)} "
            parts.append(f"{sign} {size}{name}".strip() if k else f"{'-' if c < 0 else ''}{size}{name}")
        return f"{' '.join(parts)} >= {self.bound}"

    def to_dict(self) -> dict[str, Any]:
        """``{"terms": [[term, coefficient], ...], "bound": b}`` (terms as lists)."""
        return {"terms": [[list(term), c] for term, c in self.terms], "bound": self.bound}


def _term_name(term: Term) -> str:
    if term[0] == "count":
        return f"Q({term[1]})"
    if term[0] == "correct":
        return f"C({term[1]},{term[2]})"
    if term[0] == "answered":
        return f"A({term[1]},{term[2]})"
    return f"n({''.join(map(str, term[2]))},{term[3]})"


@dataclass(frozen=True)
class Program:
    """The labelled tests of one subset of classifiers, with the rows they must satisfy.

    Attributes
    ----------
    members : tuple of int
        The classifiers (indices into the ensemble), increasing.
    patterns : tuple of tuple of int
        The members' observed answer patterns, each with a positive count: response indices,
        labels first (``0 .. n_labels - 1``), then any abstentions.
    counts : tuple of int
        ``n_d`` of each pattern.
    n_labels : int
    labels : tuple of str
        Label names (terms name labels by index).
    rows : tuple of Row
        The specification's rows, then any added rows (bounds, branches).
    """

    members: tuple[int, ...]
    patterns: tuple[tuple[int, ...], ...]
    counts: tuple[int, ...]
    n_labels: int
    labels: tuple[str, ...]
    rows: tuple[Row, ...]

    @property
    def n_variables(self) -> int:
        """``n[d, l]`` for every pattern and label."""
        return len(self.patterns) * self.n_labels

    @property
    def Q(self) -> int:  # noqa: N802 - the paper's name
        """Items in the test."""
        return sum(self.counts)

    def with_rows(self, *rows: Row) -> Program:
        """The same program with ``rows`` added."""
        return Program(self.members, self.patterns, self.counts, self.n_labels, self.labels, self.rows + rows)

    @cached_property
    def pattern_array(self) -> np.ndarray:
        """The patterns as an ``int64`` array, one row per pattern (computed once)."""
        return np.array(self.patterns, dtype=np.int64).reshape(len(self.patterns), len(self.members))

    def term_vector(self, term: Term) -> np.ndarray:
        """The ``int64`` coefficient of every variable ``n[d, l]`` (index ``d * R + l``) in ``term``."""
        r, p = self.n_labels, len(self.patterns)
        out = np.zeros((p, r), dtype=np.int64)
        kind = term[0]
        patterns = self.pattern_array
        if kind == "count":
            out[:, term[1]] = 1
        elif kind in ("correct", "answered"):
            column = patterns[:, self.members.index(term[1])] if p else np.zeros(0, dtype=np.int64)
            out[:, term[2]] = column == term[2] if kind == "correct" else column < r
        elif kind == "cell":  # ("cell", members, pattern, label): a pattern of some of the members
            positions = [self.members.index(i) for i in term[1]]
            match = np.all(patterns[:, positions] == np.asarray(term[2], dtype=np.int64), axis=1)
            out[:, term[3]] = match
        else:
            raise ValueError(f"unknown term {term!r}")
        return out.ravel()

    def coefficients(self, term: Term) -> list[int]:
        """The integer coefficient of every variable ``n[d, l]`` (index ``d * R + l``) in ``term``."""
        return [int(v) for v in self.term_vector(term).tolist()]

    def row_array(self, row: Row) -> np.ndarray:
        """The row's integer coefficients over the variables: ``int64``, or Python integers (``object``)
        when a coefficient is too large for it."""
        if any(abs(c) >= 2**58 for _, c in row.terms):
            out = np.zeros(self.n_variables, dtype=object)
            for term, c in row.terms:
                out += c * self.term_vector(term).astype(object)
            return out
        plain = np.zeros(self.n_variables, dtype=np.int64)
        for term, c in row.terms:
            plain += c * self.term_vector(term)
        return plain

    def row_vector(self, row: Row) -> list[int]:
        """The row's integer coefficients over the variables."""
        return [int(v) for v in self.row_array(row).tolist()]

    def matrix(self, rows: Sequence[Row] | None = None) -> tuple[Any, np.ndarray]:
        """``(A, b)`` in floating point for ``A x >= b`` over ``rows`` (default: all)."""
        rows = self.rows if rows is None else rows
        data = np.zeros((len(rows), self.n_variables))
        for k, row in enumerate(rows):
            data[k] = self.row_array(row).astype(float)
        return sparse.csr_matrix(data), np.array([float(row.bound) for row in rows])

    def equalities(self) -> tuple[Any, np.ndarray]:
        """``(E, n)``: ``sum_l n[d, l] = n_d`` for every pattern."""
        r, p = self.n_labels, len(self.patterns)
        rows = np.repeat(np.arange(p), r)
        matrix = sparse.csr_matrix((np.ones(p * r), (rows, np.arange(p * r))), shape=(p, p * r))
        return matrix, np.array([float(c) for c in self.counts])

    def upper(self) -> np.ndarray:
        """``n[d, l] <= n_d``."""
        return np.repeat(np.array([float(c) for c in self.counts]), self.n_labels)


def _threshold_rows(member: int, name: str, spec: SafetySpec, labels: Sequence[str], q: int) -> list[Row]:
    rows = []
    shift = 1 if spec.strict else 0
    sign = ">" if spec.strict else ">="
    among = spec.answered_only
    where = " among answered items" if among else ""
    for ell, label in enumerate(labels):
        t = spec.threshold(name, label)
        if t is None:
            continue
        terms: tuple[tuple[Term, int], ...] = ((("correct", member, ell), t.denominator),)
        if t.numerator:
            terms += ((("answered", member, ell) if among else ("count", ell), -t.numerator),)
        rows.append(Row(terms, shift, f"{name} accuracy on {label}{where} {sign} {t}"))
    tau = spec.total_threshold(name)
    if tau is not None:
        terms = tuple((("correct", member, ell), tau.denominator) for ell in range(len(labels)))
        if among:
            if tau.numerator:
                terms += tuple((("answered", member, ell), -tau.numerator) for ell in range(len(labels)))
            rows.append(Row(terms, shift, f"{name} total accuracy{where} {sign} {tau}"))
        else:
            rows.append(Row(terms, tau.numerator * q + shift, f"{name} total accuracy {sign} {tau}"))
    return rows


def build_program(
    patterns: Sequence[Sequence[int]],
    counts: Sequence[int],
    n_labels: int,
    members: Sequence[int],
    spec: SafetySpec,
    classifiers: Sequence[str],
    labels: Sequence[str],
) -> Program:
    """The program of ``members`` (ensemble indices) on the ensemble's observed patterns.

    ``patterns`` are the full ensemble's patterns (response indices: the labels, then any
    abstentions) with ``counts``; they are marginalised to the members (equal sub-patterns
    summed, zero counts dropped).

    >>> from evalgebra.alarm.safety import SafetySpec
    >>> rows = build_program([(0,), (2,)], [3, 1], 2, (0,), SafetySpec(answered_only=True), ["c0"], "ab").rows
    >>> [str(row) for row in rows]
    ['2 C(0,0) - A(0,0) >= 1', '2 C(0,1) - A(0,1) >= 1']
    """
    members = tuple(sorted(members))
    merged: dict[tuple[int, ...], int] = {}
    for pattern, count in zip(patterns, counts):
        if count:
            key = tuple(int(pattern[i]) for i in members)
            merged[key] = merged.get(key, 0) + int(count)
    keys = tuple(sorted(merged))
    q = sum(merged.values())
    rows: list[Row] = []
    for member in members:
        rows += _threshold_rows(member, classifiers[member], spec, labels, q)
    return Program(members, keys, tuple(merged[k] for k in keys), n_labels, tuple(labels), tuple(rows))


# -- HiGHS ---------------------------------------------------------------------------------
def _options(time_limit: float | None) -> dict[str, Any]:
    return {"time_limit": TIME_LIMIT if time_limit is None else time_limit, "presolve": True}


def lp_point(program: Program, time_limit: float | None = None) -> np.ndarray | None:
    """A point of the linear relaxation (HiGHS, floating point), or None when HiGHS finds none."""
    if not program.patterns:
        return np.zeros(0)
    a, b = program.matrix()
    e, n = program.equalities()
    result = linprog(
        np.zeros(program.n_variables),
        A_ub=-a if a.shape[0] else None,
        b_ub=-b if a.shape[0] else None,
        A_eq=e,
        b_eq=n,
        bounds=np.stack([np.zeros(program.n_variables), program.upper()], axis=1),
        method="highs",
        options={"time_limit": TIME_LIMIT if time_limit is None else time_limit},
    )
    return np.asarray(result.x) if result.status == 0 else None


def milp_point(
    program: Program, objective: Sequence[float] | np.ndarray | None = None, time_limit: float | None = None
) -> tuple[str, np.ndarray | None]:
    """``("found", x)``, ``("infeasible", None)`` or ``("unknown", None)`` from HiGHS's MILP.

    With ``objective``, ``x`` minimises it.
    """
    if not program.patterns:
        return "found", np.zeros(0)
    v = program.n_variables
    a, b = program.matrix()
    e, n = program.equalities()
    constraints = [LinearConstraint(e, n, n)]
    if a.shape[0]:
        constraints.append(LinearConstraint(a, b, np.inf))
    c = np.zeros(v) if objective is None else np.asarray(objective, dtype=float)
    result = milp(
        c,
        constraints=constraints,
        integrality=np.ones(v),
        bounds=Bounds(np.zeros(v), program.upper()),
        options={"time_limit": TIME_LIMIT if time_limit is None else time_limit},
    )
    if result.x is not None and result.status in (0, 1):
        return "found", np.asarray(result.x)
    if result.status == 2:
        return "infeasible", None
    return "unknown", None


def milp_segment(
    program: Program, start: int, step: int, length: int, time_limit: float | None = None
) -> tuple[np.ndarray, np.ndarray] | None:
    """Floating-point ``(x, delta)`` with ``x`` and ``x + length * delta`` integer points, or None.

    ``x`` has ``Q_a = start`` (label 0), ``delta`` is an integer direction with ``sum_l delta[d, l]
    = 0`` for every pattern and ``Q_a(delta) = step``: the program is convex, so every ``x + k
    delta`` (``0 <= k <= length``) is then an integer point with ``Q_a = start + k step``. One
    MILP in ``x`` and ``delta`` (HiGHS; :func:`evalgebra.alarm.ranges.segment_witnesses` checks
    the answer exactly).
    """
    v = program.n_variables
    if not program.patterns or length < 1:
        return None
    a, b = program.matrix()
    e, n = program.equalities()
    u = program.upper()
    q_a = np.zeros(v)
    q_a[0 :: program.n_labels] = 1.0
    zero = sparse.csr_matrix((e.shape[0], v))
    constraints = [
        LinearConstraint(sparse.hstack([e, zero]), n, n),
        LinearConstraint(sparse.hstack([zero, e]), 0.0, 0.0),
        LinearConstraint(np.concatenate([q_a, np.zeros(v)])[None, :], start, start),
        LinearConstraint(np.concatenate([np.zeros(v), q_a])[None, :], step, step),
        LinearConstraint(sparse.hstack([sparse.identity(v), length * sparse.identity(v)]), 0.0, u),
    ]
    if a.shape[0]:
        constraints.append(LinearConstraint(sparse.hstack([a, sparse.csr_matrix(a.shape)]), b, np.inf))
        constraints.append(LinearConstraint(sparse.hstack([a, length * a]), b, np.inf))
    bounds = Bounds(np.concatenate([np.zeros(v), -u]), np.concatenate([u, u]))
    result = milp(
        np.zeros(2 * v),
        constraints=constraints,
        integrality=np.ones(2 * v),
        bounds=bounds,
        options={"time_limit": TIME_LIMIT if time_limit is None else time_limit},
    )
    if result.x is None or result.status not in (0, 1):
        return None
    x = np.asarray(result.x)
    return x[:v], x[v:]


def farkas_multipliers(
    program: Program, time_limit: float | None = None
) -> tuple[np.ndarray, np.ndarray] | None:
    """Floating-point Farkas multipliers ``(lambda, mu)`` of the relaxation, or None.

    The alternative system: ``lambda`` (free, one per pattern) and ``mu >= 0`` (one per row)
    with ``r = E^T lambda + A^T mu``; the relaxation is empty when ``lambda . n + mu . b -
    sum_v u_v max(0, r_v) > 0`` (``u_v = n_d``, the upper bound of ``n[d, l]``). Found by the
    LP that maximises this bound over ``-1 <= lambda <= 1``, ``0 <= mu <= 1`` (a vertex, so
    the multipliers are rationals of small denominators); ``None`` when its optimum is not
    positive. :func:`evalgebra.alarm.certificates.farkas_certificate` rationalises and checks them.
    """
    p, m, v = len(program.patterns), len(program.rows), program.n_variables
    if m == 0 or p == 0:
        return None
    a, b = program.matrix()
    e, n = program.equalities()
    u = program.upper()
    # variables: lambda (p), mu (m), t (v); maximise n.lambda + b.mu - u.t
    cost = np.concatenate([-n, -b, u])
    # t - E^T lambda - A^T mu >= 0  ->  E^T lambda + A^T mu - t <= 0
    block = sparse.hstack([e.T, a.T, -sparse.identity(v)]).tocsr()
    bounds = [(-1.0, 1.0)] * p + [(0.0, 1.0)] * m + [(0.0, None)] * v
    result = linprog(
        cost,
        A_ub=block,
        b_ub=np.zeros(v),
        bounds=bounds,
        method="highs-ds",
        options={"time_limit": TIME_LIMIT if time_limit is None else time_limit},
    )
    if result.status != 0 or -result.fun <= 1e-9:
        return None
    x = np.asarray(result.x)
    return x[:p], x[p : p + m]
