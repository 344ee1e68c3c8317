"""The algebraic evaluator: exact round trips, the papers' example, every failure mode."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from evalgebra import datasets
from evalgebra.data.simulate import expected_sketch
from evalgebra.data.sketch import Sketch
from evalgebra.evaluators.dispatch import evaluate
from evalgebra.evaluators.independent.batch import evaluate_batch
from evalgebra.evaluators.independent.closed_form import evaluate_counts
from evalgebra.numbers.quadratic import QuadraticNumber
from evalgebra.spec import EnsembleSpec
from evalgebra.testing.strategies import rational_points

counts8 = st.lists(st.integers(0, 300), min_size=8, max_size=8).filter(lambda c: sum(c) > 0)


def _truth(point, n):
    values = [point.prevalence_of()["a"]]
    for i in range(n):
        values += [point.accuracy(i, "a"), point.accuracy(i, "b")]
    return values


def _values(estimate, classifiers):
    out = [estimate.prevalence["a"]]
    for c in classifiers:
        out += [estimate.accuracy[c]["a"], estimate.accuracy[c]["b"]]
    return out


def _generic(point, n):
    """Away from the blind spots: both labels present, no classifier with J_i = 0."""
    truth = _truth(point, n)
    return 0 < truth[0] < 1 and all(truth[1 + 2 * i] + truth[2 + 2 * i] != 1 for i in range(n))


@given(rational_points(EnsembleSpec(3, 2), use_accuracy=True))
def test_evaluate_algebraic_round_trip_returns_truth_exactly(point):
    assume(_generic(point, 3))
    sketch = expected_sketch(point)
    result = evaluate(sketch.unlabelled(), "algebraic")
    assert result.alarm_kinds() <= {"undecided"}  # an exact tie in total accuracy is possible
    truth = _truth(point, 3)
    found = [_values(p, sketch.classifiers) for p in result.points]
    assert truth in found
    assert all(isinstance(v, Fraction) for v in found[0])
    # the partition by true label reproduces the labelled sketch exactly when the truth is chosen
    if result.chosen is not None and found[result.chosen] == truth:
        by_label = sketch.by_true_label()
        for label, rows in result.partition.items():
            for pattern, count in rows:
                assert count == by_label[label].get(pattern, 0)


@given(rational_points(EnsembleSpec(4, 2), use_accuracy=True))
def test_evaluate_algebraic_trios_agree_on_independent_tests(point):
    assume(_generic(point, 4))
    sketch = expected_sketch(point)
    result = evaluate(sketch, "algebraic")
    assert len(result.trios) == 4
    assert not result.alarm_kinds() - {"undecided"}
    for trio in result.trios:
        assert _truth(point.restrict(list(trio.classifiers)), 3) in [
            _values(p, trio.classifiers) for p in trio.points
        ]


def test_evaluate_algebraic_acs_reproduces_seed_table():
    """Algebraic Evaluation Theorems, Table 1: the AE partition of the ACS counts, from the counts alone."""
    sketch = datasets.load("acs_employment").unlabelled()
    result = evaluate(sketch, "algebraic", fit=False)  # the exact points alone
    assert result.alarm_kinds() == {"irrational"}
    assert float(result.point.prevalence["a"]) == pytest.approx(0.0887, abs=5e-5)
    printed_a = {"aaa": 399, "aab": 133, "aba": 253, "baa": 416, "bba": 264, "bab": 139, "abb": 84, "bbb": 88}
    ours = {"".join(p): float(c) for p, c in result.partition["a"]}
    for pattern, count in printed_a.items():
        assert abs(ours[pattern] - count) <= 1, pattern
    total = sum(c for _, c in result.partition["a"]) + sum(c for _, c in result.partition["b"])
    assert total == sketch.Q  # the partition is exact: the quadratic-field parts cancel
    # the two points are swapped by P_a <-> P_b, P_{i,a} <-> 1 - P_{i,b}
    first, second = result.points
    assert first.prevalence["a"] == second.prevalence["b"]
    for c in sketch.classifiers:
        assert first.accuracy[c]["a"] == 1 - second.accuracy[c]["b"]


def test_evaluate_counts_complex_points_alarm():
    # the ACS counts read in lexicographic pattern order have a negative discriminant
    result = evaluate_counts([568, 553, 649, 1813, 3534, 3607, 1068, 8208])
    assert "complex" in result.alarm_kinds()
    assert result.chosen is None
    assert result.to_dict()["points"][0]["prevalence"]["a"] is None


def test_evaluate_counts_blind_spot_constant_classifier():
    counts = [10, 5, 7, 3, 0, 0, 0, 0]  # classifier 1 always answers a
    result = evaluate_counts(counts)
    assert "blind_spot" in result.alarm_kinds()
    assert result.chosen is None
    doc = result.to_dict()  # undefined statistics are null, never an error
    assert doc["points"][0]["prevalence"]["a"] is None
    assert doc["points"][0]["exact"]["accuracy"]["c1"] == {"a": "1", "b": "0"}


def test_evaluate_counts_rejects_bad_input():
    from evalgebra.errors import SketchError, SpecError

    with pytest.raises(SketchError):
        evaluate_counts([1, 2, 3])
    with pytest.raises(SketchError):
        evaluate_counts([0] * 8)
    with pytest.raises(SpecError):
        evaluate_counts([1] * 8, decoding="coin")
    with pytest.raises(SpecError):
        evaluate(Sketch.from_counts({("a", "b"): 3, ("b", "a"): 2}, labels=["a", "b"]))


@given(counts8)
def test_evaluate_counts_failure_modes_are_consistent(counts):
    result = evaluate_counts(counts)
    kinds = result.alarm_kinds()
    q = sum(counts)
    if "blind_spot" in kinds:
        return
    radicand = result.points[0].prevalence["a"]
    for p in result.points:
        values = p.values()
        if "complex" in kinds:
            assert any(isinstance(v, QuadraticNumber) and not v.is_real for v in values)
            continue
        assert ("irrational" in kinds) == any(isinstance(v, QuadraticNumber) for v in values)
        inside = all(0 <= v <= 1 for v in values)
        if "outside_unit_cube" not in kinds:
            assert inside
    # with every denominator non-zero the closed form solves the model: never empty
    assert "empty_variety" not in kinds, (counts, q, radicand)


@given(counts8)
@example([4, 8, 3, 3, 8, 6, 6, 3])  # an accuracy of exactly 1: inside the cube
@example([4, 9, 7, 0, 8, 0, 7, 7])  # an exact tie in total accuracy
@example([275, 325, 255, 245, 125, 275, 145, 355])  # one vanishing covariance: empty
def test_evaluate_batch_matches_exact(counts):
    exact = evaluate_counts(counts)
    many = evaluate_batch([counts, counts])
    assert many["complex"][0] == ("complex" in exact.alarm_kinds())
    assert many["blind_spot"][0] == ("blind_spot" in exact.alarm_kinds())
    assert many["empty_variety"][0] == ("empty_variety" in exact.alarm_kinds())
    if exact.alarm_kinds() & {"complex", "blind_spot"}:
        return
    assert many["outside_unit_cube"][0] == ("outside_unit_cube" in exact.alarm_kinds())
    for k, p in enumerate(exact.points):
        assert many["prevalence"][0, k] == pytest.approx(float(p.prevalence["a"]), rel=1e-7, abs=1e-9)
        for i, c in enumerate(exact.classifiers):
            for ell, label in enumerate(exact.labels):
                assert many["accuracy"][0, k, i, ell] == pytest.approx(
                    float(p.accuracy[c][label]), rel=1e-7, abs=1e-9
                )
    assert many["chosen"][0] == (-1 if exact.chosen is None else exact.chosen)


@given(counts8, st.permutations(range(3)))
def test_evaluate_counts_equivariant_under_classifier_permutation(counts, perm):
    patterns = list(itertools.product((0, 1), repeat=3))
    permuted = [counts[patterns.index(tuple(d[perm.index(i)] for i in range(3)))] for d in patterns]
    names = ("c1", "c2", "c3")
    first = evaluate_counts(counts, classifiers=names)
    second = evaluate_counts(permuted, classifiers=tuple(names[p] for p in perm))
    assert first.alarm_kinds() == second.alarm_kinds()
    for p, q in zip(first.points, second.points):
        assert p.prevalence == q.prevalence
        assert {c: dict(r) for c, r in p.accuracy.items()} == {c: dict(r) for c, r in q.accuracy.items()}


def test_evaluate_counts_prevalence_range_decoding():
    counts = [84, 36, 51, 39, 68, 52, 77, 73]  # P_a = 1/4 or 3/4
    assert evaluate_counts(counts).point.prevalence["a"] == Fraction(1, 4)
    high = evaluate_counts(counts, decoding="prevalence_range", prevalence_range=("1/2", 1))
    assert high.point.prevalence["a"] == Fraction(3, 4)


@given(
    st.fractions(-3, 3),
    st.fractions(-3, 3),
    st.integers(2, 50).filter(lambda d: math.isqrt(d) ** 2 != d),
    st.fractions(-3, 3),
    st.fractions(-3, 3),
)
def test_quadratic_number_arithmetic_and_order_match_sympy(p, q, d, r, s):
    x, y = QuadraticNumber(p, q, d), QuadraticNumber(r, s, d)
    root = sympy.sqrt(d)
    sx = sympy.Rational(p.numerator, p.denominator) + sympy.Rational(q.numerator, q.denominator) * root
    sy = sympy.Rational(r.numerator, r.denominator) + sympy.Rational(s.numerator, s.denominator) * root
    for ours, theirs in ((x + y, sx + sy), (x - y, sx - sy), (x * y, sx * sy)):
        assert sympy.simplify(sympy.sympify(ours.to_sympy_text()) - theirs) == 0
    if y != 0:
        assert sympy.simplify(sympy.sympify((x / y).to_sympy_text()) - sx / sy) == 0
    assert (x < y) == bool(sx < sy)
    assert x.sign() == int(sympy.sign(sx))


@given(counts8)
def test_evaluate_counts_decoding_picks_larger_total_accuracy(counts):
    result = evaluate_counts(counts)
    if result.chosen is None:
        return
    totals = [sum(p.total_accuracy(c) for c in result.classifiers) for p in result.points]
    assert totals[result.chosen] > totals[1 - result.chosen]


tiny_counts = st.lists(st.integers(0, 3), min_size=8, max_size=8).filter(lambda c: sum(c) > 0)


@given(tiny_counts)
def test_evaluate_counts_empty_variety_agrees_with_groebner_basis(counts):
    """Empty exactly when the Gröbner basis of the independent ideal (with the counts) is [1]."""
    from evalgebra.groebner.elimination import evaluation_ideal, groebner_basis

    patterns = ["".join(p) for p in itertools.product("ab", repeat=3)]
    sketch = Sketch.from_counts({p: c for p, c in zip(patterns, counts) if c}, labels=["a", "b"])
    basis = groebner_basis(evaluation_ideal(EnsembleSpec(3, 2), coordinates="moments", observed=sketch))
    empty = [str(g) for g in basis.generators] == ["1"]
    result = evaluate_counts(counts)
    assert ("empty_variety" in result.alarm_kinds()) == empty, (counts, [str(g) for g in basis.generators])
    if empty:
        assert result.chosen is None and all(v is None for p in result.points for v in p.values())
    elif basis.dimension() > 0:
        assert "blind_spot" in result.alarm_kinds()


@pytest.mark.parametrize(
    "counts", [[0, 6, 0, 6, 3, 2, 3, 6], [0, 5, 2, 5, 5, 4, 3, 4], [3, 5, 3, 1, 5, 3, 2, 4]]
)
def test_evaluate_counts_impossible_zero_patterns_are_empty(counts):
    # all pair covariances non-zero but R = 0; one covariance zero; two zero with D_012 != 0
    result = evaluate_counts(counts)
    assert "empty_variety" in result.alarm_kinds() and result.chosen is None


def test_evaluate_counts_undecided_alarm():
    tie = evaluate_counts([4, 6, 8, 5, 4, 6, 2, 3])  # an exact tie in total accuracy
    assert tie.alarm_kinds() == {"undecided"} and tie.chosen is None
    outside = evaluate_counts(
        [84, 36, 51, 39, 68, 52, 77, 73], decoding="prevalence_range", prevalence_range=("0", "1/5")
    )
    assert outside.alarm_kinds() == {"undecided"}


def _independent(n, prevalence, accuracies):
    from evalgebra.data.point import EvaluationPoint

    spec = EnsembleSpec(n, 2)
    point = EvaluationPoint.from_values(
        spec, {"a": prevalence}, accuracy={i: {"a": a, "b": b} for i, (a, b) in enumerate(accuracies)}
    )
    return expected_sketch(point).unlabelled()


def test_evaluate_algebraic_six_classifiers_at_even_prevalence_align():
    """Trios sharing no classifier with the first are oriented through their neighbours."""
    accuracies = [
        ("3/4", "2/3"),
        ("2/3", "3/4"),
        ("3/4", "3/4"),
        ("1/3", "1/4"),
        ("3/4", "2/3"),
        ("2/3", "2/3"),
    ]
    result = evaluate(_independent(6, "1/2", accuracies))
    assert not result.alarm_kinds() - {"undecided"}
    assert result.point.accuracy["c3"] == {"a": Fraction(1, 3), "b": Fraction(1, 4)}


def test_evaluate_algebraic_prevalence_range_decides_for_larger_ensembles():
    accuracies = [("1/4", "1/3"), ("1/3", "1/4"), ("1/4", "1/4"), ("1/3", "1/3")]  # all worse than chance
    sketch = _independent(4, "1/4", accuracies)
    by_range = evaluate(sketch, "algebraic", decoding="prevalence_range", prevalence_range=("0", "1/2"))
    assert by_range.point.prevalence["a"] == Fraction(1, 4)
    assert evaluate(sketch, "algebraic").point.prevalence["a"] == Fraction(
        3, 4
    )  # total accuracy picks the mirror


def _four_classifier_reproducer():
    return Sketch.from_counts({"aaaa": 4, "aaab": 3, "bbab": 1}, labels=["a", "b"])


def test_evaluate_algebraic_larger_ensemble_never_chooses_outside_the_range():
    """Regression: four classifiers, the only usable trio has P_a = 7/8 or 1/8, neither in [1/4, 3/4]."""
    sketch = _four_classifier_reproducer()
    result = evaluate(
        sketch, "algebraic", decoding="prevalence_range", prevalence_range=("1/4", "3/4"), fit=False
    )
    assert result.chosen is None and result.point is None
    assert "undecided" in result.alarm_kinds()
    assert any(a.kind == "undecided" and not a.classifiers for a in result.alarms)  # the ensemble's own
    assert sorted(p.prevalence["a"] for p in result.points) == [Fraction(1, 8), Fraction(7, 8)]
    # the one usable trio decides the same way on its own
    trio = [t for t in result.trios if t.points[0].prevalence["a"] is not None]
    assert len(trio) == 1 and trio[0].chosen is None
    inside = evaluate(
        sketch, "algebraic", decoding="prevalence_range", prevalence_range=("2/3", "1"), fit=False
    )
    assert inside.chosen == 0 and inside.point.prevalence["a"] == Fraction(7, 8)


def _three_classifier_rule(point, mirror, labels, prevalence_range):
    """The decoding rule of three classifiers, written out: 0 (point), 1 (mirror) or None."""
    p = point.prevalence[labels[0]]
    if p is None:
        return None
    if prevalence_range is not None:
        lo, hi = (Fraction(x) for x in prevalence_range)
        inside = [lo <= p <= hi, lo <= mirror.prevalence[labels[0]] <= hi]
        if inside.count(True) == 1:
            return inside.index(True)
        if not any(inside):
            return None
    defined = [c for c in point.accuracy if None not in point.accuracy[c].values()]
    totals = [sum((e.total_accuracy(c) for c in defined), Fraction(0)) for e in (point, mirror)]
    return None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)


def _mirror_of(point, labels):
    a, b = labels
    flip = lambda v: None if v is None else 1 - v  # noqa: E731
    return type(point)(
        {a: point.prevalence[b], b: point.prevalence[a]},
        {c: {a: flip(r[b]), b: flip(r[a])} for c, r in point.accuracy.items()},
    )


@st.composite
def larger_sketches(draw):
    n = draw(st.sampled_from([4, 5]))
    patterns = ["".join(p) for p in itertools.product("ab", repeat=n)]
    counts = draw(st.lists(st.integers(0, 6), min_size=len(patterns), max_size=len(patterns)))
    assume(sum(counts) > 0)
    return Sketch.from_counts({p: c for p, c in zip(patterns, counts) if c}, labels=["a", "b"])


ranges = st.tuples(st.fractions(0, 1, max_denominator=12), st.fractions(0, 1, max_denominator=12)).map(sorted)


@given(larger_sketches(), st.one_of(st.none(), ranges))
@example(_four_classifier_reproducer(), [Fraction(1, 4), Fraction(3, 4)])
@example(_four_classifier_reproducer(), [Fraction(2, 3), Fraction(1)])
def test_evaluate_algebraic_larger_ensembles_decode_by_the_three_classifier_rule(sketch, bounds):
    options = {} if bounds is None else {"decoding": "prevalence_range", "prevalence_range": tuple(bounds)}
    result = evaluate(sketch, "algebraic", fit=False, **options)
    labels = result.labels
    if result.chosen is not None:
        assert len(result.points) == 1
        p = result.point.prevalence["a"]
        if bounds is not None:
            assert bounds[0] <= p <= bounds[1], (p, bounds)  # never a point outside the range
        assert _three_classifier_rule(result.point, _mirror_of(result.point, labels), labels, bounds) == 0
    elif not result.points:  # nothing combined: no trio has a real point, or the trios cannot be aligned
        refused = [a for a in result.alarms if a.kind == "trio_disagreement" and "not combined" in a.detail]
        usable = [t for t in result.trios if t.points and not {"complex", "blind_spot"} & t.alarm_kinds()]
        assert refused or not usable
        assert "undecided" not in {a.kind for a in result.alarms if not a.classifiers}
    else:
        first, second = result.points
        assert _mirror_of(first, labels) == second
        assert _three_classifier_rule(first, second, labels, bounds) is None
        assert ("undecided" in {a.kind for a in result.alarms if not a.classifiers}) == (
            first.prevalence["a"] is not None
        )


@settings(
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow]
)  # generic points are a minority
@given(
    rational_points(EnsembleSpec(4, 2), use_accuracy=True),
    st.booleans(),
    st.fractions(0, 1, max_denominator=12),
    st.fractions(0, 1, max_denominator=12),
)
def test_evaluate_algebraic_larger_ensembles_decode_like_their_trios(point, mirrored, below, above):
    """On a sample-independent test every trio has the ensemble's prevalence: a range that
    separates the two evaluations decides the ensemble and every trio alike."""
    assume(_generic(point, 4))
    p = point.prevalence_of()["a"]
    assume(p != Fraction(1, 2))
    target, half_gap = (1 - p if mirrored else p), abs(2 * p - 1) / 2
    bounds = (
        max(Fraction(0), target - half_gap * below * Fraction(99, 100)),
        min(Fraction(1), target + half_gap * above * Fraction(99, 100)),
    )
    sketch = expected_sketch(point).unlabelled()
    result = evaluate(sketch, "algebraic", decoding="prevalence_range", prevalence_range=bounds)
    assert result.point.prevalence["a"] == target
    assert all(t.point.prevalence["a"] == target for t in result.trios)


# -- hardening: wrong inputs raise the project's errors ------------------------------------------
def test_algebraic_evaluation_says_a_sketch_is_expected():
    from evalgebra.errors import SketchError
    from evalgebra.evaluators.independent.algebraic import evaluate_independent

    with pytest.raises(SketchError, match=r"the algebraic evaluator needs a Sketch, got dict"):
        evaluate_independent({"aaa": 1})


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"counts": range(10**18)}, "SketchError", r"need 8 non-negative integer pattern counts"),
        ({"counts": "abcdefgh"}, "SketchError", r"need 8 non-negative integer pattern counts"),
        ({"counts": [[1]] * 8}, "SketchError", r"need 8 non-negative integer pattern counts"),
        ({"labels": 5}, "SpecError", r"need 2 distinct label names \(strings\), got 5"),
        ({"labels": ["a", 1]}, "SpecError", r"need 2 distinct label names"),
        ({"classifiers": ["x", "x", "y"]}, "SpecError", r"need 3 distinct classifier names"),
        ({"decoding": np.array(["total_accuracy"])}, "SpecError", r"unknown decoding"),
        ({"prevalence_range": ("0e99999999", 1)}, "SpecError", r"prevalence_range low: exponent 99999999"),
        ({"prevalence_range": (0, 1.0)}, "SpecError", r"prevalence_range high: 1.0 is not exact"),
        ({"prevalence_range": 5}, "SpecError", r"prevalence_range must be two rationals"),
    ],
)
def test_evaluate_counts_refuses_wrong_vectors_and_options(kwargs, error, message):
    import time

    from evalgebra import errors

    arguments = {"counts": [84, 36, 51, 39, 68, 52, 77, 73]} | kwargs
    start = time.perf_counter()
    with pytest.raises(getattr(errors, error), match=message):
        evaluate_counts(**arguments)
    assert time.perf_counter() - start < 1


@pytest.mark.parametrize("counts", [[["a"] * 8], [[1] * 8, [1] * 7], object(), [[10**400] * 8], [[1j] * 8]])
def test_evaluate_batch_refuses_arrays_of_the_wrong_shape_or_kind(counts):
    from evalgebra.errors import SketchError

    with pytest.raises(SketchError, match=r"counts must be an array of shape \(k, 8\)|counts must be finite"):
        evaluate_batch(counts)
