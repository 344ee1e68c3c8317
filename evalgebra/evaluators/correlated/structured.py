r"""Exact evaluation of binary classifiers whose errors correlate on a chosen structure.

``evaluate(sketch, structure=...)`` runs :func:`evaluate_structured`. A *structure* names the
subsets ``T`` of classifiers whose error correlations ``G^ell_T`` are free (the rest are zero);
when it is identifiable (finitely many evaluations explain a generic sketch) a generated
module (:mod:`~evalgebra.evaluators.correlated.structure_lookup`) gives, from the pattern counts,

* the *eliminant*: a polynomial whose roots are the prevalences of the first label at the
  points of the evaluation variety, and
* the *back-substitution*: every accuracy and correlation as a rational function of the counts
  and that prevalence.

The real roots are found exactly (:func:`~evalgebra.numbers.symmetric_roots.eliminant_roots`);
an irrational root is carried as a generator of its number field
(:class:`~evalgebra.numbers.quadratic_field.QuadraticElement` for a quadratic, whose other
root gets the conjugate values, else
:class:`~evalgebra.numbers.algebraic_numbers.FieldElement`), so every point is exact.
Each point is checked exactly against the whole generating set,

    n_d = Q sum_ell P_ell sum_{T in S or T = {}} G^ell_T(d_T) prod_{i not in T} P_{i,d_i|ell},

through its equivalent on the counts of the items on which every classifier of a subset answers
``b`` (:mod:`~evalgebra.evaluators.correlated.structured_points`; the same per-label sums give the
partition of each pattern's count by true label), and decoded as the independent evaluator
does: among the points inside the unit cube (all of them when none is), the rational ones
when there are any (the sample statistics of a labelled test are ratios of integers: an
irrational point is the truth of no test), the one whose prevalence lies in
``prevalence_range`` if given, and of those the one with the largest summed total accuracy.

Alarms: ``blind_spot`` (the eliminant vanishes identically, or a denominator of the
back-substitution does at a root: a degenerate sketch), ``complex`` (non-real roots),
``irrational`` (no rational point: on a test whose sample correlations vanish off the
structure the true point is rational and is among the points), ``outside_unit_cube`` (no
point inside the unit cube), ``empty_variety`` (no point reproduces the counts: no evaluation
with this structure explains the sketch), ``undecided``.

Examples
--------
Four classifiers, the first two correlated on both labels, an exact test of 3,744 items:

>>> from evalgebra.spec import EnsembleSpec
>>> from evalgebra.data.point import EvaluationPoint
>>> from evalgebra.data.simulate import expected_sketch
>>> spec = EnsembleSpec(4, 2, structure=[(0, 1)])
>>> truth = EvaluationPoint.from_values(
...     spec, {"a": "4/13"}, accuracy={0: {"a": "3/4", "b": "2/3"}, 1: {"a": "5/6", "b": "3/4"},
...                                    2: {"a": "2/3", "b": "5/6"}, 3: {"a": "3/4", "b": "3/4"}},
...     correlation={(0, 1): {"a": "1/24", "b": "1/36"}})
>>> result = evaluate_structured(expected_sketch(truth).unlabelled(), "0-1")
>>> result.point.prevalence["a"], result.point.correlation[("c0", "c1")], result.alarms
(Fraction(4, 13), {'a': Fraction(1, 24), 'b': Fraction(1, 36)}, ())

References
----------
.. [1] A. Corrada-Emmanuel, "Streaming algorithms for evaluating noisy judges on unlabeled
   data - binary classification": the generating set with correlations (Theorems 1 and 3).
.. [2] A. Corrada-Emmanuel, "Algebraic Evaluation Theorems": irrational evaluations as proof
   that the assumed error structure does not hold.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, cast

import flint

from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError, SpecError
from evalgebra.evaluators.correlated.complete_pairs import CompletePairs, is_complete_pairs
from evalgebra.evaluators.correlated.structure_freedom import correlation_freedom, free_correlations_refusal
from evalgebra.evaluators.correlated.structure_lookup import (
    CACHE_VARIABLE,
    MissingStructureModule,
    StructureMatch,
    find_structure_module,
)
from evalgebra.evaluators.correlated.structured_points import (
    Partition,
    StructuredPoint,
    explains,
    label_terms,
    observed_fractions,
    observed_moments,
    point_estimates,
)
from evalgebra.evaluators.independent.closed_form import TWO_LABEL_DECODINGS, prevalence_bounds
from evalgebra.generated.runtime import Blind
from evalgebra.numbers.algebraic_numbers import AlgebraicNumber, FieldElement
from evalgebra.numbers.quadratic_field import QuadraticElement
from evalgebra.numbers.real_algebraic import as_fmpq
from evalgebra.numbers.symmetric_roots import eliminant_roots
from evalgebra.results import Alarm, Evaluation
from evalgebra.structures import parse_structure, structure_text

__all__ = [
    "evaluate_structured",
    "evaluate_structured_counts",
    "structure_match",
    "exact_points",
    "unknown_key",
]

_NAME = re.compile(r"^(acc|corr)_((?:\d+_)+)([ab])$")


def structure_match(structure: Any, classifiers: Sequence[str], n_labels: int = 2) -> StructureMatch:
    r"""The generated module for a structure on these classifiers (parsed, renamed, looked up).

    Raises
    ------
    SpecError
        An unreadable, empty, non-identifiable or not yet generated structure, or one whose
        correlations the counts leave free (no evaluator derives those yet: the message names an
        independent trio to evaluate instead).
    """
    try:
        parsed = _PARSED.get((structure, tuple(classifiers)))  # text and tuples: parsed once
    except TypeError:  # lists, graphs: parsed every time
        parsed = None
    if parsed is None:
        parsed = parse_structure(structure, classifiers)
        if isinstance(structure, (str, tuple)) and len(_PARSED) < 1024:
            _PARSED[(structure, tuple(classifiers))] = parsed
    if not parsed:
        raise SpecError(
            "structure: the empty structure is the independent one; use structure=None or "
            "'independent' (the algebraic method's own assumption)"
        )
    key = (parsed, len(classifiers), n_labels, os.environ.get(CACHE_VARIABLE))
    if key not in _MATCHES:  # found modules are kept; a refusal is looked up again next time
        try:
            _MATCHES[key] = find_structure_module(parsed, len(classifiers), n_labels)
        except MissingStructureModule as missing:
            if n_labels != 2:
                raise _two_labels_only(parsed, len(classifiers), n_labels) from missing
            if is_complete_pairs(parsed, len(classifiers)):  # no closed form: msolve on each sketch
                _MATCHES[key] = StructureMatch(
                    CompletePairs(),
                    tuple(range(len(classifiers))),
                    parsed,
                    "evalgebra.evaluators.correlated.complete_pairs",
                )
                return _MATCHES[key]
            if correlation_freedom(parsed, len(classifiers)):
                raise free_correlations_refusal(parsed, classifiers) from missing
            raise
    return _MATCHES[key]


def _two_labels_only(structure: tuple[tuple[int, ...], ...], n: int, n_labels: int) -> SpecError:
    return SpecError(
        f"structure {structure_text(structure)} on {n} classifiers with R = {n_labels}: correlated "
        "structures are evaluated for two labels only (the code generator needs R = 2); accepted: "
        f"structure=None, the independent evaluator for {n_labels} labels (leave out --structure on "
        "the command line)"
    )


_MATCHES: dict[tuple[Any, ...], StructureMatch] = {}
_PARSED: dict[tuple[Any, ...], tuple[tuple[int, ...], ...]] = {}


def unknown_key(name: str, match: StructureMatch) -> str | None:
    """A module's registry name (``acc_0_a``, ``corr_0_1_b``) in the user's classifier indices; None
    otherwise.

    >>> from evalgebra.evaluators.correlated.structure_lookup import StructureMatch
    >>> unknown_key("corr_0_1_a", StructureMatch(None, (2, 3, 0, 1), ((2, 3),), "example"))
    'corr_2_3_a'
    """
    found = _NAME.match(name)
    if found is None:
        return None
    kind, members, label = found.groups()
    inverse = match.inverse
    users = sorted(inverse[int(m)] for m in members.strip("_").split("_"))
    return "_".join([kind, *map(str, users), label])


_ROUTES: dict[tuple[int, tuple[int, ...]], dict[str, tuple[str, tuple[int, ...], int]]] = {}


def _routes(names: Any, match: StructureMatch) -> dict[str, tuple[str, tuple[int, ...], int]]:
    """Module name -> (kind, the user's classifiers, label index), once per module and renaming."""
    key = (id(match.module), match.sigma)
    if key not in _ROUTES:
        inverse = match.inverse
        routes = {}
        for name in names:
            found = _NAME.match(name)
            if found is not None:
                kind, members, label = found.groups()
                users = tuple(sorted(inverse[int(m)] for m in members.strip("_").split("_")))
                routes[name] = (kind, users, 0 if label == "a" else 1)
        _ROUTES[key] = routes
    return _ROUTES[key]


def _user_values(
    values: dict[str, Any], match: StructureMatch, n: int
) -> tuple[list[list[Any]], dict[tuple[int, ...], list[Any]]]:
    """The module's named values renamed to the user's classifiers."""
    accuracy: list[list[Any]] = [[None, None] for _ in range(n)]
    correlation: dict[tuple[int, ...], list[Any]] = {}
    routes = _routes(values, match)
    for name, value in values.items():
        route = routes.get(name)
        if route is None:
            continue
        kind, users, ell = route
        if kind == "acc":
            accuracy[users[0]][ell] = value
        else:
            correlation.setdefault(users, [None, None])[ell] = value
    return accuracy, correlation


def _permuted(counts: Sequence[int], match: StructureMatch, n: int) -> list[int]:
    """The counts in the module's classifier order (its classifier ``m`` is the user's ``inverse[m]``)."""
    if match.sigma == tuple(range(n)):
        return list(counts)
    inverse = match.inverse
    out = [0] * len(counts)
    for code, c in enumerate(counts):
        bits = [(code >> (n - 1 - i)) & 1 for i in range(n)]  # user's classifier i, classifier 0 slowest
        out[sum(bits[inverse[m]] << (n - 1 - m) for m in range(n))] = c
    return out


def exact_points(counts: Sequence[int], match: StructureMatch) -> tuple[list[Any], dict[str, str]]:
    r"""Every real point of the module's equations for these counts, exactly, and the alarms found.

    Returns the points (by increasing prevalence; each already checked against the generating
    set: ``fits``) and a dict alarm kind -> detail for ``blind_spot``, ``complex``,
    ``irrational`` and ``empty_variety``.
    """
    n = len(match.sigma)
    module = match.module
    ordered = _permuted(counts, match, n)
    if isinstance(module, CompletePairs):
        return _solved_points(ordered, match, module)
    alarms: dict[str, str] = {}
    # the loader hands out current modules only (their PROTOCOL): moments, eliminant_coefficients,
    # prepare and solve are there; the moments once, for the eliminant and the back-substitution
    moments = module.moments(*ordered)
    raw = module.eliminant_coefficients(*moments)
    coefficients = [c if isinstance(c, (int, flint.fmpz)) else as_fmpq(c) for c in raw]
    while coefficients and coefficients[-1] == 0:
        coefficients.pop()
    if not coefficients:
        alarms["blind_spot"] = (
            "the eliminant vanishes identically: a degenerate sketch (a constant classifier, answers "
            "that do not depend on the truth, or accuracies and correlations so symmetric that "
            "the generated equations leave the prevalence undetermined)"
        )
        return [], alarms
    if len(coefficients) == 1:
        alarms["empty_variety"] = (
            "the eliminant is a nonzero constant: no evaluation with this structure explains the counts"
        )
        return [], alarms
    integral = all(c.__class__ is int or c.__class__ is flint.fmpz for c in coefficients)
    poly = flint.fmpz_poly(cast(list[int], coefficients)) if integral else flint.fmpq_poly(coefficients)
    roots, n_complex = eliminant_roots(poly)  # through s = p (1 - p) when the label swap maps it onto itself
    if n_complex:
        alarms["complex"] = (
            f"{n_complex} of the eliminant's roots (degree {len(coefficients) - 1}) are not real"
            + ("; no real evaluation explains the counts" if not roots else "")
        )
    generators: dict[
        Any, Any
    ] = {}  # one number field, one back-substitution, for the conjugate roots of a factor
    prevalences: list[Any] = []
    fields: list[
        Any
    ] = []  # an irrational root's minimal polynomial (by identity: the roots of one factor share it)
    for root in roots:
        if isinstance(root, AlgebraicNumber):
            key = id(root.poly)  # distinct factors are distinct objects, alive while roots is
            if key not in generators:  # a quadratic's first root (the smaller): -b/2a - sqrt(d)/2a
                generators[key] = (
                    QuadraticElement.root_of(root.poly, root.index)
                    if root.degree == 2
                    else FieldElement.generator(root)
                )
            prevalences.append(generators[key])
            fields.append(key)
        else:
            prevalences.append(flint.fmpq(root.numerator, root.denominator))
            fields.append(None)
    rational = [k for k, p in enumerate(prevalences) if p.__class__ is flint.fmpq]
    twins = {k: j for k in rational for j in rational if j < k and prevalences[j] == 1 - prevalences[k]}
    distinct = list({id(p): p for k, p in enumerate(prevalences) if k not in twins}.values())
    by_id = {
        id(p): values for p, values in zip(distinct, _back_substitute(module, ordered, distinct, moments))
    }
    if any(
        by_id[id(prevalences[j])] is None for j in twins.values()
    ):  # a blind root's mirror: solved, not swapped
        twins = {k: j for k, j in twins.items() if by_id[id(prevalences[j])] is not None}
        missing = [prevalences[k] for k in rational if k not in twins and id(prevalences[k]) not in by_id]
        by_id.update({id(p): v for p, v in zip(missing, _back_substitute(module, ordered, missing, moments))})
    points: list[StructuredPoint] = []
    made: dict[int, StructuredPoint] = {}
    first: dict[Any, StructuredPoint] = {}  # the first point found in each number field
    blind = []
    for k, (root, prevalence, field) in enumerate(zip(roots, prevalences, fields)):
        if k in twins:  # the label swap of a point found: the swapped values, no second back-substitution
            points.append(made[twins[k]].swapped(root))
            continue
        values = by_id[id(prevalence)]
        if values is None:
            blind.append(root)
            continue
        if field is not None and field in first:  # the other root of the field
            point = first[field].conjugated(root) if prevalence.__class__ is QuadraticElement else None
            if point is not None:  # a quadratic: the values with sqrt(d) -> -sqrt(d), made when first read
                points.append(point)
                continue
        accuracy, correlation = _user_values(values, match, n)
        made[k] = point = StructuredPoint(root, prevalence, accuracy, correlation)
        if field is not None and field in first:
            point.conjugate_of = first[field]
        elif field is not None:
            first[field] = point
        points.append(point)
    if blind:
        alarms["blind_spot"] = (
            f"the back-substitution divides by zero at {len(blind)} root(s) of the eliminant "
            f"(P_a = {', '.join(str(float(r))[:8] for r in blind)}): a degenerate sketch"
        )
    observed = _observed(moments, module, match) if moments is not None else None
    if observed is None:
        observed = observed_moments(counts, n)
    fractions = observed_fractions(observed)
    for point in points:
        if point.source is not None:  # the label swap maps the generating set onto itself: same residual
            point.fits = point.source.fits
        elif point.conjugate_of is not None:  # a conjugate root: the same field computation (zero stays zero)
            point.fits = point.conjugate_of.fits
        else:
            point.fits = explains(point, match.structure, n, observed, fractions)
    if points and not any(p.fits for p in points):
        alarms["empty_variety"] = (
            "no point reproduces the counts exactly (the generating set's residual is not zero): "
            "no evaluation with this structure explains the sketch; the points solve the "
            "generated equations only"
        )
    elif roots and not points and not blind:
        alarms.setdefault("empty_variety", "no root of the eliminant extends to a point")
    if any(p.fits for p in points):
        points = [p for p in points if p.fits]
    if points and not any(not isinstance(p.root, AlgebraicNumber) for p in points):
        alarms["irrational"] = (
            "no point is rational: on a test whose classifiers' sample correlations vanish off "
            "the structure the true point is rational, so the errors correlate beyond it"
        )
    return points, alarms


_OBSERVED: dict[tuple[Any, tuple[int, ...]], list[int] | None] = {}


def _observed(moments: Sequence[Any], module: Any, match: StructureMatch) -> list[int] | None:
    """The counts' ``B_T`` in the user's classifier order (bit ``n - 1 - i`` for classifier ``i``), read off
    the module's moments (its ``B_...`` are the same superset sums, in its own classifier order); None when
    the module names no moments. The table depends on the moments' names and the renaming only."""
    names = getattr(module, "MOMENTS", None)
    key = (names, match.sigma)
    if key not in _OBSERVED:
        table = None
        if isinstance(names, tuple) and names and names[0] == "Q":
            n = len(match.sigma)
            where = {name: k for k, name in enumerate(names)}
            inverse = match.inverse
            table = [0]
            for mask in range(1, 1 << n):  # the user's subset, named in the module's classifiers
                members = sorted(m for m in range(n) if (mask >> (n - 1 - inverse[m])) & 1)
                table.append(where.get("B_" + "_".join(map(str, members)), -1))
            table = None if -1 in table else table
        _OBSERVED[key] = table
    table = _OBSERVED[key]
    return None if table is None else [int(moments[k]) for k in table]


def _back_substitute(
    module: Any, ordered: list[int], prevalences: list[Any], moments: Any = None
) -> list[Any]:
    """The module's values (None: a blind spot) at each prevalence, the per-sketch part once, in integers
    (fmpz)."""
    # the module's own parts (its PROTOCOL: every module the loader hands out has them, and its div is
    # evalgebra.generated.runtime.div); prepare's integer polynomials run faster on Python ints (about
    # half the time of fmpz at these sizes), and solve at a rational root gets the same integers as fmpz
    # (exact division into fmpq) (a QuadraticElement takes the Python ints as they are)
    moments = module.moments(*ordered) if moments is None else moments
    integers = module.prepare(*moments)
    prepared = None
    out = []
    for prevalence in prevalences:
        if prevalence.__class__ is not QuadraticElement and prepared is None:
            prepared = tuple(flint.fmpz(x) if x.__class__ is int else x for x in integers)
        try:
            out.append(
                module.solve(integers if prevalence.__class__ is QuadraticElement else prepared, prevalence)
            )
        except Blind:
            out.append(None)
    return out


def _solved_points(
    counts: list[int], match: StructureMatch, module: CompletePairs
) -> tuple[list[Any], dict[str, str]]:
    """The points of a structure solved per sketch; exact points checked exactly, float points to 1e-9 of the
    counts."""
    found, alarms = module.solve(counts)
    q = sum(counts)
    points = []
    for root, prevalence, accuracy, correlation in found:
        point = StructuredPoint(root, prevalence, accuracy, correlation)
        point.terms = label_terms(point, match.structure, len(match.sigma))
        residual = [q * (a + b) - c for a, b, c in zip(point.terms[0], point.terms[1], counts)]
        point.fits = (
            all(r == 0 for r in residual) if root is not None else max(map(abs, residual)) <= 1e-9 * q
        )
        points.append(point)
    if points and not any(p.fits for p in points):
        alarms["empty_variety"] = (
            "no point reproduces the counts: no evaluation with this structure explains the sketch"
        )
    points = [p for p in points if p.fits] or points
    if points and all(p.root is None for p in points):
        alarms["irrational"] = (
            "no point is rational (the points are floats rounded from certified isolating boxes): "
            "on a test whose sample correlations vanish off the structure the true point is "
            "rational, so the errors correlate beyond it"
        )
    return sorted(points, key=lambda p: float(p.prevalence)), alarms


# -- decoding and the result --------------------------------------------------------------------
def _decode(points: list[StructuredPoint], bounds: tuple[Fraction, Fraction] | None) -> int | None:
    # the points inside the unit cube (all of them when none is), of those the rational ones when there are
    # any (only these can be a test's truth); the rational ones are tried first, so that an irrational
    # point is tested against the cube only when no rational point is inside it
    rational = [k for k, p in enumerate(points) if p.is_rational]
    candidates = [k for k in rational if points[k].is_inside()]
    if not candidates:
        candidates = [k for k, p in enumerate(points) if p.is_inside()] or list(range(len(points)))
        candidates = [k for k in candidates if points[k].is_rational] or candidates
    if bounds is not None:
        lo, hi = bounds
        candidates = [k for k in candidates if lo <= points[k].exact(points[k].prevalence) <= hi]
    if not candidates:
        return None
    totals = {k: points[k].total_accuracy() for k in candidates}
    best = max(totals.values())
    winners = [k for k, t in totals.items() if t == best]
    return winners[0] if len(winners) == 1 else None


def _counts(counts: Sequence[Any], n_patterns: int) -> list[int]:
    try:
        values = list(counts)
        if all(c.__class__ is int for c in values):  # the usual case: nothing to convert
            ints, exact = values, True
        else:
            ints = [int(c) for c in values]
            exact = all(c == x for c, x in zip(ints, values))
    except (TypeError, ValueError, OverflowError):
        raise SketchError(f"need {n_patterns} non-negative integer pattern counts, got {counts!r}") from None
    if len(ints) != n_patterns or not exact or (ints and min(ints) < 0):
        raise SketchError(f"need {n_patterns} non-negative integer pattern counts, got {len(values)} values")
    if sum(ints) == 0:
        raise SketchError("empty test: the counts sum to 0")
    return ints


def evaluate_structured_counts(
    counts: Sequence[int],
    structure: Any,
    labels: Sequence[str] = ("a", "b"),
    classifiers: Sequence[str] | None = None,
    decoding: str = "total_accuracy",
    prevalence_range: tuple[Any, Any] | None = None,
) -> Evaluation:
    r"""Evaluate binary classifiers with correlated errors from their ``2^N`` pattern counts alone.

    Parameters
    ----------
    counts : sequence of int
        Pattern order (classifier 0 slowest, ``a`` before ``b``), as ``Sketch.count_vector()``.
    structure : str, iterable of subsets or networkx graph
        The correlated subsets: ``"0-1,2-3"``, ``[(0, 1)]``, names, or a graph.
    labels : two names
    classifiers : names, optional
        Default ``c0 .. c{N-1}``.
    decoding : {"total_accuracy", "prevalence_range"}
    prevalence_range : (low, high), optional
        Rational bounds on the prevalence of the first label; giving it selects that decoding.

    Returns
    -------
    Evaluation
        Every real point (prevalence, accuracies and the structure's correlations, exact),
        the chosen one, the partition by true label, the alarms.

    Raises
    ------
    SpecError
        An unreadable, non-identifiable or not yet generated structure; bad decoding options.
    SketchError
        Counts that are not ``2^N`` non-negative integers.
    """
    labels = tuple(str(x) for x in labels)
    if len(labels) != 2 or labels[0] == labels[1]:
        raise SpecError(f"need two distinct label names, got {list(labels)!r}")
    if classifiers is None:
        classifiers = tuple(f"c{i}" for i in range(max(0, len(counts) - 1).bit_length()))
    classifiers = tuple(str(c) for c in classifiers)
    ints = _counts(counts, 2 ** len(classifiers))
    if not isinstance(decoding, str) or decoding not in TWO_LABEL_DECODINGS:
        raise SpecError(f"unknown decoding {decoding!r}; known: {', '.join(TWO_LABEL_DECODINGS)}")
    if prevalence_range is not None and decoding == "total_accuracy":
        decoding = "prevalence_range"
    bounds = prevalence_bounds(prevalence_range) if decoding == "prevalence_range" else None
    match = structure_match(structure, classifiers, 2)
    return _evaluation(ints, match, labels, classifiers, bounds)


def _evaluation(
    ints: list[int],
    match: StructureMatch,
    labels: tuple[str, ...],
    classifiers: tuple[str, ...],
    bounds: tuple[Fraction, Fraction] | None,
) -> Evaluation:
    n = len(classifiers)
    points, found = exact_points(ints, match)
    estimates = point_estimates(points, labels, classifiers)
    if points and not (
        any(p.is_inside() for p in points if p.is_rational)  # the rational points first
        or any(p.is_inside() for p in points if not p.is_rational)
    ):
        found["outside_unit_cube"] = (
            f"none of the {len(estimates)} point(s) lies in the unit cube (a prevalence or "
            "accuracy outside [0, 1])"
        )
    chosen = _decode(points, bounds) if points else None
    if estimates and chosen is None:
        found["undecided"] = (
            "the decoding rule chooses no point (an exact tie in summed total accuracy, or no point "
            "in the prevalence range)"
        )
    alarms = tuple(
        Alarm(kind, f"structure {structure_text(match.structure)}: {found[kind]}")
        for kind in ("blind_spot", "complex", "irrational", "outside_unit_cube", "empty_variety", "undecided")
        if kind in found
    )
    partition: Mapping[str, Any] = (
        {} if chosen is None else Partition(points[chosen], labels, n, sum(ints), match.structure)
    )
    assumed = ",".join("-".join(classifiers[i] for i in subset) for subset in match.structure)
    return Evaluation(
        method="algebraic",
        labels=labels,
        classifiers=classifiers,
        points=tuple(estimates),
        chosen=chosen,
        partition=partition,
        alarms=alarms,
        structure=assumed,
    )


def evaluate_structured(
    sketch: Sketch,
    structure: Any,
    decoding: str = "total_accuracy",
    prevalence_range: tuple[Any, Any] | None = None,
) -> Evaluation:
    r"""Evaluate a sketch of binary classifiers whose errors may correlate on ``structure``.

    Parameters
    ----------
    sketch : Sketch
        Two labels; truth and populations are ignored (pooled).
    structure : str, iterable of subsets or networkx graph
        ``"0-1,2-3"`` (indices or names), ``[(0, 1), ("c2", "c3")]`` or an undirected graph.
    decoding, prevalence_range
        As for the independent evaluator
        (:func:`~evalgebra.evaluators.independent.closed_form.evaluate_counts`).

    Returns
    -------
    Evaluation
        See :func:`evaluate_structured_counts`.

    Raises
    ------
    SpecError
        A structure that is not identifiable (the message names the dimension of the family of
        evaluations), has no generated evaluator (the message says how to generate one), or a
        sketch with more than two labels and no module for them.
    """
    if not isinstance(sketch, Sketch):
        raise SketchError(f"the structured evaluator needs a Sketch, got {type(sketch).__name__}")
    labels, classifiers = tuple(sketch.labels), tuple(sketch.classifiers)
    if sketch.n_labels != 2:  # refused: not identifiable (the atlas's dimension), else two labels only
        match = structure_match(structure, classifiers, sketch.n_labels)
        raise _two_labels_only(match.structure, len(classifiers), sketch.n_labels)
    pooled = sketch.pooled().unlabelled() if sketch.is_labelled or len(sketch.populations) > 1 else sketch
    return evaluate_structured_counts(
        pooled.count_vector().tolist(), structure, labels, classifiers, decoding, prevalence_range
    )
