"""Plots of the logical alarm and of evaluation spaces: the data they draw and the artists they make."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg", force=True)

from matplotlib.collections import PathCollection, PolyCollection  # noqa: E402
from mpl_toolkits.mplot3d.art3d import Line3DCollection, Poly3DCollection  # noqa: E402

from evalgebra import datasets  # noqa: E402
from evalgebra.alarm.logical import feasible_qa, logical_alarm  # noqa: E402
from evalgebra.alarm.safety import SafetySpec  # noqa: E402
from evalgebra.data.sketch import Sketch  # noqa: E402
from evalgebra.errors import SketchError, SpecError  # noqa: E402
from evalgebra.plots.alarm import (  # noqa: E402
    plot_accuracy_bands,
    plot_accuracy_ranges,
    plot_alarm_rates,
    plot_alarm_trace,
)
from evalgebra.plots.evaluation_space import (  # noqa: E402
    pair_evaluations,
    plot_axiom_planes,
    plot_pair_evaluations,
)

GREEN = matplotlib.colors.to_rgba("#2ca02c")
RED = matplotlib.colors.to_rgba("#d62728")


@pytest.fixture(scope="module")
def graders():
    return datasets.load("bigbench_mistake")


@pytest.fixture(scope="module")
def toy():
    """Figure 2 of the logical-alarm paper: Q = 100, R_a1 = 60, R_a2 = 20 (20 items both said a)."""
    return Sketch.from_counts({"aa": 20, "ab": 40, "bb": 40}, labels=["a", "b"])


def _renders(fig, tmp_path):
    out = tmp_path / "figure.png"
    fig.savefig(out, dpi=40)
    assert out.stat().st_size > 1000


def _bars(ax):
    """Label -> list of (x0, x1) extents of the row collections of an alarm trace."""
    found = {}
    for collection in ax.collections:
        assert isinstance(collection, PolyCollection)
        extents = [
            (float(p.vertices[:, 0].min()), float(p.vertices[:, 0].max())) for p in collection.get_paths()
        ]
        found[collection.get_label()] = extents
    return found


# -- the alarm trace ---------------------------------------------------------------------------
def test_plot_alarm_trace_rows_follow_the_report(graders, tmp_path):
    fig = plot_alarm_trace(graders)
    (ax,) = fig.axes
    report = logical_alarm(graders)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert len(labels) == len(report.subsets) == 7
    assert labels[::-1][0] == "claude_haiku"  # the report's order, top to bottom
    bars = _bars(ax)
    for row in report.subsets:
        members = ", ".join(row.classifiers)
        assert bars[f"_infeasible: {members}"] == [(-0.5, report.Q + 0.5)]
        if row.fires:
            assert f"_feasible: {members}" not in bars
        else:
            assert bars[f"_feasible: {members}"] == [(lo - 0.5, hi + 0.5) for lo, hi in row.feasible_Qa]
    fires = [t for t in ax.get_yticklabels() if t.get_text().endswith("(fires)")]
    assert [t.get_text() for t in fires] == [
        "claude_haiku, mistral_large, gpt4_turbo  (fires)",
        "mistral_large, gpt4_turbo  (fires)",
    ]
    assert all(matplotlib.colors.to_rgba(t.get_color()) == RED for t in fires)
    (truth,) = ax.get_lines()  # the labelled sketch's true Q_a
    assert list(truth.get_xdata()) == [237, 237]
    _renders(fig, tmp_path)


def test_plot_alarm_trace_takes_a_report_and_an_axes(graders):
    from matplotlib.figure import Figure

    report = logical_alarm(graders.unlabelled(), subsets=[["mistral_large"], ["mistral_large", "gpt4_turbo"]])
    ax = Figure().subplots()
    fig = plot_alarm_trace(report, ax=ax)
    assert fig is ax.figure and ax.get_lines() == []  # unlabelled, no true Q_a given
    bars = _bars(ax)
    assert bars["_feasible: mistral_large"] == [(0.5, 53.5)]
    assert "_feasible: mistral_large, gpt4_turbo" not in bars
    assert ax.collections[1].get_facecolor()[0].tolist() == list(GREEN)


def test_plot_alarm_trace_rejects_bad_input(graders):
    with pytest.raises(SpecError):
        plot_alarm_trace(logical_alarm(graders), spec=SafetySpec())
    with pytest.raises(SketchError):
        plot_alarm_trace({"aa": 3})


# -- accuracy bands ----------------------------------------------------------------------------
def test_plot_accuracy_bands_artists(graders, tmp_path):
    fig = plot_accuracy_bands(graders)
    left, right = fig.axes[:2]
    for ax in (left, right):
        fills = [c for c in ax.collections if isinstance(c, PolyCollection)]
        stars = [c for c in ax.collections if isinstance(c, PathCollection)]
        assert len(fills) == 3 and len(stars) == 3  # one band and one true point per classifier
        assert len(ax.get_lines()) == 2 * 3 + 1  # band edges and the 1/2 threshold
        assert ax.get_lines()[-1].get_ydata()[0] == 0.5
    # mistral_large labelled 27 items a: its best accuracy on a is 27 / Q_a
    high = left.get_lines()[3]
    q_a, value = high.get_xdata(), high.get_ydata()
    assert np.allclose(value[q_a >= 27], 27 / q_a[q_a >= 27])
    # the true accuracy of mistral_large on a, 26/237, is drawn at Q_a = 237
    assert np.allclose(left.collections[3].get_offsets()[0], [237, 26 / 237])
    _renders(fig, tmp_path)


def test_plot_accuracy_bands_without_truth(graders):
    fig = plot_accuracy_bands(graders.unlabelled(), ["gpt4_turbo"], spec=SafetySpec("2/3"))
    left = fig.axes[0]
    assert not [c for c in left.collections if isinstance(c, PathCollection)]
    assert left.get_lines()[-1].get_ydata()[0] == pytest.approx(2 / 3)
    with pytest.raises(SketchError):
        plot_accuracy_bands(Sketch.from_counts({"ab": 1, "ca": 2}, labels=["a", "b", "c"]))


# -- exact accuracy ranges ---------------------------------------------------------------------
def _range_bars(ax):
    """Label -> (x0, x1) of the single bar of each broken_barh collection."""
    return {
        c.get_label(): (c.get_paths()[0].vertices[:, 0].min(), c.get_paths()[0].vertices[:, 0].max())
        for c in ax.collections
        if isinstance(c, PolyCollection)
    }


def test_plot_accuracy_ranges_draws_the_exact_ranges(graders, tmp_path):
    from evalgebra.plots.figure import PlotFigure

    fig = plot_accuracy_ranges(graders)
    assert isinstance(fig, PlotFigure) and len(fig.axes) == 2
    report = logical_alarm(
        graders.unlabelled(), subsets=[["mistral_large"]], prevalences=False, accuracy=True
    )
    lo, hi = report.subsets[0].accuracy["mistral_large"]["a"]
    left, right = fig.axes
    x0, x1 = _range_bars(left)["_meets: mistral_large"]
    assert (x0, x1) == pytest.approx((float(lo), float(hi)))  # 27/53 .. 1
    assert _range_bars(left)["_counts: mistral_large"] == pytest.approx((0.0, 1.0))
    stars = [c for c in left.collections if isinstance(c, PathCollection)]
    assert len(stars) == 3 and stars[1].get_offsets()[0][0] == pytest.approx(26 / 237)  # mistral's truth
    assert left.get_lines()[0].get_xdata()[0] == 0.5
    _renders(fig, tmp_path)


def test_plot_accuracy_ranges_marks_a_classifier_that_fires(tmp_path):
    """c0 answered a on every item: no answer key gives it accuracy > 1/2 on a non-empty label b."""
    sketch = Sketch.from_counts({"aa": 3, "ab": 2}, labels=["a", "b"])
    fig = plot_accuracy_ranges(sketch)
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert labels == ["c1", "c0  (fires)"]
    assert set(_range_bars(fig.axes[0])) == {"_counts: c0", "_counts: c1", "_meets: c1"}
    with pytest.raises(SketchError):
        plot_accuracy_ranges({"aa": 1})
    with pytest.raises(SpecError):
        plot_accuracy_ranges(sketch, spec="1/2")


# -- alarm rates -------------------------------------------------------------------------------
def test_plot_alarm_rates_one_line_per_kind(tmp_path):
    fig = plot_alarm_rates(
        [0.0, 0.05, 0.1],
        {"outside_unit_cube": [0.1, 0.3, 0.6], "complex": [0, 0, 0.1]},
        xlabel="correlation",
        title="rates",
    )
    (ax,) = fig.axes
    lines = ax.get_lines()
    assert [line.get_label() for line in lines] == ["outside_unit_cube", "complex"]
    assert lines[0].get_ydata().tolist() == [0.1, 0.3, 0.6]
    assert ax.get_xlabel() == "correlation" and ax.get_title() == "rates"
    _renders(fig, tmp_path)


def test_plot_alarm_rates_rejects_bad_input():
    with pytest.raises(SpecError):
        plot_alarm_rates([0, 1], {"complex": [0.5]})
    with pytest.raises(SpecError):
        plot_alarm_rates([0, 1], {"complex": [0.5, 1.5]})
    with pytest.raises(SpecError):
        plot_alarm_rates([], {"complex": []})
    with pytest.raises(SpecError):
        plot_alarm_rates([0], {})


# -- a pair's evaluations at one Q_a (the logical-alarm paper, Figure 2) ---------------------
def test_pair_evaluations_seed_figure_two(toy):
    pts = pair_evaluations(toy, 60, cuts=False)
    assert pts.rectangle == ((20, 60), (0, 20)) and pts.rectangle_b() == ((0, 40), (20, 40))
    assert len(pts.x) == 41 * 21
    assert not pts.meets_a.any() and int(pts.meets_b.sum()) == 20 * 20  # seed: nothing green on label a
    assert (pts.y == pts.q_b - np.array(pts.r_a) + pts.x).all()  # the single-classifier axiom
    cut = pair_evaluations(toy, 60)
    assert len(cut.x) == 651 and set(map(tuple, cut.x)) < set(map(tuple, pts.x))
    assert (cut.x[:, 0] - cut.x[:, 1] <= 40).all()  # C3: n_ab = 40


@pytest.mark.parametrize(
    "pair",
    [("mistral_large", "gpt4_turbo"), ("claude_haiku", "gpt4_turbo"), ("claude_haiku", "mistral_large")],
)
def test_pair_evaluations_agree_with_the_alarm(graders, pair):
    """Some drawn point meets the specification on both labels exactly where the alarm finds Q_a feasible."""
    feasible = {q for lo, hi in feasible_qa(graders, pair) for q in range(lo, hi + 1)}
    for q_a in range(0, graders.Q + 1, 7):
        pts = pair_evaluations(graders, q_a, pair)
        assert bool((pts.meets_a & pts.meets_b).any()) == (q_a in feasible), q_a


def test_pair_evaluations_agree_with_the_alarm_everywhere(toy):
    for spec in (SafetySpec(), SafetySpec("2/5", min_total_accuracy="3/5"), SafetySpec("1/2", strict=False)):
        feasible = {q for lo, hi in feasible_qa(toy, [0, 1], spec) for q in range(lo, hi + 1)}
        for q_a in range(toy.Q + 1):
            pts = pair_evaluations(toy, q_a, spec=spec)
            assert bool((pts.meets_a & pts.meets_b).any()) == (q_a in feasible), (spec, q_a)


def test_pair_evaluations_rejects_bad_input(toy, graders):
    with pytest.raises(SpecError):
        pair_evaluations(toy, 101)
    with pytest.raises(SpecError):
        pair_evaluations(toy, 2.5)
    with pytest.raises(SpecError):
        pair_evaluations(graders, 10, ["gpt4_turbo", "gpt4_turbo"])
    with pytest.raises(SpecError):
        pair_evaluations(toy, 10, spec="1/2")
    with pytest.raises(SketchError):
        pair_evaluations(Sketch.from_counts({"ab": 1, "ca": 2}, labels=["a", "b", "c"]), 1)


def test_plot_pair_evaluations_artists(toy, tmp_path):
    pts = pair_evaluations(toy, 60)
    fig = plot_pair_evaluations(toy, 60)
    left, right = fig.axes
    for ax, meets in ((left, pts.meets_a), (right, pts.meets_b)):
        scatters = {c.get_label(): c for c in ax.collections if isinstance(c, PathCollection)}
        green = scatters[f"both meet the specification ({int(meets.sum())})"]
        red = scatters[f"a member fails it ({int((~meets).sum())})"]
        assert len(green.get_offsets()) == int(meets.sum()) and len(red.get_offsets()) == int((~meets).sum())
        assert len(scatters["all evaluations"].get_offsets()) > len(pts.x)
    assert left.get_title() == "label a: $Q_a = 60$" and right.get_title() == "label b: $Q_b = 40$"
    _renders(fig, tmp_path)


def test_plot_pair_evaluations_large_lattice_is_an_outline(graders):
    fig = plot_pair_evaluations(graders, 237, ["mistral_large", "gpt4_turbo"], lattice=True)
    labels = [c.get_label() for c in fig.axes[0].collections]
    assert "all evaluations" not in labels  # 238^2 points: only the square is drawn


# -- the axiom planes (the logical-alarm paper, Figure 1) ------------------------------------
def test_plot_axiom_planes_artists(graders, tmp_path):
    fig = plot_axiom_planes(graders, spec=SafetySpec())
    _renders(fig, tmp_path)  # 3D collections project their segments when drawn
    (ax,) = fig.axes
    assert ax.name == "3d"
    polygons = [c for c in ax.collections if isinstance(c, Poly3DCollection)]
    edges = [c for c in ax.collections if isinstance(c, Line3DCollection)]
    stars = [c for c in ax.collections if type(c).__name__ == "Path3DCollection"]
    assert len(edges) == 1 and len(edges[0].get_segments()) == 6  # the tetrahedron's edges
    assert len(polygons) == 1 + 3 + 3  # its faces, one plane per grader, the part meeting the spec
    assert len(stars) == 3
    names = [c.get_label() for c in polygons if c.get_label().startswith(graders.classifiers)]
    assert names == [
        "claude_haiku ($R_{a_i} = 146$)",
        "mistral_large ($R_{a_i} = 27$)",
        "gpt4_turbo ($R_{a_i} = 234$)",
    ]


def test_plot_axiom_planes_subset_unlabelled(graders):
    fig = plot_axiom_planes(graders.unlabelled(), ["gpt4_turbo"])
    (ax,) = fig.axes
    assert len([c for c in ax.collections if isinstance(c, Poly3DCollection)]) == 2
    assert not [c for c in ax.collections if type(c).__name__ == "Path3DCollection"]
    with pytest.raises(SpecError):
        plot_axiom_planes(graders, "gpt4_turbo")


# -- layering ----------------------------------------------------------------------------------
def test_plots_import_matplotlib_only_when_drawing():
    code = (
        "import sys, evalgebra, evalgebra.plots, evalgebra.plots.alarm, evalgebra.plots.evaluation_space\n"
        "from evalgebra.plots.evaluation_space import pair_evaluations\n"
        "from evalgebra.data.sketch import Sketch\n"
        "pair_evaluations(Sketch.from_counts({'aa': 2, 'bb': 1}, labels=['a', 'b']), 1)\n"
        "assert 'matplotlib' not in sys.modules, 'matplotlib imported eagerly'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
