"""Tests of evalgebra.samplewise.metrics: samplewise consistency metrics (the draft note
"Samplewise consistency metrics").

Line numbers ("note line N") refer to the plain-text version of that note.
"""

import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalgebra.data.point import EvaluationPoint, evaluation_point
from evalgebra.data.simulate import labelled_test
from evalgebra.errors import SketchError, SpecError
from evalgebra.numbers.quadratic import QuadraticNumber
from evalgebra.samplewise import counting as module
from evalgebra.samplewise.metrics import (
    ERROR_METRICS,
    METRICS,
    N_ARY_METRICS,
    consistency,
    consistency_metrics,
    consistency_values,
    item_consistency,
)
from evalgebra.spec import EnsembleSpec
from evalgebra.testing import labelled_tests, specs

RATIONAL = ("ec_l", "ec_g", "ec_acc", "pa_acc", "pa_kappa")
SURD = ("ec_corr", "pa_v")

# The worked example, note lines 95-122: subjects 0..9, one update.
WORKED_TRUTH = [1, 1, 1, 1, 1, 1, 1, 1, 0, 0]
WORKED_RUN_1 = [1, 1, 1, 1, 1, 1, 0, 1, 0, 1]
WORKED_RUN_2 = [1, 1, 1, 1, 1, 1, 1, 0, 1, 0]


# -- references straight from the definitions (note lines 391-481), one subset at a time ------
def _residuals(rows, truth):
    return [[int(a != t) for a, t in zip(row, truth)] for row in rows]


def _pearson(x, y):
    """``(sign, square)`` of the Pearson correlation, ``(1, 1)`` for equal constants, or None."""
    size = len(x)
    mx, my = Fraction(sum(x), size), Fraction(sum(y), size)
    cov = Fraction(sum(a * b for a, b in zip(x, y)), size) - mx * my
    vx = Fraction(sum(a * a for a in x), size) - mx * mx
    vy = Fraction(sum(b * b for b in y), size) - my * my
    if vx * vy == 0:
        return (1, Fraction(1)) if x == y else None
    return (cov > 0) - (cov < 0), cov * cov / (vx * vy)


def _cramers_v(x, y):
    """``(1, V**2)`` by the chi-squared statistic over the observed rows and columns."""
    size = len(x)
    rows, cols = Counter(x), Counter(y)
    joint = Counter(zip(x, y))
    if len(rows) == 1 and len(cols) == 1 and x == y:
        return 1, Fraction(1)
    if min(len(rows), len(cols)) < 2:
        return None
    chi2 = Fraction(0)
    for a in rows:
        for b in cols:
            expected = Fraction(rows[a] * cols[b], size)
            chi2 += (joint[(a, b)] - expected) ** 2 / expected
    square = chi2 / (size * (min(len(rows), len(cols)) - 1))
    return int(square > 0), square


def _reference(metric, rows, truth):
    size = len(rows[0])
    if metric in ERROR_METRICS:
        vectors = _residuals(rows, truth)
        inter = sum(all(v[k] for v in vectors) for k in range(size))
        union = sum(any(v[k] for v in vectors) for k in range(size))
        if metric == "ec_l":
            return Fraction(inter, union) if union else Fraction(1)
        if metric == "ec_g":
            return Fraction(inter, size)
        if metric == "ec_acc":
            return Fraction(sum(len({v[k] for v in vectors}) == 1 for k in range(size)), size)
        return _pearson(*vectors)
    if metric == "pa_acc":
        return Fraction(sum(len({r[k] for r in rows}) == 1 for k in range(size)), size)
    x, y = rows
    if metric == "pa_kappa":
        observed = Fraction(sum(a == b for a, b in zip(x, y)), size)
        chance = sum(Fraction(x.count(c), size) * Fraction(y.count(c), size) for c in set(x) | set(y))
        return Fraction(1) if chance == 1 else (observed - chance) / (1 - chance)
    return _cramers_v(x, y)


def _square_and_sign(value):
    """``(sign, value**2)`` of an exact Fraction or QuadraticNumber (None stays None)."""
    if value is None:
        return None
    square = value * value
    if isinstance(square, QuadraticNumber):
        assert square.is_rational
        square = square.p
    sign = value.sign() if isinstance(value, QuadraticNumber) else (value > 0) - (value < 0)
    return sign, Fraction(square)


def _as_float(value):
    return math.nan if value is None else float(value)


# -- strategies ------------------------------------------------------------------------------
@st.composite
def run_sets(draw, min_runs=2, max_runs=5, max_items=9, max_labels=4):
    """``(runs, truth)``: runs copied, perturbed from the truth or a base, or free; int or str."""
    p = draw(st.integers(min_runs, max_runs))
    size = draw(st.integers(1, max_items))
    r_count = draw(st.integers(1, max_labels))
    vector = st.lists(st.integers(0, r_count - 1), min_size=size, max_size=size)
    truth, base = draw(vector), draw(vector)
    runs = []
    for _ in range(p):
        mode = draw(st.sampled_from(["truth", "base", "free", "copy"]))
        if mode == "copy" and runs:
            runs.append(list(draw(st.sampled_from(runs))))
        elif mode == "free":
            runs.append(draw(vector))
        else:
            source = truth if mode == "truth" else base
            keep = draw(st.lists(st.booleans(), min_size=size, max_size=size))
            runs.append([s if k else o for s, k, o in zip(source, keep, draw(vector))])
    if draw(st.booleans()):
        names = ["yes", "no", "maybe", "abstain"]
        runs = [[names[v] for v in row] for row in runs]
        truth = [names[v] for v in truth]
    return runs, truth


def _arities(metric, p):
    return range(2, p + 1) if metric in N_ARY_METRICS else (2,)


# -- the note's worked example ---------------------------------------------------------------
def test_consistency_worked_example_reproduces_seed():
    """Note lines 54-129: equal confusion matrices, 60% consistent predictions."""
    y = WORKED_TRUTH
    for run in (WORKED_RUN_1, WORKED_RUN_2):
        cells = Counter((p, t) for p, t in zip(run, y))
        # the table of note lines 62-67: TP 7, FP 1, FN 1, TN 1
        assert (cells[1, 1], cells[1, 0], cells[0, 1], cells[0, 0]) == (7, 1, 1, 1)
        assert Fraction(sum(p == t for p, t in zip(run, y)), 10) == Fraction(4, 5)  # "80% accurate"
    runs = [WORKED_RUN_1, WORKED_RUN_2]
    # note line 129: "only consistently predicting 60% of the population"
    assert consistency(runs, "pa_acc") == Fraction(3, 5)
    assert item_consistency(runs).tolist() == [Fraction(1)] * 6 + [Fraction(0)] * 4
    # note line 127: every subject is sent to screening at least once
    assert all(a or b for a, b in zip(*runs))
    # note line 126 says "every subject has been classified differently": only 4 of 10 are
    assert sum(a != b for a, b in zip(*runs)) == 4
    # note line 128 "F1-score of 70%": positive-class F1 is 7/8; 70% is the macro F1, 11/16
    f1_positive, f1_negative = Fraction(2 * 7, 2 * 7 + 1 + 1), Fraction(2 * 1, 2 * 1 + 1 + 1)
    assert (f1_positive, (f1_positive + f1_negative) / 2) == (Fraction(7, 8), Fraction(11, 16))
    values = consistency_metrics(runs, y)
    assert values == {
        "ec_l": 0,
        "ec_g": 0,
        "ec_acc": Fraction(3, 5),
        "ec_corr": pytest.approx(-0.25),
        "pa_acc": Fraction(3, 5),
        "pa_kappa": Fraction(-1, 4),
        "pa_v": pytest.approx(0.25),
    }


def test_consistency_is_not_a_function_of_confusion_matrices():
    """Note lines 183-191: same confusion matrices (run 1 twice vs runs 1, 2), other values."""
    same = consistency_metrics([WORKED_RUN_1, WORKED_RUN_1], WORKED_TRUTH)
    updated = consistency_metrics([WORKED_RUN_1, WORKED_RUN_2], WORKED_TRUTH)
    assert all(same[m] == 1 for m in METRICS if m != "ec_g")
    assert same["ec_g"] == Fraction(1, 5)  # EC_g of equal residuals is their error rate
    assert all(updated[m] < same[m] for m in METRICS)


# -- the definitions, the n-ary mean, exact vs float ------------------------------------------
@given(run_sets())
def test_consistency_values_match_definitions(data):
    """Every subset's value is the note's formula; the mean is the explicit average over C(p, n)."""
    runs, truth = data
    p = len(runs)
    for metric in METRICS:
        for n in _arities(metric, p):
            subsets = list(itertools.combinations(range(p), n))
            expected = [_reference(metric, [runs[i] for i in s], truth) for s in subsets]
            got = consistency_values(runs, metric, truth, n=n)
            assert len(got) == math.comb(p, n)
            if metric in RATIONAL:
                assert got.tolist() == expected
                assert consistency(runs, metric, truth, n=n) == sum(expected, Fraction(0)) / len(subsets)
                continue
            assert [_square_and_sign(v) for v in got] == expected
            mean = consistency(runs, metric, truth, n=n)
            if any(e is None for e in expected):
                assert mean is None
                defined = [s * math.sqrt(q) for s, q in filter(None, expected)]
                skipped = consistency(runs, metric, truth, n=n, skip_undefined=True)
                assert skipped == (pytest.approx(sum(defined) / len(defined)) if defined else None)
            else:
                assert mean == pytest.approx(sum(s * math.sqrt(q) for s, q in expected) / len(subsets))


@given(run_sets())
def test_consistency_exact_and_float_paths_agree(data):
    runs, truth = data
    p = len(runs)
    for metric in METRICS:
        for n in _arities(metric, p):
            exact = [_as_float(v) for v in consistency_values(runs, metric, truth, n=n)]
            floats = consistency_values(runs, metric, truth, n=n, exact=False)
            assert floats.dtype == np.float64
            np.testing.assert_allclose(floats, exact, rtol=1e-12, atol=1e-12)
            if metric in RATIONAL:
                value = consistency(runs, metric, truth, n=n)
                assert isinstance(value, Fraction)
                assert consistency(runs, metric, truth, n=n, exact=False) == pytest.approx(float(value))


@given(run_sets(), st.randoms(use_true_random=False))
def test_consistency_invariant_under_permuting_runs_items_and_labels(data, rng):
    """Note line 162: symmetric in the runs; also blind to the item order and label names."""
    runs, truth = data
    p, size = len(runs), len(truth)
    order, items = rng.sample(range(p), p), rng.sample(range(size), size)
    labels = sorted({*truth, *(v for row in runs for v in row)}, key=str)
    rename = dict(zip(labels, rng.sample(range(100, 100 + len(labels)), len(labels))))
    moved = [[runs[i][k] for k in items] for i in order]
    moved_truth = [truth[k] for k in items]
    renamed = [[rename[v] for v in row] for row in runs]
    renamed_truth = [rename[v] for v in truth]
    for metric in METRICS:
        for n in _arities(metric, p):
            base = consistency(runs, metric, truth, n=n, skip_undefined=True)
            for other in (
                consistency(moved, metric, moved_truth, n=n, skip_undefined=True),
                consistency(renamed, metric, renamed_truth, n=n, skip_undefined=True),
            ):
                assert other == (base if base is None or metric in RATIONAL else pytest.approx(base))
            values = consistency_values(runs, metric, truth, n=n, exact=False)
            permuted = consistency_values(moved, metric, moved_truth, n=n, exact=False)
            index = {s: k for k, s in enumerate(itertools.combinations(range(p), n))}
            for k, s in enumerate(itertools.combinations(range(p), n)):
                original = index[tuple(sorted(order[i] for i in s))]
                np.testing.assert_allclose(permuted[k], values[original], rtol=1e-12)


@given(run_sets(max_runs=6))
def test_closed_forms_equal_enumeration_and_item_means(data):
    """ec_g, ec_acc, pa_acc: sum_k C(m, n) / (N C(p, n)) equals the mean over every subset."""
    runs, truth = data
    for metric in ("ec_g", "ec_acc", "pa_acc"):
        for n in range(2, len(runs) + 1):
            value = consistency(runs, metric, truth, n=n)
            assert value == np.mean(consistency_values(runs, metric, truth, n=n))
            per_item = item_consistency(runs, metric, truth, n=n)
            assert sum(per_item, Fraction(0)) / len(truth) == value
            np.testing.assert_allclose(
                item_consistency(runs, metric, truth, n=n, exact=False), [float(v) for v in per_item]
            )


def test_blocking_does_not_change_results(monkeypatch):
    """Tiny vectorised blocks (many chunks of items, pairs, subsets) give the same numbers."""
    rng = np.random.default_rng(3)
    truth = rng.integers(0, 4, 300)
    runs = np.where(rng.random((7, 300)) < 0.7, truth, rng.integers(0, 4, (7, 300)))
    expected = {
        (m, n): consistency_values(runs, m, truth, n=n).tolist() for m in METRICS for n in _arities(m, 4)
    }
    items = [item_consistency(runs, m, truth, n=3).tolist() for m in ("ec_g", "ec_acc", "pa_acc")]
    monkeypatch.setattr(module, "_BLOCK", 50)
    for (m, n), values in expected.items():
        assert consistency_values(runs, m, truth, n=n).tolist() == values
    assert [item_consistency(runs, m, truth, n=3).tolist() for m in ("ec_g", "ec_acc", "pa_acc")] == items


# -- boundary properties the note states -----------------------------------------------------
def _perfect_disagreement(runs):
    return all(len({row[k] for row in runs}) == len(runs) for k in range(len(runs[0])))


@given(run_sets())
def test_pa_acc_is_one_only_at_identical_predictions(data):
    """Note lines 172-175: C = 1 iff all runs are identical, else C < 1, for every arity."""
    runs, truth = data
    identical = all(row == runs[0] for row in runs)
    for n in range(2, len(runs) + 1):
        value = consistency(runs, "pa_acc", n=n)
        assert 0 <= value <= 1
        assert (value == 1) == identical


@given(run_sets())
def test_pa_acc_is_zero_only_at_perfect_disagreement_for_pairs(data):
    runs, _ = data
    assert (consistency(runs, "pa_acc") == 0) == _perfect_disagreement(runs)


@pytest.mark.parametrize("p", [2, 3, 4])
def test_perfect_disagreement_scores_zero_at_every_arity(p):
    """Note line 172, the 'if' direction: run i answers (i + k) mod p on item k."""
    runs = [[(i + k) % p for k in range(6)] for i in range(p)]
    assert _perfect_disagreement(runs)
    for n in range(2, p + 1):
        assert consistency(runs, "pa_acc", n=n) == 0


def test_n_ary_zero_without_perfect_disagreement():
    """Note line 172's 'only if' fails for n >= 3: no triple agrees, yet two runs always do."""
    runs = [[0, 0, 1], [0, 1, 0], [1, 0, 0]]
    assert not _perfect_disagreement(runs)
    assert consistency(runs, "pa_acc", n=3) == 0
    assert consistency(runs, "pa_acc", n=2) == Fraction(1, 3)


@given(run_sets())
def test_error_metrics_one_iff_equal_residuals(data):
    """Note lines 226-229: E = 1 when all residual vectors agree, E < 1 when two differ."""
    runs, truth = data
    residuals = _residuals(runs, truth)
    equal = all(r == residuals[0] for r in residuals)
    for metric in ("ec_l", "ec_acc"):
        for n in range(2, len(runs) + 1):
            value = consistency(runs, metric, truth, n=n)
            assert 0 <= value <= 1
            assert (value == 1) == equal
    corr = consistency(runs, "ec_corr", truth)
    if corr is not None:
        assert -1 - 1e-12 <= corr <= 1 + 1e-12
        assert (corr == pytest.approx(1)) == equal


def test_ec_g_is_not_one_at_equal_residuals():
    """EC_g (note line 429) breaks note line 228: equal residuals score their error rate."""
    truth = [0, 0, 1, 1]
    runs = [[1, 0, 1, 0], [1, 0, 1, 0]]
    assert consistency(runs, "ec_l", truth) == 1 and consistency(runs, "ec_acc", truth) == 1
    assert consistency(runs, "ec_g", truth) == Fraction(1, 2)
    assert consistency([[1, 1, 0, 0], [1, 1, 0, 0]], "ec_g", truth) == 1  # 1 only if always wrong


@given(run_sets(max_runs=2, min_runs=2))
def test_ec_corr_is_minus_one_iff_complementary_residuals(data):
    runs, truth = data
    e1, e2 = _residuals(runs, truth)
    value = consistency_values(runs, "ec_corr", truth)[0]
    complementary = all(a != b for a, b in zip(e1, e2))
    if value is not None:
        assert (_square_and_sign(value) == (-1, 1)) == complementary


def test_pa_kappa_at_perfect_disagreement_is_not_zero():
    """Perfect disagreement gives -p_e / (1 - p_e): 0 only for disjoint label sets (seed 172)."""
    assert consistency([[0, 1], [1, 0]], "pa_kappa") == -1
    assert consistency([[0, 1, 2, 2], [1, 2, 0, 0]], "pa_kappa") == Fraction(-5, 11)
    assert consistency([[0, 0], [1, 1]], "pa_kappa") == 0
    assert consistency([[0, 1, 0, 1], [0, 0, 1, 1]], "pa_kappa") == 0  # chance agreement


@given(run_sets(min_runs=2, max_runs=2))
def test_pa_kappa_is_one_iff_identical_and_in_range(data):
    runs, _ = data
    value = consistency(runs, "pa_kappa")
    assert -1 <= value <= 1
    assert (value == 1) == (runs[0] == runs[1])


def test_pa_v_is_one_for_any_relabelling():
    """Cramer's V measures association: a relabelled run, even total disagreement, scores 1."""
    assert consistency([[0, 1, 1, 0], [1, 0, 0, 1]], "pa_v") == 1  # disagrees on every item
    assert consistency([[0, 1, 2, 2], [2, 0, 1, 1]], "pa_v") == 1
    assert consistency([[0, 1, 2], [0, 0, 0]], "pa_v") is None  # a constant run: undefined
    assert consistency([[0, 0, 0], [0, 0, 0]], "pa_v") == 1


@given(run_sets())
def test_agreement_metrics_tend_to_one_with_accuracy(data):
    """Note line 198: for PA_acc and EC_acc, C >= 1 - n (1 - mean accuracy), exactly."""
    runs, truth = data
    p, size = len(runs), len(truth)
    accuracy = Fraction(sum(a == t for row in runs for a, t in zip(row, truth)), p * size)
    for n in range(2, p + 1):
        for metric in ("pa_acc", "ec_acc"):
            assert consistency(runs, metric, truth, n=n) >= 1 - n * (1 - accuracy)


def test_ec_l_and_ec_g_do_not_tend_to_one_with_accuracy():
    """Note line 198 fails for EC_l, EC_g: 99% accurate runs erring on different items."""
    truth = [0] * 100
    runs = [[1] + [0] * 99, [0, 1] + [0] * 98]
    assert consistency(runs, "pa_acc") == Fraction(98, 100)
    assert consistency(runs, "ec_l", truth) == 0 and consistency(runs, "ec_g", truth) == 0


def test_undefined_conventions():
    """0/0 cases follow 'identical vectors score 1'; otherwise undefined (None / nan)."""
    truth = [0, 0, 0]
    perfect = [[0, 0, 0], [0, 0, 0]]
    assert consistency(perfect, "ec_l", truth) == 1
    assert consistency(perfect, "ec_corr", truth) == 1
    assert consistency(perfect, "pa_kappa") == 1
    assert consistency([[1, 1, 1], [1, 1, 1]], "ec_corr", truth) == 1  # equal, always wrong
    runs = [[0, 0, 0], [0, 1, 0], [1, 0, 1]]
    assert consistency_values(runs, "ec_corr", truth).tolist()[:2] == [None, None]
    assert np.isnan(consistency_values(runs, "ec_corr", truth, exact=False)[:2]).all()
    assert consistency(runs, "ec_corr", truth) is None
    assert consistency(runs, "ec_corr", truth, skip_undefined=True) == pytest.approx(-1)


# -- EC_corr and the evaluation point (docs/theory.md) ------------------------------------
def _point_terms(point, i, j):
    """Per present label: (P_ell, P_{i,ell}, P_{j,ell}, G^ell_ij(ell, ell))."""
    terms = []
    for label, prevalence in point.prevalence_of().items():
        if prevalence == 0:
            continue
        terms.append(
            (
                prevalence,
                point.accuracy(i, label),
                point.accuracy(j, label),
                point.correlation_value((i, j), label, (label, label)),
            )
        )
    return terms


@given(labelled_tests(specs(min_classifiers=2, max_classifiers=4)))
def test_error_metrics_are_functions_of_the_evaluation_point(test):
    """EC_g, EC_acc, EC_l, EC_corr from prevalences, accuracies and G (module notes)."""
    runs, truth = test.decisions.T, test.truth
    pairs = list(itertools.combinations(range(runs.shape[0]), 2))
    point = evaluation_point(test.sketch(), structure=pairs)
    ec_g, ec_acc = consistency_values(runs, "ec_g", truth), consistency_values(runs, "ec_acc", truth)
    ec_l, ec_corr = consistency_values(runs, "ec_l", truth), consistency_values(runs, "ec_corr", truth)
    for k, (i, j) in enumerate(pairs):
        terms = _point_terms(point, i, j)
        a_i = sum(w * ai for w, ai, _, _ in terms)
        a_j = sum(w * aj for w, _, aj, _ in terms)
        both_wrong = sum(w * ((1 - ai) * (1 - aj) + g) for w, ai, aj, g in terms)
        assert ec_g[k] == both_wrong
        assert ec_acc[k] == a_i + a_j - 1 + 2 * both_wrong
        union = 2 - a_i - a_j - both_wrong
        assert ec_l[k] == (both_wrong / union if union else 1)
        cov = sum(w * g for w, _, _, g in terms) + sum(w * (ai - a_i) * (aj - a_j) for w, ai, aj, _ in terms)
        spread = a_i * (1 - a_i) * a_j * (1 - a_j)
        if spread:
            assert _square_and_sign(ec_corr[k]) == ((cov > 0) - (cov < 0), cov * cov / spread)


@given(labelled_tests(specs(min_classifiers=2, max_classifiers=3)))
def test_ec_corr_within_one_label_is_the_normalised_correlation(test):
    """On the items of label ell: EC_corr = G / sqrt(P_i (1 - P_i) P_j (1 - P_j))."""
    runs, truth = test.decisions.T, test.truth
    point = evaluation_point(test.sketch(), structure=[(0, 1)])
    for code, label in enumerate(test.labels):
        items = truth == code
        if not items.any():
            continue
        acc_i, acc_j = point.accuracy(0, label), point.accuracy(1, label)
        spread = acc_i * (1 - acc_i) * acc_j * (1 - acc_j)
        value = consistency_values(runs[:2, items], "ec_corr", truth[items])[0]
        if spread:
            g = point.correlation_value((0, 1), label, (label, label))
            assert _square_and_sign(value) == ((g > 0) - (g < 0), g * g / spread)


@given(labelled_tests(specs(min_classifiers=2, max_classifiers=4)))
def test_pa_acc_is_read_off_the_unlabelled_sketch(test):
    """PA_acc of a pair is sum_r f_ij(r, r): no answer key needed."""
    runs = test.decisions.T
    sketch = test.sketch().unlabelled()
    values = consistency_values(runs, "pa_acc")
    for k, (i, j) in enumerate(itertools.combinations(range(runs.shape[0]), 2)):
        frequencies = sketch.marginalise([i, j]).frequencies()
        assert values[k] == sum((f for (r, s), f in frequencies.items() if r == s), Fraction(0))


def test_ec_corr_of_sample_independent_runs_is_not_zero():
    """All G = 0, yet EC_corr = 1/3: both runs find label b harder (shared difficulty)."""
    spec = EnsembleSpec(2, 2)
    point = EvaluationPoint.from_values(
        spec, {"a": "1/2"}, accuracy={0: {"a": 1, "b": "1/2"}, 1: {"a": 1, "b": "1/2"}}
    )
    test = labelled_test(point, Q=8, seed=0)
    assert (
        evaluation_point(test.sketch(), structure="complete").correlation_value((0, 1), "b", ("b", "b")) == 0
    )
    assert consistency_values(test.decisions.T, "ec_corr", test.truth)[0] == Fraction(1, 3)


# -- end to end: the note's simulation design on data built here ------------------------------
def test_consistency_end_to_end_on_simulated_runs():
    """Note lines 548-611: runs perturb a base prediction; fixed vs variable error sets."""
    rng = np.random.default_rng(2024)
    n_items, n_labels, p = 2000, 6, 6
    prevalence = np.sort(rng.uniform(size=n_labels))[::-1]
    truth = rng.choice(n_labels, size=n_items, p=prevalence / prevalence.sum())
    wrong = rng.random(n_items) < 0.2  # the base errs on 20% of the items
    base = np.where(wrong, (truth + rng.integers(1, n_labels, n_items)) % n_labels, truth)

    def perturbed(rate, fixed):
        """Runs replacing the base answer by a random label on a share ``rate`` of items."""
        runs = np.repeat(base[None, :], p, axis=0)
        pool = wrong if fixed else np.ones(n_items, dtype=bool)
        move = (rng.random((p, n_items)) < rate) & pool
        return np.where(move, rng.integers(0, n_labels, (p, n_items)), runs)

    series = [consistency_metrics(perturbed(rate, fixed=False), truth) for rate in (0.0, 0.05, 0.2, 0.5)]
    assert all(series[0][m] == 1 for m in METRICS if m != "ec_g")  # identical runs
    assert series[0]["ec_g"] == Fraction(int(wrong.sum()), n_items)  # their error rate
    for metric in METRICS:  # more churn, less consistency; EC_g follows the error rate instead
        values = [float(s[metric]) for s in series]
        assert metric == "ec_g" or values == sorted(values, reverse=True), metric
    fixed, variable = perturbed(0.5, fixed=True), perturbed(0.1, fixed=False)
    # errors confined to one error set stay local (EC_l high) though predictions churn there
    assert consistency(fixed, "ec_l", truth) > consistency(variable, "ec_l", truth)
    unstable = item_consistency(fixed, exact=False) < 1
    assert not unstable[~wrong].any()  # only the fixed error set is ever predicted differently
    floats = consistency_metrics(fixed, truth, exact=False)
    exact = consistency_metrics(fixed, truth)
    assert all(floats[m] == pytest.approx(float(exact[m])) for m in METRICS)
    # independent runs drawn with the class distribution: kappa near 0 (note lines 536-544)
    independent = rng.choice(n_labels, size=(p, n_items), p=prevalence / prevalence.sum())
    assert abs(consistency(independent, "pa_kappa", exact=False)) < 0.05
    assert consistency(independent, "pa_acc", n=p) < consistency(independent, "pa_acc", n=2)


def test_closed_form_scales_to_many_runs():
    """p = 300, n = 150: C(p, n) ~ 10^88 subsets, never enumerated; exact and float agree."""
    rng = np.random.default_rng(5)
    truth = rng.integers(0, 3, 500)
    runs = np.where(rng.random((300, 500)) < 0.9, truth, rng.integers(0, 3, (300, 500)))
    for metric in ("pa_acc", "ec_acc", "ec_g"):
        value = consistency(runs, metric, truth, n=150)
        assert isinstance(value, Fraction)
        assert consistency(runs, metric, truth, n=150, exact=False) == pytest.approx(float(value))
    everyone = consistency(runs, "pa_acc", n=300)
    assert everyone == Fraction(int((runs == runs[0]).all(axis=0).sum()), 500)
    with pytest.raises(SpecError, match="max_subsets"):
        consistency(runs, "ec_l", truth, n=3)
    assert 0 < consistency(runs[:40], "ec_l", truth, n=3, exact=False) < 1


# -- bad input -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "predictions, truth, error, match",
    [
        ([0, 1, 1], None, SketchError, "shape"),
        ([[[0, 1]], [[1, 0]]], None, SketchError, "shape"),
        ([[0, 1], [1]], None, SketchError, "rectangular"),
        ([[0, 1, 1]], None, SketchError, "at least 2"),
        ([[], []], None, SketchError, "no items"),
        ([[0.0, 1.0], [1.0, 0.0]], None, SketchError, "int\\(\\) or str"),
        (np.array([[0.5, 1.0], [1.0, 0.0]]), None, SketchError, "astype"),
        ([[0, "a"], [1, 0]], None, SketchError, "all integer codes or all strings"),
        ([[0, None], [1, 0]], None, SketchError, "None"),
        ([[0, 1], [1, 0]], [0, 1, 1], SketchError, "one label per item"),
        ([[0, 1], [1, 0]], ["a", "b"], SketchError, "one kind"),
    ],
)
def test_consistency_rejects_bad_data(predictions, truth, error, match):
    with pytest.raises(error, match=match):
        consistency(predictions, "pa_acc", truth)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda r: consistency(r, "ec_l"), "truth="),
        (lambda r: consistency(r, "kappa"), "accepted: ec_l"),
        (lambda r: consistency(r, 3), "unknown"),
        (lambda r: consistency(r, "pa_acc", n=1), "2 <= n <= p"),
        (lambda r: consistency(r, "pa_acc", n=4), "2 <= n <= p"),
        (lambda r: consistency(r, "pa_acc", n=2.0), "integer"),
        (lambda r: consistency(r, "pa_acc", n=True), "integer"),
        (lambda r: consistency(r, "pa_kappa", n=3), "pairs only"),
        (lambda r: consistency(r, "pa_v", exact=True), "square roots"),
        (lambda r: consistency(r, "pa_kappa", max_subsets=2), "max_subsets=2"),
        (lambda r: consistency_values(r, "pa_acc", n=3, max_subsets=0), "C\\(p, n\\) = 1"),
        (lambda r: item_consistency(r, "pa_kappa"), "does not decompose"),
        (lambda r: consistency_metrics(r, n=5), "2 <= n <= p"),
    ],
)
def test_consistency_rejects_bad_options(call, match):
    runs = [[0, 1, 2], [0, 1, 1], [2, 1, 1]]
    with pytest.raises(SpecError, match=match):
        call(runs)


def test_consistency_accepts_codes_strings_booleans_and_numpy():
    as_codes = consistency([[0, 1, 1], [0, 1, 0]], "pa_kappa")
    assert consistency([["x", "y", "y"], ["x", "y", "x"]], "pa_kappa") == as_codes
    assert consistency(np.array([[True, False, False], [True, False, True]]), "pa_kappa") == as_codes
    assert consistency(np.array([[7, -3, -3], [7, -3, 7]], dtype=np.int8), "pa_kappa") == as_codes
    assert consistency(np.array([[b"x", b"y", b"y"], [b"x", b"y", b"x"]]), "pa_kappa") == as_codes
    assert consistency([[0, 1, 1], [0, 1, 0]], "PA_Kappa") == as_codes
    assert list(consistency_metrics([[0, 1, 1], [0, 1, 0]], n=2)) == ["pa_acc", "pa_kappa", "pa_v"]
    assert list(consistency_metrics([[0, 1], [0, 1], [1, 1]], [0, 1], n=3)) == list(N_ARY_METRICS)
