"""Per-item posteriors: checked against exact simulations, where the split of every pattern's count by
true label is known, and against the partitions the evaluators compute from their own points."""

import itertools
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given

from evalgebra import datasets
from evalgebra.data.simulate import expected_sketch
from evalgebra.data.sketch import Sketch
from evalgebra.errors import PointError, SketchError
from evalgebra.evaluators.dispatch import evaluate
from evalgebra.results import Estimate
from evalgebra.results.posteriors import (
    expected_confusion,
    pattern_posteriors,
    point_rows,
    posterior_partition,
    predict,
    predict_proba,
)
from evalgebra.spec import EnsembleSpec
from evalgebra.testing import budget, rational_points, specs


def truth_estimate(point):
    """The true evaluation point of a simulation as an Estimate (prevalences and every response row)."""
    labels, names = point.spec.labels, point.spec.classifiers
    prevalence = point.prevalence_of()
    response = {c: {t: {r: point.response_rate(c, r, t) for r in labels} for t in labels} for c in names}
    accuracy = {c: {t: response[c][t][t] for t in labels} for c in names}
    return Estimate(prevalence, accuracy, response=response)


def by_label(partition):
    return {label: {pattern: share for pattern, share in rows if share} for label, rows in partition.items()}


@given(point=rational_points(specs(1, 4, 2, 3, structure_kinds=("independent",), named=None)))
@budget(0.5)
def test_posterior_partition_equals_the_exact_split_by_true_label(point):
    # brute force: the simulated labelled test knows every item's truth; count x posterior must equal it
    sketch = expected_sketch(point)
    estimate = truth_estimate(point)
    got = by_label(posterior_partition(estimate, sketch.unlabelled()))
    assert got == {
        label: {p: c for p, c in rows.items() if c} for label, rows in sketch.by_true_label().items()
    }
    assert all(isinstance(share, Fraction) for rows in got.values() for share in rows.values())


@given(point=rational_points(specs(1, 4, 2, 3, structure_kinds=("independent",), named=None)))
@budget(0.5)
def test_expected_confusion_equals_q_times_prevalence_times_rows(point):
    sketch = expected_sketch(point)
    confusion = expected_confusion(truth_estimate(point), sketch.unlabelled())
    labels = point.spec.labels
    for c in point.spec.classifiers:
        for t in labels:
            for r in labels:
                assert confusion[c][t][r] == sketch.Q * point.prevalence_of()[t] * point.response_rate(
                    c, r, t
                )


def test_posterior_partition_matches_the_algebraic_evaluators_partition_two_labels():
    counts = {"aaa": 84, "aab": 36, "aba": 51, "abb": 39, "baa": 68, "bab": 52, "bba": 77, "bbb": 73}
    sketch = Sketch.from_counts(counts, labels=["a", "b"])
    result = evaluate(sketch)
    assert by_label(posterior_partition(result.point, sketch)) == by_label(result.partition)


def test_posterior_partition_matches_the_many_labels_partition():
    spec = EnsembleSpec(3, 3)
    rows = {"a": {"a": "7/10", "b": "1/5"}, "b": {"a": "1/10", "b": "4/5"}, "c": {"a": "1/5", "b": "1/10"}}
    from evalgebra.data.point import EvaluationPoint

    truth = EvaluationPoint.from_values(spec, {"a": "1/2", "b": "3/10"}, response={i: rows for i in range(3)})
    sketch = expected_sketch(truth).unlabelled()
    result = evaluate(sketch)
    assert result.partition
    assert by_label(posterior_partition(result.point, sketch)) == by_label(result.partition)


@given(point=rational_points(specs(2, 4, 2, 3, structure_kinds=("independent",), named=None)))
@budget(0.3)
def test_predict_proba_items_agree_with_pattern_posteriors(point):
    sketch = expected_sketch(point)
    names = sketch.classifiers
    items = [list(pattern) for pattern, count in sketch.counts().items() for _ in range(min(count, 3))]
    estimate = truth_estimate(point)
    proba = predict_proba(estimate, items, classifiers=names)
    table = pattern_posteriors(estimate, classifiers=names)
    for item, row in zip(items, proba):
        assert list(row) == [table[tuple(item)][x] for x in point.spec.labels]
        assert sum(row) == 1
    labels = predict(estimate, items, classifiers=names)
    for item, label in zip(items, labels):
        post = table[tuple(item)]
        assert post[label] == max(post.values())
        assert label == next(
            x for x in point.spec.labels if post[x] == max(post.values())
        )  # ties: first label


def test_predict_proba_on_a_frame_keeps_its_index_and_names_the_labels():
    point = Estimate(
        {"a": Fraction(1, 4), "b": Fraction(3, 4)},
        {"x": {"a": Fraction(3, 4), "b": Fraction(2, 3)}, "y": {"a": Fraction(4, 5), "b": Fraction(3, 5)}},
    )
    frame = pd.DataFrame({"y": ["a", "b"], "x": ["a", "a"]}, index=["i1", "i2"])
    proba = predict_proba(point, frame)
    assert list(proba.columns) == ["a", "b"] and list(proba.index) == ["i1", "i2"]
    # the columns are matched by name: y's answer comes first in the frame
    assert proba.loc["i2", "a"] == pattern_posteriors(point, classifiers=["x", "y"])[("a", "b")]["a"]
    labels = predict(point, frame)
    assert labels.tolist() == ["a", "b"] and list(labels.index) == ["i1", "i2"]


def test_irrational_points_give_floats_that_sum_to_one():
    sketch = datasets.load("acs_employment").unlabelled()
    result = evaluate(sketch)
    assert "irrational" in result.alarm_kinds()
    assert not point_rows(result.point).exact
    proba = predict_proba(result.point, [["a", "a", "a"], ["b", "b", "b"]], classifiers=sketch.classifiers)
    assert proba.dtype == float and np.allclose(proba.sum(axis=1), 1.0)
    shares = posterior_partition(result.point, sketch)
    assert sum(s for rows in shares.values() for _, s in rows) == pytest.approx(sketch.Q)


def test_zero_probability_patterns_have_no_posterior():
    point = Estimate(
        {"a": Fraction(1, 2), "b": Fraction(1, 2)}, {"c0": {"a": 1, "b": 1}, "c1": {"a": 1, "b": 1}}
    )
    assert pattern_posteriors(point)[("a", "b")] == {"a": None, "b": None}
    assert predict(point, [["a", "b"], ["b", "b"]]) == [None, "b"]
    with pytest.raises(PointError, match="probability 0"):
        expected_confusion(point, Sketch.from_counts({"ab": 1}, labels=["a", "b"]))


def test_bad_inputs_are_refused_with_what_is_accepted():
    point = Estimate({"a": Fraction(1, 2), "b": Fraction(1, 2)}, {"c0": {"a": Fraction(1, 2), "b": None}})
    with pytest.raises(PointError, match="undefined"):
        pattern_posteriors(point)
    with pytest.raises(PointError, match="need an Estimate"):
        point_rows("a point")
    good = Estimate(
        {"a": Fraction(1, 2), "b": Fraction(1, 2)}, {"c0": {"a": Fraction(1, 2), "b": Fraction(1, 2)}}
    )
    with pytest.raises(PointError, match="no rows for classifier"):
        predict_proba(good, [["a"]], classifiers=["zz"])
    with pytest.raises(SketchError, match="among the labels"):
        predict_proba(good, [["q"]])
    with pytest.raises(SketchError, match="label or abstention names"):
        predict_proba(good, [[3]])
    with pytest.raises(SketchError, match="accepted 'ignore'"):
        predict_proba(good, [[None]], missing="u")


def test_points_without_response_rows_are_refused_for_many_labels():
    accuracy_only = Estimate(
        {"a": Fraction(1, 2), "b": Fraction(1, 4), "c": Fraction(1, 4)},
        {"c0": {"a": Fraction(1, 2), "b": Fraction(1, 2), "c": Fraction(1, 2)}},
    )
    with pytest.raises(PointError, match="accuracies only"):
        predict(accuracy_only, [["a"]])


def test_majority_vote_points_give_posteriors_for_two_labels():
    sketch = Sketch.from_counts(
        {"aaa": 84, "aab": 36, "aba": 51, "abb": 39, "baa": 68, "bab": 52, "bba": 77, "bbb": 73},
        labels=["a", "b"],
    )
    point = evaluate(sketch, method="majority").point
    shares = posterior_partition(point, sketch)
    assert sum(s for rows in shares.values() for _, s in rows) == sketch.Q  # exact: every count split in full


@given(point=rational_points(specs(2, 4, 2, 3, structure_kinds=("independent",), named=None)))
@budget(0.3)
def test_predict_proba_does_not_depend_on_the_order_of_the_columns(point):
    sketch = expected_sketch(point)
    names = list(sketch.classifiers)
    items = [list(pattern) for pattern in sketch.counts()]
    estimate = truth_estimate(point)
    reversed_items = [item[::-1] for item in items]
    assert (
        predict_proba(estimate, items, classifiers=names).tolist()
        == predict_proba(estimate, reversed_items, classifiers=names[::-1]).tolist()
    )


def _abstaining_point(rng, n_classifiers=3, abstentions=("u",)):
    """An exact rational point with abstention rates that differ by true label."""
    labels = ["a", "b"]
    responses = labels + list(abstentions)
    weights = rng.integers(1, 6, 2)
    prevalence = {t: Fraction(int(w), int(weights.sum())) for t, w in zip(labels, weights)}
    response = {}
    for i in range(n_classifiers):
        rows = {}
        for t in labels:
            w = rng.integers(1, 5, len(responses))
            w[labels.index(t)] += 6
            rows[t] = {r: Fraction(int(x), int(w.sum())) for r, x in zip(responses, w)}
        response[f"c{i}"] = rows
    accuracy = {c: {t: rows[t][t] for t in labels} for c, rows in response.items()}
    return Estimate(prevalence, accuracy, response=response), responses


def _brute_force(point, responses, item):
    """P(label | the answers given) by summing the joint law over every completion of the missing ones."""
    labels = list(point.prevalence)
    names = list(point.response)
    joint = dict.fromkeys(labels, Fraction(0))
    gaps = [k for k, x in enumerate(item) if x is None]
    for fill in itertools.product(responses, repeat=len(gaps)):
        full = list(item)
        for k, x in zip(gaps, fill):
            full[k] = x
        for t in labels:
            p = point.prevalence[t]
            for c, x in zip(names, full):
                p *= point.response[c][t][x]
            joint[t] += p
    total = sum(joint.values())
    return [joint[t] / total for t in labels]


def test_predict_proba_with_abstentions_and_missing_answers_is_bayes_rule_brute_force():
    rng = np.random.default_rng(0)
    for _ in range(3):
        point, responses = _abstaining_point(rng, 3, ("u", "v"))
        items = [list(x) for x in itertools.product([*responses, None], repeat=3)]
        got = predict_proba(point, items)
        for item, row in zip(items, got.tolist()):
            assert row == _brute_force(point, responses, item)  # exact: Fractions
        as_u = predict_proba(point, items, missing="u").tolist()
        for item, row in zip(items, as_u):
            assert row == _brute_force(point, responses, ["u" if x is None else x for x in item])
        frame = pd.DataFrame(items, columns=["c0", "c1", "c2"]).replace({None: np.nan})
        assert predict_proba(point, frame).to_numpy().tolist() == got.tolist()
        labels = predict(point, items)
        assert labels == [["a", "b"][int(r[1] > r[0])] for r in got.tolist()]


def test_posteriors_of_an_abstaining_sketch_split_every_count_and_confusion_counts_abstentions():
    rng = np.random.default_rng(1)
    point, responses = _abstaining_point(rng, 3, ("u",))
    sketch = Sketch.from_counts(
        {
            ("a", "a", "a"): 30,
            ("a", "u", "b"): 7,
            ("u", "b", "b"): 11,
            ("b", "b", "u"): 5,
            ("b", "a", "b"): 9,
        },
        labels=["a", "b"],
        abstain="u",
    )
    shares = posterior_partition(point, sketch)
    totals = {}
    for rows in shares.values():
        for pattern, share in rows:
            totals[pattern] = totals.get(pattern, 0) + share
    assert totals == sketch.counts()
    confusion = expected_confusion(point, sketch)
    for c in sketch.classifiers:
        assert sum(v for row in confusion[c].values() for v in row.values()) == sketch.Q
        assert set(confusion[c]["a"]) == {"a", "b", "u"}
    index = list(sketch.classifiers).index("c1")
    abstained = sum(n for p, n in sketch.counts().items() if p[index] == "u")
    assert sum(confusion["c1"][t]["u"] for t in "ab") == abstained
    other = Sketch.from_counts({("a", "x", "b"): 3}, labels=["a", "b"], abstain="x")
    with pytest.raises(SketchError, match="no rates in the estimate"):
        posterior_partition(point, other)


def test_predict_on_a_fitted_evaluation_with_abstentions():
    """Five judges, two of which abstain (one says "unsure", one gives nothing): the fitted point's
    abstention rates enter the posteriors; read as "unsure" (as the sketch counted them) or ignored,
    missing verdicts still give every item a label, mostly the right one."""
    from evalgebra.datasets.judges import llm_judges

    data = llm_judges(2000, seed=2)
    result = evaluate(data.sketch())
    frame = data.frame()
    judges = frame[list(data.judges)]
    counted = predict(result.point, judges, missing="unsure")
    ignored = predict(result.point, judges)
    assert counted.notna().all() and ignored.notna().all()
    assert (counted == frame["truth"]).mean() > 0.9 and (ignored == frame["truth"]).mean() > 0.9
    silent = judges["small_silent"].isna()
    assert silent.any() and (counted[~silent] == ignored[~silent]).all()
