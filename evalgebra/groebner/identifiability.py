r"""Identifiability of correlation structures: the evaluation variety in the basic statistics.

For ``R = 2`` labels and a correlation structure ``S`` (the subsets of classifiers whose
error correlations may be non-zero), the *basic statistics* are the prevalence ``P_a``
and the ``2N`` accuracies ``P_{i,a}, P_{i,b}``. Given an observed sketch, the evaluation
points that explain it form a variety; its projection to the basic statistics says how
much the data pins the evaluation down: a finite projection (dimension 0) means finitely
many evaluations are consistent with the data (its degree counts them over the complex
numbers), a positive dimension means a continuum. This module computes that dimension
for every structure, and the degree where the computation finishes.

Method
------
*Dimension (generic, exact linear algebra).* Let ``F(b, c)`` be the model's pattern
frequencies as a function of the basic statistics ``b`` and the free correlations ``c``.
Frequencies are *linear* in ``c`` for fixed ``b`` (``docs/theory.md``, "The generating set"), so the
correlations compatible with one observation and fixed ``b`` form an affine space of
dimension ``n_c - rank dF/dc``. At a generic point the fibre of ``F`` has dimension
``n_b + n_c - rank dF``, and therefore its projection to the basic statistics has dimension

.. math::

    \dim = n_b - \operatorname{rank} dF + \operatorname{rank} \partial F / \partial c .

The ranks are those of exact rational Jacobians at random rational points. A rank can
only drop on a proper subvariety, so the generic rank is the largest rank seen; it is
taken over two random points. This is the dimension of the projection *at a generic
evaluation point* (the component through the truth): local identifiability.

*Gröbner basis (exact, global).* With the observations numeric, the evaluation ideal
(moment coordinates) is rewritten by a polynomial change of variables with polynomial
inverse, so nothing is lost:

* the accuracies through Youden's indices ``J_i = P_{i,a} + P_{i,b} - 1``: with ``m_i``
  the observed frequency of classifier ``i`` answering ``b``, the single-classifier
  generators hold exactly when ``P_{i,a} = 1 + (1 - P_a) J_i - m_i`` and
  ``P_{i,b} = P_a J_i + m_i``, so they are used up and the joint moments depend on
  ``P_a`` and the ``J_i`` only;
* the correlations of each ``T`` in ``S`` through ``G^a_T = (-1)^{|T|} (u_T + P_b w_T)``,
  ``G^b_T = u_T - P_a w_T`` (determinant ``-(-1)^{|T|}``, as in
  :mod:`evalgebra.groebner.containing`): ``u_T`` then enters the generator of ``D_T``
  with coefficient 1 and is solved for.

Both steps are checked on the actual polynomials (the single-classifier generators must
vanish, each pivot must have a constant coefficient) and raise
:class:`~evalgebra.errors.InconsistentIdealError` otherwise. What remains is linear in
the ``w_T``; eliminating them (python-flint, lex, with a time limit) gives the projection
in the coordinates ``(J_i, P_a)``, isomorphic to the projection in the basic statistics.
Its Gröbner dimension is the *global* dimension (every component, also degenerate
ones, e.g. through uninformative classifiers ``J_i = 0``); it is compared with the
Jacobian dimension. For a finite projection the degree is the number of points with
multiplicity; Hermite's trace form on the quotient ring gives the number of distinct
complex points (its rank) and of distinct real points (its signature). For a
positive-dimensional projection the degree is that of its closure in the basic
statistics (a degree-compatible basis after mapping back; the same number of points
is cut out by that many generic hyperplanes).

Examples
--------
Three independent classifiers: finitely many evaluations, two of them (the algebraic
evaluation theorems [2]_, Theorem 2); one correlated pair makes a two-dimensional family.

>>> from evalgebra.spec import EnsembleSpec
>>> row = identifiability(EnsembleSpec(3, 2), seed=0, time_limit=60)
>>> row.dimension, row.groebner_dimension, row.degree, row.points, row.real_points
(0, 0, 2, 2, 2)
>>> projection_dimension(EnsembleSpec(3, 2, [(0, 1)]))
2

Structures to try come from :mod:`evalgebra.structures`, point counts from :mod:`evalgebra.groebner.solving`.

Notes
-----
Code names and the math: ``unknowns = 1 + 2N + 2|S|`` (:meth:`EnsembleSpec.n_free_variables`),
``observables = 2^N - 1``; ``rank`` is ``rank dF`` and ``correlation_rank`` is
``rank dF/dc``; ``correlation_freedom = n_c - rank dF/dc`` is the dimension of the
correlations compatible with the data once the basic statistics are known.

References
----------
.. [1] A. Corrada-Emmanuel, "Streaming algorithms for evaluating noisy judges on unlabeled
   data - binary classification": Theorems 1 and 3 (generating sets), Theorem 4.
.. [2] A. Corrada-Emmanuel, "Algebraic Evaluation Theorems": Theorem 2 (two evaluations
   for three independent classifiers).
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import flint

from evalgebra.builder import GeneratingSet
from evalgebra.errors import InconsistentIdealError, PointError, SpecError
from evalgebra.groebner.coordinates import sketch_moments
from evalgebra.groebner.elimination import eliminate, evaluation_ideal, groebner_basis
from evalgebra.groebner.ideal import Ideal
from evalgebra.groebner.polys import PolyRing
from evalgebra.groebner.runner import GroebnerTimeout
from evalgebra.groebner.solving import point_count, real_point_count
from evalgebra.numbers.seeds import check_seed
from evalgebra.spec import EnsembleSpec
from evalgebra.structures import Structure
from evalgebra.variables import VariableKey, auxiliary_name, free_responses

__all__ = [
    "random_point",
    "jacobian_ranks",
    "projection_dimension",
    "youden_ideal",
    "Identifiability",
    "STATUSES",
    "identifiability",
]


# -- random evaluation points ----------------------------------------------------------------
def _check_binary(spec: EnsembleSpec) -> None:
    if spec.n_labels != 2 or spec.n_populations != 1:
        raise SpecError(
            "Youden coordinates need two labels and one population; "
            f"got R = {spec.n_labels}, {spec.n_populations} population(s)"
        )


def _check_population(spec: EnsembleSpec) -> None:
    if spec.n_populations != 1:
        raise SpecError(f"identifiability handles one population, got {spec.n_populations}")


def _n_basic(spec: EnsembleSpec) -> int:
    """``R - 1`` prevalences and ``N R (R - 1)`` response rates (``1 + 2N`` for ``R = 2``)."""
    r_count = spec.n_labels
    return r_count - 1 + spec.n_classifiers * r_count * (r_count - 1)


def _random_rows(spec: EnsembleSpec, rng: random.Random) -> tuple[dict[str, Any], dict[int, Any]]:
    """Prevalences and response rows for ``R >= 3``: weights ``3..10``, accuracies in ``[11/20, 7/8]``."""
    labels = spec.labels
    weights = [rng.randint(3, 10) for _ in labels]
    prevalence = {lab: Fraction(w, sum(weights)) for lab, w in zip(labels[:-1], weights)}
    response: dict[int, Any] = {}
    for i in range(spec.n_classifiers):
        response[i] = {}
        for truth in labels:
            right = Fraction(rng.randint(22, 35), 40)
            others = [rng.randint(1, 5) for _ in labels[1:]]
            errors = [lab for lab in labels if lab != truth]
            row = {lab: (1 - right) * Fraction(w, sum(others)) for lab, w in zip(errors, others)}
            row[truth] = right
            response[i][truth] = row
    return prevalence, response


def random_point(spec: EnsembleSpec, seed: int = 0, salt: str = "") -> Any:
    r"""A realisable rational evaluation point of a one-population spec, fixed by ``seed``.

    For ``R = 2`` the prevalence is ``k/13`` (``3 <= k <= 10``), the accuracies ``k/40`` in
    ``[11/20, 7/8]``; for ``R >= 3`` the prevalences are proportional to integers in
    ``3..10``, each row's accuracy is ``k/40`` in ``[11/20, 7/8]`` and its errors share the
    rest in proportions ``1..5``. They depend only on ``seed``, ``N``, ``R`` and ``salt``,
    so every structure of one ``N`` shares them. Each correlated subset gets its own
    correlations ``+-k/100`` (``k <= 3``; every free entry of every label), drawn from
    ``(seed, subset)``; they are halved until a labelled test realises the point (every
    per-label pattern frequency is non-negative).

    Examples
    --------
    >>> pt = random_point(EnsembleSpec(3, 2, [(0, 1)]), seed=0)
    >>> pt.prevalence[0][0], pt.correlation_value((0, 1), "a", ("a", "a")) != 0
    (Fraction(3, 13), True)
    """
    from evalgebra.data.point import EvaluationPoint  # runtime objects only describe points here
    from evalgebra.data.simulate import smallest_test_size

    _check_population(spec)
    seed = check_seed(seed, none=False)
    n, r_count = spec.n_classifiers, spec.n_labels
    rng = random.Random(f"evalgebra.identifiability:{seed}:{n}:{salt}")
    if r_count == 2:
        prevalence: dict[str, Any] = {spec.labels[0]: Fraction(rng.randint(3, 10), 13)}
        rates: dict[str, Any] = {
            "accuracy": {i: {lab: Fraction(rng.randint(22, 35), 40) for lab in spec.labels} for i in range(n)}
        }
    else:
        prevalence, response = _random_rows(spec, rng)
        rates = {"response": response}
    correlation: dict[tuple[int, ...], Any] = {}
    for subset in spec.structure:
        sub_rng = random.Random(f"evalgebra.identifiability:{seed}:{n}:{salt}:{subset}")
        if r_count == 2:
            correlation[subset] = {
                lab: Fraction(sub_rng.choice((-3, -2, -1, 1, 2, 3)), 100) for lab in spec.labels
            }
            continue
        correlation[subset] = {
            spec.labels[ell]: {
                tuple(spec.labels[r] for r in free): Fraction(sub_rng.choice((-3, -2, -1, 1, 2, 3)), 100)
                for free in itertools.product(free_responses(ell, r_count), repeat=len(subset))
            }
            for ell in range(r_count)
        }
    scale = Fraction(1)
    for _ in range(40):
        values = {
            t: {
                lab: (v * scale if r_count == 2 else {k: x * scale for k, x in v.items()})
                for lab, v in per.items()
            }
            for t, per in correlation.items()
        }
        point = EvaluationPoint.from_values(spec, prevalence, correlation=values, **rates)
        try:
            smallest_test_size(point)
            return point
        except PointError:
            scale /= 2
    raise PointError("no realisable point found")  # pragma: no cover - correlations shrink to 0


# -- the Jacobian dimension ----------------------------------------------------------------------
def _fmpq(value: Any) -> Any:
    value = Fraction(value)
    return flint.fmpq(value.numerator, value.denominator)


def jacobian_ranks(spec: EnsembleSpec, point: Any) -> tuple[int, int]:
    r"""Ranks of the exact Jacobians ``dF`` and ``dF/dc`` of the pattern frequencies at a point.

    ``F`` maps the free unknowns (registry order: prevalence, accuracies, correlations)
    to the ``2^N`` pattern frequencies; ``c`` are the correlations.

    Examples
    --------
    >>> spec = EnsembleSpec(3, 2, "complete")
    >>> jacobian_ranks(spec, random_point(spec))
    (7, 4)
    """
    _check_population(spec)
    gs = GeneratingSet(spec)
    registry = gs.registry
    variables = registry.variables()
    ctx = flint.fmpq_mpoly_ctx.get(tuple(v.name for v in variables), "degrevlex")
    gens = dict(zip(variables, ctx.gens()))
    one = ctx.from_dict({(0,) * len(variables): 1})
    model = gs.model(lambda key: gens[registry.symbol(key)], one)
    values = point.free_values()
    at = [_fmpq(values[registry.key_of(v)]) for v in variables]
    rows = [[poly.derivative(k)(*at) for k in range(len(variables))] for poly in model]
    n_corr = len(registry.variables(("correlation",)))
    n_basic = len(variables) - n_corr
    full = flint.fmpq_mat(rows).rank()
    partial = flint.fmpq_mat([row[n_basic:] for row in rows]).rank() if n_corr else 0
    return full, partial


def _generic_ranks(spec: EnsembleSpec, seed: int, points: int) -> tuple[int, int]:
    ranks = [
        jacobian_ranks(spec, random_point(spec, seed, salt=f"jacobian{k}" if k else ""))
        for k in range(points)
    ]
    return max(r[0] for r in ranks), max(r[1] for r in ranks)


def projection_dimension(spec: EnsembleSpec, seed: int = 0, points: int = 2) -> int:
    r"""Generic dimension of the evaluation variety projected to the basic statistics.

    ``n_b - rank dF + rank dF/dc`` with the largest ranks seen at ``points`` random
    rational points (:func:`random_point`): the dimension at a generic evaluation point.

    Examples
    --------
    >>> [projection_dimension(EnsembleSpec(n, 2, "complete")) for n in (3, 4)]
    [4, 5]
    """
    full, partial = _generic_ranks(spec, seed, points)
    return _n_basic(spec) - full + partial


# -- the Gröbner projection ------------------------------------------------------------------------
def _linear_pivot(poly: Any, index: int) -> Any | None:
    """The constant coefficient of ``x_index`` when ``poly = c x_index + (free of it)``."""
    if poly.degrees()[index] != 1:
        return None
    coefficient = poly.derivative(index)
    return coefficient.coeffs()[0] if coefficient.is_constant() else None


def youden_ideal(spec: EnsembleSpec, sketch: Any) -> tuple[Ideal, list[str], dict[str, Any]]:
    r"""The evaluation ideal of a sketch in Youden coordinates, correlations reduced to ``w_T``.

    Parameters
    ----------
    spec : EnsembleSpec
        Two labels, one population.
    sketch : Sketch
        The observations (numbers, not symbols).

    Returns
    -------
    ideal : Ideal
        Generators in the lex ring ``(w_T..., J_0, ..., J_{N-1}, prev_a)``; not a basis.
    eliminate : list of str
        The ``w_T`` names, to be eliminated.
    back : dict
        Each basic statistic's name mapped to its polynomial in the lex ring
        ``(J_0, ..., J_{N-1}, prev_a)`` (the ring of the projection).

    Notes
    -----
    See the module docstring: the change of variables has a polynomial inverse, the
    single-classifier generators vanish identically (checked), and every ``u_T`` is
    solved from a generator in which it has a constant coefficient (checked).

    Examples
    --------
    >>> from evalgebra.data.simulate import expected_sketch
    >>> spec = EnsembleSpec(3, 2, [(0, 1)])
    >>> ideal, names, back = youden_ideal(spec, expected_sketch(random_point(spec)))
    >>> ideal.ring.names, names, len(ideal)
    (('w_0_1', 'J_0', 'J_1', 'J_2', 'prev_a'), ['w_0_1'], 3)
    """
    _check_binary(spec)
    n = spec.n_classifiers
    source = evaluation_ideal(
        spec, coordinates="moments", observed=sketch, blocks=("correlation", "accuracy", "prevalence")
    )
    registry = source.registry  # type: ignore[attr-defined]
    moments = {str(k): v for k, v in sketch_moments(sketch).items()}
    subsets = list(spec.structure)
    w_names = [auxiliary_name("w", t) for t in subsets]
    u_names = [auxiliary_name("u", t) for t in subsets]
    j_names = [auxiliary_name("J", (i,)) for i in range(n)]
    prev_name = str(registry.symbol(VariableKey("prevalence", (), (0,), 0)))
    ring = PolyRing(w_names + u_names + j_names + [prev_name], "lex")
    g = dict(zip(ring.names, ring.gens()))
    p = g[prev_name]
    image: dict[str, Any] = {prev_name: p}
    back: dict[str, Any] = {prev_name: p}
    for i in range(n):
        m_i = _fmpq(moments[str(registry.symbol(VariableKey("moment", (i,), (1,), 0)))])
        j_i = g[j_names[i]]
        for ell, value in ((0, 1 + (1 - p) * j_i - m_i), (1, p * j_i + m_i)):
            name = str(registry.symbol(VariableKey("accuracy", (i,), (ell,))))
            image[name] = value
            back[name] = value
    for t, u_name, w_name in zip(subsets, u_names, w_names):
        u, w = g[u_name], g[w_name]
        sign = (-1) ** len(t)
        for ell, value in ((0, sign * (u + (1 - p) * w)), (1, u - p * w)):
            key = VariableKey("correlation", t, (ell,) + (ell,) * len(t))
            image[str(registry.symbol(key))] = value
    mapped = [
        poly.compose(*[image[name] for name in source.ring.names], ctx=ring.q) for poly in source.generators
    ]
    vanished = sum(1 for poly in mapped if not poly.coeffs())
    if vanished != n:
        raise InconsistentIdealError(
            f"Youden substitution: {vanished} generators vanished, expected the {n} single-classifier ones"
        )
    generators = [poly for poly in mapped if poly.coeffs()]
    gens = list(ring.gens())
    for _t, u_name in sorted(zip(subsets, u_names), key=lambda item: (len(item[0]), item[0])):
        k = ring.names.index(u_name)
        pivots = [
            (len(poly.coeffs()), idx)
            for idx, poly in enumerate(generators)
            if _linear_pivot(poly, k) is not None
        ]
        if not pivots:
            raise InconsistentIdealError(f"no generator is linear in {u_name} with a constant coefficient")
        pivot = generators.pop(min(pivots)[1])
        solved = gens[k] - pivot / _linear_pivot(pivot, k)
        images = gens[:k] + [solved] + gens[k + 1 :]
        generators = [poly.compose(*images, ctx=ring.q) for poly in generators]
        generators = [poly for poly in generators if poly.coeffs()]
    keep = PolyRing(w_names + j_names + [prev_name], "lex")
    ideal = Ideal(
        keep,
        [keep.convert(poly, ring) for poly in generators],
        "evaluation ideal in Youden coordinates",
        coordinates="moments",
        is_groebner=False,
    )
    target = PolyRing(j_names + [prev_name], "lex")
    return ideal, w_names, {name: target.convert(poly, ring) for name, poly in back.items()}


# -- one row of the atlas ---------------------------------------------------------------------------
#: ``status`` values of :class:`Identifiability`.
STATUSES = ("ok", "degree timeout", "elimination timeout", "jacobian only")


@dataclass(frozen=True)
class Identifiability:
    r"""What the data pins down for one correlation structure (any ``R``; columns as for ``R = 2``).

    Attributes
    ----------
    n_classifiers : int
    structure : Structure
    unknowns, observables : int
        ``1 + 2N + 2|S|`` free unknowns against ``2^N - 1`` independent observables.
    rank, correlation_rank : int
        Generic ranks of ``dF`` and ``dF/dc`` (see the module docstring).
    dimension : int
        Generic (Jacobian) dimension of the projection to the basic statistics.
    groebner_dimension : int or None
        Dimension of the projection from a Gröbner basis (every component); None when
        not computed.
    degree : int or None
        Degree of the projection in the basic statistics; for a finite projection the
        number of points with multiplicity.
    points, real_points : int or None
        Distinct complex and distinct real points of a finite projection.
    contains_truth : bool or None
        Whether the point that produced the data lies on the computed projection
        (None when the projection was only computed on a slice).
    status : str
        One of :data:`STATUSES`: everything asked for finished, the degree or the
        elimination hit its time limit (what finished is kept), or no Gröbner
        computation was asked for (for ``R >= 3``: or the projection is not finite).
    n_labels : int
        ``R``.
    """

    n_classifiers: int
    structure: Structure
    unknowns: int
    observables: int
    rank: int
    correlation_rank: int
    dimension: int
    groebner_dimension: int | None = None
    degree: int | None = None
    points: int | None = None
    real_points: int | None = None
    contains_truth: bool | None = None
    status: str = "jacobian only"
    n_labels: int = 2

    @property
    def finite(self) -> bool:
        """True when generically finitely many evaluations explain the data."""
        return self.dimension == 0

    @property
    def correlation_freedom(self) -> int:
        """Dimension of the correlations left free once the basic statistics are known."""
        r_count = self.n_labels
        return sum(r_count * (r_count - 1) ** len(t) for t in self.structure) - self.correlation_rank


def identifiability(
    spec: EnsembleSpec,
    seed: int = 0,
    time_limit: float | None = 60.0,
    groebner: bool = True,
    degree: bool = True,
    backend: str | None = None,
) -> Identifiability:
    r"""Dimension and degree of the evaluation variety projected to the basic statistics.

    Parameters
    ----------
    spec : EnsembleSpec
        One population, any number of labels; its structure is the one studied.
    seed : int
        Fixes the random evaluation points (:func:`random_point`).
    time_limit : float or None
        Seconds allowed for each Gröbner computation (None: no limit).
    groebner : bool
        False: the Jacobian dimension only (fast).
    degree : bool
        False: skip the degree of a positive-dimensional projection (often the slowest
        step); finite projections are always counted.
    backend : str, optional
        Gröbner engine. Default: python-flint for ``R = 2``; for ``R >= 3`` the first
        available of msolve, Singular and python-flint.

    Returns
    -------
    Identifiability

    Notes
    -----
    The observations are the exact expected sketch of :func:`random_point`, realised by
    a labelled test (:func:`~evalgebra.data.simulate.expected_sketch`). When the full
    elimination times out on a positive-dimensional case, the Gröbner dimension is
    computed on a slice by ``dimension`` random hyperplanes in ``(J, prev_a)``: a generic
    slice of a variety of dimension ``e`` has dimension ``e - dimension``.

    For ``R >= 3`` the basic statistics are the ``R - 1`` prevalences and the
    ``N R (R - 1)`` free response rates, and only a finite projection is computed: the
    numeric evaluation ideal (raw coordinates) with its correlations eliminated, its points
    counted with multiplicity, distinct and real (:func:`point_count`, :func:`real_point_count`);
    a positive-dimensional one keeps its Jacobian dimension only (status ``jacobian only``).

    Examples
    --------
    >>> row = identifiability(EnsembleSpec(3, 2, "complete"), time_limit=60)
    >>> row.dimension, row.groebner_dimension, row.degree, row.status
    (4, 4, 4, 'ok')
    """
    from evalgebra.data.simulate import expected_sketch

    _check_population(spec)
    seed = check_seed(seed, none=False)
    n = spec.n_classifiers
    full, partial = _generic_ranks(spec, seed, 2)
    fields: dict[str, Any] = dict(
        n_classifiers=n,
        structure=spec.structure,
        unknowns=spec.n_free_variables(),
        observables=spec.n_observables(),
        rank=full,
        correlation_rank=partial,
        dimension=_n_basic(spec) - full + partial,
    )
    if spec.n_labels > 2:
        fields["n_labels"] = spec.n_labels
        if not groebner or fields["dimension"] > 0:
            return Identifiability(**fields)
        return _finite_many_labels(spec, fields, seed, time_limit, backend)
    if not groebner:
        return Identifiability(**fields)
    point = random_point(spec, seed)
    sketch = expected_sketch(point)
    if any(sketch.frequencies().get(p, 0) != f for p, f in point.expected_frequencies().items()):
        raise InconsistentIdealError("the expected sketch does not reproduce the point's frequencies")
    system, names, back = youden_ideal(spec, sketch)
    try:
        projected = eliminate(system, names, time_limit=time_limit, backend=backend or "flint")
    except GroebnerTimeout:
        if fields["dimension"] > 0:
            fields["groebner_dimension"] = _sliced_dimension(
                system, names, fields["dimension"], seed, time_limit
            )
        return Identifiability(**fields, status="elimination timeout")
    registry = GeneratingSet(spec).registry
    truth = {str(registry.symbol(k)): v for k, v in point.free_values().items()}
    at = [
        _fmpq(
            truth[name] if name == "prev_a" else truth[f"acc_{name[2:]}_a"] + truth[f"acc_{name[2:]}_b"] - 1
        )
        for name in projected.ring.names
    ]
    fields["contains_truth"] = all(not poly(*at) for poly in projected.generators)
    fields["groebner_dimension"] = projected.dimension()
    if fields["groebner_dimension"] == 0:
        fields.update(
            degree=point_count(projected, distinct=False),
            points=point_count(projected),
            real_points=real_point_count(projected),
        )
    elif degree:
        try:
            fields["degree"] = _basic_degree(projected, back, time_limit)
        except GroebnerTimeout:
            return Identifiability(**fields, status="degree timeout")
    return Identifiability(**fields, status="ok")


def _sliced_dimension(
    system: Ideal, names: list[str], cut: int, seed: int, time_limit: float | None
) -> int | None:
    """Dimension of the projection from its slice by ``cut`` random hyperplanes (None: timeout)."""
    ring = system.ring
    coordinates = [name for name in ring.names if name not in names]
    if cut >= len(coordinates):
        return None
    rng = random.Random(f"evalgebra.identifiability.slice:{seed}:{ring.names}")
    kept = PolyRing([name for name in ring.names if name not in coordinates[:cut]], "lex")
    g = dict(zip(kept.names, kept.gens()))
    one = kept.q.from_dict({(0,) * kept.nvars: 1})
    free = coordinates[cut:]
    images = [
        g[name]
        if name in g
        else one * rng.randint(-999, 999) + sum((rng.randint(-999, 999) * g[f] for f in free), 0 * one)
        for name in ring.names
    ]
    sliced = Ideal(kept, [poly.compose(*images, ctx=kept.q) for poly in system.generators], is_groebner=False)
    try:
        dim = eliminate(sliced, names, time_limit=time_limit).dimension()
    except GroebnerTimeout:
        return None
    if dim < 0:
        raise InconsistentIdealError("a generic slice of the projection is empty: the slice was not generic")
    return cut + dim


def _basic_degree(projected: Ideal, back: dict[str, Any], time_limit: float | None) -> int:
    """Degree of the projection in the basic statistics, from its ideal in ``(J, prev_a)``.

    The ideal in the basic statistics is generated by the projection's generators with
    ``J_i -> acc_i_a + acc_i_b - 1`` and the graph ``acc -> formula(J, prev_a)``.
    """
    source = projected.ring
    basics = list(back)
    ring = PolyRing(basics, "degrevlex")
    g = dict(zip(basics, ring.gens()))
    prev = source.names[-1]
    images = [g[f"acc_{name[2:]}_a"] + g[f"acc_{name[2:]}_b"] - 1 for name in source.names[:-1]] + [g[prev]]
    generators = [poly.compose(*images, ctx=ring.q) for poly in projected.generators]
    generators += [g[name] - back[name].compose(*images, ctx=ring.q) for name in basics if name != prev]
    return groebner_basis(Ideal(ring, generators, is_groebner=False), time_limit=time_limit).degree()


def _finite_many_labels(
    spec: EnsembleSpec, fields: dict[str, Any], seed: int, time_limit: float | None, backend: str | None
) -> Identifiability:
    """The points of a finite projection for ``R >= 3``: correlations eliminated, points counted."""
    from evalgebra.data.simulate import expected_sketch
    from evalgebra.groebner.backends import available_backends

    engine = backend or next(b for b in ("msolve", "singular", "flint") if b in available_backends())
    point = random_point(spec, seed)
    sketch = expected_sketch(point)
    if any(sketch.frequencies().get(p, 0) != f for p, f in point.expected_frequencies().items()):
        raise InconsistentIdealError("the expected sketch does not reproduce the point's frequencies")
    system = evaluation_ideal(spec, observed=sketch, ordering="degrevlex" if not spec.structure else "lex")
    try:
        if spec.structure:
            projected = eliminate(system, "correlation", backend=engine, time_limit=time_limit)
        else:
            projected = groebner_basis(system, backend=engine, time_limit=time_limit)
    except GroebnerTimeout:
        return Identifiability(**fields, status="elimination timeout")
    registry = GeneratingSet(spec).registry
    truth = {str(registry.symbol(k)): v for k, v in point.free_values().items()}
    at = [_fmpq(truth[name]) for name in projected.ring.names]
    fields["contains_truth"] = all(not poly(*at) for poly in projected.generators)
    fields["groebner_dimension"] = projected.dimension()
    if fields["groebner_dimension"] == 0:
        fields.update(
            degree=point_count(projected, distinct=False),
            points=point_count(projected),
            real_points=real_point_count(projected),
        )
    return Identifiability(**fields, status="ok")
