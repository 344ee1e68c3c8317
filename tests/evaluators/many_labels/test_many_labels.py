"""The exact evaluator for R >= 3 labels: round trips, decoding, partition, every alarm, the float path."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from evalgebra.data.point import EvaluationPoint
from evalgebra.data.simulate import expected_sketch
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError, SpecError
from evalgebra.evaluators.many_labels.solve import (
    ResponseEstimate,
    best_assignment,
    evaluate_counts_many_labels,
    exact_solution_many_labels,
)
from evalgebra.evaluators.many_labels.trios import evaluate_batch_many_labels, evaluate_many_labels
from evalgebra.numbers.algebraic_numbers import AlgebraicNumber
from evalgebra.spec import EnsembleSpec


@st.composite
def independent_points(draw, n_labels: int, n_classifiers: int) -> EvaluationPoint:
    """Distinct prevalences; every response column puts more than half on its true label."""
    spec = EnsembleSpec(n_classifiers, n_labels)
    labels = spec.labels
    weights = draw(st.lists(st.integers(1, 9), min_size=n_labels, max_size=n_labels, unique=True))
    prevalence = {lab: Fraction(w, sum(weights)) for lab, w in zip(labels, weights)}
    response = {}
    for i in range(n_classifiers):
        response[i] = {}
        for t in labels:
            others = draw(st.lists(st.integers(0, 3), min_size=n_labels - 1, max_size=n_labels - 1))
            diagonal = sum(others) + draw(st.integers(1, 4))
            total = diagonal + sum(others)
            rest = iter(others)
            response[i][t] = {a: Fraction(diagonal if a == t else next(rest), total) for a in labels}
    return EvaluationPoint.from_values(spec, prevalence, response=response)


def _matches(point: ResponseEstimate, truth: EvaluationPoint, classifiers) -> bool:
    labels = truth.spec.labels
    return all(point.prevalence[lab] == truth.prevalence[0][k] for k, lab in enumerate(labels)) and all(
        point.response[c][t][a] == truth.response[i][ti][ai]
        for i, c in enumerate(classifiers)
        for ti, t in enumerate(labels)
        for ai, a in enumerate(labels)
    )


def _order(truth: EvaluationPoint) -> list[str]:
    labels = truth.spec.labels
    return sorted(labels, key=lambda lab: -truth.prevalence[0][labels.index(lab)])


@pytest.mark.parametrize(
    "n_labels,n_classifiers,examples", [(3, 3, 25), (4, 3, 10), (3, 4, 8), (4, 4, 4), (3, 5, 3)]
)
def test_evaluate_many_labels_round_trip(n_labels, n_classifiers, examples):
    @settings(max_examples=examples)
    @given(independent_points(n_labels, n_classifiers))
    def run(truth):
        sketch = expected_sketch(truth).unlabelled()
        result = evaluate_many_labels(sketch, prevalence_order=_order(truth))
        assert result.alarm_kinds() <= {"blind_spot"}, result.alarms  # never complex/irrational/empty here
        assume("blind_spot" not in result.alarm_kinds())
        assert _matches(result.point, truth, sketch.classifiers)
        if n_classifiers == 3:
            assert len(result.points) == len(list(itertools.permutations(range(n_labels))))
            assert sum(1 for p in result.points if _matches(p, truth, sketch.classifiers)) == 1

    run()


@settings(max_examples=15)
@given(independent_points(3, 3))
def test_evaluate_counts_many_decodings_and_partition(truth):
    sketch = expected_sketch(truth)
    counts = sketch.count_vector().tolist()
    labels = truth.spec.labels
    known = {lab: truth.prevalence[0][k] for k, lab in enumerate(labels)}
    result = evaluate_counts_many_labels(counts, labels, known_prevalences=known)
    assume(result.point is not None)
    assert _matches(result.point, truth, ("c0", "c1", "c2"))
    # the partition: each pattern's count split by true label, summing to the count and to Q P_l
    for k, lab in enumerate(labels):
        assert sum(c for _, c in result.partition[lab]) == sketch.Q * truth.prevalence[0][k]
    totals = [sum(result.partition[lab][p][1] for lab in labels) for p in range(len(counts))]
    assert totals == counts
    # total accuracy: the classifiers are better than chance, so the truth maximises it
    default = evaluate_counts_many_labels(counts, labels)
    assert _matches(default.point, truth, ("c0", "c1", "c2"))


def test_evaluate_counts_many_other_orders_pick_other_points():
    truth = EvaluationPoint.from_values(
        EnsembleSpec(3, 3),
        {"a": "1/2", "b": "3/10"},
        response={
            i: {
                "a": {"a": "7/10", "b": "1/5"},
                "b": {"a": "1/10", "b": "4/5"},
                "c": {"a": "1/5", "b": "1/10"},
            }
            for i in range(3)
        },
    )
    counts = expected_sketch(truth).count_vector().tolist()
    swapped = evaluate_counts_many_labels(counts, "abc", prevalence_order=["b", "a", "c"])
    assert swapped.point.prevalence == {"a": Fraction(3, 10), "b": Fraction(1, 2), "c": Fraction(1, 5)}
    sol = exact_solution_many_labels(counts, 3)
    assert best_assignment(sol, "abc") is not None
    with pytest.raises(SpecError):
        evaluate_counts_many_labels(counts, "abc", prevalence_order=["a", "b"])
    with pytest.raises(SpecError):
        evaluate_counts_many_labels(counts, "abc", known_prevalences={"a": 0.5, "b": 0.3, "c": 0.2})
    with pytest.raises(SketchError):
        evaluate_counts_many_labels(counts[:-1], "abc")


def test_evaluate_counts_many_ties_are_undecided():
    rows = {"a": {"a": "7/10", "b": "1/5"}, "b": {"a": "1/10", "b": "4/5"}, "c": {"a": "1/5", "b": "1/10"}}
    truth = EvaluationPoint.from_values(
        EnsembleSpec(3, 3), {"a": "2/5", "b": "2/5"}, response={i: rows for i in range(3)}
    )
    result = evaluate_counts_many_labels(
        expected_sketch(truth).count_vector().tolist(), "abc", prevalence_order=["a", "b", "c"]
    )
    assert result.chosen is None and "undecided" in result.alarm_kinds()


def _correlated(seed: int) -> Sketch:
    import random

    rng = random.Random(seed)
    labels = ("a", "b", "c")
    decisions, truth = [], []
    for _ in range(300):
        t, shared = rng.randrange(3), rng.randrange(3)
        row = []
        for _i in range(3):
            u = rng.random()
            row.append(labels[t] if u < 0.6 else labels[shared] if u < 0.85 else labels[rng.randrange(3)])
        truth.append(labels[t])
        decisions.append(row)
    return Sketch.from_decisions(decisions, truth=truth, labels=labels).unlabelled()


def test_evaluate_counts_many_irrational_and_empty_variety_on_correlated_test():
    result = evaluate_many_labels(_correlated(5))
    assert {"irrational", "empty_variety"} <= result.alarm_kinds()
    values = result.points[0].values()
    assert any(isinstance(v, AlgebraicNumber) for v in values)
    # the prevalences of every candidate still sum to one exactly (one trace)
    assert "exact" in result.points[0].to_dict() and "response" in result.points[0].to_dict()


def test_evaluate_counts_many_complex_alarm():
    found = None
    for seed in range(200):
        counts = [(seed * 7919 + 104729 * k * k) % 29 + 1 for k in range(27)]
        result = evaluate_counts_many_labels(counts, "abc")
        if "complex" in result.alarm_kinds():
            found = result
            break
    assert found is not None and found.points == () and found.chosen is None


def test_evaluate_counts_many_outside_simplex():
    result = evaluate_many_labels(_correlated(5))
    assert "outside_unit_cube" in result.alarm_kinds()
    point = result.points[0]
    assert any(v < 0 or v > 1 for v in point.values())


def test_evaluate_counts_many_blind_spot_singular_pair_tables():
    counts = [0] * 27
    counts[0] = counts[13] = 5  # only aaa and bbb: no classifier ever answers c
    result = evaluate_counts_many_labels(counts, "abc")
    assert result.alarm_kinds() == {"blind_spot"} and result.points == ()


def test_evaluate_counts_many_blind_spot_labels_not_separated():
    # two hidden labels on which every classifier answers alike: the pair tables are singular
    rows = {"a": {"a": "1/2", "b": "1/4"}, "b": {"a": "1/2", "b": "1/4"}, "c": {"a": "1/10", "b": "1/10"}}
    truth = EvaluationPoint.from_values(
        EnsembleSpec(3, 3), {"a": "1/2", "b": "3/10"}, response={i: rows for i in range(3)}
    )
    result = evaluate_counts_many_labels(expected_sketch(truth).count_vector().tolist(), "abc")
    assert "blind_spot" in result.alarm_kinds()


def test_evaluate_batch_many_matches_exact():
    points = [
        EvaluationPoint.from_values(
            EnsembleSpec(3, 3),
            {"a": "1/2", "b": f"{k}/10"},
            response={
                i: {
                    "a": {"a": "7/10", "b": "1/5"},
                    "b": {"a": "1/10", "b": "4/5"},
                    "c": {"a": "1/5", "b": "1/10"},
                }
                for i in range(3)
            },
        )
        for k in (1, 2, 3)
    ]
    counts = np.array([expected_sketch(p).count_vector() for p in points])
    out = evaluate_batch_many_labels(counts, 3)
    assert out["ok"].all()
    for row, p in zip(out["prevalence"], points):
        assert np.allclose(row, [float(x) for x in p.prevalence[0]])
    assert np.allclose(out["response"][0, 1, 0], [0.7, 0.2, 0.1])  # classifier 1, truth a, answers a..c
    exact = evaluate_counts_many_labels(counts[1].tolist(), "abc")
    assert np.allclose([float(v) for v in exact.point.prevalence.values()], out["prevalence"][1])


def test_evaluation_to_dict_has_response_rows():
    truth = EvaluationPoint.from_values(
        EnsembleSpec(3, 3),
        {"a": "1/2", "b": "3/10"},
        response={
            i: {
                "a": {"a": "7/10", "b": "1/5"},
                "b": {"a": "1/10", "b": "4/5"},
                "c": {"a": "1/5", "b": "1/10"},
            }
            for i in range(3)
        },
    )
    doc = evaluate_counts_many_labels(expected_sketch(truth).count_vector().tolist(), "abc").to_dict()
    chosen = doc["points"][doc["chosen"]]
    assert chosen["exact"]["response"]["c0"]["a"] == {"a": "7/10", "b": "1/5", "c": "1/10"}
    assert chosen["accuracy"]["c0"]["a"] == 0.7


# -- irrational points: the partition in number fields, exact total accuracy -----------------------
import math  # noqa: E402
import random  # noqa: E402

import flint  # noqa: E402

from evalgebra.numbers.algebraic_numbers import FieldElement, real_roots  # noqa: E402

_CUBIC = flint.fmpz_poly([1, -3, 0, 1])  # x^3 - 3x + 1: three real roots, cyclic Galois group


def _conjugate_test(seed: int, n_classifiers: int = 3):
    """An independent evaluation whose hidden columns are the three conjugates of one cubic root:
    prevalence ``P(u)`` and rates ``g_{i,d}(u)`` with rational polynomials ``P, g``, so every
    pattern frequency (a sum over the conjugates) is rational though every value is irrational."""
    rng = random.Random(seed)

    def small() -> Fraction:
        return Fraction(rng.randint(-4, 4) or 1, 120)

    a, b = small(), small()
    prevalence = [Fraction(1, 3) - 2 * b, a, b]  # 1/3 + a u + b (u^2 - 2): trace 1 (tr u = 0, tr u^2 = 6)
    rates = []
    for _i in range(n_classifiers):
        rows = [[Fraction(1, 3) - 2 * b, a, b] for a, b in ((small(), small()), (small(), small()))]
        rows.append([1 - rows[0][0] - rows[1][0], -rows[0][1] - rows[1][1], -rows[0][2] - rows[1][2]])
        rates.append(rows)
    field = [FieldElement(_CUBIC, prevalence)] + [FieldElement(_CUBIC, row) for rows in rates for row in rows]
    p, g = field[0], [field[1 + 3 * i : 4 + 3 * i] for i in range(n_classifiers)]
    freqs = []
    for d in itertools.product(range(3), repeat=n_classifiers):
        term = p
        for i, answer in enumerate(d):
            term = term * g[i][answer]
        freqs.append(term.trace())
    scale = math.lcm(*(f.denominator for f in freqs))
    return [int(f * scale) for f in freqs], scale, p, g


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_partition_of_irrational_points_sums_back_exactly(seed):
    counts, q, p, g = _conjugate_test(seed)
    result = evaluate_counts_many_labels(counts, ("a", "b", "c"))
    assert (
        "irrational" in result.alarm_kinds()
        and not {"empty_variety", "complex", "blind_spot"} & result.alarm_kinds()
    )
    roots, _ = real_roots(_CUBIC)
    truth = {p.value(root) for root in roots}
    point = result.point
    assert set(point.prevalence.values()) == truth  # the construction's prevalences, exactly
    labels = result.labels
    for k in range(len(counts)):  # every pattern's count, split by true label, sums back exactly
        assert sum((result.partition[lab][k][1] for lab in labels), Fraction(0)) == counts[k]
    for lab in labels:
        rows = point.response
        # one entry per label by generic algebraic arithmetic (not the evaluator's number field)
        pattern, value = result.partition[lab][5]
        expected = q * point.prevalence[lab]
        for c, answer in zip(result.classifiers, pattern):
            expected = expected * rows[c][lab][answer]
        assert value == expected
    doc = result.to_dict()
    assert all("exact" in row for rows in doc["partition"].values() for row in rows)


def test_partition_of_rational_points_is_the_true_partition():
    truth = EvaluationPoint.from_values(
        EnsembleSpec(3, 3),
        {"a": "1/2", "b": "3/10"},
        response={
            i: {
                "a": {"a": "7/10", "b": "1/5"},
                "b": {"a": "1/10", "b": "4/5"},
                "c": {"a": "1/5", "b": "1/10"},
            }
            for i in range(3)
        },
    )
    labelled = expected_sketch(truth)
    result = evaluate_counts_many_labels(labelled.count_vector().tolist(), "abc")
    by_truth = labelled.by_true_label()
    for lab in "abc":
        assert dict(result.partition[lab]) == {
            pattern: by_truth[lab].get(pattern, 0) for pattern in by_truth[lab]
        }
        assert len(result.partition[lab]) == 27
        assert all(count == by_truth[lab].get(pattern, 0) for pattern, count in result.partition[lab])


@settings(max_examples=5, deadline=None)
@given(st.sampled_from([3, 4]), st.integers(0, 10**6))
def test_total_accuracy_is_exact_on_irrational_points(n_labels, seed):
    labels = tuple("abcd"[:n_labels])
    rng = random.Random(seed)
    decisions, truth = [], []
    for _ in range(400):
        t, shared = rng.randrange(n_labels), rng.randrange(n_labels)
        row = []
        for _i in range(3):
            u = rng.random()
            row.append(
                labels[t] if u < 0.6 else labels[shared] if u < 0.85 else labels[rng.randrange(n_labels)]
            )
        truth.append(labels[t])
        decisions.append(row)
    sketch = Sketch.from_decisions(decisions, truth=truth, labels=labels).unlabelled()
    result = evaluate_many_labels(sketch)
    assume(
        result.point is not None and "irrational" in result.alarm_kinds()
    )  # complex or undecided: no point
    point = result.point
    for c in point.accuracy:
        total = point.total_accuracy(c)
        assert isinstance(total, (Fraction, AlgebraicNumber))
        terms = [point.prevalence[lab] * point.accuracy[c][lab] for lab in labels]
        assert abs(float(total) - sum(float(t) for t in terms)) < 1e-12
        if n_labels == 3:  # exact round trip
            assert total - terms[0] - terms[1] == terms[2]


def test_trios_agreeing_on_irrational_points_stay_exact():
    counts, _, p, _ = _conjugate_test(3, n_classifiers=4)
    labels = ("a", "b", "c")
    patterns = list(itertools.product(labels, repeat=4))
    sketch = Sketch.from_counts(dict(zip(patterns, counts)), labels=labels)
    result = evaluate_many_labels(sketch, prevalence_order=labels)  # one rule every trio decodes alike
    assert "trio_disagreement" not in result.alarm_kinds() and "irrational" in result.alarm_kinds()
    roots, _ = real_roots(_CUBIC)
    assert set(result.point.prevalence.values()) == {p.value(root) for root in roots}
    assert all(isinstance(v, AlgebraicNumber) for v in result.point.prevalence.values())
    assert result.point.prevalence["a"] > result.point.prevalence["b"] > result.point.prevalence["c"]
