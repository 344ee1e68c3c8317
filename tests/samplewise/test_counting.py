"""Tests of evalgebra.samplewise.counting: subset counts and the exact arithmetic of the means."""

from fractions import Fraction

import numpy as np

from evalgebra.numbers.quadratic import QuadraticNumber
from evalgebra.samplewise.counting import exact_mean, float_mean, popcount, set_counts, signed_root
from evalgebra.samplewise.runs import Runs


def test_signed_root_is_rational_when_it_can_be():
    assert signed_root(1, Fraction(9, 16)) == Fraction(3, 4)
    assert signed_root(-1, Fraction(0)) == 0
    root = signed_root(-1, Fraction(8, 9))
    assert isinstance(root, QuadraticNumber) and root * root == Fraction(8, 9) and float(root) < 0


def test_exact_mean_equals_the_mean_of_fractions():
    top, bottom = np.array([1, 2, 3, 5]), np.array([2, 3, 2, 7])
    assert exact_mean(top, bottom) == sum((Fraction(a, b) for a, b in zip(top, bottom)), Fraction(0)) / 4


def test_float_mean_reports_undefined_values():
    values = np.array([0.5, np.nan, 1.0])
    assert float_mean(values, skip_undefined=False) is None
    assert float_mean(values, skip_undefined=True) == 0.75
    assert float_mean(np.array([np.nan]), skip_undefined=True) is None


def test_set_counts_pairs_and_triples_agree_with_sets():
    rng = np.random.default_rng(0)
    truth = rng.integers(0, 2, 40)
    runs = Runs(rng.integers(0, 2, (4, 40)), truth, True, "ec_l")
    errors = [set(np.flatnonzero(row).tolist()) for row in runs.errors]
    inter, union = set_counts(runs, 2)
    pairs = [(i, j) for i in range(4) for j in range(i + 1, 4)]
    assert inter.tolist() == [len(errors[i] & errors[j]) for i, j in pairs]
    assert union.tolist() == [len(errors[i] | errors[j]) for i, j in pairs]
    inter3, _ = set_counts(runs, 3)
    assert inter3[0] == len(errors[0] & errors[1] & errors[2])
    assert popcount(np.array([[255, 1]], dtype=np.uint8)).tolist() == [9]
