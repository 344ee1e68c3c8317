r"""Whether the counts determine a structure's correlations, and which trios it leaves independent.

With two labels the generating set is *linear* in the correlations: for every pattern ``d``,

    f_d = sum_ell P_ell prod_i P_{i,d_i|ell} + sum_{T in S} sum_ell P_ell s_ell(d_T) G^ell_T
    prod_{i not in T} P_{i,d_i|ell},

with ``s_ell(d_T) = prod_{i in T} (+1 if d_i = ell else -1)``. Over a fixed prevalence and fixed
accuracies the correlations that explain a sketch are therefore an affine space whose dimension
is ``2 |S| - rank M``, ``M`` the matrix of the coefficients of the ``G^ell_T`` above. At a generic
point that is the dimension of the family of correlations left free at each evaluation
(:func:`correlation_freedom`); a structure of the identifiability atlas whose prevalence and
accuracies are finitely many may still leave it positive (the four-classifier subset ``0-1-2-3``
does: its two correlations enter one equation only).

A trio of classifiers that holds no subset of the structure is independent: its marginal sketch
obeys the three-classifier independent model exactly (the correlations of subsets that leave
the trio sum to zero over the dropped answers), so the independent closed form evaluates its
prevalence and accuracies (:func:`independent_trios`).

Examples
--------
>>> correlation_freedom(((0, 1),), 4), correlation_freedom(((0, 1, 2, 3),), 4)
(0, 1)
>>> independent_trios(((0, 1), (0, 2)), 4)
[(1, 2, 3)]
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from fractions import Fraction

from evalgebra.errors import SpecError
from evalgebra.evaluators.correlated.structure_lookup import atlas_entries
from evalgebra.structures import Structure, isomorphism, structure_text

__all__ = ["correlation_freedom", "free_correlations_refusal", "independent_trios"]


def _generic_point(n_classifiers: int, seed: int) -> tuple[Fraction, list[tuple[Fraction, Fraction]]]:
    """A fixed rational point off the special loci (no accuracy 1/2, no symmetry between classifiers)."""
    state = 7919 + 104729 * seed

    def draw() -> Fraction:
        nonlocal state
        state = (state * 48271) % 2147483647
        return Fraction(53 + state % 41, 101)  # in (0.52, 0.93): distinct, away from 1/2

    prevalence = draw() - Fraction(1, 5)
    return prevalence, [(draw(), draw()) for _ in range(n_classifiers)]


def _rank(rows: list[list[Fraction]]) -> int:
    """The rank of a rational matrix (Gaussian elimination, exact)."""
    rows = [list(r) for r in rows]
    rank, n_columns = 0, len(rows[0]) if rows else 0
    for column in range(n_columns):
        pivot = next((k for k in range(rank, len(rows)) if rows[k][column]), None)
        if pivot is None:
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        head = rows[rank]
        for k in range(rank + 1, len(rows)):
            if rows[k][column]:
                factor = rows[k][column] / head[column]
                rows[k] = [x - factor * y for x, y in zip(rows[k], head)]
        rank += 1
    return rank


def _coefficients(structure: Structure, n_classifiers: int, seed: int) -> list[list[Fraction]]:
    """Row per pattern (classifier 0 slowest, 0 = the first label), column per ``(T, ell)``: the coefficient
    of ``G^ell_T``."""
    prevalence, accuracy = _generic_point(n_classifiers, seed)
    rows = []
    for code in range(2**n_classifiers):
        answers = [(code >> (n_classifiers - 1 - i)) & 1 for i in range(n_classifiers)]
        row = []
        for subset in structure:
            for ell, weight in ((0, prevalence), (1, 1 - prevalence)):
                value = weight
                for i, answer in enumerate(answers):
                    if i in subset:
                        value = value if answer == ell else -value
                    else:
                        rate = accuracy[i][ell]
                        value *= rate if answer == ell else 1 - rate
                row.append(value)
        rows.append(row)
    return rows


@functools.lru_cache(maxsize=256)
def correlation_freedom(structure: Structure, n_classifiers: int) -> int:
    r"""The dimension of the correlations left free at an evaluation of ``structure`` (two labels).

    ``2 |S|`` correlations less the rank of their coefficients in the generating set at a
    generic rational point (the rank at two such points, the larger: a special point can only
    lower it). 0: the counts determine every correlation at each evaluation.

    Parameters
    ----------
    structure : tuple of tuple of int
        Canonical subsets (as :func:`~evalgebra.structures.parse_structure` gives).
    n_classifiers : int

    Returns
    -------
    int

    Examples
    --------
    >>> correlation_freedom(((0, 1, 2), (0, 1, 3)), 4), correlation_freedom(((0, 1), (0, 2), (1, 3)), 4)
    (1, 0)
    """
    if not structure:
        return 0
    rank = max(_rank(_coefficients(structure, n_classifiers, seed)) for seed in (0, 1))
    return 2 * len(structure) - rank


def independent_trios(structure: Sequence[Sequence[int]], n_classifiers: int) -> list[tuple[int, int, int]]:
    """The trios of classifiers (sorted) that hold no subset of the structure: their sketch is independent.

    >>> independent_trios([(0, 1, 2)], 4)
    [(0, 1, 3), (0, 2, 3), (1, 2, 3)]
    """
    sets = [set(s) for s in structure]
    n = n_classifiers
    return [
        (i, j, k)
        for i in range(n)
        for j in range(i + 1, n)
        for k in range(j + 1, n)
        if not any(s <= {i, j, k} for s in sets)
    ]


def free_correlations_refusal(structure: Structure, classifiers: Sequence[str]) -> SpecError:
    r"""The error that refuses a structure whose correlations the counts leave free, with what to do instead.

    Examples
    --------
    >>> print(  # doctest: +ELLIPSIS, +NORMALIZE_WHITESPACE
    ...     free_correlations_refusal(((0, 1, 2, 3),), ("c0", "c1", "c2", "c3"))
    ... )
    structure 0-1-2-3 on 4 classifiers: the counts leave its correlations free (a 1-dimensional family ...
    evaluate(sketch.marginalise(['c0', 'c1', 'c2'])) (evaluate --classifiers c0,c1,c2 on the command line)
    """
    n = len(classifiers)
    free = correlation_freedom(tuple(structure), n)
    points = next(
        (
            e.points
            for e in atlas_entries()
            if (e.n_classifiers, e.n_labels) == (n, 2)
            and e.finite
            and isomorphism(tuple(structure), e.structure, n) is not None
        ),
        None,
    )
    many = f"each of its {points} evaluations" if points else "each evaluation"
    text = (
        f"structure {structure_text(tuple(structure))} on {n} classifiers: the counts leave its "
        "correlations free "
        f"(a {free}-dimensional family of them fits {many} of prevalence and accuracies) and no "
        "evaluator solves such a structure yet (the code generator finds no derivation for it); accepted: a "
        "structure whose correlations are determined (see docs/guide/correlated.md)"
    )
    trios = independent_trios(structure, n)
    if trios:
        names = [str(classifiers[i]) for i in trios[0]]
        text += (
            ", or a trio this structure leaves independent, alone: its prevalence and its accuracies are "
            f"exact from the independent closed form: evaluate(sketch.marginalise({names!r})) "
            f"(evaluate --classifiers {','.join(names)} on the command line)"
        )
    return SpecError(text)
