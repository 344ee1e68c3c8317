"""Tests of evalgebra.samplewise.runs: reading predictions into label codes, option checks."""

import numpy as np
import pytest

from evalgebra.errors import SketchError, SpecError
from evalgebra.samplewise.runs import Runs, check_arity, check_budget, check_metric, compact_codes


def test_compact_codes_number_the_distinct_labels_in_sorted_order():
    count, codes = compact_codes(np.array([7, 3, 7, 100]))
    assert count == 3 and codes.tolist() == [1, 0, 1, 2]
    count, codes = compact_codes(np.array(["b", "a", "b"]))
    assert count == 2 and codes.tolist() == [1, 0, 1]


def test_runs_code_predictions_and_truth_together():
    runs = Runs([["x", "y", "z"], ["x", "x", "x"]], ["z", "y", "x"], True, "ec_l")
    assert (runs.p, runs.N, runs.n_labels) == (2, 3, 3)
    assert runs.errors.tolist() == [[True, False, True], [True, True, False]]
    with pytest.raises(SpecError, match="truth="):
        Runs([[0, 1], [1, 0]], None, True, "ec_l")
    with pytest.raises(SketchError, match="one kind"):
        Runs([[0, 1], [1, 0]], ["a", "b"], False, "pa_acc")


def test_checks_name_what_is_accepted():
    assert check_metric("PA_ACC") == "pa_acc"
    with pytest.raises(SpecError, match="accepted: ec_l"):
        check_metric("f1")
    assert check_arity(3, 4, "ec_l") == 3
    with pytest.raises(SpecError, match="2 <= n <= p = 2"):
        check_arity(3, 2, "ec_l")
    assert check_budget(5, 2, 10, "ec_l") == 10
    with pytest.raises(SpecError, match="closed-form mean"):
        check_budget(30, 15, 1000, "pa_acc")
