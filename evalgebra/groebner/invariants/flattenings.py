r"""Flattenings of the pattern-frequency tensor and their minors: invariants proved by rank.

The observed frequencies of ``N`` classifiers form a tensor ``f[d_0, ..., d_{N-1}]`` with
``K`` responses per axis. Split the classifiers in two groups ``A | B`` and arrange it as a
``K^|A| x K^|B|`` matrix (the *flattening*). Conditionally on the true label ``ell`` the
model's pattern distribution is ``pi_ell(d)``; when every correlated subset of the structure
lies inside ``A`` (or every one inside ``B``) it factorises as
``pi_ell(d) = pi_{A,ell}(d_A) prod_{i in B} P_{i,d_i|ell}``, so the flattening is

.. math::

    F_{A|B} = \sum_{\ell} P_\ell\, \pi_{A,\ell} \otimes \pi_{B,\ell},

a sum of ``R`` rank-one matrices: its rank is at most ``R`` and every ``(R+1)``-minor
vanishes on the whole model. That is the proof (valid for every point of the model, not
only generic ones); :func:`valid_bipartitions` lists the splits it applies to.

The condition matters: with correlated subsets on both sides the generating set keeps only
the correlations of its structure (the joint correlation of two correlated pairs is zero,
not their product), so ``pi_ell`` does not factorise and the flattening can have full rank.

Examples
--------
>>> from evalgebra.spec import EnsembleSpec
>>> spec = EnsembleSpec(4, 2)
>>> valid_bipartitions(spec)[:2]
[((0,), (1, 2, 3)), ((0, 1), (2, 3))]
>>> ring, minors = flattening_minors(spec)
>>> len(minors), ring.text(minors[0])[:46]
(48, 'f_aaba*f_abab*f_baaa - f_aaab*f_abba*f_baaa - ')

References
----------
.. [1] E. S. Allman, C. Matias, J. A. Rhodes, "Identifiability of parameters in latent
   structure models with many observed variables", Annals of Statistics 37 (2009): the
   latent class model as a secant variety and its flattenings.
.. [2] A. Corrada-Emmanuel, "Streaming algorithms for evaluating noisy judges on unlabeled
   data - binary classification", arXiv:2306.01726: the generating set (Theorems 1 and 3).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from evalgebra.errors import SpecError
from evalgebra.groebner.polys import PolyRing
from evalgebra.spec import EnsembleSpec
from evalgebra.variables import VariableRegistry

__all__ = [
    "observed_ring",
    "correlated_classifiers",
    "valid_bipartitions",
    "flattening_matrix",
    "flattening_minors",
    "minors_with_sources",
    "Minor",
]


def _check(spec: EnsembleSpec) -> None:
    if spec.n_populations != 1:
        raise SpecError(
            f"model invariants are derived for one population, got {spec.n_populations}: "
            "pass spec.with_structure(...) of a one-population EnsembleSpec"
        )


def observed_ring(spec: EnsembleSpec) -> PolyRing:
    """The polynomial ring of the observed pattern frequencies (``f_aab``), in pattern order.

    Examples
    --------
    >>> observed_ring(EnsembleSpec(2, 2)).names
    ('f_aa', 'f_ab', 'f_ba', 'f_bb')
    """
    _check(spec)
    return PolyRing([str(s) for s in VariableRegistry(spec).observables()], "degrevlex")


def correlated_classifiers(spec: EnsembleSpec) -> tuple[int, ...]:
    """Every classifier that belongs to some correlated subset of the structure, sorted.

    Examples
    --------
    >>> correlated_classifiers(EnsembleSpec(4, 2, [(0, 1), (1, 3)]))
    (0, 1, 3)
    """
    return tuple(sorted({i for subset in spec.structure for i in subset}))


def valid_bipartitions(spec: EnsembleSpec) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    r"""The splits ``A | B`` whose flattening has rank at most ``R`` on the whole model.

    Every correlated classifier on one side (``A``, the side holding classifier 0 when no
    classifier correlates), each split listed once, smaller ``A`` first, then by ``A``.

    Examples
    --------
    >>> valid_bipartitions(EnsembleSpec(3, 2))
    [((0,), (1, 2)), ((0, 1), (2,)), ((0, 2), (1,))]
    >>> valid_bipartitions(EnsembleSpec(4, 2, [(0, 1)]))
    [((0, 1), (2, 3)), ((0, 1, 2), (3,)), ((0, 1, 3), (2,))]
    """
    _check(spec)
    n = spec.n_classifiers
    together = set(correlated_classifiers(spec))
    found = []
    for size in range(1, n):
        for side in itertools.combinations(range(n), size):
            rest = tuple(i for i in range(n) if i not in side)
            if together and not together <= set(side):
                continue
            if not together and 0 not in side:
                continue
            found.append((side, rest))
    return sorted(found, key=lambda split: (len(split[0]), split[0]))


def flattening_matrix(spec: EnsembleSpec, rows: Sequence[int], columns: Sequence[int]) -> list[list[int]]:
    r"""Indices (in the pattern order of :func:`observed_ring`) of the ``rows | columns`` flattening.

    Entry ``[u][v]`` is the pattern whose responses are ``u`` on ``rows`` and ``v`` on
    ``columns`` (both read as base-``K`` numbers, first classifier most significant).

    Examples
    --------
    >>> flattening_matrix(EnsembleSpec(2, 2), [0], [1])
    [[0, 1], [2, 3]]
    """
    n, k = spec.n_classifiers, spec.n_responses
    if sorted([*rows, *columns]) != list(range(n)) or not rows or not columns:
        raise SpecError(
            f"rows {list(rows)} and columns {list(columns)} must split the classifiers 0..{n - 1}"
        )
    matrix = []
    for u in itertools.product(range(k), repeat=len(rows)):
        row = []
        for v in itertools.product(range(k), repeat=len(columns)):
            pattern = [0] * n
            for i, r in zip(rows, u):
                pattern[i] = r
            for i, r in zip(columns, v):
                pattern[i] = r
            index = 0
            for r in pattern:
                index = index * k + r
            row.append(index)
        matrix.append(row)
    return matrix


@dataclass(frozen=True)
class Minor:
    """Where one flattening minor comes from: the split and the chosen rows and columns.

    Examples
    --------
    >>> Minor((0, 1), (2, 3), (0, 1, 2), (0, 1, 3)).describe()
    'flattening 0 1 | 2 3, rows (0, 1, 2), columns (0, 1, 3)'
    """

    rows: tuple[int, ...]
    columns: tuple[int, ...]
    row_indices: tuple[int, ...]
    column_indices: tuple[int, ...]

    def describe(self) -> str:
        """``flattening 0 1 | 2 3, rows (0, 1, 2), columns (0, 1, 3)``."""
        return (
            f"flattening {' '.join(map(str, self.rows))} | {' '.join(map(str, self.columns))}, "
            f"rows {self.row_indices}, columns {self.column_indices}"
        )


def _signed_permutations(size: int) -> list[tuple[tuple[int, ...], int]]:
    out = []
    for perm in itertools.permutations(range(size)):
        inversions = sum(1 for a, b in itertools.combinations(perm, 2) if a > b)
        out.append((perm, (-1) ** inversions))
    return out


def _determinant(ring: PolyRing, entries: list[list[int]], signs: list[tuple[tuple[int, ...], int]]) -> Any:
    """The determinant of a matrix of variables (given by index), term by term (Leibniz)."""
    terms: dict[tuple[int, ...], int] = {}
    zero = [0] * ring.nvars
    for perm, sign in signs:
        exps = list(zero)
        for r, c in enumerate(perm):
            exps[entries[r][c]] += 1
        key = tuple(exps)
        terms[key] = terms.get(key, 0) + sign
    return ring.q.from_dict({m: c for m, c in terms.items() if c})


def flattening_minors(spec: EnsembleSpec, size: int | None = None) -> tuple[PolyRing, list[Any]]:
    r"""Every ``(R+1)``-minor of every valid flattening, distinct and non-zero.

    Parameters
    ----------
    spec : EnsembleSpec
        One population; any structure (the valid splits follow it).
    size : int, optional
        Minor size, default ``R + 1`` (the smallest that vanishes on the model).

    Returns
    -------
    (ring, minors)
        The ring of :func:`observed_ring` and the minors as ``fmpq_mpoly``, in the order of
        the splits (:func:`valid_bipartitions`) then of the row and column choices; a minor
        equal to an earlier one up to sign is dropped. :func:`minors_with_sources` also
        tells where each comes from.

    Examples
    --------
    >>> ring, minors = flattening_minors(EnsembleSpec(4, 2, [(0, 1)]))
    >>> len(minors), {p.total_degree() for p in minors}
    (16, {3})
    """
    return observed_ring(spec), minors_with_sources(spec, size)[0]


def minors_with_sources(spec: EnsembleSpec, size: int | None = None) -> tuple[list[Any], list[Minor]]:
    """The polynomials of :func:`flattening_minors` and where each comes from, in the same order.

    Examples
    --------
    >>> polys, sources = minors_with_sources(EnsembleSpec(4, 2))
    >>> sources[0].describe()
    'flattening 0 1 | 2 3, rows (0, 1, 2), columns (0, 1, 2)'
    """
    ring = observed_ring(spec)
    size = spec.n_labels + 1 if size is None else size
    if size < 1:
        raise SpecError(f"minor size must be at least 1, got {size}")
    polys: list[Any] = []
    sources: list[Minor] = []
    seen: set[str] = set()
    signs = _signed_permutations(size)
    for rows, columns in valid_bipartitions(spec):
        matrix = flattening_matrix(spec, rows, columns)
        if min(len(matrix), len(matrix[0])) < size:
            continue
        for chosen_rows in itertools.combinations(range(len(matrix)), size):
            for chosen_columns in itertools.combinations(range(len(matrix[0])), size):
                entries = [[matrix[r][c] for c in chosen_columns] for r in chosen_rows]
                poly = _determinant(ring, entries, signs)
                if not poly.coeffs():
                    continue
                if poly.coeffs()[0] < 0:
                    poly = -poly
                text = str(poly)
                if text in seen:
                    continue
                seen.add(text)
                polys.append(poly)
                sources.append(Minor(rows, columns, chosen_rows, chosen_columns))
    return polys, sources
