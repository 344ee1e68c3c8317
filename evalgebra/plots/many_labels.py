r"""Pictures of an evaluation with three or more labels: the ``R!`` candidate points and the chosen one.

For three classifiers independent given the true label, the counts fix the evaluation only up
to a renaming of the hidden labels: the algebraic evaluator returns ``R!`` candidate points
(``docs/theory.md``, section on more than two labels) and a decoding rule chooses one.
:func:`plot_label_permutations` draws both halves of that story:

* left, the prevalences of every candidate: for ``R = 3`` points of the probability triangle
  (each a permutation of the same three numbers, so they lie on the orbit of the truth under
  the label permutations); for ``R > 3`` one line per candidate across the labels;
* right, every response rate ``P_{i,r|l}`` of the chosen point against the truth's (on the
  diagonal when the evaluation is exact and the decoding right), accuracies (``r = l``)
  filled, errors hollow.

matplotlib is imported inside the plotting function only; a :class:`matplotlib.figure.Figure`
is built directly (no pyplot state).

Examples
--------
>>> from evalgebra.spec import EnsembleSpec
>>> from evalgebra.data.point import EvaluationPoint
>>> from evalgebra.data.simulate import expected_sketch
>>> from evalgebra.evaluators.dispatch import evaluate
>>> rows = {"a": {"a": "7/10", "b": "1/5"}, "b": {"a": "1/10", "b": "4/5"}, "c": {"a": "1/5", "b": "1/10"}}
>>> truth = EvaluationPoint.from_values(EnsembleSpec(3, 3), {"a": "1/2", "b": "3/10"},
...                                     response={i: rows for i in range(3)})
>>> result = evaluate(expected_sketch(truth).unlabelled())
>>> fig = plot_label_permutations(result, truth)
>>> len(fig.axes), len(fig.axes[0].collections[0].get_offsets())
(2, 6)

References
----------
.. [1] A. Corrada-Emmanuel, "Algebraic Evaluation Theorems": the independent evaluation
   variety and its label-swap points.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from evalgebra.data.point import EvaluationPoint
from evalgebra.errors import SpecError
from evalgebra.results import Evaluation

__all__ = ["plot_label_permutations", "simplex_xy"]

#: The corners of the probability triangle (labels 0, 1, 2) in the plane.
CORNERS = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, np.sqrt(3.0) / 2.0]])
_MARKERS = ("o", "s", "^", "D", "v", "P")


def simplex_xy(prevalences: Any) -> np.ndarray:
    r"""Plane coordinates of points of the probability triangle (rows of three prevalences).

    >>> simplex_xy([[1, 0, 0], [0, 0, 1]]).round(3).tolist()
    [[0.0, 0.0], [0.5, 0.866]]
    """
    weights = np.asarray(prevalences, dtype=float).reshape(-1, 3)
    return np.asarray(weights @ CORNERS)


def _float(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):  # undefined or complex
        return float("nan")


def plot_label_permutations(
    result: Evaluation, truth: EvaluationPoint | None = None, figsize: Any = (9.0, 4.2)
) -> Any:
    r"""The candidate points of a many-label evaluation and the chosen point against the truth.

    Parameters
    ----------
    result : Evaluation
        An evaluation with three or more labels (``evaluate(sketch)`` with ``R >= 3``).
    truth : EvaluationPoint, optional
        The labelled test's point (an exact simulation, or ``evaluation_point`` of a labelled
        sketch): drawn as a star on the left and as the horizontal axis on the right. Without
        it the right panel shows the chosen point's response matrices as a table of rates.
    figsize : (float, float)

    Returns
    -------
    matplotlib.figure.Figure
        Two axes: the candidates' prevalences, and the chosen point's response rates.

    Raises
    ------
    SpecError
        Fewer than three labels, or no candidate points (see the result's alarms).
    """
    from evalgebra.plots.figure import new_figure

    labels = list(result.labels)
    if len(labels) < 3:
        raise SpecError(f"plot_label_permutations draws three or more labels; this evaluation has {labels}")
    if not result.points:
        kinds = ", ".join(sorted(result.alarm_kinds())) or "none"
        raise SpecError(f"this evaluation has no candidate points to draw (alarms: {kinds})")
    fig = new_figure(figsize=figsize)
    left, right = fig.subplots(1, 2)
    fit = result.fit
    exact_points = (
        result.points if fit is None else result.points[: fit.fitted_index]
    )  # the permutations only
    prevalences = np.array([[_float(p.prevalence[label]) for label in labels] for p in exact_points])
    chosen = result.chosen if result.chosen is not None and result.chosen < len(exact_points) else None
    true_prevalence = None if truth is None else [_float(truth.prevalence_of()[label]) for label in labels]
    if len(labels) == 3:
        _triangle(left, labels, prevalences, chosen, true_prevalence)
    else:
        _lines(left, labels, prevalences, chosen, true_prevalence)
    left.set_title(f"{len(exact_points)} candidate points (label permutations)")
    point = result.point
    if point is None:
        right.text(0.5, 0.5, "no point chosen\n(see the alarms)", ha="center", va="center")
        right.set_axis_off()
        return fig
    rows = point.response_rows()
    if truth is None:
        _matrices(right, labels, rows)
        return fig
    for k, (c, by_truth) in enumerate(rows.items()):
        true_rates, estimates, diagonal = [], [], []
        for ell in labels:
            for r in labels:
                true_rates.append(_float(truth.response_rate(c, r, ell)))
                estimates.append(_float(by_truth[ell][r]))
                diagonal.append(r == ell)
        x, y, on = np.array(true_rates), np.array(estimates), np.array(diagonal)
        marker, size = _MARKERS[k % len(_MARKERS)], max(90 - 25 * k, 15)  # overlapping marks stay visible
        dots = right.scatter(x[on], y[on], s=size, marker=marker, label=f"{c} accuracy")
        right.scatter(
            x[~on],
            y[~on],
            s=size,
            marker=marker,
            facecolors="none",
            edgecolors=dots.get_facecolor(),
            label=f"{c} errors",
        )
    right.plot([0, 1], [0, 1], color="0.6", lw=0.8, zorder=0)
    right.set_xlim(0, 1)
    right.set_ylim(0, 1)
    right.set_aspect("equal")
    right.set_xlabel("true response rate  P(answer r | true label l)")
    right.set_ylabel("chosen point's estimate")
    right.set_title("chosen point against the truth")
    right.legend(fontsize=7, loc="lower right", ncol=2)
    return fig


def _triangle(
    ax: Any, labels: list[str], prevalences: np.ndarray, chosen: int | None, truth: list[float] | None
) -> None:
    outline = np.vstack([CORNERS, CORNERS[:1]])
    ax.plot(outline[:, 0], outline[:, 1], color="0.3", lw=0.8)
    for corner, label in zip(CORNERS, labels):
        ax.annotate(
            f"all {label}",
            corner,
            textcoords="offset points",
            xytext=(0, -12 if corner[1] == 0 else 5),
            ha="center",
            fontsize=8,
        )
    xy = simplex_xy(prevalences)
    ax.scatter(xy[:, 0], xy[:, 1], s=40, color="#1f77b4", label="candidate points")
    for k, (x, y) in enumerate(xy):
        ax.annotate(str(k), (x, y), textcoords="offset points", xytext=(5, 3), fontsize=7)
    if chosen is not None:
        ax.scatter(
            xy[chosen, 0],
            xy[chosen, 1],
            s=160,
            facecolors="none",
            edgecolors="#d62728",
            lw=1.6,
            label=f"chosen (point {chosen})",
        )
    if truth is not None:
        star = simplex_xy(truth)[0]
        ax.scatter(star[0], star[1], marker="*", s=90, color="#2ca02c", zorder=3, label="truth")
    ax.set_aspect("equal")
    ax.set_axis_off()
    ax.legend(fontsize=7, loc="upper left")


def _lines(
    ax: Any, labels: list[str], prevalences: np.ndarray, chosen: int | None, truth: list[float] | None
) -> None:
    x = np.arange(len(labels))
    for k, row in enumerate(prevalences):
        ax.plot(x, row, color="#1f77b4", alpha=0.25, lw=0.8, label="candidate points" if k == 0 else None)
    if chosen is not None:
        ax.plot(x, prevalences[chosen], color="#d62728", lw=1.8, label=f"chosen (point {chosen})")
    if truth is not None:
        ax.plot(x, truth, "*", color="#2ca02c", ms=10, label="truth")
    ax.set_xticks(x, [f"P_{label}" for label in labels])
    ax.set_ylabel("prevalence")
    ax.legend(fontsize=7)


def _matrices(ax: Any, labels: list[str], rows: dict[str, dict[str, dict[str, Any]]]) -> None:
    blocks = [
        np.array([[_float(by_truth[ell][r]) for r in labels] for ell in labels]) for by_truth in rows.values()
    ]
    image = np.hstack(blocks)
    ax.imshow(image, vmin=0, vmax=1, cmap="Blues")
    for k in range(1, len(blocks)):  # one block per classifier
        ax.axvline(k * len(labels) - 0.5, color="white", lw=3)
    ax.set_yticks(range(len(labels)), [f"true {label}" for label in labels])
    ax.set_xticks(range(image.shape[1]), [f"{c}: {r}" for c in rows for r in labels], rotation=90, fontsize=7)
    ax.set_title("chosen point: P(answer | true label)")
