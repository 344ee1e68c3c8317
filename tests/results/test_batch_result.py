"""One batch-result type for every vectorised method: named arrays, one row per count vector."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from evalgebra.crowd.sparse import sparse_evaluation
from evalgebra.datasets.crowd import sparse_crowd
from evalgebra.evaluators.independent.batch import evaluate_batch
from evalgebra.evaluators.many_labels.trios import evaluate_batch_many_labels
from evalgebra.results import BatchResult

COUNTS = [84, 36, 51, 39, 68, 52, 77, 73]


def test_batch_result_of_evaluate_batch_reads_as_before_and_flags_decoded_rows():
    out = evaluate_batch([COUNTS, [1] * 8])
    assert isinstance(out, BatchResult) and out.method == "evaluate_batch"
    assert out["prevalence"].tolist()[0] == [0.25, 0.75] and out["chosen"].tolist() == [0, -1]
    assert out.n_rows == 2 and out.decoded.tolist() == [True, False]
    assert set(out) == {
        "prevalence",
        "accuracy",
        "radicand",
        "complex",
        "blind_spot",
        "empty_variety",
        "outside_unit_cube",
        "chosen",
    }
    assert dict(out).keys() == out.keys() and len(out) == 8


def test_batch_result_of_evaluate_batch_many_has_ok_as_decoded():
    rows = np.array([[10] * 27, [0] * 27], dtype=float)
    with np.errstate(all="ignore"):
        out = evaluate_batch_many_labels(rows, 3)
    assert out.method == "evaluate_batch_many_labels"
    assert out.decoded.tolist() == out["ok"].tolist()
    assert out["prevalence"].shape == (2, 3) and out["response"].shape == (2, 3, 3, 3)


def test_batch_result_of_the_crowd_views_keeps_the_tasks_column():
    result = sparse_evaluation(sparse_crowd(seed=0, n_tasks=600, n_workers=12).answers(), seed=0)
    views = result.views
    assert isinstance(views, BatchResult)
    assert views.decoded.tolist() == views["ok"].tolist()
    assert views["tasks"].shape == views["ok"].shape == (views.n_rows,)
    assert len(result.splits) == views.n_rows


def test_batch_result_row_and_shows_itself():
    out = evaluate_batch([COUNTS])
    row = out.row(0)
    assert row["chosen"] == 0 and row["prevalence"].tolist() == [0.25, 0.75]
    assert repr(out).startswith("BatchResult(evaluate_batch; 1 rows, 1 decoded; arrays prevalence (1, 2), ")
    assert "... 4 more" in repr(out)
    assert out.summary().splitlines()[0] == "evaluate_batch on 1 count vectors: 1 with a decoded point"
    html = out._repr_html_()
    assert "evaluate_batch" in html and "<table" in html and "outside_unit_cube" in html


def test_batch_result_refuses_arrays_of_different_rows_and_is_frozen():
    with pytest.raises(ValueError, match="same rows"):
        BatchResult("x", {"a": np.zeros(2), "b": np.zeros(3)}, decoded=np.ones(2, dtype=bool))
    with pytest.raises(ValueError, match="one flag per row"):
        BatchResult("x", {"a": np.zeros(2)}, decoded=np.ones(3, dtype=bool))
    out = BatchResult("x", {"a": np.zeros(2)}, decoded=np.ones(2, dtype=bool))
    with pytest.raises(dataclasses.FrozenInstanceError):
        out.method = "y"  # type: ignore[misc]
    with pytest.raises(TypeError):
        out["a"] = np.ones(2)  # type: ignore[index]
    with pytest.raises(KeyError, match="has the arrays a"):
        out["b"]
