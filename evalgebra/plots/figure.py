r"""Figures that show themselves: every plot of :mod:`evalgebra.plots` renders inline in Jupyter.

The plots build :class:`matplotlib.figure.Figure` objects directly, without pyplot, so that
scripts and servers keep no global figure state and nothing opens a window. IPython shows
a plain ``Figure`` as PNG only once the inline backend has registered its formatter (after
``%matplotlib inline`` or importing pyplot); before that a notebook shows
``<Figure size ...>``. :class:`PlotFigure` is a ``Figure`` that also draws itself as PNG
(``_repr_png_``), and :class:`PlotAxes` lets a plot that returns its axes show the figure
they belong to, so a returned plot renders in a plain kernel with no ``%matplotlib`` line.
Saving, composing and closing work as for any ``Figure``.

Examples
--------
>>> fig = new_figure(figsize=(2, 1))
>>> ax = fig.subplots()
>>> _ = ax.plot([0, 1], [1, 0])
>>> fig._repr_png_()[:8] == b"\x89PNG\r\n\x1a\n"
True
>>> new_axes()._repr_png_()[:4] == b"\x89PNG"
True
"""

from __future__ import annotations

import io
from typing import Any

from matplotlib.axes import Axes
from matplotlib.figure import Figure

__all__ = ["PlotFigure", "PlotAxes", "new_figure", "new_axes"]


class PlotFigure(Figure):
    """A matplotlib ``Figure`` that IPython displays as PNG in any kernel."""

    def _repr_png_(self) -> bytes:
        buffer = io.BytesIO()
        self.savefig(buffer, format="png", bbox_inches="tight")
        return buffer.getvalue()


class PlotAxes(Axes):
    """Axes that IPython displays as the PNG of their figure."""

    def _repr_png_(self) -> bytes | None:
        figure = getattr(self.figure, "figure", None)  # the root figure, also under a SubFigure
        if figure is None:
            return None
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", bbox_inches="tight")
        return buffer.getvalue()


def new_figure(**kwargs: Any) -> PlotFigure:
    """A new :class:`PlotFigure` (``Figure`` keyword arguments, ``layout="constrained"`` by default)."""
    kwargs.setdefault("layout", "constrained")
    return PlotFigure(**kwargs)


def new_axes(**kwargs: Any) -> PlotAxes:
    """The single :class:`PlotAxes` of a new :func:`new_figure` (``Figure`` keyword arguments)."""
    axes = new_figure(**kwargs).add_subplot(axes_class=PlotAxes)
    assert isinstance(axes, PlotAxes)
    return axes
