"""Tests of evalgebra.data.show: summaries, HTML and DataFrames of sketches and evaluation points."""

import re
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given

from evalgebra.data.point import EvaluationPoint, evaluation_point
from evalgebra.data.show import pattern_text, short_names, text_table
from evalgebra.data.sketch import Sketch
from evalgebra.display import MAX_ROWS
from evalgebra.spec import EnsembleSpec
from evalgebra.testing import labelled_tests, specs

tests_ = labelled_tests(specs(max_populations=3, named=None), max_items=40)


def _cells(html):
    """The text of every table cell, in order."""
    return re.findall(r"<td[^>]*>(.*?)</td>", html)


# -- sketches -------------------------------------------------------------------------------
def test_sketch_html_shows_counts_and_exact_frequencies():
    sketch = Sketch.from_counts({"aa": 9, "ab": 1}, labels=["a", "b"])
    html = sketch._repr_html_()
    cells = _cells(html)
    assert "1/10" in cells and "9/10" in cells and "10" in cells
    assert cells[cells.index("a b") + 1 : cells.index("a b") + 3] == ["1", "1/10"]
    assert "Sketch: 10 items, unlabelled, 2 classifiers, 2 labels" in html


def test_sketch_html_escapes_labels_and_names():
    sketch = Sketch.from_decisions([["<b>", "x&y"], ["x&y", "x&y"]], classifiers=["<i>", "c1"])
    html = sketch._repr_html_()
    assert "&lt;b&gt;" in html and "&lt;i&gt;" in html and "x&amp;y" in html
    assert "<b>" not in html and "<i>" not in html


def test_sketch_html_and_summary_truncate_long_sketches():
    n_patterns = 2**6
    decisions = [[(code >> k) & 1 for k in range(6)] for code in range(n_patterns)]
    sketch = Sketch.from_decisions(decisions, labels=["a", "b"])
    more = n_patterns - MAX_ROWS
    html = sketch._repr_html_()
    assert f"… and {more} more" in html
    assert html.count("<tr><td>") == MAX_ROWS + 1  # the facts row and MAX_ROWS patterns
    assert f"... and {more} more" in sketch.summary()


def test_sketch_summary_lists_patterns_by_count():
    sketch = Sketch.from_decisions(
        [["a", "b"], ["b", "b"], ["b", "b"]], truth=["a", "b", "b"], population=["p", "q", "q"]
    )
    text = sketch.summary()
    assert text.splitlines()[0] == "Sketch: 3 items, labelled, 2 classifiers, 2 labels"
    assert "populations: p (1), q (2)" in text and "items per true label: a 1, b 2" in text
    rows = [line.split() for line in text.splitlines()[-2:]]
    assert rows == [["b", "b", "2", "2/3", "0", "2"], ["a", "b", "1", "1/3", "1", "0"]]


def test_sketch_to_frame_has_one_row_per_cell():
    sketch = Sketch.from_decisions(
        [["a", "b"], ["b", "b"], ["b", "b"]], truth=["a", "b", "b"], population=["p", "q", "q"]
    )
    frame = sketch.to_frame()
    assert list(frame.columns) == ["population", "true_label", "c0", "c1", "count"]
    assert frame.values.tolist() == [["p", "a", "a", "b", 1], ["q", "b", "b", "b", 2]]


@given(tests_)
def test_sketch_to_frame_reads_back_to_the_sketch(test):
    sketch = test.sketch()
    frame = sketch.to_frame()
    rebuilt = Sketch.from_decisions(
        np.repeat(frame[list(sketch.classifiers)].to_numpy(dtype=object), frame["count"], axis=0),
        labels=sketch.labels,
        classifiers=sketch.classifiers,
        truth=np.repeat(frame["true_label"].to_numpy(dtype=object), frame["count"]),
        population=(
            np.repeat(frame["population"].to_numpy(dtype=object), frame["count"])
            if "population" in frame
            else None
        ),
        populations=sketch.populations,
    )
    assert rebuilt == sketch
    assert isinstance(frame, pd.DataFrame)


# -- evaluation points --------------------------------------------------------------------------
def _point():
    spec = EnsembleSpec(["x", "<y>"], ["a", "b"], structure="complete")
    return EvaluationPoint.from_values(
        spec,
        {"a": "1/10"},
        accuracy={"x": {"a": "3/4", "b": "1/2"}, "<y>": {"a": 1, "b": "2/3"}},
        correlation={("x", "<y>"): {"a": "1/16"}},
    )


def test_point_html_shows_exact_values_and_escapes_names():
    html = _point()._repr_html_()
    cells = _cells(html)
    assert cells[:3] == ["all", "1/10 ≈ 0.1000", "9/10 ≈ 0.9000"]  # exact, with decimals beside
    assert ["x", "3/4 ≈ 0.7500", "1/2 ≈ 0.5000"] == cells[3:6]
    assert ["&lt;y&gt;", "1", "2/3 ≈ 0.6667"] == cells[6:9]
    assert "1/16" in cells
    assert "<y>" not in html
    assert "largest |G| = 1/16" in html


def test_point_summary_and_frame():
    point = _point()
    text = point.summary()
    assert text.splitlines()[0] == "EvaluationPoint: 2 classifiers, 2 labels"
    assert "1/10" in text and "9/10" in text and "1/16" in text
    frame = point.to_frame()
    assert list(frame.columns) == ["classifier", "true_label", "response", "rate"]
    assert frame.values.tolist()[:2] == [["x", "a", "a", Fraction(3, 4)], ["x", "a", "b", Fraction(1, 4)]]


def test_point_display_with_more_labels_shows_response_rows_and_undefined_rows():
    sketch = Sketch.from_decisions([["a", "b"], ["c", "c"]], labels=["a", "b", "c"], truth=["a", "c"])
    point = evaluation_point(sketch, structure="independent")
    html = point._repr_html_()
    assert "Response rates" in html and "answers c" in html and "—" in _cells(html)
    assert "none (independent structure)" in html
    assert "response rates:" in point.summary()


def test_point_repr_stays_short_for_many_classifiers():
    spec = EnsembleSpec(30, 2, structure="independent")
    point = EvaluationPoint.from_values(spec, {"a": "1/2"}, accuracy={i: {"a": 1, "b": 1} for i in range(30)})
    assert len(repr(point)) < 200 and "(30 in all)" in repr(point)
    html = point._repr_html_()
    assert f"… and {30 - MAX_ROWS} more" in html


# -- helpers -----------------------------------------------------------------------------------
def test_short_names_and_pattern_text():
    assert short_names(["a", "b"]) == "['a', 'b']"
    assert short_names(["n" * 100]) == "['" + "n" * 23 + "…']"
    assert pattern_text(("a", "bb")) == "a bb"


def test_text_table_aligns_columns_and_prints_fractions_exactly():
    text = text_table(["name", "value"], [["x", Fraction(1, 3)], ["longer", None]], more=4)
    assert text.splitlines() == ["  name    value", "  x         1/3", "  longer      —", "  ... and 4 more"]


@pytest.mark.parametrize("labelled", [True, False])
def test_summary_and_html_of_several_populations(labelled):
    sketch = Sketch.from_decisions(
        [["a", "b"], ["b", "b"]], truth=["a", "b"] if labelled else None, population=["p", "q"]
    )
    assert "populations" in sketch._repr_html_() and "p (1), q (1)" in sketch.summary()
