"""Abstentions: exact round trips through the evaluator, two collapse routes agreeing, refusals."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalgebra.data.point import evaluation_point
from evalgebra.data.simulate import expected_sketch
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SpecError
from evalgebra.evaluators.dispatch import evaluate
from evalgebra.evaluators.independent.abstention import evaluate_abstentions
from evalgebra.testing import abstaining_points


@settings(max_examples=40, deadline=None)
@given(abstaining_points())
def test_abstention_evaluation_round_trip_is_exact(truth):
    sketch = expected_sketch(truth)
    result = evaluate(sketch.unlabelled())
    spec = truth.spec
    assert result.point is not None and result.ok
    assert result.point.prevalence == truth.prevalence_of()
    for i, name in enumerate(spec.classifiers):
        for ell, label in enumerate(spec.labels):
            assert result.point.response[name][label] == dict(zip(spec.responses, truth.response[i][ell]))
            assert result.point.accuracy[name][label] == truth.response[i][ell][ell]
    # the partition by true label is the labelled sketch's own split
    split = sketch.by_true_label()
    for label, cells in result.partition.items():
        assert {p: c for p, c in cells if c} == {p: Fraction(c) for p, c in split[label].items()}


@settings(max_examples=15, deadline=None)
@given(abstaining_points(n_classifiers=st.just(3)))
def test_abstention_evaluation_collapse_routes_agree(truth):
    sketch = expected_sketch(truth).unlabelled()
    routes = [evaluate_abstentions(sketch, collapse_into=label).point for label in truth.spec.labels]
    assert all(point == routes[0] for point in routes[1:])


@settings(max_examples=15, deadline=None)
@given(abstaining_points(n_classifiers=st.just(3), n_labels=st.just(2)))
def test_abstention_evaluation_equals_the_evaluation_point_measured(truth):
    sketch = expected_sketch(truth)
    measured = evaluation_point(sketch, structure="independent")
    result = evaluate(sketch)
    for i, name in enumerate(truth.spec.classifiers):
        for ell, label in enumerate(truth.spec.labels):
            assert tuple(result.point.response[name][label].values()) == measured.response[i][ell]


def test_abstention_evaluation_json_has_abstention_rows():
    sk = Sketch.from_counts(
        {("a", "a", "a"): 5, ("a", "a", "b"): 1, ("b", "b", "b"): 4, ("u", "a", "a"): 2, ("b", "u", "b"): 2},
        labels=["a", "b"],
        abstain="u",
    )
    data = evaluate(sk).to_dict()
    assert set(data["points"][0]["response"]["c0"]["a"]) == {"a", "b", "u"}


def test_abstention_evaluation_refusals():
    sk = Sketch.from_counts({("a", "u", "a"): 1, ("b", "b", "b"): 1}, labels=["a", "b"], abstain="u")
    with pytest.raises(SpecError, match=r"abstentions \['u'\] are evaluated by method='algebraic'"):
        evaluate(sk, method="majority")
    with pytest.raises(SpecError, match=r"\(intervals: bootstrap\)"):
        evaluate(sk, intervals="delta")
    with pytest.raises(SpecError, match=r"collapse_into='u'"):
        evaluate_abstentions(sk, collapse_into="u")
    with pytest.raises(SpecError, match=r"no abstentions"):
        evaluate_abstentions(sk.collapse_responses({"u": "b"}))


def test_abstention_evaluation_blind_spot_when_no_classifier_informs():
    # c1 and c2 never vary: the pair equations cannot fix c0's abstention row
    sk = Sketch.from_counts(
        {("a", "a", "a"): 3, ("u", "a", "a"): 1, ("b", "a", "a"): 2}, labels=["a", "b"], abstain="u"
    )
    result = evaluate(sk)
    assert "blind_spot" in result.alarm_kinds()


def test_abstention_intervals_are_seeded_cover_the_estimate_and_count_failures():
    from evalgebra.datasets.judges import llm_judges

    sketch = llm_judges(3000, seed=4).sketch()
    first = evaluate(sketch, intervals="bootstrap", n_boot=40, seed=3)
    again = evaluate(sketch, intervals="bootstrap", n_boot=40, seed=3)
    assert first.point.interval == again.point.interval and first.intervals.n_boot == 40
    for judge, rows in first.point.response.items():
        for truth, row in rows.items():
            for answer, value in row.items():
                low, high = first.point.interval["response"][judge][truth][answer]
                assert low <= float(value) <= high
    assert sum(first.intervals.failed.values()) == first.intervals.n_failed < 40
    assert "interval" in first.to_dict()["points"][first.chosen]
