"""Partition and consistency plots: the drawn bars and boxes are the computed numbers."""

from __future__ import annotations

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from evalgebra import datasets  # noqa: E402
from evalgebra.errors import SpecError  # noqa: E402
from evalgebra.evaluators.dispatch import evaluate  # noqa: E402
from evalgebra.plots.consistency import plot_consistency  # noqa: E402
from evalgebra.plots.evaluation import plot_partition  # noqa: E402
from evalgebra.samplewise.metrics import consistency  # noqa: E402


def test_plot_partition_bars_are_the_partition():
    sketch = datasets.load("acs_employment")
    result = evaluate(sketch.unlabelled(), "algebraic")
    fig = plot_partition(sketch, {"algebraic": result})
    ax = fig.axes[0]
    heights = [bar.get_height() for bar in ax.patches]
    truth = [sketch.by_true_label()["a"].get(p, 0) for p in sorted(sketch.counts())]
    ours = [float(c) for _, c in sorted(result.partition["a"])]
    assert heights == pytest.approx(truth + ours)
    with pytest.raises(SpecError):
        plot_partition(sketch, {"algebraic": result}, label="z")


def test_plot_consistency_marks_the_mean():
    rng = np.random.default_rng(1)
    truth = rng.integers(0, 2, size=60)
    runs = np.where(rng.random((5, 60)) < 0.2, 1 - truth, truth)
    fig = plot_consistency(runs, truth, metrics=["pa_acc", "ec_acc"])
    means = [
        line.get_ydata()[0]
        for line in fig.axes[0].get_lines()
        if len(line.get_xdata()) == 2 and line.get_color() == "#d62728"
    ]
    assert means == pytest.approx(
        [float(consistency(runs, "pa_acc")), float(consistency(runs, "ec_acc", truth))]
    )
