"""evaluate(sketch, structure=...) with the fit: the exact points, the fitted point, the verdict.

On an exact sketch inside the structure's model the verdict is ``exact`` and the fitted point is the
exact point; on a sampled test the fitted point is chosen, inside the simplex, and its partition by
true label sums back to the counts; a fitted point outside the prevalence range asked for is not
chosen.
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from evalgebra.data.point import EvaluationPoint
from evalgebra.data.simulate import expected_sketch
from evalgebra.data.sketch import Sketch
from evalgebra.evaluators.dispatch import evaluate
from evalgebra.evaluators.fitted.structure_choice import pattern_names
from evalgebra.evaluators.fitted.structures import StructureModel, StructurePoint
from evalgebra.spec import EnsembleSpec


def _exact_sketch(structure=((0, 1),)):
    spec = EnsembleSpec(4, 2, structure=list(structure))
    truth = EvaluationPoint.from_values(
        spec,
        {"a": "4/13"},
        accuracy={
            0: {"a": "3/4", "b": "2/3"},
            1: {"a": "5/6", "b": "3/4"},
            2: {"a": "2/3", "b": "5/6"},
            3: {"a": "3/4", "b": "3/4"},
        },
        correlation={s: {"a": "1/48", "b": "1/72"} for s in structure},
    )
    return expected_sketch(truth).unlabelled()


def _sampled_sketch(structure, correlation, seed, items=20_000):
    model = StructureModel(4, structure)
    truth = StructurePoint(
        0.3,
        np.array([[0.8, 0.75], [0.7, 0.8], [0.75, 0.85], [0.8, 0.7]]),
        np.array([correlation] * len(structure)).reshape(-1, 2),
    )
    counts = np.random.default_rng(seed).multinomial(items, model.probabilities(truth))
    return Sketch.from_counts(dict(zip(pattern_names(4, "ab"), counts.tolist())), labels=["a", "b"])


@pytest.mark.parametrize("structure", [((0, 1),), ((0, 1), (0, 2)), ((0, 1), (0, 2), (1, 3))])
def test_evaluate_structure_on_an_exact_sketch_keeps_the_exact_point(structure):
    sketch = _exact_sketch(structure)
    text = ",".join("-".join(str(i) for i in s) for s in structure)
    result = evaluate(sketch, structure=text)
    assert result.verdict == "exact" and result.point_kind(result.chosen) == "exact"
    assert result.point.prevalence["a"] == Fraction(4, 13)
    assert result.points[result.fit.fitted_index] == result.point and result.fit.g2 == 0
    assert result.fit.log_likelihood == result.fit.saturated_log_likelihood
    assert evaluate(sketch, structure=text, fit=False).points == result.points[:-1]
    document = json.loads(result.to_json())
    assert document["verdict"] == "exact" and document["points"][-1]["kind"] == "fitted"


def test_evaluate_structure_on_a_sampled_test_chooses_the_fitted_point():
    sketch = _sampled_sketch(((0, 1),), (0.08, 0.06), seed=3)
    result = evaluate(sketch, structure="0-1")
    assert result.verdict in ("fitted", "fit_rejected") and result.chosen == result.fit.fitted_index
    point = result.point
    values = [*point.prevalence.values(), *(v for row in point.accuracy.values() for v in row.values())]
    assert all(0 <= v <= 1 for v in values) and ("c0", "c1") in point.correlation
    assert abs(point.prevalence["a"] - 0.3) < 0.03
    assert result.fit.df == 16 - 1 - 11 and result.fit.p_value is not None
    totals: dict = {}
    for rows in result.partition.values():
        for pattern, count in rows:
            totals[pattern] = totals.get(pattern, 0.0) + count
    assert totals == pytest.approx({p: float(n) for p, n in sketch.counts().items()})
    assert "exact 0" in result.fit.starts and "independent" in result.fit.starts
    document = json.loads(result.to_json())
    assert document["points"][document["chosen"]]["kind"] == "fitted"
    assert document["points"][document["chosen"]]["correlation"][0]["classifiers"] == ["c0", "c1"]


def test_evaluate_structure_fitted_point_outside_the_range_is_not_chosen():
    sketch = _sampled_sketch(((0, 1),), (0.08, 0.06), seed=4)
    inside = evaluate(sketch, structure="0-1", prevalence_range=("1/5", "2/5"))
    assert inside.verdict in ("fitted", "fit_rejected") and 0.2 <= inside.point.prevalence["a"] <= 0.4
    nowhere = evaluate(sketch, structure="0-1", prevalence_range=("9/20", "11/20"))
    assert nowhere.verdict == "none" and nowhere.chosen is None


def test_evaluate_structure_on_a_strong_pair_beats_the_independent_fit():
    """The fitted structure's prevalence error against the independent model's, over a few sampled tests."""
    errors = {"structure": [], "independent": []}
    for seed in range(4):
        sketch = _sampled_sketch(((0, 1),), (0.1, 0.08), seed=seed)
        errors["structure"].append(abs(evaluate(sketch, structure="0-1").point.prevalence["a"] - 0.3))
        errors["independent"].append(abs(float(evaluate(sketch).point.prevalence["a"]) - 0.3))
    assert np.mean(errors["structure"]) < 0.5 * np.mean(errors["independent"])
