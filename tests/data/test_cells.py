"""Tests of evalgebra.data.cells: the cell table and its aggregation."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalgebra.data.cells import COUNT_LIMIT, DENSE_LIMIT, UNLABELLED, CellTable, aggregate, checked_counts
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError

rows = st.lists(
    st.tuples(st.integers(0, 2), st.integers(UNLABELLED, 2), st.integers(0, 7), st.integers(0, 5)),
    min_size=1,
    max_size=30,
)


def _tally(table):
    totals = {}
    for pop, truth, code, count in table:
        totals[(pop, truth, code)] = totals.get((pop, truth, code), 0) + count
    return {key: value for key, value in sorted(totals.items()) if value}


@given(rows, st.sampled_from([8, DENSE_LIMIT + 1, 2**40]))
def test_aggregate_sums_equal_cells_sorted_without_zeros(table, n_codes):
    pop, truth, code, count = (np.array(column) for column in zip(*table))
    summed = aggregate(pop, truth, code, count, n_codes)
    got = {(p, t, c): n for p, t, c, n in zip(*(column.tolist() for column in summed))}
    assert got == _tally(table)
    assert list(got) == sorted(got)


@given(rows)
def test_aggregate_without_counts_counts_rows(table):
    pop, truth, code, _ = (np.array(column) for column in zip(*table))
    summed = aggregate(pop, truth, code, None, 8)
    assert sum(summed[3].tolist()) == len(table)


def test_checked_counts_rejects_negative_and_huge_counts():
    assert checked_counts([1, 2]).dtype == np.int64
    with pytest.raises(SketchError, match="non-negative"):
        checked_counts([1, -1])
    with pytest.raises(SketchError, match="non-negative"):
        checked_counts(np.array([1, -1], dtype=object))
    with pytest.raises(SketchError, match=r"counts must total below 2\^62"):
        checked_counts([COUNT_LIMIT // 2, COUNT_LIMIT // 2])


def test_cell_table_is_the_sketch_constructor_order():
    table = CellTable(("x", "y"), ("a", "b"), [0, 0], [UNLABELLED, UNLABELLED], [1, 3], [2, 5])
    assert Sketch(*table) == Sketch.from_counts({"ab": 2, "bb": 5}, labels=["a", "b"], classifiers=["x", "y"])
