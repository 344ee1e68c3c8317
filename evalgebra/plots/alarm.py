r"""Pictures of the logical alarm (the logical-alarm paper, Figure 4) and of alarm rates.

:func:`plot_alarm_trace` draws, for every subset of an ensemble, the assumed values of
``Q_a`` (true-``a`` items, ``0..Q``) at which every member can still meet the safety
specification (green) and those at which it cannot (red): a subset whose row is red
throughout fires the alarm. :func:`plot_accuracy_bands` shows why, one classifier at a
time: at each assumed ``Q_a`` the single-classifier axiom leaves a range of possible
accuracies on each label (the logical-alarm paper, eqs. 7-9); a classifier can meet "better than 1/2"
only where its ranges reach above the threshold on both labels. :func:`plot_alarm_rates`
draws how often each alarm kind is raised as a parameter is swept (failure-rate curves).
:func:`plot_accuracy_ranges` draws each classifier's exact accuracy range on each label over
every labelled test consistent with the counts, with and without the specification.

matplotlib is imported inside the plotting functions only. Plots build a
:class:`matplotlib.figure.Figure` directly (no pyplot state); pass ``ax``/``axes`` to draw
into your own figure.

Examples
--------
>>> from evalgebra import datasets
>>> fig = plot_alarm_trace(datasets.load("bigbench_mistake"))
>>> [t.get_text() for t in fig.axes[0].get_yticklabels() if t.get_text().endswith("(fires)")]
['claude_haiku, mistral_large, gpt4_turbo  (fires)', 'mistral_large, gpt4_turbo  (fires)']

References
----------
.. [1] A. Corrada-Emmanuel, I. Parker and R. Bharadwaj, "A logical alarm for misaligned binary
   classifiers": section 3, Figure 4
   (logical traces of the alarm on the BIG-Bench-Mistake graders), eqs. 7-9, 35-40.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from evalgebra.alarm.logical import axiom_segments, logical_alarm
from evalgebra.alarm.report import AlarmReport
from evalgebra.alarm.safety import SafetySpec
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError, SpecError

__all__ = [
    "plot_alarm_trace",
    "plot_accuracy_bands",
    "plot_accuracy_ranges",
    "plot_alarm_rates",
    "MEETS",
    "FAILS",
    "PALETTE",
]

#: Colours: feasible (the specification can be met), infeasible.
MEETS, FAILS = "#2ca02c", "#d62728"
#: Classifier colours (matplotlib's tab10 without its green and red).
PALETTE = ("#1f77b4", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f")
#: Colours of the alarm kinds in :func:`plot_alarm_rates`.
KIND_COLOURS = {
    "complex": "#9467bd",
    "irrational": "#1f77b4",
    "outside_unit_cube": "#ff7f0e",
    "blind_spot": "#7f7f7f",
    "empty_variety": "#8c564b",
    "trio_disagreement": "#e377c2",
    "misaligned": "#d62728",
}


def _new_axes(ax: Any, count: int, width: float, height: float) -> tuple[Any, list[Any]]:
    if ax is None:
        from evalgebra.plots.figure import new_figure

        fig = new_figure(figsize=(width, height))
        return fig, list(np.atleast_1d(fig.subplots(1, count)))
    axes = list(np.atleast_1d(ax))
    if len(axes) != count:
        raise SpecError(f"need {count} axes, got {len(axes)}")
    return axes[0].figure, axes


def _true_qa(sketch: Sketch) -> int | None:
    if not sketch.is_labelled:
        return None
    return sketch.pooled().label_counts()[sketch.labels[0]]


def plot_alarm_trace(
    source: Sketch | AlarmReport,
    spec: SafetySpec | None = None,
    subsets: Sequence[Sequence[str | int]] | None = None,
    ax: Any = None,
    true_qa: int | None = None,
) -> Any:
    r"""The logical-alarm paper's Figure 4: where each subset can meet the specification, over every ``Q_a``.

    One row per subset of the report (top to bottom in the report's order: singletons,
    pairs, ...): green where some evaluation consistent with the counts lets every member
    meet the specification at that assumed ``Q_a``, red where none does. A row red from
    ``0`` to ``Q`` is a subset on which the alarm fires; its label says so. Each row's bars
    are a collection labelled ``"_infeasible: <members>"`` (the red background) and
    ``"_feasible: <members>"`` (the green intervals, absent when the subset fires).

    Parameters
    ----------
    source : Sketch or AlarmReport
        A sketch is run through :func:`~evalgebra.alarm.logical.logical_alarm` with
        ``spec`` and ``subsets``; a report is drawn as it is.
    spec : SafetySpec, optional
        Default ``SafetySpec()``. Only with a sketch.
    subsets : list of collections of classifier names or indices, optional
        Default every subset. Only with a sketch.
    ax : matplotlib Axes, optional
        Default a new figure.
    true_qa : int, optional
        Mark this ``Q_a`` (dashed line); default the true one of a labelled sketch.

    Returns
    -------
    matplotlib.figure.Figure
    """
    if isinstance(source, AlarmReport):
        if spec is not None or subsets is not None:
            raise SpecError("spec and subsets are given to logical_alarm; a report already has them")
        report = source
    elif isinstance(source, Sketch):
        report = logical_alarm(source, spec, subsets)
        if true_qa is None:
            true_qa = _true_qa(source)
    else:
        raise SketchError(f"need a Sketch or an AlarmReport, got {type(source).__name__}")
    rows = report.subsets
    fig, (axis,) = _new_axes(ax, 1, 8.0, 0.45 * len(rows) + 1.4)
    total = report.Q
    for k, row in enumerate(rows):
        level = len(rows) - 1 - k
        members = ", ".join(row.classifiers)
        axis.broken_barh(
            [(-0.5, total + 1)],
            (level - 0.35, 0.7),
            facecolors=FAILS,
            edgecolors="none",
            label=f"_infeasible: {members}",
        )
        if row.feasible_Qa:
            axis.broken_barh(
                [(lo - 0.5, hi - lo + 1) for lo, hi in row.feasible_Qa],
                (level - 0.35, 0.7),
                facecolors=MEETS,
                edgecolors="none",
                label=f"_feasible: {members}",
            )
    axis.set_yticks(range(len(rows)))
    axis.set_yticklabels(
        [", ".join(r.classifiers) + ("  (fires)" if r.fires else "") for r in reversed(rows)]
    )
    for tick, row in zip(axis.get_yticklabels(), reversed(rows)):
        if row.fires:
            tick.set_color(FAILS)
            tick.set_fontweight("bold")
    if true_qa is not None:
        axis.axvline(true_qa, color="black", linestyle="--", linewidth=1.0, label=f"true $Q_a = {true_qa}$")
        axis.legend(loc="upper right", fontsize="small", framealpha=0.9)
    axis.set_xlim(-0.5, total + 0.5)
    axis.set_ylim(-0.6, len(rows) - 0.4)
    axis.set_xlabel(f"assumed $Q_a$ (items of true label {report.labels[0]!r}), Q = {total}")
    title = (
        f"Logical alarm trace, specification: {report.spec.describe()}\n"
        "green: every member can meet it at this $Q_a$; red: not all can"
    )
    if ax is None:
        fig.suptitle(title, fontsize="medium")
    else:
        axis.set_title(title, fontsize="medium")
    return fig


def plot_accuracy_bands(
    sketch: Sketch,
    classifiers: Sequence[str | int] | None = None,
    spec: SafetySpec | None = None,
    axes: Any = None,
    show_truth: bool = True,
) -> Any:
    r"""Each classifier's possible accuracy on each label at every assumed ``Q_a``.

    At ``Q_a`` the single-classifier axiom leaves ``lo <= R_{a_i,a} <= hi``
    (:func:`~evalgebra.alarm.logical.axiom_segments`), so the accuracy on ``a`` lies in
    ``[lo / Q_a, hi / Q_a]`` and, with ``R_{b_i,b} = Q_b - R_{a_i} + R_{a_i,a}``, the
    accuracy on ``b`` in ``[(Q_b - R_{a_i} + lo) / Q_b, (Q_b - R_{a_i} + hi) / Q_b]``. Left
    panel label ``a``, right panel label ``b``; one band per classifier, the
    specification's per-label threshold dotted. On a labelled sketch the true accuracies
    are marked at the true ``Q_a``.

    Parameters
    ----------
    sketch : Sketch
        Two labels; populations pooled.
    classifiers : names or indices, optional
        Default every classifier.
    spec : SafetySpec, optional
        Default ``SafetySpec()``; its ``min_accuracy`` is drawn.
    axes : pair of matplotlib Axes, optional
    show_truth : bool

    Returns
    -------
    matplotlib.figure.Figure
    """
    if not isinstance(sketch, Sketch) or sketch.n_labels != 2:
        raise SketchError("plot_accuracy_bands needs a Sketch of binary classifiers")
    spec = SafetySpec() if spec is None else spec
    if not isinstance(spec, SafetySpec):
        raise SpecError(f"spec must be a SafetySpec, got {type(spec).__name__}")
    names = (
        list(sketch.classifiers)
        if classifiers is None
        else [sketch.classifiers[sketch.spec().classifier_index(c)] for c in classifiers]
    )
    pooled = sketch.pooled().unlabelled()
    total = sketch.Q
    q_a = np.arange(total + 1)
    q_b = total - q_a
    fig, (left, right) = _new_axes(axes, 2, 10.0, 4.0)
    a, b = sketch.labels
    truth = sketch.pooled() if sketch.is_labelled and show_truth else None
    with np.errstate(divide="ignore", invalid="ignore"):
        for name in names:
            colour = PALETTE[sketch.classifiers.index(name) % len(PALETTE)]
            r_a = sum(c for p, c in pooled.marginalise([name]).counts().items() if p[0] == a)
            lo, hi = (v.astype(float) for v in axiom_segments(pooled, name))
            on_a = q_a > 0
            on_b = q_b > 0
            bands = (
                (left, q_a[on_a], (lo / q_a)[on_a], (hi / q_a)[on_a]),
                (right, q_a[on_b], ((q_b - r_a + lo) / q_b)[on_b], ((q_b - r_a + hi) / q_b)[on_b]),
            )
            for axis, where, low, high in bands:
                axis.fill_between(where, low, high, color=colour, alpha=0.18, linewidth=0)
                axis.plot(where, low, color=colour, linewidth=1.2, label=f"{name} ($R_{{a_i}} = {r_a}$)")
                axis.plot(where, high, color=colour, linewidth=1.2)
            if truth is not None:
                by_label = truth.marginalise([name]).by_true_label()
                true_a, true_b = sum(by_label[a].values()), sum(by_label[b].values())
                if true_a:
                    left.scatter(
                        [true_a],
                        [by_label[a].get((a,), 0) / true_a],
                        marker="*",
                        s=110,
                        color=colour,
                        edgecolors="black",
                        zorder=4,
                    )
                if true_b:
                    right.scatter(
                        [true_a],
                        [by_label[b].get((b,), 0) / true_b],
                        marker="*",
                        s=110,
                        color=colour,
                        edgecolors="black",
                        zorder=4,
                    )
    for axis, label in ((left, a), (right, b)):
        if spec.min_accuracy is not None:
            axis.axhline(
                float(spec.min_accuracy),
                color="black",
                linestyle=":",
                linewidth=1.0,
                label=f"threshold {spec.min_accuracy}",
            )
        axis.set_xlim(0, total)
        axis.set_ylim(-0.02, 1.02)
        axis.set_xlabel("assumed $Q_a$")
        axis.set_ylabel(f"possible accuracy on label {label!r}")
    handles, labels = left.get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=min(len(labels), 4), fontsize="small")
    fig.suptitle(
        "What the single-classifier axiom leaves of each accuracy"
        + ("  (stars: the truth)" if truth is not None else ""),
        fontsize="medium",
    )
    return fig


def plot_accuracy_ranges(
    sketch: Sketch,
    spec: SafetySpec | None = None,
    classifiers: Sequence[str | int] | None = None,
    axes: Any = None,
    show_truth: bool = True,
) -> Any:
    r"""Each classifier's exact accuracy range on each label, from the counts alone.

    One panel per label, one row per classifier. The grey bar is the least and greatest
    accuracy ``P_{i,l|l}`` over every labelled test consistent with the counts; the coloured
    bar the same over the labelled tests under which the classifier meets ``spec`` (absent,
    and the row marked ``fires``, when none does). Both come from
    :func:`~evalgebra.alarm.logical.logical_alarm` with ``accuracy=True`` (exact optima with
    witnesses and certificates). The specification's per-label threshold is dotted; on a
    labelled sketch a star marks the true accuracy.

    Parameters
    ----------
    sketch : Sketch
        Any number of labels; populations pooled.
    spec : SafetySpec, optional
        Default ``SafetySpec()``.
    classifiers : names or indices, optional
        Default every classifier.
    axes : sequence of matplotlib Axes, optional
        One per label; default a new figure.
    show_truth : bool

    Returns
    -------
    PlotFigure

    Examples
    --------
    >>> from evalgebra.data.sketch import Sketch
    >>> fig = plot_accuracy_ranges(Sketch.from_counts({"aa": 3, "ab": 1, "bb": 2}, labels=["a", "b"]))
    >>> [t.get_text() for t in fig.axes[0].get_yticklabels()]
    ['c1', 'c0']
    """
    if not isinstance(sketch, Sketch):
        raise SketchError(f"plot_accuracy_ranges needs a Sketch, got {type(sketch).__name__}")
    spec = SafetySpec() if spec is None else spec
    if not isinstance(spec, SafetySpec):
        raise SpecError(f"spec must be a SafetySpec, got {type(spec).__name__}")
    names = (
        list(sketch.classifiers)
        if classifiers is None
        else [sketch.classifiers[sketch.spec().classifier_index(c)] for c in classifiers]
    )
    pooled = sketch.pooled()
    singles = [[name] for name in names]
    free = logical_alarm(pooled.unlabelled(), SafetySpec(None), singles, prevalences=False, accuracy=True)
    meeting = logical_alarm(pooled.unlabelled(), spec, singles, prevalences=False, accuracy=True)
    labels = list(sketch.labels)
    fig, panels = _new_axes(axes, len(labels), 3.6 * len(labels) + 1.0, 0.5 * len(names) + 1.6)
    truth = pooled if pooled.is_labelled and show_truth else None
    for ell, (axis, label) in enumerate(zip(panels, labels)):
        for k, name in enumerate(names):
            level = len(names) - 1 - k
            colour = PALETTE[sketch.classifiers.index(name) % len(PALETTE)]
            for report, height, style in (
                (free, 0.7, {"color": "#d0d0d0"}),
                (meeting, 0.36, {"color": colour}),
            ):
                ranges = report.result(name).accuracy
                lo, hi = (None, None) if ranges is None else ranges[name][label]
                if lo is not None and hi is not None:
                    axis.broken_barh(
                        [(float(lo), max(float(hi - lo), 0.004))],
                        (level - height / 2, height),
                        label=f"_{'meets' if report is meeting else 'counts'}: {name}",
                        **style,
                    )
            if truth is not None:
                cells = truth.marginalise([name]).by_true_label().get(label, {})
                size = sum(cells.values())
                if size:
                    axis.scatter(
                        [cells.get((label,), 0) / size],
                        [level],
                        marker="*",
                        s=110,
                        color=colour,
                        edgecolors="black",
                        zorder=4,
                    )
        t = spec.threshold(names[0], label) if names else None
        if t is not None and all(spec.threshold(n, label) == t for n in names):
            axis.axvline(float(t), color="black", linestyle=":", linewidth=1.0)
        axis.set_xlim(-0.02, 1.02)
        axis.set_ylim(-0.6, len(names) - 0.4)
        axis.set_yticks(range(len(names)))
        axis.set_yticklabels([n + ("  (fires)" if meeting.result(n).fires else "") for n in reversed(names)])
        axis.set_xlabel(f"accuracy on label {label!r}")
        if ell:
            axis.tick_params(labelleft=False)
    fig.suptitle(
        f"Exact accuracy ranges from the counts alone (grey: any answer key; colour: answer keys under "
        f"which the classifier meets {spec.describe()})"
        + ("; stars: the truth" if truth is not None else ""),
        fontsize="medium",
        wrap=True,
    )
    return fig


def plot_alarm_rates(
    x: Sequence[float],
    rates: Mapping[str, Sequence[float]],
    xlabel: str = "",
    ax: Any = None,
    title: str | None = None,
) -> Any:
    r"""Failure-rate curves: the fraction of sketches raising each alarm kind against a parameter.

    Parameters
    ----------
    x : sequence of float
        The swept parameter (a correlation, a test size, ...).
    rates : mapping kind -> sequence of float
        For each alarm kind (``"complex"``, ``"irrational"``, ...; any name is drawn), the
        fraction of sketches raising it at each ``x``, in ``[0, 1]``.
    xlabel : str
    ax : matplotlib Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> fig = plot_alarm_rates(
    ...     [0, 0.1, 0.2], {"complex": [0.0, 0.2, 0.5], "outside_unit_cube": [0.1, 0.3, 0.6]}
    ... )
    >>> [line.get_label() for line in fig.axes[0].get_lines()]
    ['complex', 'outside_unit_cube']
    """
    values = np.asarray(x, dtype=float)
    if values.ndim != 1 or not len(values):
        raise SpecError("x must be a non-empty sequence of numbers")
    if not isinstance(rates, Mapping) or not rates:
        raise SpecError("rates must map alarm kinds to sequences of fractions")
    fig, (axis,) = _new_axes(ax, 1, 6.4, 4.0)
    for k, (kind, series) in enumerate(rates.items()):
        ys = np.asarray(series, dtype=float)
        if ys.shape != values.shape:
            raise SpecError(f"rates[{kind!r}] has {ys.size} values for {values.size} x values")
        if ((ys < 0) | (ys > 1)).any():
            raise SpecError(f"rates[{kind!r}] must lie in [0, 1]")
        colour = KIND_COLOURS.get(kind, PALETTE[k % len(PALETTE)])
        axis.plot(values, ys, marker="o", markersize=4, color=colour, label=kind)
    axis.set_ylim(-0.02, 1.02)
    axis.set_xlabel(xlabel)
    axis.set_ylabel("fraction of sketches raising the alarm")
    axis.grid(alpha=0.3)
    axis.legend(fontsize="small")
    if title:
        axis.set_title(title, fontsize="medium")
    return fig
