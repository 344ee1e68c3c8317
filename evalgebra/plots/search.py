r"""Plots for the search for nearly independent trios (:mod:`evalgebra.search.trios`).

Each function draws on a matplotlib ``Axes`` (when ``ax`` is None, on a new
:class:`matplotlib.figure.Figure`, built without pyplot state: ``ax.figure``) and returns it,
so notebooks and scripts can compose panels. matplotlib is imported only when drawing.

* :func:`plot_failure_profile`: failure-rate curves against test size (the streaming-judges paper, Figure 2);
* :func:`plot_score_vs_error`: a ranking score against the true estimate error, with the
  Spearman rank correlation (the streaming-judges paper, Figure 3 plots distance against correlation);
* :func:`plot_error_groups`: estimate errors of groups of trios (best-ranked vs all
  survivors vs rejected);
* :func:`plot_estimate_vs_truth`: one trio's estimated statistics against the true ones
  (the streaming-judges paper, supplement Figures 2-4).

Examples
--------
>>> from matplotlib.figure import Figure
>>> ax = Figure().subplots()
>>> plot_error_groups({"best": [0.01, 0.02], "all": [0.01, 0.1, 0.3]}, ax=ax) is ax
True

References
----------
.. [1] A. Corrada-Emmanuel, "Streaming algorithms for evaluating noisy judges on unlabeled
   data - binary classification" (arXiv:2306.01726): Figures 2-3 and the supplement's
   evaluations.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from evalgebra.errors import SpecError

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

    from evalgebra.results import Estimate
    from evalgebra.search.failure import FailureProfile

__all__ = [
    "KIND_STYLES",
    "plot_failure_profile",
    "plot_score_vs_error",
    "plot_error_groups",
    "plot_estimate_vs_truth",
    "spearman",
]

#: Label, colour and line style of each curve of :func:`plot_failure_profile`.
KIND_STYLES: dict[str, tuple[str, str, str]] = {
    "rejected": ("rejected (any failure)", "black", "-"),
    "complex": ("complex", "tab:red", "-"),
    "outside_unit_cube": ("outside the unit cube", "tab:orange", "-"),
    "blind_spot": ("blind spot (D_ij = 0)", "tab:blue", "-"),
    "empty_variety": ("empty variety", "tab:purple", "-"),
    "irrational": ("irrational (not rejected)", "tab:gray", ":"),
    "always_rejected": ("rejected on every test", "black", "--"),
}


def _axes(ax: Any) -> Axes:
    """``ax``, or the axes of a new :class:`matplotlib.figure.Figure` (no pyplot state)."""
    if ax is not None:
        return ax
    try:
        from evalgebra.plots.figure import new_axes
    except ImportError as exc:  # pragma: no cover - matplotlib is an optional dependency
        raise ImportError("evalgebra.plots needs matplotlib: pip install matplotlib") from exc
    return new_axes()


def _plain_ticks(axis: Any, at: ArrayLike | None = None, values: ArrayLike | None = None) -> None:
    """Log-axis labels as plain numbers (``0.01``, ``100``); over less than two decades of
    ``values``, the minor ticks at 2 and 5 times a power of ten are labelled too."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter, NullLocator

    if at is not None:
        axis.set_major_locator(FixedLocator(np.asarray(at, dtype=float).tolist()))
        axis.set_minor_locator(NullLocator())
    axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    data = np.asarray(values if values is not None else [], dtype=float)
    data = data[np.isfinite(data) & (data > 0)]
    if len(data) and np.log10(data.max() / data.min()) < 2:

        def minor(value: float, _: Any) -> str:
            leading = value / 10 ** np.floor(np.log10(value) + 1e-9)
            return f"{value:g}" if round(leading, 6) in (2.0, 5.0) else ""

        axis.set_minor_formatter(FuncFormatter(minor))
    else:
        axis.set_minor_formatter(NullFormatter())


def _ranks(values: np.ndarray) -> np.ndarray:
    order = np.argsort(values, kind="mergesort")
    ranks = np.empty(len(values))
    ranks[order] = np.arange(len(values), dtype=float)
    # ties share their mean rank
    sorted_values = values[order]
    start = 0
    for stop in range(1, len(values) + 1):
        if stop == len(values) or sorted_values[stop] != sorted_values[start]:
            ranks[order[start:stop]] = (start + stop - 1) / 2
            start = stop
    return ranks


def spearman(x: ArrayLike, y: ArrayLike) -> float:
    r"""Spearman's rank correlation of two samples (ties get mean ranks; ``nan`` pairs dropped).

    Examples
    --------
    >>> spearman([1, 2, 3, 4], [10, 20, 40, 30])
    0.8
    """
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if a.shape != b.shape or a.ndim != 1:
        raise SpecError(f"spearman needs two samples of equal length, got shapes {a.shape} and {b.shape}")
    keep = np.isfinite(a) & np.isfinite(b)
    a, b = a[keep], b[keep]
    if len(a) < 2:
        return float("nan")
    ra, rb = _ranks(a), _ranks(b)
    ra, rb = ra - ra.mean(), rb - rb.mean()
    denominator = np.sqrt((ra * ra).sum() * (rb * rb).sum())
    return float("nan") if denominator == 0 else round(float((ra * rb).sum() / denominator), 12)


def plot_failure_profile(
    profile: FailureProfile,
    ax: Any = None,
    kinds: Sequence[str] = (
        "rejected",
        "complex",
        "outside_unit_cube",
        "blind_spot",
        "irrational",
        "always_rejected",
    ),
    title: str | None = None,
) -> Axes:
    r"""Failure-rate curves of a pool's candidate trios against test size.

    Parameters
    ----------
    profile : FailureProfile
        From :func:`evalgebra.search.failure.failure_profile`.
    ax : matplotlib Axes, optional
    kinds : sequence of str
        Alarm kinds to draw (kinds the profile never saw are drawn at 0), ``rejected`` (any
        rejecting failure) and ``always_rejected`` (trios rejected on every test of a size).
    title : str, optional

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from evalgebra.search.failure import FailureProfile
    >>> profile = FailureProfile(
    ...     (100, 1000), 5, 20, {"complex": (0.3, 0.1), "rejected": (0.5, 0.2)}, (0.1, 0.05)
    ... )
    >>> ax = plot_failure_profile(profile, ax=Figure().subplots())
    >>> [line.get_label() for line in ax.get_lines()][:2]
    ['rejected (any failure)', 'complex']
    """
    ax = _axes(ax)
    sizes = np.asarray(profile.sizes, dtype=float)
    for kind in kinds:
        if kind == "always_rejected":
            values = np.asarray(profile.always_rejected, dtype=float)
        else:
            values = np.asarray(profile.rates.get(kind, (0.0,) * len(sizes)), dtype=float)
        label, colour, style = KIND_STYLES.get(kind, (kind, None, "-"))
        ax.plot(sizes, values, style, color=colour, marker="o", markersize=3, label=label)
    ax.set_xscale("log")
    _plain_ticks(ax.xaxis, sizes)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("test size (items)")
    ax.set_ylabel("fraction of candidate trios")
    ax.grid(True, alpha=0.3)
    default = f"{profile.n_candidates} candidate trios, {profile.repeats} tests per size"
    ax.set_title(title if title is not None else default)
    return ax


def plot_score_vs_error(
    scores: ArrayLike,
    errors: ArrayLike,
    ax: Any = None,
    best: int = 5,
    xlabel: str = "ranking score",
    ylabel: str = "true estimate error",
    title: str | None = None,
) -> Axes:
    r"""Scatter of a ranking score against the true error, the ``best`` lowest scores marked.

    Non-finite pairs are dropped; both axes are logarithmic when all values are positive.
    The legend gives Spearman's rank correlation (:func:`spearman`).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ax = plot_score_vs_error([0.1, 0.2, 0.3], [0.01, 0.05, 0.02], ax=Figure().subplots(), best=1)
    >>> ax.get_legend().get_texts()[0].get_text()
    'survivors (Spearman 0.50)'
    """
    ax = _axes(ax)
    x, y = np.asarray(scores, dtype=float), np.asarray(errors, dtype=float)
    keep = np.isfinite(x) & np.isfinite(y)
    x, y = x[keep], y[keep]
    rho = spearman(x, y)
    ax.scatter(x, y, s=12, alpha=0.6, color="tab:blue", label=f"survivors (Spearman {rho:.2f})")
    if best and len(x):
        top = np.argsort(x, kind="mergesort")[:best]
        ax.scatter(
            x[top], y[top], s=40, facecolors="none", edgecolors="tab:red", label=f"best {len(top)} by score"
        )
    if len(x) and (x > 0).all():
        ax.set_xscale("log")
        _plain_ticks(ax.xaxis, values=x)
    if len(y) and (y > 0).all():
        ax.set_yscale("log")
        _plain_ticks(ax.yaxis, values=y)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="best", fontsize="small")
    if title is not None:
        ax.set_title(title)
    return ax


def plot_error_groups(
    groups: Mapping[str, ArrayLike],
    ax: Any = None,
    ylabel: str = "true estimate error",
    title: str | None = None,
    log: bool = True,
) -> Axes:
    r"""Box plots of estimate errors per group (e.g. best-ranked trios vs all survivors).

    Each group's values are also drawn as points (evenly spread across the box), and its
    size is shown under its name. Empty groups are drawn empty.
    """
    ax = _axes(ax)
    names = list(groups)
    data = [np.asarray(groups[name], dtype=float) for name in names]
    data = [d[np.isfinite(d)] for d in data]
    positions = np.arange(1, len(names) + 1)
    filled = [k for k, d in enumerate(data) if len(d)]
    if filled:
        ax.boxplot([data[k] for k in filled], positions=positions[filled], widths=0.5, showfliers=False)
    for k, d in enumerate(data):
        if len(d):
            spread = np.linspace(-0.18, 0.18, len(d)) if len(d) > 1 else np.zeros(1)
            ax.scatter(positions[k] + spread, d, s=8, alpha=0.5, color="tab:blue")
    ax.set_xticks(positions)
    ax.set_xticklabels([f"{name}\n(n={len(d)})" for name, d in zip(names, data)], fontsize="small")
    if log and any(len(d) and (d > 0).all() for d in data):
        ax.set_yscale("log")
        _plain_ticks(ax.yaxis, values=np.concatenate(data))
    ax.set_ylabel(ylabel)
    ax.grid(True, axis="y", alpha=0.3)
    if title is not None:
        ax.set_title(title)
    return ax


def _statistics(point: Any, classifiers: Sequence[str], labels: Sequence[str]) -> list[float]:
    if hasattr(point, "prevalence_of"):  # an EvaluationPoint
        values = [point.prevalence_of()[labels[0]]]
        values += [point.accuracy(c, label) for c in classifiers for label in labels]
    else:
        values = [point.prevalence[labels[0]]]
        values += [point.accuracy[c][label] for c in classifiers for label in labels]
    return [float("nan") if v is None else float(v) for v in values]


def plot_estimate_vs_truth(
    estimate: Estimate,
    truth: Any,
    ax: Any = None,
    title: str | None = None,
) -> Axes:
    r"""One estimate's prevalence and accuracies against the true values (the diagonal is exact).

    Parameters
    ----------
    estimate : Estimate
        E.g. a search result's :attr:`~evalgebra.search.result.TrioResult.estimate`.
    truth : EvaluationPoint or Estimate
        The true values (e.g. :func:`evalgebra.data.point.evaluation_point` of the
        labelled sketch); must name the estimate's classifiers and labels.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from evalgebra.results import Estimate
    >>> guess = Estimate({"a": 0.3, "b": 0.7}, {"c1": {"a": 0.8, "b": 0.9}})
    >>> truth = Estimate({"a": 0.25, "b": 0.75}, {"c1": {"a": 0.85, "b": 0.9}})
    >>> ax = plot_estimate_vs_truth(guess, truth, ax=Figure().subplots())
    >>> [t.get_text() for t in ax.texts]
    ['P_a', 'c1 a', 'c1 b']
    """
    ax = _axes(ax)
    labels = list(estimate.prevalence)
    classifiers = list(estimate.accuracy)
    x = _statistics(truth, classifiers, labels)
    y = _statistics(estimate, classifiers, labels)
    names = [f"P_{labels[0]}"] + [f"{c} {label}" for c in classifiers for label in labels]
    low = min([v for v in x + y if np.isfinite(v)] + [1.0])
    ax.plot([min(low, 0.0), 1.0], [min(low, 0.0), 1.0], color="gray", linewidth=1)
    ax.scatter(x, y, s=25, color=["tab:red"] + ["tab:blue"] * (len(x) - 1))
    for xi, yi, name in zip(x, y, names):
        if np.isfinite(xi) and np.isfinite(yi):
            ax.annotate(name, (xi, yi), textcoords="offset points", xytext=(4, 4), fontsize="x-small")
    ax.set_xlabel("true value")
    ax.set_ylabel("estimated value")
    ax.set_aspect("equal", adjustable="datalim")
    ax.grid(True, alpha=0.3)
    if title is not None:
        ax.set_title(title)
    return ax
