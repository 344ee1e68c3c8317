r"""The single-classifier axioms and the pair minors, for any number of labels.

For one classifier ``i`` over ``R`` labels the generating set says that each answer's
observed frequency is the prevalence-weighted mean of that answer's rates:
``f_{i,r} = sum_ell P_ell P_{i,r|ell}``. With ``sum_ell P_ell = 1`` this is

.. math::

    A_{i,r} = \sum_\ell P_\ell \, (P_{i,r|\ell} - f_{i,r}) = 0 \qquad (r = 1, \dots, R),

the prevalence-weighted mean of the deviations ``P_{i,r|ell} - f_{i,r}`` is zero for every
answer ``r``. The ``R`` axioms sum to ``1 - sum_r f_{i,r}`` (rows of rates sum to one), so
``R - 1`` of them and ``sum_r f_{i,r} = 1`` carry the same information. For ``R = 2`` the
axiom of answer ``a`` is the single-classifier axiom of *A logical alarm for misaligned
binary classifiers* (eq 10), ``P_a (P_{i,a} - f_{i,a}) - P_b (P_{i,b} - f_{i,b})``, once
``f_a + f_b = 1``. In R-space (counts) the axiom is linear: the items classifier ``i``
answered ``r`` are split by their true labels, ``B_{i,r} = sum_ell R_{i,r|ell} - n_{i,r}``
(the ``R`` of them sum to ``sum_ell Q_ell - sum_r n_{i,r}``). With
``P_ell = Q_ell / Q``, ``P_{i,r|ell} = R_{i,r|ell} / Q_ell``, ``f = n / Q`` and
``Q = sum_ell Q_ell``, ``Q^2 A_{i,r} = Q B_{i,r}``; *A logical alarm*'s eq 11 is
``Q B_{i,a}`` up to a multiple of ``Q - n_a - n_b``.

The axioms say that the prevalence vector ``p`` lies in the kernel of the
``R x R`` matrix ``(P_{i,r|ell} - f_{i,r})_{r, ell}`` of every classifier; its rows sum to
zero, so ``R - 1`` rows per classifier suffice. Stacking those rows of several
classifiers gives a matrix with a non-zero kernel vector, so every ``R x R`` minor
vanishes: these *pair minors* are free of the prevalences. For ``R = 2`` and a pair they
are Theorem 4's pair polynomials ``pi_{i,a} pi_{j,b} - pi_{i,b} pi_{j,a}``
(``pi_{i,ell} = P_{i,ell} - f_{i,ell}``) of *Streaming algorithms for evaluating noisy
judges on unlabeled data - binary classification*, up to sign.

Examples
--------
>>> from evalgebra.spec import EnsembleSpec
>>> from evalgebra.groebner.elimination import evaluation_ideal
>>> ideal = evaluation_ideal(EnsembleSpec(1, 3))
>>> print(ideal.ring.text(classifier_axioms(ideal, 0)[0]))
resp_0_a_b*prev_b - resp_0_a_c*prev_a - resp_0_a_c*prev_b + resp_0_a_c + acc_0_a*prev_a - f_a
>>> len(pair_minors(evaluation_ideal(EnsembleSpec(2, 3)), (0, 1)))
4

References
----------
.. [1] A. Corrada-Emmanuel, A. Parker, S. Bharadwaj, "A logical alarm for misaligned
   binary classifiers": appendix A, eqs 10 and 11 (the single-classifier axiom).
.. [2] A. Corrada-Emmanuel, "Streaming algorithms for evaluating noisy judges on unlabeled
   data - binary classification": Theorem 4 (pair polynomials).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import flint

from evalgebra.errors import SpecError
from evalgebra.groebner.ideal import Ideal
from evalgebra.variables import VariableKey, VariableRegistry

__all__ = ["marginal_observations", "classifier_axioms", "prevalence_matrix", "pair_minors", "values_at"]


def _registry(ideal: Ideal) -> VariableRegistry:
    registry = getattr(ideal, "registry", None)
    if registry is None:
        raise SpecError("the ideal has no registry: build it with evaluation_ideal")
    if registry.spec.n_populations != 1:
        raise SpecError("axioms are stated for one population")
    return registry


def _ring_value(ideal: Ideal) -> tuple[Any, Any]:
    gens = dict(zip(ideal.ring.names, ideal.ring.gens()))
    registry = _registry(ideal)

    def value(key: VariableKey) -> Any:
        name = str(registry.symbol(key))
        if name in gens:
            return gens[name]
        if key.kind == "correlation":  # the axioms do not involve correlations: eliminated ones are fine
            return ideal.ring.q.from_dict({})
        raise SpecError(f"{name} is not a variable of the ring (was it eliminated?)")

    return registry.parametrise(value), gens


def marginal_observations(ideal: Ideal, classifier: int) -> list[Any]:
    r"""``f_{i,r}`` (P-space) or ``n_{i,r}`` (R-space) for every answer ``r``: sums of patterns.

    Examples
    --------
    >>> from evalgebra.spec import EnsembleSpec
    >>> from evalgebra.groebner.elimination import evaluation_ideal
    >>> ideal = evaluation_ideal(EnsembleSpec(2, 2), space="R")
    >>> [ideal.ring.text(p) for p in marginal_observations(ideal, 1)]
    ['n_aa + n_ba', 'n_ab + n_bb']
    """
    registry = _registry(ideal)
    spec = registry.spec
    if not 0 <= classifier < spec.n_classifiers:
        raise SpecError(f"classifier must be in 0..{spec.n_classifiers - 1}, got {classifier}")
    gens = dict(zip(ideal.ring.names, ideal.ring.gens()))
    zero = ideal.ring.q.from_dict({})
    out = [zero] * spec.n_labels
    for key in registry.keys("observed"):
        name = str(registry.symbol(key))
        if name not in gens:
            raise SpecError(f"{name} is not a variable of the ring: axioms need symbolic observations")
        out[key.labels[classifier]] = out[key.labels[classifier]] + gens[name]
    return out


def classifier_axioms(ideal: Ideal, classifier: int) -> list[Any]:
    r"""The ``R`` single-classifier axioms of one classifier, one per answer ``r``.

    P-space: ``sum_ell P_ell (P_{i,r|ell} - f_{i,r})``; R-space:
    ``sum_ell R_{i,r|ell} - n_{i,r}``. Polynomials of
    ``ideal.ring`` (an ideal from :func:`~evalgebra.groebner.elimination.evaluation_ideal`
    with symbolic observations); ``f_{i,r}`` is the marginal of the pattern frequencies.
    """
    par, _ = _ring_value(ideal)
    registry = _registry(ideal)
    marginals = marginal_observations(ideal, classifier)
    weights = par.prevalence[0]
    rows = par.response[classifier]
    r_count = registry.spec.n_labels
    if registry.space == "P":
        return [
            sum(
                (weights[ell] * (rows[ell][r] - marginals[r]) for ell in range(r_count)),
                ideal.ring.q.from_dict({}),
            )
            for r in range(r_count)
        ]
    return [sum((rows[ell][r] for ell in range(r_count)), -marginals[r]) for r in range(r_count)]


def prevalence_matrix(ideal: Ideal, classifiers: Sequence[int]) -> list[list[Any]]:
    r"""Rows ``(P_{i,r|ell} - f_{i,r})_ell`` for ``r < R - 1`` of each classifier (P-space).

    The prevalence vector is a kernel vector of this ``len(classifiers) (R - 1) x R``
    matrix on every evaluation of the test.
    """
    registry = _registry(ideal)
    if registry.space != "P":
        raise SpecError("prevalence_matrix is stated in P-space")
    par, _ = _ring_value(ideal)
    r_count = registry.spec.n_labels
    matrix = []
    for i in classifiers:
        marginals = marginal_observations(ideal, i)
        for r in range(r_count - 1):
            matrix.append([par.response[i][ell][r] - marginals[r] for ell in range(r_count)])
    return matrix


def _determinant(rows: Sequence[Sequence[Any]], zero: Any) -> Any:
    size = len(rows)
    total = zero
    for perm in itertools.permutations(range(size)):
        inversions = sum(1 for a in range(size) for b in range(a + 1, size) if perm[a] > perm[b])
        term = rows[0][perm[0]]
        for k in range(1, size):
            term = term * rows[k][perm[k]]
        total = total - term if inversions % 2 else total + term
    return total


def pair_minors(ideal: Ideal, classifiers: Sequence[int]) -> list[Any]:
    r"""Every ``R x R`` minor of :func:`prevalence_matrix` (rows in order), free of the prevalences.

    They vanish wherever the axioms of the classifiers hold with ``sum_ell P_ell = 1``.
    """
    matrix = prevalence_matrix(ideal, classifiers)
    size = len(matrix[0])
    zero = ideal.ring.q.from_dict({})
    return [
        _determinant([matrix[k] for k in rows], zero)
        for rows in itertools.combinations(range(len(matrix)), size)
    ]


def values_at(ideal: Ideal, point: Any, sketch: Any) -> list[Any]:
    r"""Exact values (``fmpq``) of the ring's variables at an evaluation point and its sketch.

    Unknowns come from ``point.free_values`` (R-space: counts, the point needs its test
    size), observations from the sketch (frequencies in P-space, counts in R-space).
    Use ``poly(*values_at(...))`` to evaluate a polynomial of ``ideal.ring``.
    """
    from evalgebra.builder import GeneratingSet

    registry = _registry(ideal)
    gs = GeneratingSet(registry.spec, registry.space)
    known = {str(registry.symbol(k)): v for k, v in point.free_values(registry.space).items()}
    known.update((str(s), v) for s, v in zip(gs.observables, gs.observed_values(sketch)))
    missing = [n for n in ideal.ring.names if n not in known]
    if missing:
        raise SpecError(f"no value for {missing}")
    return [
        flint.fmpq(Fraction(known[n]).numerator, Fraction(known[n]).denominator) for n in ideal.ring.names
    ]
