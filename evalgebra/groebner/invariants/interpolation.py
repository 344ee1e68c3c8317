r"""Invariants found by interpolation on exact model points, then proved by substitution.

A homogeneous polynomial ``g`` of degree ``d`` in the pattern frequencies vanishes on the
model exactly when it vanishes on the model's cone, and the space of such ``g`` is the
null space of the matrix of degree-``d`` monomials evaluated at points of the model.
Evaluated at finitely many points the null space can only be *larger* than the true space,
never smaller: so an empty null space **proves** there is no invariant of that degree, and
every candidate it yields is then **proved** (or rejected) by substituting a
parametrisation of the model and expanding to the zero polynomial
(:func:`vanishes_on_model`).

The search is split by a grading. The model's cone is ``{sum_ell w_ell v_{U,ell} (x)
(x)_{i not in U} v_{i,ell}}`` (``U`` the correlated classifiers; the same factorisation as
in :mod:`~evalgebra.groebner.invariants.flattenings`), and it is unchanged when the
coordinates of one free classifier ``i`` (and of ``U`` when every subset of ``U`` may
correlate, so that ``v_{U,ell}`` is any vector) are rescaled one response at a time. Its
ideal is therefore graded by how often each response of each such classifier occurs in a
monomial, and each graded piece is interpolated on its own (a few dozen monomials instead
of thousands).

Examples
--------
>>> from evalgebra.spec import EnsembleSpec
>>> found = interpolate(EnsembleSpec(3, 2), 2)        # three binary classifiers: none of degree 2
>>> found
[]
>>> ring, quartics = observed_ring(EnsembleSpec(3, 3)), interpolate(EnsembleSpec(3, 3), 3)
>>> len(quartics)                                     # nor of degree 3 with three labels
0

References
----------
.. [1] E. S. Allman, C. Matias, J. A. Rhodes, "Identifiability of parameters in latent
   structure models with many observed variables", Annals of Statistics 37 (2009).
.. [2] J. M. Landsberg, "Tensors: Geometry and Applications", AMS (2012): secant varieties
   of Segre products, their equations and the torus action.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import flint

from evalgebra.builder import GeneratingSet
from evalgebra.errors import SpecError
from evalgebra.groebner.invariants.checks import PRIME  # the modular ranks of degree_bounds too
from evalgebra.groebner.invariants.flattenings import correlated_classifiers, observed_ring
from evalgebra.groebner.polys import PolyRing
from evalgebra.numbers.seeds import check_seed
from evalgebra.spec import EnsembleSpec

__all__ = [
    "grading_blocks",
    "multidegree",
    "interpolate",
    "model_points",
    "vanishes_on_model",
    "degree_bounds",
]

#: Extra points beyond the number of monomials of a graded piece.
MARGIN = 6


def grading_blocks(spec: EnsembleSpec) -> list[tuple[int, ...]]:
    r"""The groups of classifiers whose joint responses grade the model's ideal.

    Each classifier outside every correlated subset is a group; the correlated classifiers
    ``U`` form one more group when the structure holds every subset of ``U`` with two or
    more members (their joint response distribution is then free), and none otherwise.

    Examples
    --------
    >>> grading_blocks(EnsembleSpec(4, 2, [(0, 1)]))
    [(0, 1), (2,), (3,)]
    >>> grading_blocks(EnsembleSpec(4, 2, [(0, 1), (1, 2)]))   # (0, 2) and (0, 1, 2) missing
    [(3,)]
    """
    together = correlated_classifiers(spec)
    blocks = [(i,) for i in range(spec.n_classifiers) if i not in together]
    if together:
        needed = {t for size in range(2, len(together) + 1) for t in itertools.combinations(together, size)}
        if needed <= set(spec.structure):
            blocks.append(together)
    return sorted(blocks)


def multidegree(spec: EnsembleSpec, exponents: Sequence[int]) -> tuple[int, ...]:
    """The grading of a monomial (exponents in pattern order): response counts per block.

    Examples
    --------
    >>> multidegree(EnsembleSpec(2, 2), (1, 0, 0, 1))      # f_aa * f_bb
    (1, 1, 1, 1)
    """
    return _grader(spec)(exponents)


def _grader(spec: EnsembleSpec) -> Any:
    k, n = spec.n_responses, spec.n_classifiers
    patterns = list(itertools.product(range(k), repeat=n))
    blocks = grading_blocks(spec)
    offsets, size = [], 0
    for block in blocks:
        offsets.append(size)
        size += k ** len(block)
    cells = []
    for pattern in patterns:
        row = []
        for block, offset in zip(blocks, offsets):
            state = 0
            for i in block:
                state = state * k + pattern[i]
            row.append(offset + state)
        cells.append(row)

    def grade(exponents: Sequence[int]) -> tuple[int, ...]:
        out = [0] * size
        for index, e in enumerate(exponents):
            if e:
                for cell in cells[index]:
                    out[cell] += e
        return tuple(out)

    return grade


def model_points(spec: EnsembleSpec, count: int, seed: int = 0) -> list[list[int]]:
    r"""Integer points of the model's Zariski closure: the generating set at integer unknowns.

    The generating set is polynomial in its unknowns, so integer prevalences, response
    rates and correlations (in ``-9..9``, not probabilities) give integer pattern
    "frequencies" that still sum to 1: points of the same irreducible variety as the
    probability model, where any invariant must vanish too.

    Examples
    --------
    >>> point = model_points(EnsembleSpec(2, 2), 1)[0]
    >>> len(point), sum(point)
    (4, 1)
    """
    seed = check_seed(seed, none=False)
    gs = GeneratingSet(spec)
    variables = gs.variables
    rng = random.Random(f"evalgebra.invariants.points:{seed}:{spec.n_classifiers}:{spec.n_labels}")
    points = []
    for _ in range(count):
        values = {v: rng.randint(-9, 9) for v in variables}
        frequencies = gs.evaluate(values)
        points.append([int(Fraction(x)) for x in frequencies])
    return points


def _pieces(spec: EnsembleSpec, degree: int) -> dict[tuple[int, ...], list[tuple[int, ...]]]:
    nvars = spec.n_responses**spec.n_classifiers
    grade = _grader(spec)
    pieces: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for combo in itertools.combinations_with_replacement(range(nvars), degree):
        exps = [0] * nvars
        for index in combo:
            exps[index] += 1
        key = tuple(exps)
        pieces.setdefault(grade(key), []).append(key)
    return pieces


def interpolate(spec: EnsembleSpec, degree: int, seed: int = 0) -> list[Any]:
    r"""A basis of the degree-``degree`` polynomials vanishing at random exact model points.

    Candidates only: the space found contains every invariant of that degree (so an empty
    answer proves there is none) and equals it unless the points were unlucky; prove each
    with :func:`vanishes_on_model`. Each graded piece gets ``monomials + MARGIN`` points;
    the basis is the reduced row echelon form of the null space (monomials in the ring's
    degrevlex order), scaled to primitive integer polynomials, pieces in sorted order.

    Returns
    -------
    list of fmpq_mpoly
        In the ring of :func:`~evalgebra.groebner.invariants.flattenings.observed_ring`.

    Examples
    --------
    >>> ring = observed_ring(EnsembleSpec(4, 2))
    >>> cubics = interpolate(EnsembleSpec(4, 2), 3)
    >>> len(cubics), {p.total_degree() for p in cubics}
    (32, {3})
    """
    if degree < 1:
        raise SpecError(f"degree must be at least 1, got {degree}")
    ring = observed_ring(spec)
    pieces = _pieces(spec, degree)
    largest = max(len(m) for m in pieces.values())
    points = model_points(spec, largest + MARGIN, seed)
    found = []
    for key in sorted(pieces):
        monomials = _ordered(ring, pieces[key])
        rows = [[_monomial_value(m, point) for m in monomials] for point in points[: len(monomials) + MARGIN]]
        basis, nullity = flint.fmpz_mat(rows).nullspace()
        if not nullity:
            continue
        vectors = flint.fmpq_mat([[basis[r, c] for r in range(len(monomials))] for c in range(nullity)])
        reduced, rank = vectors.rref()
        for r in range(rank):
            terms = {monomials[c]: reduced[r, c] for c in range(len(monomials)) if reduced[r, c] != 0}
            found.append(ring.rational(ring.primitive(ring.q.from_dict(terms))))
    return found


def _ordered(ring: PolyRing, monomials: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Monomials in the ring's ordering, largest first."""
    probe = ring.q.from_dict({m: 1 for m in monomials})
    return list(probe.monoms())


def _monomial_value(exponents: Sequence[int], point: Sequence[int]) -> int:
    value = 1
    for x, e in zip(point, exponents):
        if e:
            value *= x**e
    return value


def _cone(spec: EnsembleSpec) -> tuple[Any, list[Any]]:
    r"""A parametrisation whose image contains the model: ``p_d = sum_ell w_ell
    pi_{U,ell}(d_U) prod_{i not in U} v_{i,ell,d_i}``, the block distribution ``pi_{U,ell}``
    from the generating set of the correlated classifiers ``U`` (none when ``U`` is empty)."""
    n, k, r_count = spec.n_classifiers, spec.n_responses, spec.n_labels
    together = correlated_classifiers(spec)
    free = [i for i in range(n) if i not in together]
    names = [f"w_{ell}" for ell in range(r_count)]
    names += [f"v_{i}_{ell}_{r}" for i in free for ell in range(r_count) for r in range(k)]
    block_gs = GeneratingSet(spec.restrict(together)) if together else None
    block_vars = [str(v) for v in block_gs.variables if not str(v).startswith("prev")] if block_gs else []
    ctx = flint.fmpz_mpoly_ctx.get(tuple(names + block_vars), "degrevlex")
    gens = dict(zip(names + block_vars, ctx.gens()))
    one = ctx.from_dict({(0,) * len(gens): 1})
    block: list[dict[tuple[int, ...], Any]] = []
    if block_gs is not None:
        registry = block_gs.registry
        for ell in range(r_count):
            # the block's distribution given truth ell: the generating set at prevalence e_ell
            def value(key: Any, ell: int = ell) -> Any:
                if key.kind == "prevalence":
                    return one if key.labels[0] == ell else 0 * one
                return gens[str(registry.symbol(key))]

            model = block_gs.model(value, one)
            block.append({pattern: poly for (_, pattern), poly in zip(block_gs.patterns, model)})
    images = []
    for pattern in itertools.product(range(k), repeat=n):
        total = 0 * one
        for ell in range(r_count):
            term = gens[f"w_{ell}"] * (block[ell][tuple(pattern[i] for i in together)] if together else one)
            for i in free:
                term = term * gens[f"v_{i}_{ell}_{pattern[i]}"]
            total = total + term
        images.append(total)
    return ctx, images


def vanishes_on_model(spec: EnsembleSpec, polynomials: Sequence[Any]) -> list[bool]:
    r"""For each polynomial, whether it is zero after substituting a parametrisation of the model.

    The parametrisation (``w_ell`` and ``v_{i,ell,r}`` free, ``U``'s joint distribution from
    its own generating set) contains every point of the model: with ``w_ell = P_ell`` and
    ``v_{i,ell,r} = P_{i,r|ell}`` it *is* the generating set, because the correlations of
    the structure live inside ``U``. So ``True`` is a proof that the polynomial vanishes on
    the whole model; ``False`` that it does not vanish on the parametrised cone (for a
    homogeneous polynomial, equivalently not on the model).

    Examples
    --------
    >>> ring, minors = observed_ring(EnsembleSpec(4, 2)), interpolate(EnsembleSpec(4, 2), 3)
    >>> all(vanishes_on_model(EnsembleSpec(4, 2), minors[:3]))
    True
    >>> ring = observed_ring(EnsembleSpec(2, 2))
    >>> vanishes_on_model(EnsembleSpec(2, 2), [ring.parse("f_aa*f_bb - f_ab*f_ba")])
    [False]
    """
    ctx, images = _cone(spec)
    out = []
    for poly in polynomials:
        integral = observed_ring(spec).primitive(poly)
        out.append(not integral.compose(*images, ctx=ctx).coeffs())
    return out


def degree_bounds(
    spec: EnsembleSpec, degree: int, generators: Sequence[Any], seed: int = 0
) -> tuple[int, int]:
    r"""Bounds ``(lower, upper)`` on the dimension of the model's ideal in one degree.

    ``upper`` is the null space dimension of the monomials evaluated at exact model points
    (ranked modulo a prime, which can only lower the rank, so it stays an upper bound);
    ``lower`` is the dimension of the span of the proved ``generators`` times monomials in
    that degree (ranked modulo the prime too: a lower bound). When they meet, the generators
    span the whole ideal in that degree: **proved**, graded piece by graded piece.

    Examples
    --------
    >>> spec = EnsembleSpec(4, 2)
    >>> cubics = interpolate(spec, 3)
    >>> degree_bounds(spec, 4, cubics)                      # the cubics generate degree 4
    (434, 434)
    """
    ring = observed_ring(spec)
    grade = _grader(spec)
    pieces = _pieces(spec, degree)
    multiples: dict[tuple[int, ...], list[dict[tuple[int, ...], int]]] = {}
    for g in generators:
        integral = ring.primitive(g)
        terms = dict(zip(integral.monoms(), (int(c) for c in integral.coeffs())))
        gap = degree - integral.total_degree()
        if gap < 0:
            continue
        for combo in itertools.combinations_with_replacement(range(ring.nvars), gap):
            shift = [0] * ring.nvars
            for k in combo:
                shift[k] += 1
            product = {tuple(a + b for a, b in zip(m, shift)): c for m, c in terms.items()}
            multiples.setdefault(grade(next(iter(product))), []).append(product)
    largest = max(len(m) for m in pieces.values())
    points = [[x % PRIME for x in point] for point in model_points(spec, largest + MARGIN, seed)]
    lower = upper = 0
    for key, monomials in pieces.items():
        rows = [[_monomial_mod(m, point) for m in monomials] for point in points[: len(monomials) + MARGIN]]
        upper += len(monomials) - flint.nmod_mat(rows, PRIME).rank()
        if key in multiples:
            index = {m: k for k, m in enumerate(monomials)}
            coefficient_rows = []
            for product in multiples[key]:
                row = [0] * len(monomials)
                for m, c in product.items():
                    row[index[m]] = c % PRIME
                coefficient_rows.append(row)
            lower += flint.nmod_mat(coefficient_rows, PRIME).rank()
    return lower, upper


def _monomial_mod(exponents: Sequence[int], point: Sequence[int]) -> int:
    value = 1
    for x, e in zip(point, exponents):
        if e:
            value = value * pow(x, e, PRIME) % PRIME
    return value
