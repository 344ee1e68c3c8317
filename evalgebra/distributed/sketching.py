r"""Sketching parquet files on a Dask cluster: one task per file, read where it lives, merged in a tree.

Every file is read by a worker in chunks into a :class:`~evalgebra.data.partial.PartialCounts`
(responses known by name), and the parts merge ``split_every`` at a time
(:func:`~evalgebra.data.dask_frames.tree_merge`). A Dask DataFrame already in memory is
sketched by :meth:`Sketch.from_dask <evalgebra.data.sketch_sources.SketchSources.from_dask>`.

``sketch_from_dask``, the old name of :meth:`Sketch.from_dask
<evalgebra.data.sketch_sources.SketchSources.from_dask>`, still works for one release and warns.

Examples
--------
>>> import pandas as pd, tempfile, os
>>> folder = tempfile.mkdtemp()
>>> pd.DataFrame({"m1": ["a", "b"], "m2": ["b", "b"]}).to_parquet(os.path.join(folder, "0.parquet"))
>>> sketch_parquet_dask(folder, scheduler="sync").Q
2
"""

from __future__ import annotations

from typing import Any

from evalgebra.data.columnar import parquet_paths, partial_from_parquet
from evalgebra.data.dask_frames import compute_partial, tree_merge
from evalgebra.data.sketch import Sketch
from evalgebra.deprecation import deprecated_alias

__all__ = ["sketch_parquet_dask"]


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
    :meth:`Sketch.from_parquet <evalgebra.data.sketch_sources.SketchSources.from_parquet>` (``chunk_rows``,
    ``truth``, ...).

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
    return Sketch(*compute_partial(tree_merge(parts, split_every), client, scheduler).table())


#: Deprecated: ``Sketch.from_dask(ddf, ...)`` is the one constructor style.
sketch_from_dask = deprecated_alias(Sketch.from_dask, "sketch_from_dask", "Sketch.from_dask(ddf, ...)")
