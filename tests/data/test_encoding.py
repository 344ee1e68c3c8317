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


def test_label_encoder_refuses_numbers_coded_from_one_without_labels():
    """Columns coded 1/2 are names, not positions 0..R-1: say so instead of inventing a label."""
    import pandas as pd

    from evalgebra.data.sketch import Sketch

    frame = pd.DataFrame({"x": [1, 2, 2], "y": [2, 1, 2], "z": [1, 1, 2]})
    with pytest.raises(SketchError, match=r"no cell is 0 \(they run from 1 to 2\).*df.astype\(str\)"):
        Sketch.from_decisions(frame)
    sketch = Sketch.from_decisions(frame.astype(str))
    assert sketch.labels == ("1", "2") and sketch.Q == 3
    named = Sketch.from_decisions(frame, labels=["zero", "one", "two"])  # positions named: accepted as before
    assert named.n_labels == 3


def test_label_encoder_negative_codes_point_to_strings():
    from evalgebra.data.sketch import Sketch

    with pytest.raises(SketchError, match=r"negative index.*-1/\+1.*astype\(str\)"):
        Sketch.from_decisions([[1, -1, 1], [-1, -1, 1]])
