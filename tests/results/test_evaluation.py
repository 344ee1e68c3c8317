"""Evaluation records the error structure it assumed: field, repr, summary, HTML,
JSON and the command line."""

from __future__ import annotations

import json

import pytest

from evalgebra.data.point import EvaluationPoint
from evalgebra.data.simulate import expected_sketch
from evalgebra.evaluators.dispatch import evaluate
from evalgebra.evaluators.independent.closed_form import evaluate_counts
from evalgebra.results import Evaluation
from evalgebra.spec import EnsembleSpec

ACCURACY = {
    0: {"a": "3/4", "b": "2/3"},
    1: {"a": "5/6", "b": "3/4"},
    2: {"a": "2/3", "b": "5/6"},
    3: {"a": "3/4", "b": "3/4"},
}


def _pair_sketch(names=("c0", "c1", "c2", "c3")):
    spec = EnsembleSpec(list(names), 2, structure=[(0, 1)])
    truth = EvaluationPoint.from_values(
        spec, {"a": "4/13"}, accuracy=ACCURACY, correlation={(0, 1): {"a": "1/24", "b": "1/36"}}
    )
    return expected_sketch(truth).unlabelled()


def test_evaluation_structure_records_a_correlated_structure_in_the_classifiers_names():
    result = evaluate(_pair_sketch(("gpt", "claude", "x", "y")), structure="2-3")
    assert result.structure == "x-y"
    result = evaluate(_pair_sketch(), structure=[("c1", "c0")])
    assert result.structure == "c0-c1"
    assert repr(result).startswith(
        "Evaluation(algebraic; structure c0-c1; classifiers c0, c1, c2, ... 1 more;"
    )
    assert (
        result.summary()
        .splitlines()[0]
        .startswith("Evaluation by the algebraic method, errors correlated on c0-c1:")
    )
    assert "errors correlated on c0-c1" in result._repr_html_()
    assert result.to_dict()["structure"] == "c0-c1"


def test_evaluation_structure_records_independence_for_the_independent_methods_only():
    sketch = _pair_sketch()
    assert evaluate(sketch).structure == "independent"
    assert evaluate(sketch, structure="independent").structure == "independent"
    assert evaluate(sketch, structure=[]).structure == "independent"  # the empty structure is independence
    assert evaluate(sketch, intervals="delta").structure == "independent"
    assert evaluate(sketch, "majority").structure is None  # majority vote assumes no error model
    independent = evaluate(sketch)
    assert "structure" not in repr(independent) and "correlated" not in independent.summary()
    assert json.loads(independent.to_json())["structure"] == "independent"


def test_evaluation_structure_defaults_to_the_methods_own_assumption():
    direct = evaluate_counts([84, 36, 51, 39, 68, 52, 77, 73])  # called directly, not through evaluate
    assert direct.structure == "independent" and repr(direct).startswith("Evaluation(algebraic; classifiers")
    bare = Evaluation(method="majority", labels=("a", "b"), classifiers=("c0",), points=(), chosen=None)
    assert bare.structure is None and "structure" not in bare.to_dict()
    assert (
        Evaluation(
            method="hui_walter", labels=("a", "b"), classifiers=("c0",), points=(), chosen=None
        ).structure
        == "independent"
    )
    given = Evaluation(
        method="algebraic",
        labels=("a", "b"),
        classifiers=("c0", "c1"),
        points=(),
        chosen=None,
        structure="c0-c1",
    )
    assert given.structure == "c0-c1" and given.to_dict()["structure"] == "c0-c1"


def test_cli_evaluate_names_the_structure_in_text_and_json(tmp_path, capsys):
    from evalgebra.cli import main

    path = tmp_path / "sketch.json"
    _pair_sketch().write_json(path)
    assert main(["evaluate", str(path), "--structure", "0-1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["structure"] == "c0-c1"
    assert main(["evaluate", str(path), "--structure", "0-1"]) == 0
    assert (
        capsys.readouterr().out.splitlines()[0]
        == "method algebraic; structure c0-c1; labels a, b; classifiers c0, c1, c2, c3"
    )
    assert main(["evaluate", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["structure"] == "independent"
    assert main(["evaluate", str(path), "--method", "majority"]) == 0
    assert capsys.readouterr().out.startswith("method majority; labels a, b;")


def test_estimate_shows_the_structures_correlations_in_summary_html_and_frame():
    result = evaluate(_pair_sketch(), structure="0-1")
    assert "G of c0, c1  on a = 1/24 ≈ 0.0417   on b = 1/36 ≈ 0.0278" in result.summary()
    assert "correlated subset" in result._repr_html_() and "1/24" in result.point._repr_html_()
    pytest.importorskip("pandas")
    frame = result.point.to_frame()
    rows = frame[frame.statistic == "correlation"]
    assert list(zip(rows.label, rows.classifier, rows.exact)) == [
        ("a", "c0,c1", "1/24"),
        ("b", "c0,c1", "1/36"),
    ]
    independent = evaluate(_pair_sketch())
    assert "G of" not in independent.summary() and "correlation" not in set(
        independent.point.to_frame().statistic
    )
