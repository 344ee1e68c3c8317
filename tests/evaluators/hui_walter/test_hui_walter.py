"""Hui-Walter evaluation: exact closed form, alarms, Gibbs sampler, online cross-tab."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from evalgebra.data.point import EvaluationPoint
from evalgebra.data.simulate import expected_sketch
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError, SpecError
from evalgebra.evaluators.dispatch import evaluate
from evalgebra.evaluators.hui_walter.exact import (
    HuiWalterEstimate,
    evaluate_cross_tabs,
    evaluate_hui_walter,
)
from evalgebra.numbers.quadratic import QuadraticNumber
from evalgebra.spec import EnsembleSpec
from evalgebra.testing.strategies import budget, rational_points

TWO = EnsembleSpec(2, 2, populations=2)
NAMED = EnsembleSpec(["rf", "svc"], ["malignant", "benign"], populations=["north", "south"])


def _flat(estimate: HuiWalterEstimate, labels=("a", "b")) -> tuple:
    """(theta per population, then accuracy per classifier and label) of an estimate."""
    return (
        *(row[labels[0]] for row in estimate.by_population.values()),
        *(v for row in estimate.accuracy.values() for v in row.values()),
    )


def _truth(point: EvaluationPoint) -> tuple:
    spec = point.spec
    return (
        *(point.prevalence[s][0] for s in range(spec.n_populations)),
        *(point.accuracy(i, label) for i in range(spec.n_classifiers) for label in spec.labels),
    )


def _mirror(values: tuple, n_pops: int) -> tuple:
    theta, acc = values[:n_pops], values[n_pops:]
    swapped = []
    for i in range(0, len(acc), 2):
        swapped += [1 - acc[i + 1], 1 - acc[i]]
    return (*(1 - t for t in theta), *swapped)


def _youden(point: EvaluationPoint) -> Fraction:
    return sum(
        (point.accuracy(i, "a") + point.accuracy(i, "b") - 1 for i in range(point.spec.n_classifiers)),
        Fraction(0),
    )


def _not_blind(point: EvaluationPoint) -> bool:
    spec = point.spec
    thetas = {point.prevalence[s][0] for s in range(spec.n_populations)}
    youden = [point.accuracy(i, "a") + point.accuracy(i, "b") - 1 for i in range(spec.n_classifiers)]
    return len(thetas) == spec.n_populations and all(j != 0 for j in youden)


# -- the exact closed form -------------------------------------------------------------------------
@given(rational_points(TWO, use_accuracy=True))
def test_evaluate_hui_walter_round_trip_returns_truth_exactly(point):
    assume(_not_blind(point))
    sketch = expected_sketch(point).unlabelled()
    result = evaluate_hui_walter(sketch)
    assert result.method == "hui_walter"
    # a tie of the decoding rule (Youden indices summing to 0) is an undecided alarm
    assert result.alarm_kinds() == (set() if _youden(point) != 0 else {"undecided"})
    truth = _truth(point)
    points = [_flat(p) for p in result.points]
    assert truth in points
    assert _mirror(truth, 2) in points
    if _youden(point) > 0:
        assert _flat(result.point) == truth
    assert evaluate(sketch, method="hui_walter").points == result.points


@st.composite
def three_population_points(draw):
    """Distinct prevalences in tenths, tests better than chance on both labels (quarters)."""
    thetas = draw(st.lists(st.integers(1, 9), min_size=3, max_size=3, unique=True))
    accuracy = {i: {label: Fraction(draw(st.integers(3, 4)), 4) for label in "ab"} for i in range(2)}
    return EvaluationPoint.from_values(
        EnsembleSpec(2, 2, populations=3),
        {f"p{s}": {"a": Fraction(t, 10)} for s, t in enumerate(thetas)},
        accuracy=accuracy,
    )


@budget(0.25)
@given(three_population_points())
def test_evaluate_hui_walter_three_populations_agree_exactly(point):
    result = evaluate_hui_walter(expected_sketch(point).unlabelled())
    assert len(result.trios) == 3 and result.alarms == ()
    assert _flat(result.point) == _truth(point)


def test_evaluate_hui_walter_populations_with_other_accuracies_raise_empty_variety():
    accuracy = {0: {"a": "4/5", "b": "9/10"}, 1: {"a": "3/5", "b": "9/10"}}
    other = {0: {"a": "3/5", "b": "9/10"}, 1: {"a": "3/5", "b": "4/5"}}
    first = expected_sketch(
        EvaluationPoint.from_values(TWO, {"p0": {"a": "1/2"}, "p1": {"a": "1/5"}}, accuracy=accuracy)
    )
    third = expected_sketch(EvaluationPoint.from_values(EnsembleSpec(2, 2), {"a": "4/5"}, accuracy=other))
    third = Sketch(
        third.classifiers, third.labels, *third.table()[:1], *third.table()[1:], populations=["p2"]
    )
    result = evaluate_hui_walter((first + third).unlabelled())
    assert "empty_variety" in result.alarm_kinds()
    assert result.point.accuracy["c0"]["a"] != Fraction(4, 5)


def test_evaluate_cross_tabs_imaginary_discriminant_is_a_complex_alarm():
    # within each population the tests disagree more often than chance (covariance -1/8 and
    # -5/64...), while the populations' rates differ a little: F^2 < 0, so no real evaluation
    counts = [[10, 30, 30, 10], [12, 30, 30, 8]]
    result = evaluate_cross_tabs(counts)
    assert result.alarm_kinds() == {"complex"}
    assert result.chosen is None and result.point is None and result.partition == {"a": [], "b": []}
    values = [v for v in result.points[0].accuracy["c0"].values()]
    assert all(isinstance(v, QuadraticNumber) and not v.is_real for v in values)
    json.loads(result.to_json())  # complex values serialise as null


def test_evaluate_cross_tabs_irrational_when_not_sample_independent():
    point = EvaluationPoint.from_values(
        NAMED,
        {"north": {"malignant": "3/5"}, "south": {"malignant": "1/10"}},
        accuracy={
            "rf": {"malignant": "4/5", "benign": "9/10"},
            "svc": {"malignant": "3/5", "benign": "9/10"},
        },
    )
    tabs = [expected_sketch(point).count_vector(pop).tolist() for pop in NAMED.populations]
    tabs[0][0] += 1  # one more item on which both say malignant
    result = evaluate_cross_tabs(tabs, NAMED.labels, NAMED.classifiers, NAMED.populations)
    assert result.alarm_kinds() == {"irrational"}
    assert result.chosen == 1 or result.chosen == 0
    chosen = result.point
    assert isinstance(chosen.by_population["north"]["malignant"], QuadraticNumber)
    assert abs(float(chosen.accuracy["rf"]["malignant"]) - 0.8) < 0.01


@pytest.mark.parametrize(
    "prevalences, accuracy, undefined",
    [
        (
            ("1/5", "1/5"),
            {0: {"a": "9/10", "b": "4/5"}, 1: {"a": "7/10", "b": "9/10"}},
            6,
        ),  # equal prevalences
        (("1/5", "3/5"), {0: {"a": "1/2", "b": "1/2"}, 1: {"a": "7/10", "b": "9/10"}}, 4),  # a test at chance
    ],
)
def test_evaluate_hui_walter_blind_spots_are_alarms(prevalences, accuracy, undefined):
    point = EvaluationPoint.from_values(
        TWO, {"p0": {"a": prevalences[0]}, "p1": {"a": prevalences[1]}}, accuracy=accuracy
    )
    result = evaluate_hui_walter(expected_sketch(point).unlabelled())
    assert "blind_spot" in result.alarm_kinds() and result.chosen is None
    assert sum(v is None for v in _flat(result.points[0])) == undefined


def test_evaluate_hui_walter_is_equivariant_under_relabelling():
    point = EvaluationPoint.from_values(
        NAMED,
        {"north": {"malignant": "3/5"}, "south": {"malignant": "1/10"}},
        accuracy={
            "rf": {"malignant": "4/5", "benign": "9/10"},
            "svc": {"malignant": "3/5", "benign": "9/10"},
        },
    )
    sketch = expected_sketch(point).unlabelled()
    for decoding in ("youden", "total_accuracy"):
        one = evaluate_hui_walter(sketch, decoding).point
        other = evaluate_hui_walter(sketch.with_label_order(["benign", "malignant"]), decoding).point
        assert one.by_population == other.by_population and one.accuracy == other.accuracy
        assert one.by_population["south"]["malignant"] == Fraction(1, 10)


def test_evaluate_hui_walter_rejects_what_it_cannot_evaluate():
    three = expected_sketch(
        EvaluationPoint.from_values(
            EnsembleSpec(3, 2, populations=2),
            {"p0": {"a": "1/2"}, "p1": {"a": "1/4"}},
            accuracy={i: {"a": "3/4", "b": "3/4"} for i in range(3)},
        )
    )
    with pytest.raises(SpecError, match="exactly 2 classifiers"):
        evaluate_hui_walter(three)
    with pytest.raises(SpecError, match="at least 2 populations"):
        evaluate_hui_walter(three.marginalise([0, 1]).pooled())
    with pytest.raises(SpecError, match="decoding"):
        evaluate_hui_walter(three.marginalise([0, 1]), decoding="largest")
    with pytest.raises(SketchError):
        evaluate_cross_tabs([[1, 2, 3], [1, 2, 3, 4]])


def _populations_sketch(tabs: dict[str, list[int]]) -> Sketch:
    sketches = [
        Sketch.from_counts(dict(zip(("aa", "ab", "ba", "bb"), row)), labels=["a", "b"], population=pop)
        for pop, row in tabs.items()
    ]
    out = sketches[0]
    for other in sketches[1:]:
        out = out.merge(other)
    return out


def test_three_populations_with_irrational_points_of_different_fields_do_not_crash():
    # regression: pair x, y is complex, pairs x, z and y, z irrational in different fields
    # sqrt(22737) and sqrt(30429897): the pooled prevalence summed them and raised ValueError
    sketch = _populations_sketch({"x": [6, 13, 8, 7], "y": [18, 18, 14, 3], "z": [5, 3, 2, 15]})
    result = evaluate_hui_walter(sketch)
    assert {"complex", "irrational", "empty_variety"} <= result.alarm_kinds()
    point = result.point
    assert isinstance(point, HuiWalterEstimate)
    assert isinstance(point.prevalence["a"], float)
    x, y = point.by_population["x"]["a"], point.by_population["y"]["a"]
    assert isinstance(x, QuadraticNumber) and isinstance(y, QuadraticNumber) and x.d != y.d
    expected = sum(q * float(t) for q, t in zip((34, 53, 25), (x, y, point.by_population["z"]["a"]))) / 112
    assert point.prevalence["a"] == pytest.approx(expected)
    json.loads(result.to_json())


def test_pooled_prevalence_is_exact_within_one_field_and_a_float_across_fields():
    from evalgebra.evaluators.hui_walter.exact import _pooled

    r2, r3 = (
        QuadraticNumber(Fraction(1, 2), Fraction(1, 10), 2),
        QuadraticNumber(Fraction(1, 2), Fraction(1, 10), 3),
    )
    same = _pooled([r2, r2.conjugate(), Fraction(1, 4)], [1, 1, 2], 4)
    assert same == Fraction(3, 8) or (
        isinstance(same, QuadraticNumber) and same.q == 0 and same.p == Fraction(3, 8)
    )
    exact = _pooled([r2, Fraction(1, 4)], [1, 1], 2)
    assert isinstance(exact, QuadraticNumber) and exact.d == 2
    assert _pooled([r2, r3], [1, 1], 2) == pytest.approx((float(r2) + float(r3)) / 2)
    assert _pooled([r2, 0.25], [1, 3], 4) == pytest.approx((float(r2) + 0.75) / 4)
    assert _pooled([QuadraticNumber(0, 1, -1), r3], [1, 1], 2) is None


@budget(0.5)
@given(
    st.lists(st.lists(st.integers(0, 40), min_size=4, max_size=4), min_size=3, max_size=3),
    st.sampled_from(["youden", "total_accuracy"]),
)
def test_three_population_sketches_never_raise(rows, decoding):
    # regression: 3 populations gave prevalences from different quadratic fields (ValueError)
    assume(all(sum(row) > 0 for row in rows))
    result = evaluate_hui_walter(_populations_sketch(dict(zip(("x", "y", "z"), rows))), decoding)
    assert len(result.trios) == 3
    if result.chosen is None:
        assert result.alarms
    json.loads(result.to_json())


def test_tied_decoding_raises_an_undecided_alarm():
    # Youden indices cancel: t1 = (4/5, 9/10), t2 = (1/5, 1/10), so J_1 + J_2 = 0 on both points
    result = evaluate_cross_tabs(
        [[33, 97, 87, 33], [97, 73, 733, 97]],
        labels=("m", "b"),
        classifiers=("t1", "t2"),
        populations=("north", "south"),
    )
    assert result.chosen is None
    assert result.alarm_kinds() == {"undecided"}
    assert "Youden" in result.alarms[0].detail


def test_pair_evaluations_of_three_populations_name_their_populations():
    sketch = _populations_sketch({"x": [6, 13, 8, 7], "y": [18, 18, 14, 3], "z": [5, 3, 2, 15]})
    result = evaluate_hui_walter(sketch)
    for (p, q), pair in zip([("x", "y"), ("x", "z"), ("y", "z")], result.trios):
        assert pair.alarms and all(a.detail.startswith(f"populations {p}, {q}: ") for a in pair.alarms)
        assert set(pair.points[0].by_population) == {p, q}
    # the combined alarms carry the pairs' alarms once, named once
    assert sum(1 for a in result.alarms if a.detail.startswith("populations x, y: populations")) == 0
    assert [a for pair in result.trios for a in pair.alarms] == list(result.alarms[:-1])
