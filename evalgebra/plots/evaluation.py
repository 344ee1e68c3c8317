r"""Pictures of unsupervised evaluations: the partition of a sketch by true label
("Algebraic Evaluation Theorems", Table 1).

:func:`plot_partition` draws, for every decision pattern, how many of its items each evaluator
says carry the first label, next to the truth when the sketch is labelled: the picture of
Table 1 of "Algebraic Evaluation Theorems" (algebraic evaluation against majority voting on the
ACS employment test).

matplotlib is imported inside the plotting function only; a :class:`matplotlib.figure.Figure`
is built directly (no pyplot state).

Examples
--------
>>> from evalgebra import datasets
>>> from evalgebra.evaluators.dispatch import evaluate
>>> sketch = datasets.load("acs_employment")
>>> results = {m: evaluate(sketch.unlabelled(), m) for m in ("algebraic", "majority")}
>>> fig = plot_partition(sketch, results)
>>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
['truth', 'algebraic', 'majority']

References
----------
.. [1] A. Corrada-Emmanuel, "Algebraic Evaluation Theorems": Table 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from evalgebra.data.sketch import Sketch
from evalgebra.errors import SpecError
from evalgebra.results import Evaluation

__all__ = ["plot_partition"]

COLOURS = {"truth": "#2ca02c", "algebraic": "#1f77b4", "majority": "#ff7f0e", "hui_walter": "#9467bd"}


def plot_partition(
    sketch: Sketch, evaluations: Mapping[str, Evaluation], label: str | None = None, ax: Any = None
) -> Any:
    r"""Items of each decision pattern assigned to ``label`` by each evaluation (and the truth).

    Parameters
    ----------
    sketch : Sketch
        The test; when labelled, its true partition is drawn first.
    evaluations : mapping name -> Evaluation
        Each evaluation's ``partition`` (the decoded point's split of every pattern's count).
    label : str, optional
        The true label drawn (default: the first).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    label = sketch.labels[0] if label is None else label
    if label not in sketch.labels:
        raise SpecError(f"unknown label {label!r}; the sketch has {list(sketch.labels)}")
    patterns = sorted(sketch.pooled().counts())
    series: dict[str, list[float]] = {}
    if sketch.is_labelled:
        truth = sketch.pooled().by_true_label()[label]
        series["truth"] = [float(truth.get(p, 0)) for p in patterns]
    for name, result in evaluations.items():
        rows = dict(result.partition.get(label, ()))
        series[name] = [float(rows.get(p, np.nan)) for p in patterns]
    if ax is None:
        from evalgebra.plots.figure import new_figure

        fig = new_figure(figsize=(8, 3.6))
        ax = fig.subplots()
    else:
        fig = ax.figure
    width = 0.8 / max(len(series), 1)
    x = np.arange(len(patterns))
    for k, (name, values) in enumerate(series.items()):
        ax.bar(
            x + (k - (len(series) - 1) / 2) * width, values, width, label=name, color=COLOURS.get(name, None)
        )
    ax.set_xticks(x, ["".join(p) for p in patterns])
    ax.set_xlabel("decision pattern")
    ax.set_ylabel(f"items with true label {label}")
    ax.set_title(f"partition by true label {label!r}: Q = {sketch.Q}")
    ax.legend()
    return fig
