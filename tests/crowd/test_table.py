"""Coding long crowd answers: positions, names, the input's own values, and refusals."""

import numpy as np
import pandas as pd
import pytest

from evalgebra.crowd.table import crowd_table
from evalgebra.errors import SketchError

ROWS = [("t2", "w1", "b"), ("t1", "w2", "a"), ("t1", "w1", "b"), ("t3", "w3", "c")]


def test_crowd_table_codes_rows_frames_and_mappings_alike():
    from_rows = crowd_table(ROWS)
    frame = pd.DataFrame(ROWS, columns=["task", "worker", "label"])
    from_frame = crowd_table(frame)
    from_mapping = crowd_table({c: frame[c].tolist() for c in frame.columns})
    for table in (from_frame, from_mapping):
        assert table == from_rows
    assert from_rows.tasks == ("t1", "t2", "t3") and from_rows.workers == ("w1", "w2", "w3")
    assert from_rows.task.tolist() == [1, 0, 0, 2] and from_rows.answer.tolist() == [1, 0, 1, 2]
    assert from_rows.votes().tolist() == [[1, 1, 0], [0, 1, 0], [0, 0, 1]]
    assert from_rows.coverage().tolist() == [2, 1, 1]


def test_crowd_table_keeps_the_inputs_own_values():
    frame = pd.DataFrame({"task": [10, 2, 2], "worker": ["x", "y", "x"], "label": [1, 0, 1]})
    table = crowd_table(frame)
    assert table.tasks == ("10", "2") and table.original("task", table.tasks) == [10, 2]
    assert table.original("label", table.labels) == [0, 1] and table.original("worker", table.workers) == [
        "x",
        "y",
    ]


def test_crowd_table_given_labels_fix_the_order_and_keep_unused_ones():
    table = crowd_table(ROWS, labels=["c", "b", "a", "d"])
    assert table.labels == ("c", "b", "a", "d") and table.answer.tolist() == [1, 2, 1, 0]
    with pytest.raises(SketchError, match="not among the given"):
        crowd_table(ROWS, labels=["a", "b"])


@pytest.mark.parametrize(
    "bad, match",
    [
        ([("t1", "w1", None), ("t1", "w2", "a")], "missing label"),
        (pd.DataFrame({"task": ["t1", None], "worker": ["w1", "w1"], "label": ["a", "b"]}), "missing task"),
        (pd.DataFrame({"task": ["t1", "t2"], "worker": ["w1", ""], "label": ["a", "b"]}), "missing worker"),
        ([("t1", "w1", "a"), ("t1", "w1", "a"), ("t2", "w1", "b")], "answered task 't1' 2 times"),
        ([("t1", "w1", "a"), ("t2", "w1", "a")], "at least two labels"),
        ([], "empty"),
        ([("t1", "w1")], "three entries"),
        (42, "need a DataFrame"),
    ],
)
def test_crowd_table_refuses_bad_rows_saying_what_is_accepted(bad, match):
    with pytest.raises(SketchError, match=match):
        crowd_table(bad)


def test_crowd_table_codes_match_numpy_unique_on_a_large_frame():
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(
        {
            "task": [f"t{k:04d}" for k in rng.permutation(2000)],
            "worker": [f"w{k % 7}" for k in range(2000)],
            "label": rng.choice(["x", "y", "z"], 2000),
        }
    )
    table = crowd_table(frame)
    names, codes = np.unique(frame["task"].to_numpy(dtype=str), return_inverse=True)
    assert table.tasks == tuple(names.tolist()) and table.task.tolist() == codes.tolist()
