"""The partition computed when first read: keys at once, rows once, the same mapping as a dict."""

from __future__ import annotations

import pickle

import pytest

from evalgebra.results.partition import LazyPartition


def _counted(rows):
    calls = []

    def compute():
        calls.append(1)
        return rows

    return calls, compute


def test_lazy_partition_reads_keys_without_computing_and_computes_once():
    rows = {"a": [(("a", "b"), 2)], "b": [(("a", "b"), 3)]}
    calls, compute = _counted(rows)
    partition = LazyPartition(("a", "b"), compute)
    assert list(partition) == ["a", "b"] and len(partition) == 2 and "b" in partition and "c" not in partition
    assert bool(partition) and not calls and not partition.computed
    assert partition["a"] == rows["a"] and partition == rows and dict(partition.items()) == rows
    assert calls == [1] and partition.computed
    with pytest.raises(KeyError):
        partition["c"]


def test_lazy_partition_keeps_the_label_order_and_refuses_other_labels():
    calls, compute = _counted({"b": [], "a": []})
    assert list(LazyPartition(("a", "b"), compute).items()) == [("a", []), ("b", [])]
    wrong = LazyPartition(("a", "b"), lambda: {"a": []})
    with pytest.raises(ValueError, match="came back with labels"):
        wrong["a"]


def test_lazy_partition_pickles_as_its_rows():
    partition = LazyPartition(("x",), lambda: {"x": [(("x",), 1)]})
    assert pickle.loads(pickle.dumps(partition)) == {"x": [(("x",), 1)]}
