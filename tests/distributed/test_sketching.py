"""Sketches of Dask DataFrames and parquet files on a real LocalCluster equal the single-process ones."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from evalgebra.data.dask_frames import tree_merge
from evalgebra.data.sketch import Sketch
from evalgebra.distributed.sketching import sketch_parquet_dask
from evalgebra.errors import SketchError

dd = pytest.importorskip("dask.dataframe")


def _frame(seed: int, rows: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    labels = ["neg", "pos", "unsure"]
    frame = pd.DataFrame({f"m{j}": rng.choice(labels, size=rows, p=[0.45, 0.45, 0.1]) for j in range(5)})
    frame["truth"] = rng.choice(labels[:2], size=rows)
    frame["site"] = rng.choice(["east", "west"], size=rows)
    frame["id"] = np.arange(rows)
    return frame


def test_sketch_from_dask_on_local_cluster_equals_single_process(client) -> None:
    frame = _frame(0, 5000)
    options = dict(ignore=["id"], truth="truth", population="site", abstain=["unsure"])
    expected = Sketch.from_decisions(
        frame[[f"m{j}" for j in range(5)]],
        truth=frame["truth"].to_numpy(),
        population=frame["site"].to_numpy(),
        abstain=["unsure"],
    )
    assert Sketch.from_frame(frame, **options) == expected
    for npartitions, split_every in ((1, 8), (7, 2), (13, 8)):
        ddf = dd.from_pandas(frame, npartitions=npartitions)
        assert Sketch.from_dask(ddf, split_every=split_every, client=client, **options) == expected


def test_sketch_from_dask_partitions_with_categories_in_other_orders(client) -> None:
    frame = _frame(1, 900)
    parts = []
    for k, rows in enumerate(np.array_split(np.arange(len(frame)), 3)):
        piece = frame.iloc[rows].copy()
        order = [["neg", "pos", "unsure"], ["unsure", "pos", "neg"], ["pos", "unsure", "neg", "never"]][k]
        for name in ("m0", "m1", "m2", "m3", "m4", "truth"):
            piece[name] = pd.Categorical(piece[name], categories=order)
        parts.append(dd.from_pandas(piece, npartitions=1))
    ddf = dd.concat(parts)
    got = Sketch.from_dask(ddf, ignore=["id", "site"], truth="truth", abstain="unsure", client=client)
    assert got == Sketch.from_frame(frame, ignore=["id", "site"], truth="truth", abstain="unsure")


def test_sketch_parquet_dask_on_local_cluster_equals_single_process(client, tmp_path: Path) -> None:
    for k in range(4):
        _frame(10 + k, 700 + k).to_parquet(tmp_path / f"part{k}.parquet")
    options = dict(ignore=["id", "site"], truth="truth", abstain=["unsure"], chunk_rows=256)
    expected = Sketch.from_parquet(tmp_path, **options)
    assert expected.Q == 700 * 4 + 6
    assert sketch_parquet_dask(tmp_path, client=client, split_every=2, **options) == expected


def test_sketch_from_dask_errors_come_back_as_sketch_errors(client) -> None:
    frame = _frame(2, 100)
    with pytest.raises(SketchError, match="looks like an item ID"):
        Sketch.from_dask(
            dd.from_pandas(frame.astype({"id": str}), npartitions=2), truth="truth", client=client
        )
    with pytest.raises(SketchError, match=r"no column\(s\)"):
        Sketch.from_dask(dd.from_pandas(frame, npartitions=2), truth="nope", client=client)
    with pytest.raises(SketchError, match="split_every"):
        tree_merge([1, 2], split_every=1)


def test_sketch_parquet_dask_reads_a_rewritten_file_again(client, tmp_path: Path) -> None:
    path = tmp_path / "part.parquet"
    _frame(20, 300).to_parquet(path)
    options = dict(ignore=["id", "site"], truth="truth", abstain=["unsure"])
    first = sketch_parquet_dask(path, client=client, **options)
    _frame(21, 200).to_parquet(path)
    second = sketch_parquet_dask(path, client=client, **options)
    assert (first.Q, second.Q) == (300, 200)
    assert second == Sketch.from_parquet(path, **options)
