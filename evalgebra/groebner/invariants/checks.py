r"""Exact checks of invariants: values at points, Jacobian ranks, dimensions.

The dimension count works in the simplex (``sum f = 1``), an affine space of dimension
``K^N - 1``. At a point ``x`` of the model with parametrisation Jacobian of rank ``m`` (the
model's dimension there), every invariant ``g`` satisfies ``grad g . dF = 0`` (it vanishes
along the model) and, being homogeneous, ``grad g . x = deg(g) g(x) = 0``; since ``x`` does
not lie in the hyperplane ``sum = 0`` of the tangent directions, the invariants' Jacobian has
rank at most ``K^N - 1 - m``. When it reaches that bound, the variety cut out by the
invariants has dimension ``m`` at ``x`` and coincides with the model near ``x`` (Jacobian
criterion): the invariants *cut out the model near generic points*. The ranks are exact
(over the rationals, or modulo a prime for large matrices, which can only lower a rank: a
mod-``p`` rank that reaches the bound proves it).

Examples
--------
>>> from evalgebra.spec import EnsembleSpec
>>> from evalgebra.groebner.invariants.flattenings import flattening_minors
>>> spec = EnsembleSpec(4, 2)
>>> ring, minors = flattening_minors(spec)
>>> x = model_frequencies(spec, seed=1)
>>> all(p(*x) == 0 for p in minors), jacobian_rank(minors, x), model_dimension(spec)
(True, 6, 9)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import flint

from evalgebra.builder import GeneratingSet
from evalgebra.groebner.identifiability import jacobian_ranks, random_point
from evalgebra.numbers.seeds import check_seed
from evalgebra.spec import EnsembleSpec

__all__ = [
    "model_frequencies",
    "random_frequencies",
    "jacobian_rank",
    "model_dimension",
    "fmpq_values",
    "LARGE",
    "PRIME",
]

#: Jacobians with more entries than this are ranked modulo :data:`PRIME` (a lower bound).
LARGE = 200_000
#: A 62-bit prime for the modular ranks.
PRIME = 4611686018427387847


def fmpq_values(values: Sequence[Any]) -> list[Any]:
    """Exact rationals (int, Fraction, str, fmpq) as ``fmpq``.

    Examples
    --------
    >>> fmpq_values([1, "2/3", Fraction(1, 4)])
    [1, 2/3, 1/4]
    """
    out = []
    for v in values:
        if isinstance(v, flint.fmpq):
            out.append(v)
            continue
        f = Fraction(v)
        out.append(flint.fmpq(int(f.numerator), int(f.denominator)))
    return out


def model_frequencies(spec: EnsembleSpec, seed: int = 0) -> list[Any]:
    r"""The pattern frequencies (``fmpq``, pattern order) of a random realisable model point.

    The point is :func:`~evalgebra.groebner.identifiability.random_point` (prevalences,
    response rates and correlations of a labelled test that exists), the frequencies its
    generating set: the exact frequencies of a test of the model.

    Examples
    --------
    >>> sum(model_frequencies(EnsembleSpec(3, 2), seed=4))
    1
    """
    point = random_point(spec, check_seed(seed, none=False), salt="invariants")
    return fmpq_values(GeneratingSet(spec).evaluate(point.free_values()))


def random_frequencies(spec: EnsembleSpec, seed: int = 0) -> list[Any]:
    r"""A random frequency vector of the simplex (``fmpq``): positive integers ``1..100`` normalised.

    Examples
    --------
    >>> x = random_frequencies(EnsembleSpec(2, 2), seed=3)
    >>> len(x), sum(x)
    (4, 1)
    """
    rng = random.Random(f"evalgebra.invariants.random:{check_seed(seed, none=False)}")
    counts = [rng.randint(1, 100) for _ in range(spec.n_responses**spec.n_classifiers)]
    return [flint.fmpq(c, sum(counts)) for c in counts]


def jacobian_rank(polynomials: Sequence[Any], at: Sequence[Any]) -> int:
    r"""Exact rank of the Jacobian of ``polynomials`` (one ring) at the point ``at`` (``fmpq``).

    Large Jacobians (more than :data:`LARGE` entries) are ranked modulo :data:`PRIME` after
    clearing each row's denominators: a lower bound on the rational rank.

    Examples
    --------
    >>> import flint
    >>> ctx = flint.fmpq_mpoly_ctx.get(("x", "y"), "degrevlex")
    >>> x, y = ctx.gens()
    >>> jacobian_rank([x * y, x**2], [flint.fmpq(1), flint.fmpq(2)])
    2
    """
    if not polynomials:
        return 0
    nvars = len(at)
    rows = [[p.derivative(k)(*at) for k in range(nvars)] for p in polynomials]
    if len(rows) * nvars <= LARGE:
        return flint.fmpq_mat(rows).rank()
    scaled = []
    for row in rows:
        den = 1
        for v in row:
            den = den * int(v.q) // _gcd(den, int(v.q))
        scaled.append([int(v * den) % PRIME for v in row])
    return flint.nmod_mat(scaled, PRIME).rank()


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def model_dimension(spec: EnsembleSpec, seed: int = 0, points: int = 2) -> int:
    r"""Dimension of the model: the largest exact rank of the parametrisation's Jacobian.

    At ``points`` random realisable points (:func:`~evalgebra.groebner.identifiability.jacobian_ranks`);
    a lower bound in general, the dimension once the invariants' Jacobian meets it
    (:func:`jacobian_rank`).

    Examples
    --------
    >>> model_dimension(EnsembleSpec(3, 3))
    20
    """
    seed = check_seed(seed, none=False)
    return max(
        jacobian_ranks(spec, random_point(spec, seed, salt=f"invariants-dim{k}"))[0] for k in range(points)
    )
