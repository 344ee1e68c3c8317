r"""Exact evaluation of three error-independent classifiers with any number of labels (``R >= 3``).

For three classifiers independent given the true label the evaluation variety is the orbit of
the true point under the ``R!`` renamings of the hidden labels. The generated eliminant
(:mod:`evalgebra.generated.many_labels`, derivation d07) gives, from the pattern counts, the
pair table ``M`` of classifiers ``i, j``, the pair table ``K`` of ``i, k`` and a weighted slice
``S = sum_t w_t N_t`` of the three-way table, and the coefficients of
``det(lambda M - S) = Q^R det A_i det A_j prod_l P_l prod_l (lambda - v_l)``. Its roots ``v_l``
are found exactly (python-flint factors it over the rationals; irrational roots become
:class:`~evalgebra.numbers.algebraic_numbers.AlgebraicNumber`); for each root the null
vectors of ``S - v M`` give a column of every response matrix and the prevalence of one
hidden label, all in the number field of that root:

* right null vector ``x``: ``M x`` is proportional to column ``l`` of ``A_i``;
* left null vector ``y``: ``M^T y`` and ``K^T y`` are proportional to column ``l`` of ``A_j``
  and ``A_k``, and ``P_l = sum(M^T y) / (Q y . A_i[:, l])``.

The ``R!`` assignments of those columns to the label names are the candidate points;
decoding picks one (the largest summed total accuracy, a known prevalence order, or known
prevalences). Failure modes are alarms: ``blind_spot`` (a singular pair table, a hidden
label no weighting of the slices separates, a zero prevalence), ``complex`` and
``irrational`` (roots of the eliminant: a test on which the three were sample independent has
rational ones), ``outside_unit_cube`` (a value outside ``[0, 1]``, i.e. outside the
probability simplex), ``empty_variety`` (the exact residual of the three-way table is not
zero: no independent evaluation explains the counts), ``undecided``.

Examples
--------
>>> from evalgebra.spec import EnsembleSpec
>>> from evalgebra.data.point import EvaluationPoint
>>> from evalgebra.data.simulate import expected_sketch
>>> spec = EnsembleSpec(3, 3)
>>> rows = {"a": {"a": "7/10", "b": "1/5"}, "b": {"a": "1/10", "b": "4/5"}, "c": {"a": "1/5", "b": "1/10"}}
>>> truth = EvaluationPoint.from_values(spec, {"a": "1/2", "b": "3/10"}, response={i: rows for i in range(3)})
>>> result = evaluate_counts_many_labels(expected_sketch(truth).count_vector().tolist(), spec.labels)
>>> result.point.prevalence, result.alarms
({'a': Fraction(1, 2), 'b': Fraction(3, 10), 'c': Fraction(1, 5)}, ())
>>> result.point.response["c0"]["a"]
{'a': Fraction(7, 10), 'b': Fraction(1, 5), 'c': Fraction(1, 10)}
>>> len(result.points)
6

References
----------
.. [1] A. Corrada-Emmanuel, "Algebraic Evaluation Theorems": the independent evaluation
   variety and its label-swap points, irrational evaluations as proof of correlation.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import flint

from evalgebra.errors import SketchError, SpecError
from evalgebra.evaluators.many_labels.tables import count_tables, pattern_order
from evalgebra.numbers.algebraic_numbers import (
    AlgebraicNumber,
    FieldElement,
    as_fraction,
    poly_text,
    real_roots,
    solve_linear,
)
from evalgebra.numbers.rationals import exact_rational
from evalgebra.results import Alarm, Estimate, Evaluation, exact_text
from evalgebra.results.partition import LazyPartition

__all__ = [
    "MANY_LABEL_DECODINGS",
    "ResponseEstimate",
    "ManyLabelSolution",
    "exact_solution_many_labels",
    "evaluate_counts_many_labels",
    "best_assignment",
    "many_label_decoding",
    "DETAIL_UNDECIDED",
]

#: Decoding rules: which assignment of the hidden labels to the label names to report.
MANY_LABEL_DECODINGS = ("total_accuracy", "prevalence_order", "known_prevalences")

#: The (i, j, k) roles tried in turn: pair table of i and j, slices by k's answer.
ROLES = ((0, 1, 2), (1, 2, 0), (2, 0, 1))


def _weights(r: int) -> tuple[tuple[int, ...], ...]:
    """Slice weights tried in turn (a tie of ``v_l`` for one weighting is rare for the next)."""
    return (tuple(range(r)), tuple(t * t for t in range(r)), tuple((3 * t + 1) % (r + 2) for t in range(r)))


# -- results -----------------------------------------------------------------------------------
def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, AlgebraicNumber):
        return value.to_sympy_text()
    return exact_text(value)


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


@dataclass(frozen=True)
class ResponseEstimate(Estimate):
    r"""One candidate evaluation with ``R >= 3`` labels: prevalences, accuracies and response rows.

    ``response[classifier][true label][answer]`` is ``P_{i,answer|true label}``; ``accuracy``
    keeps the diagonal (``accuracy[c][l] = response[c][l][l]``) so the generic
    :class:`~evalgebra.results.estimates.Estimate` API keeps its meaning. Values are
    :class:`~fractions.Fraction` or :class:`~evalgebra.numbers.algebraic_numbers.AlgebraicNumber`.
    """

    response: Mapping[str, Mapping[str, Mapping[str, Any]]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "prevalence": {k: _float(v) for k, v in self.prevalence.items()},
            "accuracy": {c: {k: _float(v) for k, v in row.items()} for c, row in self.accuracy.items()},
            "response": {
                c: {t: {r: _float(v) for r, v in row.items()} for t, row in rows.items()}
                for c, rows in self.response.items()
            },
        }
        out["exact"] = {
            "prevalence": {k: _text(v) for k, v in self.prevalence.items()},
            "accuracy": {c: {k: _text(v) for k, v in row.items()} for c, row in self.accuracy.items()},
            "response": {
                c: {t: {r: _text(v) for r, v in row.items()} for t, row in rows.items()}
                for c, rows in self.response.items()
            },
        }
        return out


# -- the decomposition --------------------------------------------------------------------------
class ManyLabelSolution:
    r"""The exact decomposition of one three-classifier count vector into hidden-label columns.

    Attributes
    ----------
    n_labels : int
    polynomial : fmpz_poly or None
        ``det(lambda M - S)`` for the role and weights used (``None``: every pair table singular).
    role, weights : tuple of int
        Classifiers ``(i, j, k)`` and the slice weights that gave simple roots.
    prevalence : list
        Per hidden column ``k``: its prevalence (``Fraction`` or ``AlgebraicNumber``).
    response : list
        ``response[i][k][r] = P_{i,r|k}`` for hidden column ``k``.
    kinds : set of str
        Alarm kinds raised.
    details : dict
        Alarm kind -> detail text.
    fields : list
        Irrational roots only, per hidden column ``k``: ``(root, P_k, columns)`` with the root of
        the eliminant that column belongs to (``None`` for a rational root) and the column's
        prevalence and response columns (``columns[i][r]``, classifier ``i``) as
        :class:`~evalgebra.numbers.algebraic_numbers.FieldElement` of that root's number
        field: exact products (the partition) stay in one field.
    """

    __slots__ = (
        "n_labels",
        "polynomial",
        "role",
        "weights",
        "prevalence",
        "response",
        "kinds",
        "details",
        "exact",
        "fields",
    )

    def __init__(self, n_labels: int) -> None:
        self.n_labels = n_labels
        self.polynomial: flint.fmpz_poly | None = None
        self.role: tuple[int, ...] = ROLES[0]
        self.weights: tuple[int, ...] = ()
        self.prevalence: list[Any] = []
        self.response: list[list[list[Any]]] = []
        self.kinds: set[str] = set()
        self.details: dict[str, str] = {}
        self.exact = False  # True when every value is an fmpq (rational roots)
        self.fields: list[tuple[AlgebraicNumber | None, FieldElement, list[list[FieldElement]]]] = []

    def alarm(self, kind: str, detail: str) -> None:
        self.kinds.add(kind)
        self.details.setdefault(kind, detail)

    @property
    def defined(self) -> bool:
        """True when every column was found (real roots, no blind spot)."""
        return bool(self.prevalence) and not ({"blind_spot", "complex"} & self.kinds)


def exact_solution_many_labels(counts: Sequence[int], n_labels: int) -> ManyLabelSolution:
    r"""Decompose ``R^3`` pattern counts exactly (the fast exact path; no decoding).

    Parameters
    ----------
    counts : sequence of int
        ``R^3`` non-negative counts in lexicographic pattern order (classifier 0 slowest).
    n_labels : int

    Returns
    -------
    ManyLabelSolution

    Examples
    --------
    >>> sol = exact_solution_many_labels([8, 0, 0, 0, 0, 0, 0, 0, 0] * 3, 3)
    >>> sorted(sol.kinds)
    ['blind_spot']
    """
    r = n_labels
    q = sum(counts)
    sol = ManyLabelSolution(r)
    singular = True
    for role in ROLES:
        for weights in _weights(r):
            out = count_tables(counts, r, role, weights)
            if out[r] == 0:  # det M = 0: this pair table is singular, no weighting helps
                break
            singular = False
            poly = flint.fmpz_poly(out[: r + 1])
            factors = poly.factor()[1]
            if any(mult > 1 for _, mult in factors):
                continue  # a repeated root: two hidden labels not separated by these weights
            sol.polynomial, sol.role, sol.weights = poly, role, weights
            tables = out[r + 1 :]
            m, k, s = tables[: r * r], tables[r * r : 2 * r * r], tables[2 * r * r :]
            if all(f.degree() == 1 for f, _ in factors):
                if _rational_columns(sol, factors, m, k, s, q, counts):
                    return sol
            else:
                _algebraic_columns(sol, factors, m, k, s, q, counts)
                return sol
            if "blind_spot" not in sol.kinds:
                return sol
            sol.kinds.clear()
            sol.details.clear()
    if singular:
        sol.alarm(
            "blind_spot",
            "every pair table is singular (a classifier that never gives some answer, "
            "or answers that do not depend on the truth): the columns are undefined",
        )
    else:
        sol.alarm(
            "blind_spot",
            "no weighting of the slices separates the hidden labels (two labels on which "
            "every classifier answers alike, or a label of zero prevalence)",
        )
    sol.prevalence, sol.response, sol.fields = [], [], []
    return sol


def _rational_columns(
    sol: ManyLabelSolution,
    factors: list[Any],
    m: list[int],
    k: list[int],
    s: list[int],
    q: int,
    counts: Sequence[int],
) -> bool:
    """Rational roots: integer null spaces and one rational inverse. False on a degenerate column."""
    r = sol.n_labels
    mz, kz, sz = flint.fmpz_mat(r, r, m), flint.fmpz_mat(r, r, k), flint.fmpz_mat(r, r, s)
    columns = []
    for f, _ in factors:
        b, a = f.coeffs()
        null, nullity = (a * sz + b * mz).nullspace()
        if nullity != 1:
            sol.alarm("blind_spot", "a null space of S - v M is not a line")
            return False
        image = mz * flint.fmpz_mat(r, 1, [null[row, 0] for row in range(r)])
        column = [image[row, 0] for row in range(r)]
        total: Any = sum(column)
        if total == 0:
            sol.alarm("blind_spot", "a hidden label has zero prevalence")
            return False
        columns.append([flint.fmpq(c, total) for c in column])
    a_i = flint.fmpq_mat(r, r, [columns[col][row] for row in range(r) for col in range(r)])
    inverse = a_i.inv()
    b_j, b_k = inverse * mz, inverse * kz  # rows: Q P_l A_j[:, l]^T and Q P_l A_k[:, l]^T
    prevalence: list[Any] = []
    col_j: list[Any] = []
    col_k: list[Any] = []
    for row in range(r):
        total = sum((b_j[row, c] for c in range(r)), flint.fmpq(0))
        if total == 0:
            sol.alarm("blind_spot", "a hidden label has zero prevalence")
            return False
        prevalence.append(total / q)
        col_j.append([b_j[row, c] / total for c in range(r)])
        col_k.append([b_k[row, c] / total for c in range(r)])
    # exact residual of the three-way table: Q A_i diag(P) diag(A_k[t, :]) A_j^T = N_t
    order = pattern_order(r, sol.role)
    for t in range(r):
        scaled = flint.fmpq_mat(r, r, [b_j[row, c] * col_k[row][t] for row in range(r) for c in range(r)])
        observed = flint.fmpq_mat(
            r, r, [counts[order[(x * r + y) * r + t]] for x in range(r) for y in range(r)]
        )
        if a_i * scaled != observed:
            sol.alarm(
                "empty_variety",
                "the exact residual of the three-way table is not zero: no independent "
                "evaluation reproduces the counts",
            )
            break
    sol.exact = True
    _store(sol, prevalence, columns, col_j, col_k)
    return True


def _store(
    sol: ManyLabelSolution, prevalence: list[Any], col_i: list[Any], col_j: list[Any], col_k: list[Any]
) -> None:
    """Columns in the roles' order to ``response[classifier][column][answer]``, checked against [0, 1]."""
    by_role = (col_i, col_j, col_k)
    response: list[list[list[Any]]] = [[], [], []]
    for position, classifier in enumerate(sol.role):
        response[classifier] = by_role[position]
    sol.prevalence, sol.response = prevalence, response
    values = [*prevalence, *(v for rows in response for row in rows for v in row)]
    # every column and the prevalences sum to one exactly, so [0, 1] is the same as >= 0
    if sol.exact and any(v.p < 0 for v in values) or not sol.exact and any(v < 0 for v in values):
        sol.alarm(
            "outside_unit_cube",
            "a prevalence or response rate lies outside [0, 1] (outside the probability simplex)",
        )


def _algebraic_columns(
    sol: ManyLabelSolution,
    factors: list[Any],
    m: list[int],
    k: list[int],
    s: list[int],
    q: int,
    counts: Sequence[int],
) -> None:
    """Irrational or complex roots: every column computed once per irreducible factor, in its number field."""
    r = sol.n_labels
    polynomial = sol.polynomial
    assert polynomial is not None
    roots, n_complex = real_roots(polynomial)
    if n_complex:
        sol.alarm(
            "complex",
            f"det(lambda M - S) = {poly_text(polynomial)} has {n_complex} non-real root(s): "
            "complex evaluations",
        )
        return
    sol.alarm(
        "irrational",
        f"det(lambda M - S) = {poly_text(polynomial)} has irrational roots: the "
        "classifiers were not sample independent on this test",
    )
    prevalence: list[Any] = []
    cols: list[list[Any]] = [[], [], []]
    residual = [Fraction(0)] * (r**3)
    order = pattern_order(r, sol.role)
    for f, _ in factors:
        modulus = f
        theta = FieldElement(modulus, [0, 1])
        zero, one = FieldElement(modulus, 0), FieldElement(modulus, 1)
        mat = [[theta * m[x * r + y] * (-1) + s[x * r + y] for y in range(r)] for x in range(r)]
        x_vec = solve_linear(mat, zero, one)
        y_vec = solve_linear([list(row) for row in zip(*mat)], zero, one)
        if x_vec is None or y_vec is None:
            sol.alarm("blind_spot", "a null space of S - v M is trivial")
            return
        col_i = [sum((x_vec[c] * m[row * r + c] for c in range(r)), zero) for row in range(r)]
        mty = [sum((y_vec[row] * m[row * r + c] for row in range(r)), zero) for c in range(r)]
        kty = [sum((y_vec[row] * k[row * r + c] for row in range(r)), zero) for c in range(r)]
        sums = [sum(v, zero) for v in (col_i, mty, kty)]
        if any(v.is_zero() for v in sums):
            sol.alarm("blind_spot", "a hidden label has zero prevalence")
            return
        col_i = [v / sums[0] for v in col_i]
        col_j = [v / sums[1] for v in mty]
        col_k = [v / sums[2] for v in kty]
        scale = sum((y_vec[row] * col_i[row] for row in range(r)), zero)
        prev = sums[1] / (scale * q)
        for d in itertools.product(range(r), repeat=3):
            term = prev * q * col_i[d[0]] * col_j[d[1]] * col_k[d[2]]
            residual[(d[0] * r + d[1]) * r + d[2]] += term.trace()
        own = (
            [x for x in roots if isinstance(x, AlgebraicNumber) and x.poly in (f, -f)]
            if f.degree() > 1
            else [None]
        )
        by_classifier: list[list[FieldElement]] = [[], [], []]
        for position, column in enumerate((col_i, col_j, col_k)):
            by_classifier[sol.role[position]] = column
        # each element valued at every root of f at once (one minimal polynomial for all conjugates)
        at = (lambda v: v.values(own)) if own != [None] else (lambda v: [v.rational()])  # noqa: E731
        prevalence_at = at(prev)
        columns_at = [[at(v) for v in column] for column in (col_i, col_j, col_k)]
        for n, root in enumerate(own):
            prevalence.append(prevalence_at[n])
            sol.fields.append((root, prev, by_classifier))
            for position in range(3):
                cols[position].append([values[n] for values in columns_at[position]])
    if any(residual[p] != counts[order[p]] for p in range(r**3)):
        sol.alarm(
            "empty_variety",
            "the exact residual of the three-way table is not zero: no independent "
            "evaluation reproduces the counts",
        )
    _store(sol, prevalence, cols[0], cols[1], cols[2])


# -- decoding -----------------------------------------------------------------------------------
def _ball(value: Any) -> flint.arb:
    if isinstance(value, AlgebraicNumber):
        value.refine(Fraction(1, 2**80))
        return value.arb()
    return flint.arb(flint.fmpq(value.numerator, value.denominator) if isinstance(value, Fraction) else value)


def _fmpq(value: Any) -> flint.fmpq:
    if isinstance(value, flint.fmpq):
        return value
    return flint.fmpq(value.numerator, value.denominator)


def _best(scores: list[Any]) -> int | None:
    """Index of the strictly largest score (exact for rationals, certified by arb balls otherwise)."""
    if all(not isinstance(x, flint.arb) for x in scores):
        top = max(scores)
        winners = [n for n, x in enumerate(scores) if x == top]
        return winners[0] if len(winners) == 1 else None
    best = max(range(len(scores)), key=lambda n: float(scores[n].mid()))
    lower = scores[best].lower()
    return best if all(n == best or scores[n].upper() < lower for n in range(len(scores))) else None


def _decode(
    sol: ManyLabelSolution, perms: list[tuple[int, ...]], labels: tuple[str, ...], decoding: str, option: Any
) -> int | None:
    """Index into ``perms`` (``perm[column] = label index``) chosen by the decoding rule, or None."""
    r = sol.n_labels
    exact = sol.exact
    lift = _fmpq if exact else _ball
    zero = lift(Fraction(0))
    if decoding == "prevalence_order":
        prevalence = [lift(p) for p in sol.prevalence]
        ranked = sorted(range(r), key=lambda c: -float(sol.prevalence[c]))
        for a, b in zip(ranked, ranked[1:]):
            if exact and prevalence[a] == prevalence[b] or not exact and not prevalence[a] > prevalence[b]:
                return None
        wanted = tuple(labels.index(name) for name in option)
        target = [0] * r
        for rank, column in enumerate(ranked):
            target[column] = wanted[rank]
        return perms.index(tuple(target))
    if decoding == "known_prevalences":
        prevalence = [lift(p) for p in sol.prevalence]
        known = [lift(option[name]) for name in labels]
        scores = [-sum((abs(prevalence[c] - known[perm[c]]) for c in range(r)), zero) for perm in perms]
        return _best(scores)
    # total accuracy: sum over classifiers of sum_l P_l P_{i,l|l}
    if exact:
        resp = sol.response
        weight = [
            [sol.prevalence[c] * (resp[0][c][ell] + resp[1][c][ell] + resp[2][c][ell]) for ell in range(r)]
            for c in range(r)
        ]
        return _best([sum([weight[c][perm[c]] for c in range(r)], zero) for perm in perms])
    weight = [
        [
            lift(sol.prevalence[c]) * sum((lift(sol.response[i][c][ell]) for i in range(3)), zero)
            for ell in range(r)
        ]
        for c in range(r)
    ]
    scores = [sum((weight[c][perm[c]] for c in range(r)), zero) for perm in perms]
    return _best(scores)


def many_label_decoding(
    decoding: str, prevalence_order: Any, known_prevalences: Any, labels: tuple[str, ...]
) -> tuple[str, Any]:
    """The decoding rule a call asks for and its option (the prevalence order, or the known prevalences as
    Fractions), checked against the labels."""
    if prevalence_order is not None and decoding == "total_accuracy":
        decoding = "prevalence_order"
    if known_prevalences is not None and decoding == "total_accuracy":
        decoding = "known_prevalences"
    if decoding not in MANY_LABEL_DECODINGS:
        raise SpecError(f"unknown decoding {decoding!r}; known: {', '.join(MANY_LABEL_DECODINGS)}")
    if decoding == "prevalence_order":
        order = tuple(str(x) for x in (prevalence_order or ()))
        if sorted(order) != sorted(labels):
            raise SpecError(
                f"prevalence_order must list every label once, most prevalent first; got "
                f"{prevalence_order!r} for labels {list(labels)}"
            )
        return decoding, order
    if decoding == "known_prevalences":
        try:
            known = {
                str(k): exact_rational(v, f"known_prevalences[{k!r}]", SpecError)
                for k, v in dict(known_prevalences or {}).items()
            }
        except (TypeError, ValueError, SpecError):
            known = {}
        if sorted(known) != sorted(labels) or sum(known.values()) != 1 or min(known.values()) < 0:
            raise SpecError(
                f"known_prevalences must give every label an exact rational prevalence (int, Fraction "
                f"or 'p/q'), summing to 1; got {known_prevalences!r}"
            )
        return decoding, known
    return decoding, None


def _columns(sol: ManyLabelSolution, labels: tuple[str, ...]) -> tuple[list[Any], list[list[dict[str, Any]]]]:
    """Each hidden column's prevalence and, per classifier, its response row by answer name, as the
    points hold them (Fractions or AlgebraicNumbers): converted once, shared by all ``R!`` points."""
    convert = lambda v: v if isinstance(v, AlgebraicNumber) else as_fraction(v)  # noqa: E731
    r = sol.n_labels
    prevalence = [convert(v) for v in sol.prevalence]
    rows = [
        [{labels[a]: convert(sol.response[i][c][a]) for a in range(r)} for c in range(r)] for i in range(3)
    ]
    return prevalence, rows


def _estimate(
    columns: tuple[list[Any], list[list[dict[str, Any]]]],
    perm: tuple[int, ...],
    labels: tuple[str, ...],
    classifiers: tuple[str, ...],
) -> ResponseEstimate:
    """The point that names hidden column ``c`` label ``perm[c]`` (every row a fresh dict)."""
    prevalence_of, rows = columns
    r = len(labels)
    column_of = {perm[c]: c for c in range(r)}
    prevalence = {labels[ell]: prevalence_of[column_of[ell]] for ell in range(r)}
    response = {
        classifiers[i]: {labels[ell]: dict(rows[i][column_of[ell]]) for ell in range(r)} for i in range(3)
    }
    accuracy = {c: {t: by_truth[t][t] for t in labels} for c, by_truth in response.items()}
    return ResponseEstimate(prevalence, accuracy, response)


def _partition(
    point: ResponseEstimate,
    labels: tuple[str, ...],
    classifiers: tuple[str, ...],
    q: int,
    sol: ManyLabelSolution,
    perm: tuple[int, ...],
) -> dict[str, list[tuple[tuple[str, ...], Any]]]:
    """``Q P_l P_{0,d_0|l} P_{1,d_1|l} P_{2,d_2|l}`` for every label ``l`` and pattern ``d``, exactly."""
    if sol.fields:
        return _partition_in_fields(labels, q, sol, perm)
    out: dict[str, list[tuple[tuple[str, ...], Any]]] = {}
    for ell in labels:
        base = point.prevalence[ell] * q
        rows = [point.response[c][ell] for c in classifiers]
        out[ell] = [
            (pattern, base * rows[0][pattern[0]] * rows[1][pattern[1]] * rows[2][pattern[2]])
            for pattern in itertools.product(labels, repeat=3)
        ]
    return out


def _partition_in_fields(
    labels: tuple[str, ...], q: int, sol: ManyLabelSolution, perm: tuple[int, ...]
) -> dict[str, list[tuple[tuple[str, ...], Any]]]:
    """The partition of an irrational point: each product formed in its column's number field, then valued
    at the column's root (so every count is one exact algebraic number, not a product of rounded ones).

    The columns of one irreducible factor share their field elements (conjugates): each product is formed
    once per factor and valued at all of that factor's roots together.
    """
    r = sol.n_labels
    out: dict[str, list[tuple[tuple[str, ...], Any]]] = {}
    groups: dict[int, list[int]] = {}  # the columns of one factor share one prevalence element
    for column in range(r):
        groups.setdefault(id(sol.fields[column][1]), []).append(column)
    patterns = list(itertools.product(range(r), repeat=3))
    for members in groups.values():
        _, prev, cols = sol.fields[members[0]]
        roots = [sol.fields[column][0] for column in members]
        base = prev * q
        values = []
        for d in patterns:
            term = base * cols[0][d[0]] * cols[1][d[1]] * cols[2][d[2]]
            values.append([term.rational()] if roots == [None] else term.values(roots))  # type: ignore[arg-type]
        for n, column in enumerate(members):
            out[labels[perm[column]]] = [
                (tuple(labels[a] for a in d), value[n]) for d, value in zip(patterns, values)
            ]
    return {ell: out[ell] for ell in labels}


#: The detail of the ``undecided`` alarm of the many-labels decoding rules.
DETAIL_UNDECIDED = (
    "the decoding rule chooses no assignment of the hidden labels (a tie, equal prevalences for a "
    "prevalence order, or no separation of the candidates)"
)


def _counts(counts: Sequence[Any], r: int) -> list[int]:
    try:
        values = list(counts)
        ints = [int(c) for c in values]
        exact = all(c == x for c, x in zip(ints, values))
    except (TypeError, ValueError, OverflowError):
        raise SketchError(f"need {r**3} non-negative integer pattern counts, got {counts!r}") from None
    if len(ints) != r**3 or not exact or any(c < 0 for c in ints):
        raise SketchError(
            f"need {r**3} non-negative integer pattern counts for R = {r}, got {len(values)} values"
        )
    if sum(ints) == 0:
        raise SketchError("empty test: the counts sum to 0")
    return ints


def evaluate_counts_many_labels(
    counts: Sequence[int],
    labels: Sequence[str],
    classifiers: Sequence[str] = ("c0", "c1", "c2"),
    decoding: str = "total_accuracy",
    prevalence_order: Sequence[str] | None = None,
    known_prevalences: Mapping[str, Any] | None = None,
) -> Evaluation:
    r"""Evaluate three classifiers with ``R = len(labels) >= 3`` labels from their ``R^3`` pattern counts.

    Parameters
    ----------
    counts : sequence of int
        Lexicographic pattern order (classifier 0 slowest), as ``Sketch.count_vector()``.
    labels, classifiers : names for the result
    decoding : {"total_accuracy", "prevalence_order", "known_prevalences"}
        ``total_accuracy`` (default): the assignment with the largest summed total accuracy;
        ``prevalence_order``: the labels from most to least prevalent; ``known_prevalences``:
        the assignment closest (L1) to the given prevalences. Giving ``prevalence_order`` or
        ``known_prevalences`` selects its rule.
    prevalence_order : sequence of str, optional
    known_prevalences : mapping label -> rational, optional

    Returns
    -------
    Evaluation
        Every assignment of the hidden labels (``R!`` points, :class:`ResponseEstimate`), the
        chosen one, the partition of each pattern's count by true label, the alarms.
    """
    labels, classifiers = tuple(str(x) for x in labels), tuple(str(x) for x in classifiers)
    r = len(labels)
    if r < 2 or len(set(labels)) != r:
        raise SpecError(f"need at least two distinct label names, got {list(labels)!r}")
    if len(classifiers) != 3 or len(set(classifiers)) != 3:
        raise SpecError(f"need three distinct classifier names, got {list(classifiers)!r}")
    decoding, option = many_label_decoding(decoding, prevalence_order, known_prevalences, labels)
    ints = _counts(counts, r)
    sol = exact_solution_many_labels(ints, r)
    alarms = [
        Alarm(kind, sol.details[kind])
        for kind in ("blind_spot", "complex", "irrational", "outside_unit_cube", "empty_variety")
        if kind in sol.kinds
    ]
    if not sol.defined:
        return Evaluation(
            method="algebraic",
            labels=labels,
            classifiers=classifiers,
            points=(),
            chosen=None,
            partition={},
            alarms=tuple(alarms),
        )
    perms = list(itertools.permutations(range(r)))
    columns = _columns(sol, labels)
    points = tuple(_estimate(columns, perm, labels, classifiers) for perm in perms)
    chosen = _decode(sol, perms, labels, decoding, option)
    if chosen is None:
        alarms.append(Alarm("undecided", DETAIL_UNDECIDED))
        return Evaluation(
            method="algebraic",
            labels=labels,
            classifiers=classifiers,
            points=points,
            chosen=None,
            partition={},
            alarms=tuple(alarms),
        )
    point, perm, q = points[chosen], perms[chosen], sum(ints)
    partition = LazyPartition(labels, lambda: _partition(point, labels, classifiers, q, sol, perm))
    return Evaluation(
        method="algebraic",
        labels=labels,
        classifiers=classifiers,
        points=points,
        chosen=chosen,
        partition=partition,
        alarms=tuple(alarms),
    )


_PERMS: dict[int, list[tuple[int, ...]]] = {}


def _perms(r: int) -> list[tuple[int, ...]]:
    if r not in _PERMS:
        _PERMS[r] = list(itertools.permutations(range(r)))
    return _PERMS[r]


def best_assignment(
    sol: ManyLabelSolution, labels: Sequence[str], decoding: str = "total_accuracy", option: Any = None
) -> tuple[int, ...] | None:
    r"""The decoded assignment ``perm[column] = label index`` of a solution, or ``None`` (undecided).

    ``option`` is the prevalence order (a sequence of label names) or the known prevalences
    (label -> Fraction) for those decodings.
    """
    if not sol.defined:
        return None
    perms = _perms(sol.n_labels)
    chosen = _decode(sol, perms, tuple(labels), decoding, option)
    return None if chosen is None else perms[chosen]
