r"""The identifiability atlas as independent cases: one pair structure per case, any process.

A case is ``(N, structure, seed, time_limit, groebner)``; :func:`atlas_case` computes its
row (:class:`~evalgebra.groebner.identifiability.Identifiability`: the generic dimension from
exact Jacobian ranks, and, when ``groebner``, the Gröbner dimension, degree and point counts,
each Gröbner call under ``time_limit``). The rows do not depend on where or in what order
the cases run, so :func:`~evalgebra.distributed.sweep.run_sweep` spreads them over Dask
workers. :func:`pair_structures` lists every pair structure (graph on ``N`` classifiers) up
to isomorphism.

Examples
--------
>>> len(pair_structures(4)), len(pair_structures(5)), len(pair_structures(6))
(11, 34, 156)
>>> row = atlas_case((3, (), 0, 60.0, False))
>>> row.dimension, row.status
(0, 'jacobian only')
"""

from __future__ import annotations

from typing import Any

__all__ = ["pair_structures", "atlas_case", "case_cost"]


def pair_structures(n_classifiers: int) -> list[tuple[tuple[int, ...], ...]]:
    """Every graph on ``n_classifiers`` classifiers up to isomorphism, as canonical structures."""
    from evalgebra.structures import enumerate_structures

    return list(enumerate_structures(n_classifiers, "graphs"))


def atlas_case(case: tuple[int, Any, int, float | None, bool]) -> Any:
    """The atlas row of one case ``(N, structure, seed, time_limit, groebner)`` (binary labels)."""
    from evalgebra.groebner.identifiability import identifiability
    from evalgebra.spec import EnsembleSpec

    n_classifiers, structure, seed, time_limit, groebner = case
    return identifiability(
        EnsembleSpec(n_classifiers, 2, structure),
        seed=seed,
        time_limit=time_limit,
        groebner=groebner,
        degree=False,
    )


def case_cost(case: tuple[int, Any, int, float | None, bool]) -> float:
    """A rough cost to order cases by: more classifiers and more correlated pairs cost more."""
    n_classifiers, structure = case[0], case[1]
    return float(4**n_classifiers * (1 + len(structure)) * (20 if case[4] else 1))
