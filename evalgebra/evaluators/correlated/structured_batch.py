r"""Correlated structures in floating point over many sketches at once (vectorised NumPy).

:func:`evaluate_structured_batch` runs a structure's generated module on a ``(k, 2^N)``
array of pattern counts: the eliminant's coefficients as ``k``-vectors, its real roots (the
quadratic formula for degree 2, eigenvalues of stacked companion matrices otherwise), the
back-substitution at every root, and the decoding of
:func:`~evalgebra.evaluators.correlated.structured.evaluate_structured` (points inside the unit cube
first, then the largest summed total accuracy). It is for speed (simulations, bootstraps,
scans); :func:`~evalgebra.evaluators.correlated.structured.evaluate_structured` is the exact reference.

Examples
--------
>>> import numpy as np
>>> batch_roots(np.array([[1.0, 0.0, 1.0]])).imag.tolist()     # x^2 + 1: no real root
[[-1.0, 1.0]]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from evalgebra.errors import SketchError
from evalgebra.evaluators.correlated.structure_lookup import StructureMatch
from evalgebra.evaluators.correlated.structured import structure_match, unknown_key
from evalgebra.results.batch import BatchResult

__all__ = ["evaluate_structured_batch", "batch_roots"]


def batch_roots(coefficients: np.ndarray) -> np.ndarray:
    r"""Roots of ``k`` polynomials at once: ``(k, d + 1)`` coefficients (low -> high) -> ``(k, d)`` complex.

    Degree 2 by the quadratic formula; higher degrees as eigenvalues of the companion
    matrices (a vanishing leading coefficient gives NaN roots for that row).

    Examples
    --------
    >>> batch_roots(np.array([[2.0, -3.0, 1.0], [1.0, 0.0, 1.0]])).real.round(6).tolist()
    [[2.0, 1.0], [-0.0, -0.0]]
    >>> np.sort_complex(batch_roots(np.array([[-6.0, 11.0, -6.0, 1.0]]))[0]).real.round(6).tolist()
    [1.0, 2.0, 3.0]
    """
    c = np.asarray(coefficients, dtype=float)
    k, d = c.shape[0], c.shape[1] - 1
    lead = c[:, -1]
    with np.errstate(divide="ignore", invalid="ignore"):
        if d == 1:
            return (-c[:, 0] / lead).astype(complex)[:, None]
        if d == 2:
            a, b, cc = lead, c[:, 1], c[:, 0]
            root = np.sqrt((b * b - 4 * a * cc).astype(complex))
            q = -0.5 * (b + np.where(b.real >= 0, 1, -1) * root)  # the stable form of the two roots
            first = q / a
            second = np.where(q != 0, cc / q, first)
            return np.stack([first, second], axis=1)
        monic = c[:, :-1] / lead[:, None]
    companion = np.zeros((k, d, d))
    companion[:, 1:, :-1] = np.eye(d - 1)
    companion[:, :, -1] = -monic
    bad = ~np.isfinite(companion).all(axis=(1, 2))
    companion[bad] = 0.0
    roots = np.linalg.eigvals(companion).astype(complex)
    roots[bad] = np.nan
    return roots


def _columns(counts: np.ndarray, match: StructureMatch) -> list[np.ndarray]:
    n = len(match.sigma)
    k = counts.shape[0]
    cube = counts.reshape((k,) + (2,) * n)
    if match.sigma != tuple(range(n)):
        cube = cube.transpose(
            (0,) + tuple(1 + i for i in match.inverse)
        )  # module axis m <- user axis inverse[m]
    flat = np.ascontiguousarray(cube.reshape(k, 2**n).T, dtype=float)  # one contiguous row per pattern
    return list(flat)


def evaluate_structured_batch(
    counts: Any, structure: Any, classifiers: Sequence[str] | None = None, tolerance: float = 1e-9
) -> BatchResult:
    r"""Evaluate ``k`` count vectors of binary classifiers under a correlated structure, in floats.

    Parameters
    ----------
    counts : array of shape (k, 2**N)
        One count vector per row, pattern order (classifier 0 slowest).
    structure : str, iterable of subsets or networkx graph
        As for :func:`~evalgebra.evaluators.correlated.structured.evaluate_structured`.
    classifiers : names, optional
        For a structure given by names; default ``c0 .. c{N-1}``.
    tolerance : float
        A root whose imaginary part is below ``tolerance`` times its size is real.

    Returns
    -------
    BatchResult
        Arrays by name, one row per count vector, ``decoded`` where a real point was found:
        ``prev_a``, ``acc_{i}_a``, ``acc_{i}_b`` and ``corr_{i}_{j}..._{a|b}`` (the user's
        classifier indices) of the decoded point, NaN where no real point was found;
        ``n_real``: real roots per row; ``inside``: the decoded point lies in the unit cube.
    """
    array = np.asarray(counts)
    if array.ndim != 2 or array.shape[0] == 0 or array.shape[1] < 4 or array.shape[1] & (array.shape[1] - 1):
        raise SketchError(
            f"need a (k, 2**N) array of pattern counts with k >= 1, N >= 2; got shape {array.shape}"
        )
    n = array.shape[1].bit_length() - 1
    names = tuple(classifiers) if classifiers is not None else tuple(f"c{i}" for i in range(n))
    match = structure_match(structure, names, 2)
    columns = _columns(array, match)
    k = array.shape[0]
    with np.errstate(all="ignore"):
        module = match.module
        # the moments once, for the eliminant and the back-substitution (every current module: its PROTOCOL)
        moments: Any = module.moments(*columns)
        raw = module.eliminant_coefficients(*moments)
        coefficients = np.stack([np.broadcast_to(np.asarray(c, dtype=float), (k,)) for c in raw], axis=1)
        roots = batch_roots(coefficients)
        real = np.abs(roots.imag) <= tolerance * np.maximum(1.0, np.abs(roots.real))
        n_real = real.sum(axis=1)
        keys: list[str] = []
        candidates: list[dict[str, np.ndarray]] = []
        inside_score = np.full((k, roots.shape[1]), -np.inf)
        finite_score = np.full((k, roots.shape[1]), -np.inf)
        # every root at once: the counts as (k, 1) columns broadcast against the (k, d) roots
        at = np.where(real, roots.real, np.nan)
        # the per-sketch part as (k, 1) columns against the (k, d) roots
        prepared = [x[:, None] if np.ndim(x) == 1 else x for x in module.prepare(*moments)]
        every = module.solve(prepared, at)
        for j in range(roots.shape[1]):
            p = np.where(real[:, j], roots[:, j].real, np.nan)
            point = {"prev_a": p}
            if every is not None:
                for name, value in every.items():
                    key = unknown_key(name, match)
                    if key is not None:
                        point[key] = np.broadcast_to(np.asarray(value, dtype=float), (k, roots.shape[1]))[
                            :, j
                        ]
            keys = keys or sorted(point, key=_order)
            missing = np.full(k, np.nan)
            finite = np.ones(k, dtype=bool)
            inside = np.ones(k, dtype=bool)
            for key in keys:
                value = point.setdefault(key, missing)
                finite &= np.isfinite(value)
                if not key.startswith("corr"):
                    inside &= (value >= -tolerance) & (value <= 1 + tolerance)
            totals = _summed_total(point, n)
            finite &= np.isfinite(totals)
            inside_score[:, j] = np.where(inside & finite, totals, -np.inf)
            finite_score[:, j] = np.where(finite, totals, -np.inf)
            candidates.append(point)
        rows = np.arange(k)
        any_inside = np.isfinite(inside_score).any(axis=1)
        best = np.where(any_inside, np.argmax(inside_score, axis=1), np.argmax(finite_score, axis=1))
        found = np.isfinite(finite_score[rows, best])
        out = {}
        for key in keys:
            chosen = candidates[0][key]
            for j in range(1, len(candidates)):
                chosen = np.where(best == j, candidates[j][key], chosen)
            out[key] = np.where(found, chosen, np.nan)
    out["n_real"] = n_real
    out["inside"] = any_inside
    return BatchResult("evaluate_structured_batch", out, decoded=found)


def _order(key: str) -> tuple[int, str]:
    return ({"prev": 0, "acc": 1, "corr": 2}[key.split("_")[0]], key)


def _summed_total(point: dict[str, np.ndarray], n: int) -> np.ndarray:
    p = point["prev_a"]
    total = np.zeros_like(p)
    for i in range(n):
        total = total + p * point.get(f"acc_{i}_a", np.nan) + (1 - p) * point.get(f"acc_{i}_b", np.nan)
    return total
