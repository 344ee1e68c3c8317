r"""Counting a Dask DataFrame by map-reduce: partial counts per partition, merged in a tree.

Every partition is counted where it lives into a
:class:`~evalgebra.data.partial.PartialCounts` (responses known by name, so partitions that
order their categories differently agree), then the parts merge ``split_every`` at a time.
What travels between workers is the parts' non-empty cells (at most ``K^N`` per population
and label), never the items, so the work is linear in the items and divides among the
workers; only the final merge, of a size independent of the test, is serial.
:meth:`Sketch.from_dask <evalgebra.data.sketch_sources.SketchSources.from_dask>` is the sketch of
:func:`dask_table`; :func:`~evalgebra.distributed.sketching.sketch_parquet_dask` reads parquet
files on the workers with the same tree. Dask is imported only when a function runs
(``pip install evalgebra[dask]``).

Examples
--------
>>> import pandas as pd, dask.dataframe as dd
>>> frame = pd.DataFrame({"m1": ["a", "b", "a", "b"], "m2": ["b", "b", "a", "a"], "y": ["a", "b", "a", "b"]})
>>> table = dask_table(dd.from_pandas(frame, npartitions=2), truth="y", scheduler="sync")
>>> table.classifiers, sorted(table.code.tolist())
(('m1', 'm2'), [0, 1, 2, 3])
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from typing import Any

from evalgebra.data.cells import CellTable
from evalgebra.data.columnar import choose_columns, partial_from_frame
from evalgebra.data.partial import PartialCounts
from evalgebra.errors import SketchError

__all__ = ["dask_table", "merge_partials", "tree_merge", "compute_partial"]


def merge_partials(*parts: PartialCounts) -> PartialCounts:
    """One partial count of several (a reduction step).

    Examples
    --------
    >>> import numpy as np
    >>> one, two = PartialCounts(["x"]), PartialCounts(["x"])
    >>> one.add([(np.array([0]), ["a"])]); two.add([(np.array([0, 0]), ["b"])])
    >>> merge_partials(one, two).rows
    3
    """
    return reduce(lambda a, b: a.merge(b), parts)


def tree_merge(parts: list[Any], split_every: int = 8) -> Any:
    """Delayed partial counts merged ``split_every`` at a time, as a tree of Dask tasks.

    Examples
    --------
    >>> import numpy as np
    >>> from dask import delayed
    >>> part = PartialCounts(["x"])
    >>> part.add([(np.array([0, 1]), ["a", "b"])])
    >>> tree_merge([delayed(part)] * 5, split_every=2).compute(scheduler="sync").rows
    10
    """
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


def compute_partial(task: Any, client: Any = None, scheduler: str | None = None) -> PartialCounts:
    """Run a delayed partial count on ``client`` (a ``dask.distributed.Client``), else on the named
    local ``scheduler``, else on Dask's active one.

    Examples
    --------
    >>> from dask import delayed
    >>> compute_partial(delayed(PartialCounts)(["x"]), scheduler="sync").rows
    0
    """
    if client is not None:
        return client.compute(task).result()
    return task.compute(scheduler=scheduler) if scheduler is not None else task.compute()


def dask_table(
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
) -> CellTable:
    r"""The cell table of a ``dask.dataframe.DataFrame``: partitions counted in parallel, merged in a tree.

    Parameters
    ----------
    ddf : dask.dataframe.DataFrame
        One column per classifier (plus, optionally, truth, population and ignored columns).
    classifiers, ignore, labels, truth, population, populations, abstain, missing
        As for :func:`~evalgebra.data.columnar.frame_table`.
    split_every : int
        Parts merged per reduction task.
    client : dask.distributed.Client, optional
        Where to run (default: Dask's active scheduler, e.g. the last Client made).
    scheduler : str, optional
        A local Dask scheduler by name (``"sync"``, ``"threads"``, ``"processes"``) when no
        client is given.

    Returns
    -------
    CellTable
        Its sketch equals the one of :func:`~evalgebra.data.columnar.frame_table` on the computed
        frame.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd
    >>> frame = pd.DataFrame({"id": [1, 2, 3], "m1": ["a", "b", "b"], "m2": ["a", "a", "b"]})
    >>> int(dask_table(dd.from_pandas(frame, npartitions=3), ignore=["id"], scheduler="sync").count.sum())
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
    return compute_partial(tree_merge(parts, split_every), client, scheduler).table()
