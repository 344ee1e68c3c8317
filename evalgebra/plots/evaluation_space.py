r"""Pictures of the sets of possible evaluations (the logical-alarm paper, Figures 1 and 2).

A binary classifier's evaluation on a test of ``Q`` items is the triple
``(R_{a_i,a}, R_{b_i,b}, Q_a)``: how many true-``a`` items it labelled ``a``, how many
true-``b`` items it labelled ``b``, and how many items are true ``a``. Before anything is
observed every lattice point of the tetrahedron ``0 <= R_{a_i,a} <= Q_a``,
``0 <= R_{b_i,b} <= Q - Q_a`` is possible (``(Q+1)(Q+2)(Q+3)/6`` points). Once the
classifier's answers are counted (``R_{a_i}`` items labelled ``a``), the single-classifier
axiom ``R_{b_i,b} = Q - Q_a - R_{a_i} + R_{a_i,a}`` leaves a plane,
cut by the tetrahedron to a polygon: :func:`plot_axiom_planes` (Figure 1).

At one assumed ``Q_a`` a pair's evaluations live in two squares, one per label: label
``a`` in ``(R_{a_i,a}, R_{a_j,a})``, label ``b`` in ``(R_{b_i,b}, R_{b_j,b})``. The two
single-classifier axioms cut each square to a rectangle, and the pair relation cuts its
corners (the octagon of :mod:`evalgebra.alarm.logical`). Colouring each remaining point
by whether both members meet a safety specification on that label gives Figure 2:
:func:`pair_evaluations` computes the points, :func:`plot_pair_evaluations` draws them.

matplotlib is imported inside the plotting functions only, so the data functions (and the
rest of evalgebra) work without it. Plots build a :class:`matplotlib.figure.Figure`
directly (no pyplot state); pass ``ax``/``axes`` to draw into your own figure.

Examples
--------
The hypothetical pair of the logical-alarm paper's Figure 2 (``Q = 100``, ``R_{a_1} = 60``,
``R_{a_2} = 20``) at ``Q_a = 60``: no evaluation meets "better than 1/2" on label ``a``,
some do on label ``b``.

>>> from evalgebra.data.sketch import Sketch
>>> toy = Sketch.from_counts({"aa": 20, "ab": 40, "bb": 40}, labels=["a", "b"])
>>> pts = pair_evaluations(toy, 60, cuts=False)
>>> pts.rectangle, len(pts.x), int(pts.meets_a.sum()), int(pts.meets_b.sum())
(((20, 60), (0, 20)), 861, 0, 400)

References
----------
.. [1] A. Corrada-Emmanuel, I. Parker and R. Bharadwaj, "A logical alarm for misaligned binary
   classifiers": Figure 1 (the
   single-classifier axiom in ``(R_{a_i,a}, R_{b_i,b}, Q_a)`` space), Figure 2 (a pair's
   evaluations at fixed ``Q_a``), eqs. 7-9 and appendix A.2 (eqs. 25-33).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from evalgebra.alarm.logical import axiom_segments
from evalgebra.alarm.safety import SafetySpec
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError, SpecError
from evalgebra.plots.alarm import FAILS, MEETS, PALETTE

__all__ = ["PairEvaluations", "pair_evaluations", "plot_axiom_planes", "plot_pair_evaluations"]

#: Colour of the background lattice (the others are the alarm plots' own).
LATTICE = "#c7c7c7"
#: Largest background lattice drawn point by point; beyond, only its outline.
_MAX_LATTICE = 25_000


def _binary(sketch: Any) -> Sketch:
    if not isinstance(sketch, Sketch):
        raise SketchError(f"need a Sketch, got {type(sketch).__name__}")
    if sketch.n_labels != 2:
        raise SketchError(
            f"evaluation spaces are drawn for binary classifiers (R = 2); this sketch has "
            f"{sketch.n_labels} labels {list(sketch.labels)}"
        )
    return sketch


def _names(sketch: Sketch, classifiers: Sequence[str | int] | None) -> list[str]:
    if classifiers is None:
        return list(sketch.classifiers)
    if isinstance(classifiers, (str, bytes)):
        raise SpecError(f"classifiers must be a collection of names or indices, e.g. [{classifiers!r}]")
    spec = sketch.spec()
    return [sketch.classifiers[spec.classifier_index(c)] for c in classifiers]


def _above(count: np.ndarray, threshold: Fraction, size: int, strict: bool) -> np.ndarray:
    """``count > threshold * size`` elementwise, exactly (``>=`` when not strict)."""
    value = count * threshold.denominator - threshold.numerator * size
    return np.asarray(value > 0 if strict else value >= 0, dtype=bool)


@dataclass(frozen=True)
class PairEvaluations:
    r"""Every integer evaluation of a pair consistent with its counts at one assumed ``Q_a``.

    Attributes
    ----------
    classifiers : tuple of str
        The pair ``(i, j)``.
    Q, q_a : int
        Test size and the assumed number of true-``a`` items (``Q_b = Q - q_a``).
    x : numpy.ndarray, shape (k, 2)
        ``(R_{a_i,a}, R_{a_j,a})`` of every consistent evaluation (label ``a`` space).
    y : numpy.ndarray, shape (k, 2)
        The same evaluations in label ``b`` space, ``(R_{b_i,b}, R_{b_j,b})``; by the
        single-classifier axiom ``y = Q_b - R_a + x`` row by row.
    meets_a, meets_b : numpy.ndarray of bool, shape (k,)
        Both members meet the specification's per-label threshold on ``a`` (on ``b``);
        when the specification has a total-accuracy threshold, both also meet that.
    rectangle : ((int, int), (int, int))
        ``(lo, hi)`` of ``R_{a_i,a}`` and of ``R_{a_j,a}`` left by the single-classifier
        axioms alone (the logical-alarm paper, eq. 8).
    table : (int, int, int, int)
        The pair's observed counts ``(n_aa, n_ab, n_ba, n_bb)``, classifier ``i`` first.
    cuts : bool
        Whether the pair relation's corner cuts were applied.
    spec : SafetySpec
    """

    classifiers: tuple[str, str]
    Q: int  # noqa: N815 - the paper's name
    q_a: int
    x: np.ndarray
    y: np.ndarray
    meets_a: np.ndarray
    meets_b: np.ndarray
    rectangle: tuple[tuple[int, int], tuple[int, int]]
    table: tuple[int, int, int, int]
    cuts: bool
    spec: SafetySpec

    @property
    def q_b(self) -> int:
        """``Q - Q_a``."""
        return self.Q - self.q_a

    @property
    def r_a(self) -> tuple[int, int]:
        """``(R_{a_i}, R_{a_j})``: items each member labelled ``a``."""
        n_aa, n_ab, n_ba, _ = self.table
        return n_aa + n_ab, n_aa + n_ba

    def rectangle_b(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """The single-axiom rectangle in label ``b`` space, ``(lo, hi)`` of ``R_{b_i,b}``, ``R_{b_j,b}``."""
        return tuple(
            (self.q_b - r + lo, self.q_b - r + hi)  # type: ignore[return-value]
            for r, (lo, hi) in zip(self.r_a, self.rectangle)
        )


def pair_evaluations(
    sketch: Sketch,
    q_a: int,
    classifiers: Sequence[str | int] = (0, 1),
    spec: SafetySpec | None = None,
    cuts: bool = True,
) -> PairEvaluations:
    r"""The lattice of a pair's evaluations consistent with its counts at ``Q_a = q_a``.

    Parameters
    ----------
    sketch : Sketch
        Two labels (the first plays ``a``); populations are pooled and an answer key is
        ignored.
    q_a : int
        Assumed number of true-``a`` items, ``0 <= q_a <= Q``.
    classifiers : pair of names or indices
    spec : SafetySpec, optional
        Default ``SafetySpec()`` (better than 1/2 on each label, strictly).
    cuts : bool
        Apply the pair relation (the logical-alarm paper, eqs. 25-33: every corner cut of
        :mod:`evalgebra.alarm.logical`); ``False`` keeps the rectangle of the two
        single-classifier axioms, as the logical-alarm paper's Figure 2 draws it.

    Returns
    -------
    PairEvaluations

    Examples
    --------
    Two classifiers that never agree: on every item exactly one of them is right, so the
    pair relation leaves only ``R_{a_i,a} + R_{a_j,a} = Q_a``, and they cannot both be right
    on more than half of either label:

    >>> from evalgebra.data.sketch import Sketch
    >>> never = Sketch.from_counts({"ab": 6, "ba": 4}, labels=["a", "b"])
    >>> pts = pair_evaluations(never, 5)
    >>> pts.x.tolist(), bool(pts.meets_a.any()), bool(pts.meets_b.any())
    ([[1, 4], [2, 3], [3, 2], [4, 1], [5, 0]], False, False)
    """
    sketch = _binary(sketch)
    spec = SafetySpec() if spec is None else spec
    if not isinstance(spec, SafetySpec):
        raise SpecError(f"spec must be a SafetySpec, got {type(spec).__name__}")
    names = _names(sketch, classifiers)
    if len(names) != 2 or names[0] == names[1]:
        raise SpecError(f"need two distinct classifiers, got {list(classifiers)!r}")
    total = sketch.Q
    if isinstance(q_a, bool) or not isinstance(q_a, (int, np.integer)) or not 0 <= q_a <= total:
        raise SpecError(f"q_a must be an integer in 0..{total}, got {q_a!r}")
    q_a, q_b = int(q_a), total - int(q_a)
    pair = sketch.pooled().unlabelled().marginalise(names).counts()
    a, b = sketch.labels
    n_aa, n_ab, n_ba, n_bb = (pair.get(k, 0) for k in ((a, a), (a, b), (b, a), (b, b)))
    r_a = np.array([n_aa + n_ab, n_aa + n_ba], dtype=np.int64)
    bounds = []
    for name in names:
        lo, hi = axiom_segments(sketch, name)
        bounds.append((int(lo[q_a]), int(hi[q_a])))
    grid_i, grid_j = np.meshgrid(
        np.arange(bounds[0][0], bounds[0][1] + 1, dtype=np.int64),
        np.arange(bounds[1][0], bounds[1][1] + 1, dtype=np.int64),
        indexing="ij",
    )
    x = np.column_stack([grid_i.ravel(), grid_j.ravel()])
    if cuts:
        keep = (
            (x[:, 0] + x[:, 1] >= q_a - n_bb)
            & (x[:, 0] + x[:, 1] <= q_a + n_aa)
            & (x[:, 0] - x[:, 1] <= n_ab)
            & (x[:, 1] - x[:, 0] <= n_ba)
        )
        x = x[keep]
    y = q_b - r_a + x
    meets_a: np.ndarray = np.ones(len(x), dtype=bool)
    meets_b: np.ndarray = np.ones(len(x), dtype=bool)
    if spec.min_accuracy is not None:
        meets_a = np.asarray(_above(x, spec.min_accuracy, q_a, spec.strict).all(axis=1))
        meets_b = np.asarray(_above(y, spec.min_accuracy, q_b, spec.strict).all(axis=1))
    if spec.min_total_accuracy is not None:
        whole = np.asarray(_above(x + y, spec.min_total_accuracy, total, spec.strict).all(axis=1))
        meets_a, meets_b = meets_a & whole, meets_b & whole
    return PairEvaluations(
        (names[0], names[1]),
        total,
        q_a,
        x,
        y,
        meets_a,
        meets_b,
        (bounds[0], bounds[1]),
        (n_aa, n_ab, n_ba, n_bb),
        bool(cuts),
        spec,
    )


# -- drawing --------------------------------------------------------------------------------
def _axes_row(axes: Any, count: int, width: float, height: float) -> tuple[Any, list[Any]]:
    """``count`` axes side by side: the caller's, or a new figure's."""
    if axes is None:
        from evalgebra.plots.figure import new_figure

        fig = new_figure(figsize=(width * count, height))
        return fig, list(np.atleast_1d(fig.subplots(1, count)))
    axes = list(np.atleast_1d(axes))
    if len(axes) != count:
        raise SpecError(f"need {count} axes, got {len(axes)}")
    return axes[0].figure, axes


def _panel(
    ax: Any,
    size: int,
    points: np.ndarray,
    meets: np.ndarray,
    box: tuple[tuple[int, int], ...],
    threshold: Fraction | None,
    label: str,
    names: tuple[str, str],
    lattice: bool,
) -> None:
    from matplotlib.patches import Rectangle

    if lattice and (size + 1) ** 2 <= _MAX_LATTICE:
        grid = np.arange(size + 1)
        gi, gj = np.meshgrid(grid, grid, indexing="ij")
        ax.scatter(
            gi.ravel(), gj.ravel(), s=2, color=LATTICE, linewidths=0, zorder=1, label="all evaluations"
        )
    ax.add_patch(Rectangle((0, 0), size, size, fill=False, edgecolor="0.55", linewidth=0.8, zorder=0.5))
    (lo_i, hi_i), (lo_j, hi_j) = box
    ax.add_patch(
        Rectangle(
            (lo_i - 0.5, lo_j - 0.5),
            hi_i - lo_i + 1,
            hi_j - lo_j + 1,
            fill=False,
            edgecolor="black",
            linestyle="--",
            linewidth=1.2,
            zorder=4,
            label="single-classifier axioms",
        )
    )
    marker = 12 if len(points) <= 2500 else 4
    for mask, colour, text in (
        (meets, MEETS, "both meet the specification"),
        (~meets, FAILS, "a member fails it"),
    ):
        ax.scatter(
            points[mask, 0],
            points[mask, 1],
            s=marker,
            color=colour,
            linewidths=0,
            zorder=3,
            label=f"{text} ({int(mask.sum())})",
        )
    if threshold is not None:
        level = float(threshold * size)
        ax.axvline(level, color="black", linestyle=":", linewidth=0.8)
        ax.axhline(level, color="black", linestyle=":", linewidth=0.8)
    ax.set_xlim(-0.02 * size - 0.5, 1.02 * size + 0.5)
    ax.set_ylim(-0.02 * size - 0.5, 1.02 * size + 0.5)
    ax.set_aspect("equal")
    ax.set_xlabel(f"$R_{{{label}_i,{label}}}$  ({names[0]})")
    ax.set_ylabel(f"$R_{{{label}_j,{label}}}$  ({names[1]})")


def plot_pair_evaluations(
    sketch: Sketch,
    q_a: int,
    classifiers: Sequence[str | int] = (0, 1),
    spec: SafetySpec | None = None,
    cuts: bool = True,
    axes: Any = None,
    lattice: bool = True,
) -> Any:
    r"""The logical-alarm paper's Figure 2: a pair's possible evaluations at one ``Q_a``, per label.

    Left, label ``a`` space ``(R_{a_i,a}, R_{a_j,a})`` in the square ``0..Q_a``; right,
    label ``b`` space ``(R_{b_i,b}, R_{b_j,b})`` in ``0..Q_b``. Grey dots: every lattice
    point (drawn up to about 25,000 points); dashed: the rectangle the two
    single-classifier axioms leave; coloured: the evaluations consistent with the pair's
    counts (:func:`pair_evaluations`), green where both members meet the specification on
    that label, red where one does not; dotted: the per-label threshold.

    Parameters
    ----------
    sketch, q_a, classifiers, spec, cuts
        As for :func:`pair_evaluations`.
    axes : pair of matplotlib Axes, optional
        Draw into these; default a new figure.
    lattice : bool
        Draw the background lattice.

    Returns
    -------
    matplotlib.figure.Figure
    """
    points = pair_evaluations(sketch, q_a, classifiers, spec, cuts)
    fig, (left, right) = _axes_row(axes, 2, 4.6, 4.4)
    a, b = sketch.labels
    threshold = points.spec.min_accuracy
    _panel(
        left,
        points.q_a,
        points.x,
        points.meets_a,
        points.rectangle,
        threshold,
        "a",
        points.classifiers,
        lattice,
    )
    _panel(
        right,
        points.q_b,
        points.y,
        points.meets_b,
        points.rectangle_b(),
        threshold,
        "b",
        points.classifiers,
        lattice,
    )
    left.set_title(f"label {a}: $Q_a = {points.q_a}$")
    right.set_title(f"label {b}: $Q_b = {points.q_b}$")
    left.legend(loc="upper left", fontsize="x-small", framealpha=0.9)
    fig.suptitle(
        f"Possible evaluations of ({points.classifiers[0]}, {points.classifiers[1]}), "
        f"Q = {points.Q}; {points.spec.describe()}"
        + ("" if points.cuts else " (single-classifier axioms only)"),
        fontsize="medium",
    )
    return fig


def _polygon(lo: np.ndarray, hi: np.ndarray, r_a: int, total: int) -> np.ndarray:
    """Vertices ``(R_{a_i,a}, R_{b_i,b}, Q_a)`` of the axiom plane cut by the tetrahedron."""
    q_a = np.arange(total + 1)
    keep = lo <= hi
    q_a, lo, hi = q_a[keep], lo[keep].astype(float), hi[keep].astype(float)
    lower = np.column_stack([lo, total - q_a - r_a + lo, q_a])
    upper = np.column_stack([hi, total - q_a - r_a + hi, q_a])
    return np.vstack([lower, upper[::-1]])


def plot_axiom_planes(
    sketch: Sketch,
    classifiers: Sequence[str | int] | None = None,
    spec: SafetySpec | None = None,
    ax: Any = None,
    show_truth: bool = True,
    view: tuple[float, float] = (25.0, -130.0),
) -> Any:
    r"""The logical-alarm paper's Figure 1: every classifier's axiom plane inside the space of all
    evaluations.

    Axes ``(R_{a_i,a}, R_{b_i,b}, Q_a)``. The grey tetrahedron holds every evaluation of
    a ``Q``-item test; each classifier's single-classifier axiom (fixed by its count
    ``R_{a_i}``) leaves the coloured polygon. With ``spec``, the part of each polygon
    where the classifier meets the specification is drawn darker. On a labelled sketch the
    true evaluation of each classifier is marked (``show_truth``): it lies on its polygon.

    Parameters
    ----------
    sketch : Sketch
        Two labels; populations pooled.
    classifiers : names or indices, optional
        Default every classifier.
    spec : SafetySpec, optional
        Highlight where each classifier can meet it.
    ax : a 3D matplotlib Axes, optional
        Default a new figure (``projection="3d"``).
    show_truth : bool
        Mark the true evaluations of a labelled sketch.
    view : (elevation, azimuth)
        Camera angles in degrees.

    Returns
    -------
    matplotlib.figure.Figure
    """
    from mpl_toolkits.mplot3d.art3d import Line3DCollection, Poly3DCollection

    sketch = _binary(sketch)
    names = _names(sketch, classifiers)
    if spec is not None and not isinstance(spec, SafetySpec):
        raise SpecError(f"spec must be a SafetySpec, got {type(spec).__name__}")
    total = sketch.Q
    if ax is None:
        from evalgebra.plots.figure import new_figure

        fig = new_figure(figsize=(7.0, 6.0))
        ax = fig.add_subplot(projection="3d")
    fig = ax.figure
    corners = np.array([[0, 0, 0], [total, 0, total], [0, total, 0], [0, 0, total]], dtype=float)
    edges = [(corners[i], corners[j]) for i in range(4) for j in range(i + 1, 4)]
    ax.add_collection3d(Line3DCollection(edges, colors="0.45", linewidths=0.8, label="all evaluations"))
    faces = [corners[[0, 1, 2]], corners[[0, 1, 3]], corners[[0, 2, 3]], corners[[1, 2, 3]]]
    ax.add_collection3d(Poly3DCollection(faces, facecolors=LATTICE, edgecolors="none", alpha=0.08))
    pooled = sketch.pooled().unlabelled()
    truth = sketch.pooled() if sketch.is_labelled and show_truth else None
    a = sketch.labels[0]
    for name in names:
        colour = PALETTE[sketch.classifiers.index(name) % len(PALETTE)]
        r_a = sum(c for p, c in pooled.marginalise([name]).counts().items() if p[0] == a)
        lo, hi = axiom_segments(pooled, name)
        ax.add_collection3d(
            Poly3DCollection(
                [_polygon(lo, hi, r_a, total)],
                facecolors=colour,
                edgecolors=colour,
                linewidths=0.6,
                alpha=0.35,
                label=f"{name} ($R_{{a_i}} = {r_a}$)",
            )
        )
        if spec is not None:
            lo, hi = axiom_segments(pooled, name, spec)
            if (lo <= hi).any():
                ax.add_collection3d(
                    Poly3DCollection(
                        [_polygon(lo, hi, r_a, total)],
                        facecolors=colour,
                        edgecolors="black",
                        linewidths=0.4,
                        alpha=0.8,
                    )
                )
        if truth is not None:
            by_label = truth.marginalise([name]).by_true_label()
            q_true = sum(by_label[a].values())
            right_a = by_label[a].get((a,), 0)
            right_b = by_label[sketch.labels[1]].get((sketch.labels[1],), 0)
            ax.scatter(
                [right_a],
                [right_b],
                [q_true],
                color=colour,
                edgecolors="black",
                marker="*",
                s=90,
                depthshade=False,
                zorder=5,
            )
    ax.set_xlim(0, total)
    ax.set_ylim(0, total)
    ax.set_zlim(0, total)
    ax.set_xlabel("$R_{a_i,a}$")
    ax.set_ylabel("$R_{b_i,b}$")
    ax.set_zlabel("$Q_a$")
    ax.view_init(elev=view[0], azim=view[1])
    ax.legend(loc="upper left", fontsize="small")
    title = f"Single-classifier axiom planes, Q = {total}"
    if spec is not None:
        title += f"\n(darker: {spec.describe()})"
    ax.set_title(title, fontsize="medium")
    return fig
