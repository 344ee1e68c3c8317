r"""Pictures of samplewise consistency : the distribution of each metric over run pairs.

:func:`plot_consistency` draws, for each metric, the values on every pair of runs (the note's
reproducibility distribution ``{m_ij}``) as a box with the points over it, and marks the mean
(what :func:`~evalgebra.samplewise.metrics.consistency` returns).

matplotlib is imported inside the plotting function only.

Examples
--------
>>> runs = [[0, 1, 1, 0, 1], [0, 1, 0, 0, 1], [1, 1, 0, 0, 1]]
>>> fig = plot_consistency(runs, truth=[0, 1, 1, 0, 0])
>>> [t.get_text() for t in fig.axes[0].get_xticklabels()][:3]
['ec_l', 'ec_g', 'ec_acc']

References
----------
.. [1] "Samplewise consistency metrics", an untitled draft note on the reproducibility
   of predictions item by item.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from evalgebra.samplewise.metrics import ERROR_METRICS, PREDICTION_METRICS, consistency_values

__all__ = ["plot_consistency"]


def plot_consistency(
    predictions: Any, truth: Any = None, metrics: Sequence[str] | None = None, ax: Any = None
) -> Any:
    r"""Box plots of every metric over all pairs of runs, with the mean marked.

    Parameters
    ----------
    predictions : array_like, shape (p, items)
    truth : array_like, optional
        Needed for the error metrics; without it only the prediction metrics are drawn.
    metrics : sequence of str, optional
        Default: every metric that applies.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    if metrics is None:
        metrics = (tuple(ERROR_METRICS) if truth is not None else ()) + tuple(PREDICTION_METRICS)
    values = []
    for metric in metrics:
        v = consistency_values(predictions, metric, truth if metric in ERROR_METRICS else None, exact=False)
        values.append(np.asarray(v, dtype=float)[np.isfinite(np.asarray(v, dtype=float))])
    if ax is None:
        from evalgebra.plots.figure import new_figure

        fig = new_figure(figsize=(1.1 * len(metrics) + 2, 3.6))
        ax = fig.subplots()
    else:
        fig = ax.figure
    x = np.arange(1, len(metrics) + 1)
    ax.boxplot(values, positions=x, widths=0.5, showfliers=False)
    rng = np.random.default_rng(0)  # fixed jitter: the same picture every time
    for k, v in zip(x, values):
        ax.plot(k + rng.uniform(-0.15, 0.15, size=len(v)), v, ".", alpha=0.4, color="#1f77b4")
        if len(v):
            ax.plot([k - 0.3, k + 0.3], [v.mean()] * 2, color="#d62728", lw=2)
    ax.set_xticks(x, list(metrics))
    ax.axhline(0, color="0.7", lw=0.8)
    ax.axhline(1, color="0.7", lw=0.8)
    ax.set_ylabel("value on a pair of runs (red: mean)")
    ax.set_title(f"samplewise consistency of {len(np.asarray(predictions, dtype=object))} runs")
    return fig
