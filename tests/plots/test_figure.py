"""Plots show themselves in Jupyter as PNG without ``%matplotlib inline``, and still save."""

from __future__ import annotations

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
formatters = pytest.importorskip("IPython.core.formatters")

from matplotlib.figure import Figure  # noqa: E402

from evalgebra import datasets  # noqa: E402
from evalgebra.evaluators.dispatch import evaluate  # noqa: E402
from evalgebra.plots.consistency import plot_consistency  # noqa: E402
from evalgebra.plots.evaluation import plot_partition  # noqa: E402
from evalgebra.plots.figure import PlotAxes, PlotFigure, new_axes, new_figure  # noqa: E402
from evalgebra.plots.search import plot_score_vs_error  # noqa: E402

PNG = b"\x89PNG\r\n\x1a\n"


def _shown_as_png(obj: object) -> bytes | None:
    """What a fresh IPython PNG formatter makes of ``obj``: no inline backend, no pyplot."""
    formatter = formatters.PNGFormatter()
    assert not formatter.type_printers  # nothing registered for Figure: only _repr_png_ counts
    return formatter(obj)


def test_plain_figure_is_not_shown_without_the_inline_backend():
    # the cause of ``<Figure ...>``: a Figure built without pyplot has no PNG form by itself
    assert _shown_as_png(Figure()) is None


def test_plot_figures_render_as_png():
    sketch = datasets.load("acs_employment")
    fig = plot_partition(sketch, {"algebraic": evaluate(sketch.unlabelled())})
    assert isinstance(fig, PlotFigure) and isinstance(fig, Figure)
    assert _shown_as_png(fig).startswith(PNG)
    runs = np.array([[0, 1, 1, 0], [0, 1, 0, 0]])
    assert _shown_as_png(plot_consistency(runs)).startswith(PNG)


def test_plot_axes_render_their_figure_as_png():
    ax = plot_score_vs_error([0.1, 0.2, 0.3], [0.01, 0.05, 0.02], best=1)
    assert isinstance(ax, PlotAxes)
    assert _shown_as_png(ax).startswith(PNG)


def test_new_figure_saves_like_any_figure(tmp_path):
    fig = new_figure(figsize=(2, 1))
    assert fig.get_layout_engine() is not None  # constrained by default
    fig.subplots().plot([0, 1], [0, 1])
    fig.savefig(tmp_path / "plot.png")
    fig.savefig(tmp_path / "plot.svg")
    assert (tmp_path / "plot.png").read_bytes().startswith(PNG)
    assert (tmp_path / "plot.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")
    assert isinstance(new_axes(figsize=(2, 1)).figure, PlotFigure)


def test_caller_axes_are_drawn_on_not_replaced():
    fig = Figure()
    ax = fig.subplots()
    sketch = datasets.load("acs_employment")
    assert plot_partition(sketch, {}, ax=ax) is fig
