"""Confidence intervals: seeded bootstrap (vectorised and one resample at a time agree), delta method."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalgebra.data.point import EvaluationPoint
from evalgebra.data.simulate import expected_sketch
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SpecError
from evalgebra.evaluators.dispatch import evaluate
from evalgebra.evaluators.intervals.confidence import confidence_intervals, resample_counts, statistic_keys
from evalgebra.spec import EnsembleSpec

SMALL = {"aaa": 84, "aab": 36, "aba": 51, "abb": 39, "baa": 68, "bab": 52, "bba": 77, "bbb": 73}


def _binary(n_classifiers: int = 3, q: int | None = None) -> Sketch:
    accuracies = [("3/4", "2/3"), ("4/5", "3/5"), ("5/6", "1/2"), ("2/3", "3/4")][:n_classifiers]
    point = EvaluationPoint.from_values(
        EnsembleSpec(n_classifiers, 2),
        {"a": "1/4"},
        accuracy={i: {"a": a, "b": b} for i, (a, b) in enumerate(accuracies)},
    )
    return expected_sketch(point, q).unlabelled()


def _three_labels(q: int = 10000) -> Sketch:
    rows = {"a": {"a": "7/10", "b": "1/5"}, "b": {"a": "1/10", "b": "4/5"}, "c": {"a": "1/5", "b": "1/10"}}
    point = EvaluationPoint.from_values(
        EnsembleSpec(3, 3), {"a": "1/2", "b": "3/10"}, response={i: rows for i in range(3)}
    )
    return expected_sketch(point, q).unlabelled()


def _renamed_trios(q: int = 375000) -> Sketch:
    """Four classifiers, three labels, whose trios decode three different renamings on their own."""
    rows = {
        "c0": ("122", "113", "311"),
        "c1": ("212", "113", "122"),
        "c2": ("131", "311", "113"),
        "c3": ("311", "221", "113"),
    }
    response = {
        c: {t: {a: f"{v}/5" for a, v in zip("abc", row)} for t, row in zip("abc", by_truth)}
        for c, by_truth in rows.items()
    }
    point = EvaluationPoint.from_values(EnsembleSpec(4, 3), {"a": "1/2", "b": "1/3"}, response=response)
    return expected_sketch(point, q).unlabelled()


def _hui_walter() -> Sketch:
    first = Sketch.from_counts({"aa": 41, "ab": 49, "ba": 19, "bb": 91}, labels=["a", "b"], population="s0")
    return first.merge(
        Sketch.from_counts({"aa": 43, "ab": 67, "ba": 37, "bb": 253}, labels=["a", "b"], population="s1")
    )


def _pairs(result) -> list:
    """Every interval of the chosen point, in statistic_keys order."""
    out = []
    for key in statistic_keys(result):
        node = result.point.interval
        for part in key:
            node = node[part]
        out.append(node)
    return out


def _close(first: list, second: list, tol: float = 1e-9) -> bool:
    return all(
        (a is None and b is None) or (a is not None and b is not None and np.allclose(a, b, atol=tol))
        for a, b in zip(first, second)
    )


def test_resample_counts_keeps_totals_and_empty_cells():
    draws = resample_counts([5, 0, 3, 7], 50, np.random.default_rng(3), groups=[0, 0, 1, 1])
    assert draws.shape == (50, 4)
    assert (draws[:, :2].sum(axis=1) == 5).all() and (draws[:, 2:].sum(axis=1) == 10).all()
    assert (draws[:, 1] == 0).all()


def test_confidence_intervals_seeded_determinism():
    sketch = Sketch.from_counts(SMALL, labels=["a", "b"])
    first = evaluate(sketch, intervals="bootstrap", n_boot=300, seed=7)
    again = evaluate(sketch, intervals="bootstrap", n_boot=300, seed=7)
    other = evaluate(sketch, intervals="bootstrap", n_boot=300, seed=8)
    assert first.point.interval == again.point.interval and first.intervals == again.intervals
    assert first.point.interval != other.point.interval


@pytest.mark.parametrize(
    "case",
    [
        "three_binary",
        "four_binary",
        "range",
        "three_labels",
        "order",
        "order_renamed",
        "renamed_trios",
        "majority",
        "majority_ties",
        "small_with_failures",
    ],
)
def test_bootstrap_vectorised_equals_exact_evaluator_on_the_same_resamples(case):
    """The vectorised route and the exact evaluator, one resample at a time, on the same draws."""
    options: dict = {}
    method = "algebraic"
    sketch = _binary(3, 480)
    if case == "four_binary":
        sketch = _binary(4, 1440)
    elif case == "range":
        sketch, options = _binary(4, 1440), {"prevalence_range": ("1/10", "1/2")}
    elif case == "three_labels":
        sketch = _three_labels()
    elif case == "order":
        sketch, options = _three_labels(), {"prevalence_order": ["a", "b", "c"]}
    elif case == "order_renamed":  # regression: the renaming moved the answers too, not only the true labels
        sketch, options = _three_labels(), {"prevalence_order": ["b", "a", "c"]}
    elif case == "renamed_trios":  # regression (issue 21): trios averaged in different renamings
        sketch = _renamed_trios()
    elif case == "majority":
        sketch, method = _three_labels(), "majority"
    elif case == "majority_ties":
        sketch, method, options = _binary(4, 1440), "majority", {"ties": ["b"]}
    elif case == "small_with_failures":
        sketch = Sketch.from_counts(
            {"aaa": 9, "aab": 2, "aba": 3, "abb": 2, "baa": 2, "bab": 3, "bba": 2, "bbb": 7},
            labels=["a", "b"],
        )
    n_boot = 40 if sketch.n_labels == 3 and method == "algebraic" else 150
    n_boot = 15 if case == "renamed_trios" else n_boot  # four exact trios per resample on the slow route
    result = evaluate(sketch, method=method, **options)
    fast = confidence_intervals(result, sketch, n_boot=n_boot, seed=11, options=options)
    slow = confidence_intervals(result, sketch, n_boot=n_boot, seed=11, options=options, vectorised=False)
    assert fast.intervals == slow.intervals, (fast.intervals, slow.intervals)
    assert _close(_pairs(fast), _pairs(slow), 1e-7)
    if case == "small_with_failures":
        assert fast.intervals.n_failed > 0


def test_hui_walter_bootstrap_resamples_each_population():
    sketch = _hui_walter()
    result = evaluate(sketch, method="hui_walter", intervals="bootstrap", n_boot=200, seed=0)
    low, high = result.point.interval["by_population"]["s1"]["a"]
    assert low < 0.25 < high
    assert result.intervals.n_failed + 200 >= 200 and sum(result.intervals.failed.values()) < 20
    with pytest.raises(SpecError, match="bootstrap"):
        evaluate(sketch, method="hui_walter", intervals="delta")


@pytest.mark.parametrize(
    "sketch, method",
    [
        (_binary(3, 5760), "algebraic"),
        (_binary(4, 5760), "algebraic"),
        (_three_labels(20000), "algebraic"),
        (_binary(4, 5760), "majority"),
    ],
)
def test_bootstrap_and_delta_agree_on_large_samples(sketch, method):
    boot = evaluate(sketch, method=method, intervals="bootstrap", n_boot=2000, seed=1, fit=False)
    delta = evaluate(sketch, method=method, intervals="delta")
    assert boot.intervals.n_failed == 0
    for b, d in zip(_pairs(boot), _pairs(delta)):
        width = d[1] - d[0]
        assert abs((b[1] - b[0]) - width) < 0.2 * width
        assert abs(b[0] - d[0]) < 0.25 * width and abs(b[1] - d[1]) < 0.25 * width


def test_delta_interval_of_majority_prevalence_is_the_binomial_interval():
    """Without ties, the voted prevalence is a binomial proportion: se = sqrt(p (1 - p) / Q)."""
    sketch = _binary(3, 1440)
    result = evaluate(sketch, method="majority", intervals="delta", level=0.9)
    p = float(result.point.prevalence["a"])
    half = 1.6448536269514722 * math.sqrt(p * (1 - p) / sketch.Q)
    assert np.allclose(result.point.interval["prevalence"]["a"], (p - half, p + half), atol=1e-12)


def test_delta_interval_shrinks_like_one_over_root_q():
    small, large = _binary(4, 1440), _binary(4, 4 * 1440)  # the same frequencies, four times the items
    narrow = _pairs(evaluate(large, intervals="delta"))
    wide = _pairs(evaluate(small, intervals="delta"))
    ratios = [(w[1] - w[0]) / (n[1] - n[0]) for w, n in zip(wide, narrow) if 0 < w[0] and w[1] < 1]
    assert ratios and np.allclose(ratios, 2.0, rtol=1e-6)


def test_bootstrap_interval_shrinks_like_one_over_root_q():
    small, large = _binary(3, 2 * 5760), _binary(3, 8 * 5760)
    wide = _pairs(evaluate(small, intervals="bootstrap", n_boot=1500, seed=2))
    narrow = _pairs(evaluate(large, intervals="bootstrap", n_boot=1500, seed=3))
    ratios = [(w[1] - w[0]) / (n[1] - n[0]) for w, n in zip(wide, narrow)]
    assert 1.7 < float(np.median(ratios)) < 2.3, ratios


def test_failed_resamples_are_counted_by_reason():
    sketch = Sketch.from_counts(
        {"aaa": 6, "aab": 2, "aba": 3, "abb": 2, "baa": 2, "bab": 3, "bba": 2, "bbb": 5}, labels=["a", "b"]
    )
    result = evaluate(sketch, intervals="bootstrap", n_boot=400, seed=0, fit=False)  # the exact evaluator
    info = result.intervals
    assert info.n_failed > 0 and set(info.failed) <= {
        "complex",
        "blind_spot",
        "empty_variety",
        "undecided",
        "undefined",
    }
    assert info.failed_share == info.n_failed / 400
    assert f"{info.n_failed} failed" in result.summary()
    assert result.to_dict()["intervals"]["failed"] == dict(info.failed)


def test_no_chosen_point_has_no_intervals_but_says_what_was_asked():
    sketch = Sketch.from_counts(
        {"aaa": 1, "aab": 1, "aba": 1, "abb": 1, "baa": 1, "bab": 1, "bba": 1, "bbb": 1}, labels=["a", "b"]
    )
    result = evaluate(sketch, intervals="bootstrap", n_boot=20, seed=0, fit=False)
    assert result.point is None and result.intervals is not None
    assert all(not p.interval for p in result.points)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(
    counts=st.lists(st.integers(0, 60), min_size=8, max_size=8).filter(lambda c: sum(c) > 0),
    method=st.sampled_from(["algebraic", "majority"]),
    kind=st.sampled_from(["bootstrap", "delta"]),
)
def test_intervals_contain_the_point_estimate(counts, method, kind):
    sketch = Sketch.from_counts(
        {p: c for p, c in zip(["aaa", "aab", "aba", "abb", "baa", "bab", "bba", "bbb"], counts) if c},
        labels=["a", "b"],
    )
    result = evaluate(
        sketch,
        method=method,
        intervals=kind,
        n_boot=50 if kind == "bootstrap" else None,
        seed=0 if kind == "bootstrap" else None,
    )
    if result.point is None:
        return
    for key, pair in zip(statistic_keys(result), _pairs(result)):
        value = (
            result.point.prevalence[key[1]]
            if key[0] == "prevalence"
            else result.point.accuracy[key[1]][key[2]]
        )
        try:
            number = float(value)
        except (TypeError, ValueError):
            number = math.nan
        if pair is None:
            continue
        assert pair[0] <= number + 1e-12 and number - 1e-12 <= pair[1], (key, pair, value)


def test_json_round_trip_of_intervals():
    sketch = _binary(4, 1440)
    result = evaluate(sketch, intervals="bootstrap", n_boot=100, seed=5)
    document = json.loads(result.to_json())
    assert document["intervals"] == {
        "kind": "bootstrap",
        "level": 0.95,
        "n_boot": 100,
        "seed": 5,
        "failed": {},
        "failed_share": 0.0,
        "estimator": "fitted",
        "relabelled": result.intervals.relabelled,
    }
    interval = document["points"][result.chosen]["interval"]
    for key, pair in zip(statistic_keys(result), _pairs(result)):
        node = interval
        for part in key:
            node = node[part]
        assert node == list(pair)
    plain = evaluate(sketch)
    assert "intervals" not in plain.to_dict() and "interval" not in plain.to_dict()["points"][0]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"intervals": "jackknife"}, "unknown kind"),
        ({"intervals": "bootstrap", "level": 1.5}, "strictly between"),
        ({"intervals": "bootstrap", "n_boot": 1}, "n_boot"),
        ({"intervals": "bootstrap", "seed": -1}, "seed"),
        ({"seed": 0}, "intervals='bootstrap'"),
    ],
)
def test_bad_interval_options_are_refused_with_what_is_accepted(kwargs, message):
    with pytest.raises(SpecError, match=message):
        evaluate(Sketch.from_counts(SMALL, labels=["a", "b"]), **kwargs)
