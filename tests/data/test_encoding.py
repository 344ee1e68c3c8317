"""Tests of evalgebra.data.encoding: label names or indices to label indices."""

import numpy as np
import pandas as pd
import pytest

from evalgebra.data.encoding import (
    LabelEncoder,
    as_label_array,
    factorize,
    index_range,
    integers_if_all,
    is_missing,
    population_indices,
)
from evalgebra.errors import SketchError


def test_label_encoder_shares_one_label_list_between_decisions_and_truth():
    encoder = LabelEncoder(None)
    encoder.add(as_label_array([["b", "c"], ["c", "c"]], "decisions"), "decisions")
    encoder.add(as_label_array(["a", "c"], "truth"), "truth")
    (decisions, truth), labels = encoder.finish()
    assert labels == ("a", "b", "c")
    assert decisions.tolist() == [[1, 2], [2, 2]] and truth.tolist() == [0, 2]


def test_label_encoder_keeps_integer_dtypes_and_names_them():
    encoder = LabelEncoder(3)
    values = np.array([[0, 2]], dtype=np.uint8)
    encoder.add(values, "decisions")
    (codes,), labels = encoder.finish()
    assert codes is values and labels == ("a", "b", "c")


def test_as_label_array_keeps_kinds_apart():
    assert as_label_array([[1, 2]], "x").dtype == np.int64
    mixed = as_label_array([["a", 1]], "x")
    assert mixed.dtype == object and mixed.tolist() == [["a", 1]]
    assert integers_if_all(np.array([True], dtype=object)).dtype == object
    with pytest.raises(SketchError, match="cannot read int as an array"):
        as_label_array(3, "decisions")


def test_missing_values_and_ranges():
    assert all(is_missing(v) for v in (None, "", float("nan"))) and not is_missing("a")
    assert index_range(np.arange(10**6, dtype=np.int32)) == (0, 10**6 - 1)
    assert index_range(np.zeros(0, dtype=np.int64)) == (0, -1)


def test_factorize_and_population_indices():
    codes, uniques = factorize(np.array(["q", "p", "q"], dtype=object))
    assert [uniques[c] for c in codes.tolist()] == ["q", "p", "q"]
    index, names = population_indices(pd.Series(["q", "p", "q"]), None, 3)
    assert names == ("p", "q") and index.tolist() == [1, 0, 1]
    with pytest.raises(SketchError, match="unknown populations"):
        population_indices(["r"], ["p", "q"], 1)
    with pytest.raises(SketchError, match="population has 1 entries for 2 items"):
        population_indices(["p"], None, 2)
