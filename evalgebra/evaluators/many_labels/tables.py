r"""The count tables of three classifiers with ``R`` labels, as the generated eliminant gives them.

For the roles ``(i, j, k)``: the pair table ``M`` of ``i`` and ``j``, the pair table ``K`` of
``i`` and ``k``, the weighted slice ``S = sum_t w_t N_t`` of the three-way table by ``k``'s
answer, and the coefficients of ``det(lambda M - S)`` (derivation d07; generated in
:mod:`evalgebra.generated.many_labels` for the ``R`` it was generated for, computed here with
python-flint for any other).

Examples
--------
>>> out = count_tables([1] * 27, 3, (0, 1, 2), (0, 1, 2))
>>> out[:4], out[4:7]
([0, 0, 0, 0], [3, 3, 3])
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import flint

from evalgebra.generated import many_labels as generated

__all__ = ["pattern_order", "count_tables"]

_ORDERS: dict[tuple[int, tuple[int, ...]], list[int]] = {}


def pattern_order(r: int, role: tuple[int, ...]) -> list[int]:
    """Index map: the counts with classifiers reordered to ``role`` (``counts[order[p]]``)."""
    key = (r, role)
    if key not in _ORDERS:
        patterns = list(itertools.product(range(r), repeat=3))
        index = {p: k for k, p in enumerate(patterns)}
        _ORDERS[key] = [index[tuple(p[role.index(m)] for m in range(3))] for p in patterns]
    return _ORDERS[key]


def count_tables(counts: Sequence[int], r: int, role: tuple[int, ...], weights: tuple[int, ...]) -> list[Any]:
    """``R + 1`` coefficients of ``det(lambda M - S)`` (constant first), then ``M``, ``K``, ``S`` row by
    row."""
    ordered = counts if role == (0, 1, 2) else [counts[k] for k in pattern_order(r, role)]
    function = getattr(generated, f"eliminant_{r}", None)
    if function is not None:
        return list(function(*ordered, *weights))
    return _tables_any(ordered, r, weights)


def _tables_any(counts: Sequence[int], r: int, weights: tuple[int, ...]) -> list[Any]:
    """The generated function's outputs for an ``R`` it was not generated for (same polynomial:
    ``det(lambda M - S) = det M * charpoly(M^{-1} S)``, or the Berkowitz determinant if ``M`` is singular)."""
    m = [[sum(counts[(a * r + b) * r + t] for t in range(r)) for b in range(r)] for a in range(r)]
    k = [[sum(counts[(a * r + b) * r + t] for b in range(r)) for t in range(r)] for a in range(r)]
    s = [
        [sum(weights[t] * counts[(a * r + b) * r + t] for t in range(r)) for b in range(r)] for a in range(r)
    ]
    mz, sz = flint.fmpz_mat(m), flint.fmpz_mat(s)
    det = mz.det()
    if det != 0:
        char = (flint.fmpq_mat(mz).inv() * flint.fmpq_mat(sz)).charpoly()
        coeffs = [int(c * det) for c in char.coeffs()]
    else:
        coeffs = [0] * (r + 1)
    return [
        *coeffs,
        *(x for row in m for x in row),
        *(x for row in k for x in row),
        *(x for row in s for x in row),
    ]
