r"""Sketching a Dask DataFrame (or parquet files) by map-reduce: partial sketches merged in a tree.

Every partition is counted where it lives into a
:class:`~evalgebra.data.chunked.PartialSketch` (responses known by name, so partitions that
order their categories differently agree), then the parts merge ``split_every`` at a time.
What travels between workers is the parts' non-empty cells (at most ``K^N`` per
population and label), never the items, so the work is linear in the items and divides
among the workers; only the final merge, of a size independent of the test, is serial.

Examples
--------
>>> import pandas as pd, dask.dataframe as dd
>>> frame = pd.DataFrame({"m1": ["a", "b", "a", "b"], "m2": ["b", "b", "a", "a"], "y": ["a", "b", "a", "b"]})
>>> sk = sketch_from_dask(dd.from_pandas(frame, npartitions=2), truth="y", scheduler="sync")
>>> sk.by_true_label()
{'a': {('a', 'a'): 1, ('a', 'b'): 1}, 'b': {('b', 'a'): 1, ('b', 'b'): 1}}
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from typing import Any

from evalgebra.data.chunked import PartialSketch
from evalgebra.data.columnar import choose_columns, parquet_paths, partial_from_frame, partial_from_parquet
from evalgebra.data.sketch import Sketch
from evalgebra.errors import SketchError

__all__ = ["sketch_from_dask", "sketch_parquet_dask", "merge_partials", "tree_merge"]


def merge_partials(*parts: PartialSketch) -> PartialSketch:
    """One partial sketch of several (a reduction step)."""
    return reduce(lambda a, b: a.merge(b), parts)


def tree_merge(parts: list[Any], split_every: int = 8) -> Any:
    """Delayed partial sketches merged ``split_every`` at a time, as a tree of Dask tasks."""
    from dask import delayed

    if isinstance(split_every, bool) or not isinstance(split_every, int) or split_every < 2:
        raise SketchError(f"split_every must be an integer >= 2, got {split_every!r}")
    if not parts:
        raise SketchError("empty test: no partitions")
    merge = delayed(merge_partials, pure=True)
    while len(parts) > 1:
        parts = [
            merge(*parts[k : k + split_every]) if len(parts[k : k + split_every]) > 1 else parts[k]
            for k in range(0, len(parts), split_every)
        ]
    return parts[0]


def _compute(task: Any, client: Any, scheduler: str | None) -> PartialSketch:
    if client is not None:
        return client.compute(task).result()
    return task.compute(scheduler=scheduler) if scheduler is not None else task.compute()


def sketch_from_dask(
    ddf: Any,
    *,
    classifiers: Sequence[str] | None = None,
    ignore: Sequence[str] | None = None,
    labels: Sequence[str] | None = None,
    truth: str | None = None,
    population: str | None = None,
    populations: Sequence[str] | None = None,
    abstain: Any = None,
    missing: str = "error",
    split_every: int = 8,
    client: Any = None,
    scheduler: str | None = None,
) -> Sketch:
    r"""The sketch of a ``dask.dataframe.DataFrame``: partitions counted in parallel, merged in a tree.

    Parameters
    ----------
    ddf : dask.dataframe.DataFrame
        One column per classifier (plus, optionally, truth, population and ignored columns).
    classifiers, ignore, labels, truth, population, populations, abstain, missing
        As for :func:`~evalgebra.data.columnar.sketch_from_frame`.
    split_every : int
        Parts merged per reduction task.
    client : dask.distributed.Client, optional
        Where to run (default: Dask's active scheduler, e.g. the last Client made).
    scheduler : str, optional
        A local Dask scheduler by name (``"sync"``, ``"threads"``, ``"processes"``) when no
        client is given.

    Returns
    -------
    Sketch
        Equal to :func:`~evalgebra.data.columnar.sketch_from_frame` of the computed frame.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd
    >>> frame = pd.DataFrame({"id": [1, 2, 3], "m1": ["a", "b", "b"], "m2": ["a", "a", "b"]})
    >>> sketch_from_dask(dd.from_pandas(frame, npartitions=3), ignore=["id"], scheduler="sync").Q
    3
    """
    from dask import delayed

    chosen = choose_columns(list(ddf.columns), classifiers, ignore, [truth, population])
    options = dict(
        classifiers=chosen,
        labels=labels,
        truth=truth,
        population=population,
        populations=populations,
        abstain=abstain,
        missing=missing,
    )
    count = delayed(partial_from_frame, pure=True)
    parts = [count(partition, **options) for partition in ddf.to_delayed()]
    return _compute(tree_merge(parts, split_every), client, scheduler).finish()


def sketch_parquet_dask(
    paths: Any,
    *,
    split_every: int = 8,
    client: Any = None,
    scheduler: str | None = None,
    **options: Any,
) -> Sketch:
    r"""The sketch of parquet files, one Dask task per file reading it in chunks, merged in a tree.

    The workers read the files themselves (they must see the same paths); each holds one
    chunk at a time. ``options`` are those of
    :func:`~evalgebra.data.columnar.sketch_from_parquet` (``chunk_rows``, ``truth``, ...).

    Examples
    --------
    >>> import pandas as pd, tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> for k in range(3):
    ...     pd.DataFrame({"m1": ["a", "b"], "m2": ["b", "b"]}).to_parquet(
    ...         os.path.join(folder, f"{k}.parquet")
    ...     )
    >>> sketch_parquet_dask(folder, scheduler="sync").counts()
    {('a', 'b'): 3, ('b', 'b'): 3}
    """
    from dask import delayed

    options.pop("progress", None)  # no progress bars inside the workers
    count = delayed(
        partial_from_parquet, pure=False
    )  # a path names no contents: files may change between runs
    parts = [count(str(path), **options) for path in parquet_paths(paths)]
    return _compute(tree_merge(parts, split_every), client, scheduler).finish()
