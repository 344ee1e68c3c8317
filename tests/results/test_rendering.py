"""How evaluations show themselves: short repr, compact HTML, plain text, pandas table."""

from __future__ import annotations

import builtins
import itertools
from fractions import Fraction

import numpy as np
import pytest

from evalgebra import datasets
from evalgebra.data.point import EvaluationPoint
from evalgebra.data.simulate import expected_sketch
from evalgebra.data.sketch import Sketch
from evalgebra.evaluators.dispatch import evaluate
from evalgebra.evaluators.independent.closed_form import evaluate_counts
from evalgebra.results import Estimate
from evalgebra.spec import EnsembleSpec


def _five_judges(names=None):
    accuracies = [("3/4", "2/3"), ("4/5", "3/5"), ("5/6", "1/2"), ("2/3", "3/4"), ("3/5", "4/5")]
    point = EvaluationPoint.from_values(
        EnsembleSpec(5, 2),
        {"a": "1/4"},
        accuracy={i: {"a": a, "b": b} for i, (a, b) in enumerate(accuracies)},
    )
    sketch = expected_sketch(point).unlabelled()
    if names is not None:
        counts = {
            tuple(names[1][d == "b"] for d in pattern): c
            for pattern, c in zip(itertools.product("ab", repeat=5), sketch.count_vector().tolist())
            if c
        }
        sketch = Sketch.from_counts(counts, labels=list(names[1]), classifiers=list(names[0]))
    return evaluate(sketch, method="algebraic")


def test_evaluation_repr_of_five_judges_is_short():
    result = _five_judges()
    text = repr(result)
    assert len(text) <= 400, len(text)
    assert text.startswith("Evaluation(algebraic; classifiers c0, c1, c2, ... 2 more; labels a, b;")
    assert "P_a=1/4" in text and "10 trios" in text
    assert len(repr(result.point)) <= 200


def test_evaluation_html_of_five_judges_is_compact_and_exact():
    result = _five_judges()
    page = result._repr_html_()
    assert len(page) < 4000, len(page)
    assert page.count("<tr>") <= 12  # header rows, 1 prevalence row, 5 classifiers; no per-trio rows
    assert "1/4 ≈ 0.2500" in page and "3/4 ≈ 0.7500" in page and "5/6 ≈ 0.8333" in page
    assert "10 trios, 10 with a chosen point" in page and "spread 0" in page
    assert page.count("trio c") == 0  # trios summarised, not listed


def test_evaluation_html_escapes_labels_and_names():
    names = (["<b>judge</b>", "a&b", "c2", "c3", '"q"'], ("<yes>", "no&"))
    result = _five_judges(names)
    page = result._repr_html_()
    assert "<b>judge</b>" not in page and "&lt;b&gt;judge&lt;/b&gt;" in page
    assert "a&amp;b" in page and "&lt;yes&gt;" in page and "no&amp;" in page
    assert "<yes>" not in page


def test_evaluation_html_shows_alarms_one_line_each_and_candidates_when_undecided():
    four = Sketch.from_counts({"aaaa": 4, "aaab": 3, "bbab": 1}, labels=["a", "b"])
    result = evaluate(four, prevalence_range=("1/4", "3/4"), fit=False)
    page = result._repr_html_()
    assert "No point chosen" in page and "candidate 0" in page and "candidate 1" in page
    trios = {t.classifiers for t in result.trios}
    own = [a for a in result.alarms if a.classifiers not in trios]
    in_trios = {a.kind for a in result.alarms if a.classifiers in trios}
    for kind in ("blind_spot", "undecided"):
        rows = sum(a.kind == kind for a in own) + (kind in in_trios)
        assert page.count(f"<td>{kind}</td>") == rows > 0
    text = result.summary()
    assert "no point chosen; 2 candidate(s):" in text
    # the ensemble's own alarms one line each, the trios' alarms one line per kind
    assert sum(line.startswith("  [") for line in text.splitlines()) == len(own) + len(in_trios)
    assert "[blind_spot] in 3 of 4 trios" in text
    assert "4 trios, 0 with a chosen point" in text and "blind_spot 3" in text


def test_evaluation_display_of_irrational_points_keeps_them_exact():
    result = evaluate(datasets.load("acs_employment").unlabelled())
    page, text = result._repr_html_(), result.summary()
    exact = str(result.point.prevalence["a"])
    assert "sqrt(" in exact and exact in text and exact.replace("/", "/") in page
    assert "irrational" in repr(result)


def test_evaluation_to_frame_has_a_row_per_statistic_and_exact_text():
    pd = pytest.importorskip("pandas")
    result = evaluate_counts([84, 36, 51, 39, 68, 52, 77, 73])
    table = result.to_frame()
    assert isinstance(table, pd.DataFrame)
    assert list(table.columns) == ["point", "chosen", "statistic", "label", "classifier", "value", "exact"]
    assert len(table) == 2 * (2 + 3 * 2)
    row = table[(table.chosen) & (table.statistic == "prevalence") & (table.label == "a")].iloc[0]
    assert row.exact == "1/4" and row.value == 0.25 and Fraction(row.exact) == result.point.prevalence["a"]
    assert len(result.point.to_frame()) == 8


def test_to_frame_without_pandas_says_it_is_optional(monkeypatch):
    real_import = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas":
            raise ImportError("No module named 'pandas'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    result = evaluate_counts([84, 36, 51, 39, 68, 52, 77, 73])
    with pytest.raises(ImportError, match="needs pandas, which is optional"):
        result.to_frame()


def test_estimate_display_handles_undefined_and_float_values():
    e = Estimate({"a": None, "b": 0.25}, {"c0": {"a": None, "b": Fraction(1, 3)}})
    assert "—" in e._repr_html_() and "1/3 ≈ 0.3333" in e.summary()
    assert (
        repr(e) == "Estimate(prevalence a=—, b≈0.25; accuracy of 1 classifiers)"
    )  # a float says it is approximate


def test_evaluation_summary_keeps_the_ensemble_alarms_of_a_large_ensemble():
    """Ten classifiers: 120 trios' alarms fold into one line per kind; the ensemble's own
    alarms (trio disagreement, a combined estimate outside the unit cube) stay visible."""
    acs = datasets.load("acs_employment")
    decisions = np.array([p for p, n in acs.pooled().unlabelled().counts().items() for _ in range(n)])
    rng = np.random.default_rng(0)
    columns = [decisions[:, k % 3].copy() for k in range(10)]
    for column in columns[3:]:
        rng.shuffle(column)
    result = evaluate(Sketch.from_decisions(np.stack(columns, axis=1), labels=["a", "b"]))
    text = result.summary()
    assert "[trio_disagreement]" in text
    assert "[outside_unit_cube] the combined estimate" in text
    assert "of 120 trios" in text and len(text.splitlines()) < 40
    assert "trio_disagreement" in result._repr_html_()


def test_intervals_show_in_summary_html_frame_and_json():
    sketch = Sketch.from_counts(
        {"aaa": 84, "aab": 36, "aba": 51, "abb": 39, "baa": 68, "bab": 52, "bba": 77, "bbb": 73},
        labels=["a", "b"],
    )
    result = evaluate(sketch, intervals="delta")
    low, high = result.point.interval["accuracy"]["c0"]["b"]
    cell = f"[{low:.4f}, {high:.4f}]"
    assert cell in result.summary() and "95% delta intervals" in result.summary()
    assert cell in result._repr_html_() and cell in result.point.summary()
    table = result.to_frame()
    assert list(table.columns)[-2:] == ["low", "high"]
    row = table[(table.classifier == "c0") & (table.label == "b")].iloc[0]
    assert (row.low, row.high) == (low, high)
    assert result.point.to_dict()["interval"]["accuracy"]["c0"]["b"] == [low, high]
    assert "[" not in evaluate(sketch).summary()  # no intervals asked: none shown
