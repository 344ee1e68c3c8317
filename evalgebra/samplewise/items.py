r"""Item-level consistency: how consistently the runs treat each single item.

Summarising along the runs first gives one value per item; its mean over the items is the
n-ary consistency of :func:`evalgebra.samplewise.metrics.consistency`. It names the items a
model treats inconsistently, which aggregate metrics hide.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from evalgebra.errors import SpecError
from evalgebra.samplewise.counting import closed_form_blocks
from evalgebra.samplewise.runs import CLOSED_FORM_METRICS, ERROR_METRICS, Runs, check_arity, check_metric

__all__ = ["item_consistency"]


def item_consistency(
    predictions: Any,
    metric: str = "pa_acc",
    truth: Any = None,
    *,
    n: int = 2,
    exact: bool | None = None,
) -> np.ndarray:
    r"""Per item: the share of n-subsets of runs that agree there (for ``ec_g``: all err there).

    ``pa_acc`` counts subsets giving one answer, ``ec_acc`` subsets all right or all wrong,
    ``ec_g`` subsets all wrong. This is the other order of summary of the consistency-metrics note:
    first along the runs, one value per item, then (by the caller) over the items; the mean over items
    equals :func:`consistency`. It names the individuals a model treats inconsistently, which
    aggregate metrics hide.

    Parameters
    ----------
    predictions, truth, n
        As in :func:`consistency`.
    metric : {"pa_acc", "ec_acc", "ec_g"}
        The metrics that decompose over items.
    exact : bool, optional
        ``None``/``True``: Fractions (object array); ``False``: floats.

    Returns
    -------
    numpy.ndarray, shape (N,)

    Examples
    --------
    >>> runs = [[1, 1, 0, 1], [1, 0, 0, 1], [1, 1, 1, 0]]
    >>> item_consistency(runs).tolist()
    [Fraction(1, 1), Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)]
    >>> item_consistency(runs, "ec_g", truth=[1, 1, 1, 1], exact=False).round(3).tolist()
    [0.0, 0.0, 0.333, 0.0]
    """
    name = check_metric(metric)
    if name not in CLOSED_FORM_METRICS:
        raise SpecError(
            f"{name} does not decompose over items; item_consistency accepts {', '.join(CLOSED_FORM_METRICS)}"
        )
    runs = Runs(predictions, truth, name in ERROR_METRICS, name)
    n = check_arity(n, runs.p, name)
    subsets = math.comb(runs.p, n)
    if exact is False:
        weights = np.array([math.comb(m, n) for m in range(runs.p + 1)], dtype=np.float64)
        totals = np.zeros(runs.N, dtype=np.float64)
        for items, sizes in closed_form_blocks(runs, name):
            totals += np.bincount(items, weights=weights[sizes], minlength=runs.N)
        return totals / subsets
    combs = np.array([math.comb(m, n) for m in range(runs.p + 1)], dtype=object)
    exact_totals = np.zeros(runs.N, dtype=object)
    for items, sizes in closed_form_blocks(runs, name):
        np.add.at(exact_totals, items, combs[sizes])
    out = np.empty(runs.N, dtype=object)
    out[:] = [Fraction(int(t), subsets) for t in exact_totals]
    return out
