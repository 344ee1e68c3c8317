r"""Plots of evalgebra results (matplotlib, an optional dependency: ``pip install matplotlib``).

One module per topic, imported on demand so that ``import evalgebra`` never imports
matplotlib: e.g. ``from evalgebra.plots.search import plot_failure_profile``.
"""
