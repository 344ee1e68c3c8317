r"""The vectorised path: many three-classifier sketches at once, in floating point.

:func:`evaluate_batch` runs the generated closed form on whole NumPy columns, one per
pattern, so a million sketches take well under a second. Floating point decides its flags;
irrationality, and anything near a blind spot, needs the exact path
(:func:`~evalgebra.evaluators.independent.closed_form.evaluate_counts`).

Examples
--------
>>> out = evaluate_batch([[84, 36, 51, 39, 68, 52, 77, 73]])
>>> out["prevalence"].tolist()
[[0.25, 0.75]]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from evalgebra.deprecation import deprecated_alias
from evalgebra.errors import SketchError
from evalgebra.evaluators.independent.closed_form import PAIR_MOMENT_INDEX, TRIPLE_MOMENT_INDEX
from evalgebra.generated import three_independent
from evalgebra.results.batch import BatchResult

__all__ = ["TOLERANCE", "evaluate_batch", "evaluate_many"]

_STATS = three_independent.STATISTICS

#: Floating-point slack of :func:`evaluate_batch`: values within it of 0 or 1 count as inside the
#: unit interval, and total accuracies within it of a tie as tied (exact ties and boundary
#: values are common on small tests; the exact path decides them exactly).
TOLERANCE = 1e-12


def evaluate_batch(counts: Any) -> BatchResult:
    r"""Vectorised evaluation of many three-classifier sketches at once, in floating point.

    Parameters
    ----------
    counts : array_like, shape (k, 8)
        Pattern counts (or frequencies) of ``k`` sketches, pattern order ``aaa .. bbb``.

    Returns
    -------
    BatchResult
        Arrays by name (``out["prevalence"]``), one row per sketch, ``decoded`` where
        ``chosen >= 0``: ``prevalence`` (k, 2): P_a of both points; ``accuracy`` (k, 2, 3, 2): accuracy of
        classifier i on label a/b at each point; ``radicand`` (k,); ``complex``,
        ``blind_spot``, ``empty_variety`` (its points are NaN), ``outside_unit_cube`` (k,)
        booleans; ``chosen`` (k,) the point with
        the larger mean total accuracy (-1 when none). Irrationality needs exact arithmetic:
        use :func:`~evalgebra.evaluators.independent.closed_form.exact_solution` or
        :func:`~evalgebra.evaluators.independent.closed_form.evaluate_counts`.

    Notes
    -----
    Floating point decides the flags: ``blind_spot`` tests the generated denominator factors
    for exact zeros, which float64 represents exactly only while they stay below ``2**53``
    (the pair moments up to ``Q`` near ``10**7``, the radicand, of degree 6 in the counts,
    only for small ``Q``). Near a blind spot, and to decide irrationality, use the exact path.

    Examples
    --------
    >>> out = evaluate_batch([[84, 36, 51, 39, 68, 52, 77, 73], [1, 1, 1, 1, 1, 1, 1, 1]])
    >>> out["prevalence"][0].tolist(), out["chosen"].tolist(), out["blind_spot"].tolist()
    ([0.25, 0.75], [0, -1], [False, True])
    """
    try:
        table = np.asarray(counts, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        raise SketchError(
            "counts must be an array of shape (k, 8) of non-negative numbers (rows of 8 pattern "
            f"counts); cannot read this {type(counts).__name__} as one"
        ) from None
    if table.ndim != 2 or table.shape[1] != 8:
        raise SketchError(f"need an array of shape (k, 8), got {table.shape}")
    if table.size and (not np.isfinite(table).all() or table.min() < 0):
        raise SketchError("counts must be finite and non-negative")
    size = len(table)
    columns = np.ascontiguousarray(table.T)  # one contiguous row per pattern: faster column arithmetic
    with np.errstate(divide="ignore", invalid="ignore"):
        out = three_independent.solve(*columns)
        radicand = np.broadcast_to(np.asarray(out[0], dtype=np.float64), (size,))
        root = np.sqrt(np.where(radicand >= 0, radicand, np.nan))
        stats = np.empty((size, 2, len(_STATS)))
        for k in range(len(_STATS)):
            num, rt, den = out[1 + 3 * k : 4 + 3 * k]
            inverse = 1.0 / np.asarray(den, dtype=np.float64)
            base, delta = num * inverse, (rt * inverse) * root
            stats[:, 0, k] = base + delta  # SIGNS = (1, -1)
            stats[:, 1, k] = base - delta
        n_factors = len(three_independent.BLIND_SPOTS)
        factors = out[1 + 3 * len(_STATS) : 1 + 3 * len(_STATS) + n_factors]
        blind = np.zeros(size, dtype=bool)
        for f in factors:
            blind |= np.asarray(f) == 0
        # the impossible zero patterns of the covariances (as in closed_form): no point at all
        observed = out[1 + 3 * len(_STATS) + n_factors :]
        zeros = sum(
            (np.broadcast_to(np.asarray(observed[k]), (size,)) == 0).astype(int) for k in PAIR_MOMENT_INDEX
        )
        triple = np.broadcast_to(np.asarray(observed[TRIPLE_MOMENT_INDEX]), (size,))
        empty = ((zeros == 0) & (radicand == 0)) | (zeros == 1) | ((zeros >= 2) & (triple != 0))
        stats[empty] = np.nan
        # the label swap maps point 0 to point 1: finiteness and the unit cube hold for both or
        # neither, and the summed total accuracy t becomes 3 - t
        first = stats[:, 0, :]
        finite = np.isfinite(first).all(axis=1)
        outside = finite & ((first < -TOLERANCE) | (first > 1 + TOLERANCE)).any(axis=1)
        p = stats[:, :, 0]
        total = np.zeros(size)
        for i in range(3):
            total += first[:, 0] * first[:, 1 + 2 * i] + (1 - first[:, 0]) * first[:, 2 + 2 * i]
        chosen = np.where(
            ~finite, -1, np.where(2 * total > 3 + TOLERANCE, 0, np.where(2 * total < 3 - TOLERANCE, 1, -1))
        )
    return BatchResult(
        "evaluate_batch",
        {
            "prevalence": p,
            "accuracy": stats[:, :, 1:].reshape(len(table), 2, 3, 2),
            "radicand": np.array(radicand),
            "complex": np.asarray(radicand < 0),
            "blind_spot": blind,
            "empty_variety": np.asarray(empty),
            "outside_unit_cube": np.asarray(outside),
            "chosen": chosen,
        },
        decoded=chosen >= 0,
    )


#: Deprecated: the old name of :func:`evaluate_batch`.
evaluate_many = deprecated_alias(evaluate_batch, "evaluate_many", "evaluate_batch")
